package daemon

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/lmittmann/tint"
)

// parseLevel reads a log level name.
func parseLevel(s string) (slog.Level, error) {
	switch strings.ToLower(s) {
	case "debug":
		return slog.LevelDebug, nil
	case "info", "":
		return slog.LevelInfo, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("unknown log level %q", s)
}

// NewLogger returns the daemon's logger writing to w: tint's coloured text
// when format is "text", or "auto" on a terminal; JSON otherwise, which is
// what journald stores best. The level can be changed later through level.
func NewLogger(w io.Writer, format string, terminal bool, level *slog.LevelVar) *slog.Logger {
	if format == "text" || format == "auto" && terminal {
		return slog.New(tint.NewHandler(w, &tint.Options{Level: level, TimeFormat: time.TimeOnly, NoColor: !terminal}))
	}
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level}))
}
