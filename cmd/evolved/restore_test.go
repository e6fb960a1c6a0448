package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRestoredBackupResumesBitIdentical follows deploy/INSTALL.md's
// "Restore from a backup": a run writes backups while it evolves (with its
// genomes kept as their lineage), stops, its oldest backup replaces the
// database (the write-ahead log moved away with it), and the daemon plays
// the generations after the backup again. The result must be the database
// of a run that was never interrupted.
func TestRestoredBackupResumesBitIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("long: three daemon runs (skipped with -short)")
	}
	dir, config := setup(t)
	// A backup a second, the last 10 kept: the oldest is about ten seconds
	// behind the run, several generations even on a loaded machine (with
	// 3 kept, a run slowed by the distillation and a busy machine played
	// fewer than the 5 generations the wait needs in their 3 seconds).
	backed := strings.Replace(fastConfig, "[jobs]\nbackup = \"\"", "[jobs]\nbackup = \"@every 1s\"\nbackup_keep = 10", 1)
	if err := os.WriteFile(config, []byte(backed), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "evolved.db")
	backupGens := func(path string) int { return generations(t, path) }
	out, stop := evolvedIn(t, dir, "run", "--config", config).Start()
	// Run until the oldest backup kept is several generations behind.
	ok := waitFor(2*time.Minute, func() bool {
		copies, _ := filepath.Glob(filepath.Join(dir, "backups", "evolved-*.db"))
		if len(copies) < 2 {
			return false
		}
		slices.Sort(copies)
		b := backupGens(copies[0])
		return b > 2 && generations(t, db) > b+5
	})
	if err := stop(); err != nil {
		t.Fatalf("stop: %v\n%s", err, out.String())
	}
	if !ok {
		t.Fatalf("no backup several generations behind the run in 2 minutes:\n%s", out.String())
	}
	played := generations(t, db)
	copies, _ := filepath.Glob(filepath.Join(dir, "backups", "evolved-*.db"))
	slices.Sort(copies)
	restored := backupGens(copies[0])

	// The restore: the copy replaces the database, the -wal and -shm go.
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(db + suffix); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(copies[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, b, 0o600); err != nil {
		t.Fatal(err)
	}
	noBackups := strings.Replace(backed, "backup = \"@every 1s\"", "backup = \"\"", 1)
	if err := os.WriteFile(config, []byte(noBackups), 0o644); err != nil {
		t.Fatal(err)
	}
	target := strconv.Itoa(played)
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", target).CombinedOutput(); err != nil {
		t.Fatalf("resume from the backup of generation %d: %v\n%s", restored, err, out)
	}

	refDir, refConfig := setup(t)
	if out, err := evolvedIn(t, refDir, "run", "--config", refConfig, "--generations", target).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	if got, want := fingerprint(t, db), fingerprint(t, filepath.Join(refDir, "evolved.db")); got != want {
		t.Errorf("restored from generation %d and played to %d: the database differs from an uninterrupted run's", restored, played)
	}
	t.Logf("restored a backup of %d generations, played on to %d: identical", restored, played)
}
