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
	// A backup a second, the last 10 kept: the first backup of more than
	// two generations stays kept while the run plays five more, even on a
	// loaded machine (with 3 kept and the oldest waited for, a run slowed
	// by the distillation and a busy machine played fewer than the 5
	// generations the wait needs in their 3 seconds).
	backed := strings.Replace(fastConfig, "[jobs]\nbackup = \"\"", "[jobs]\nbackup = \"@every 1s\"\nbackup_keep = 10", 1)
	if err := os.WriteFile(config, []byte(backed), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "evolved.db")
	// behind returns the oldest backup kept of more than two generations
	// that is more than five generations behind the run, and its
	// generations; "" if there is none yet.
	behind := func() (string, int) {
		copies, _ := filepath.Glob(filepath.Join(dir, "backups", "evolved-*.db"))
		slices.Sort(copies)
		played := generations(t, db)
		for _, c := range copies {
			if b := generations(t, c); b > 2 && played > b+5 {
				return c, b
			}
		}
		return "", 0
	}
	out, stop := evolvedIn(t, dir, "run", "--config", config).Start()
	// Run until a backup kept is several generations behind.
	ok := waitFor(2*time.Minute, func() bool { c, _ := behind(); return c != "" })
	if err := stop(); err != nil {
		t.Fatalf("stop: %v\n%s", err, out.String())
	}
	if !ok {
		t.Fatalf("no backup several generations behind the run in 2 minutes:\n%s", out.String())
	}
	played := generations(t, db)
	backup, restored := behind()
	if backup == "" {
		t.Fatalf("the backup several generations behind the run was removed before the run stopped:\n%s", out.String())
	}

	// The restore: the copy replaces the database, the -wal and -shm go.
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(db + suffix); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(backup)
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
	// On to the generations played, or to the other resume tests' target
	// when that is further, so that the uninterrupted run is theirs.
	n := max(played, resumeGenerations)
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", strconv.Itoa(n)).CombinedOutput(); err != nil {
		t.Fatalf("resume from the backup of generation %d: %v\n%s", restored, err, out)
	}
	if got, want := fingerprint(t, db), localRun(t, n).fingerprint; got != want {
		t.Errorf("restored from generation %d and played to %d: the database differs from an uninterrupted run's", restored, n)
	}
	t.Logf("restored a backup of %d generations (the run had played %d), played on to %d: identical", restored, played, n)
}
