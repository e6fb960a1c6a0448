package daemon

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"evolved/storage"
)

// newTestDaemon opens a daemon on a fresh database in a temporary directory.
func newTestDaemon(t *testing.T) *Daemon {
	t.Helper()
	cfg := DefaultConfig()
	cfg.DB = filepath.Join(t.TempDir(), "evolved.db")
	d, err := New(context.Background(), cfg, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Notifier: nopNotifier{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

type nopNotifier struct{}

func (nopNotifier) Notify(string)                   {}
func (nopNotifier) WatchdogInterval() time.Duration { return 0 }

func TestBackupKeepsTheNewestCopies(t *testing.T) {
	d := newTestDaemon(t)
	dir := filepath.Join(filepath.Dir(d.db.Path()), "backups")
	for i := range 4 {
		if _, err := d.backup(context.Background(), dir, 2); err != nil {
			t.Fatalf("backup %d: %v", i, err)
		}
		time.Sleep(1100 * time.Millisecond) // the names have a one-second resolution
	}
	left, _ := filepath.Glob(filepath.Join(dir, "evolved-*.db"))
	if len(left) != 2 {
		t.Fatalf("%d backups left, want the newest 2: %v", len(left), left)
	}
	// Each copy is a complete evolved database.
	for _, path := range left {
		db, err := storage.Open(context.Background(), path, storage.Options{ReadOnly: true})
		if err != nil {
			t.Errorf("backup %s does not open: %v", path, err)
			continue
		}
		if err := db.CheckIntegrity(context.Background()); err != nil {
			t.Errorf("backup %s: %v", path, err)
		}
		db.Close()
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		t.Errorf("backup directory: %v", err)
	}
}
