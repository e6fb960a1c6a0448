package daemon

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunStoppedBeforeEvolving runs a daemon whose context is cancelled
// before Run, as a SIGTERM just after New leaves it: Run's catch-up prune
// fails on the context, and that is a clean stop, nil with a log line
// saying so, as a stop during a generation is, not "context canceled".
func TestRunStoppedBeforeEvolving(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DB = filepath.Join(t.TempDir(), "evolved.db")
	logs := new(syncBuffer)
	d, err := New(context.Background(), cfg, Options{Logger: slog.New(slog.NewTextHandler(logs, nil)), Notifier: nopNotifier{}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := d.Run(ctx); err != nil {
		t.Errorf("Run stopped before evolving: %v, want nil\n%s", err, logs.String())
	}
	if got := strings.Count(logs.String(), "stopped"); got != 1 {
		t.Errorf("%d log lines say it stopped, want 1:\n%s", got, logs.String())
	}
}
