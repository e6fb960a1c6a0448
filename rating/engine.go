package rating

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"evolved/uci"
)

// FindEngine returns the path of the ladder's engine: override when given,
// else the engine's name looked up in $PATH and then in /usr/games (where
// Debian installs stockfish and fairy-stockfish). A ladder without an
// engine needs none and gets "".
func (l *Ladder) FindEngine(override string) (string, error) {
	if l.Engine == "" {
		return "", nil
	}
	name := l.Engine
	if override != "" {
		name = override
	}
	if path, err := exec.LookPath(name); err == nil {
		return path, nil
	}
	if filepath.Base(name) == name {
		games := filepath.Join("/usr/games", name)
		if info, err := os.Stat(games); err == nil && !info.IsDir() {
			return games, nil
		}
	}
	return "", fmt.Errorf("rating: the %s ladder needs the engine %s, which is neither on $PATH nor in /usr/games "+
		"(install it, e.g. apt-get install %s, or give its path with --engine)", l.Game, name, l.Engine)
}

// CheckEngine starts the engine at path once with the options every anchor
// of the ladder sets, so that an engine that does not start, or lacks
// UCI_LimitStrength or UCI_Elo, is reported before any game is played.
func (l *Ladder) CheckEngine(ctx context.Context, path string) error {
	if l.Engine == "" {
		return nil
	}
	opts := map[string]string{"UCI_LimitStrength": "true"}
	maps.Copy(opts, l.EngineOptions)
	for _, a := range l.Anchors {
		if a.EngineElo > 0 {
			opts["UCI_Elo"] = strconv.Itoa(a.EngineElo)
			break
		}
	}
	if l.Game == "xiangqi" {
		opts["UCI_Variant"] = "xiangqi"
	}
	e, err := uci.Start(ctx, path, opts)
	if err != nil {
		return fmt.Errorf("rating: engine %s: %w", path, err)
	}
	e.Close() // a probe: how the engine exits says nothing about it
	return nil
}
