package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"evolved/longtest"
	"evolved/storage"
)

// committed returns how many draughts generations the database at path
// holds, read as every command reads it (storage, read-only: through the
// name its writer uses); 0 when there is no run yet.
func committed(t *testing.T, path string) int {
	t.Helper()
	db, err := storage.Open(context.Background(), path, storage.Options{ReadOnly: true})
	if err != nil {
		return 0
	}
	defer db.Close()
	n, err := db.Generations(context.Background(), "draughts")
	if err != nil {
		return 0
	}
	return n
}

// startDaemon starts the binary in dir with args, its output in out;
// exited receives the end of the process.
func startDaemon(t *testing.T, dir string, args ...string) (cmd *exec.Cmd, out *lockedBuffer, exited chan error) {
	t.Helper()
	cmd = evolved(dir, args...)
	out = new(lockedBuffer)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited = make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	return cmd, out, exited
}

// waitCommitted waits until the database at path holds more than n
// generations, or fails the test after a minute showing the daemon's
// output.
func waitCommitted(t *testing.T, path string, n int, out fmt.Stringer) int {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if got := committed(t, path); got > n {
			return got
		}
	}
	t.Fatalf("no generation after %d in a minute\n%s", n, out)
	return 0
}

// namesOfOneDatabase sets up a run's directory whose database, still an
// empty file as a daemon's lock first makes it, has the names evolved.db,
// hard.db (a hard link) and the symbolic links given (name: target).
func namesOfOneDatabase(t *testing.T, symlinks map[string]string) (dir, config, db string) {
	t.Helper()
	dir, config = setup(t)
	db = filepath.Join(dir, "evolved.db")
	if err := os.WriteFile(db, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(db, filepath.Join(dir, "hard.db")); err != nil {
		t.Skip("no hard links here:", err)
	}
	for link, target := range symlinks {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	return dir, config, db
}

// TestOutputFlagsNeverWriteOverTheDatabase points every command that
// writes a file at a running daemon's database: by its name, a hard link,
// a symbolic link (named like a picture, where the command wants one), and
// its side files under either name. Each is refused before writing, and
// the daemon goes on evolving without losing a generation.
func TestOutputFlagsNeverWriteOverTheDatabase(t *testing.T) {
	dir, config, db := namesOfOneDatabase(t, map[string]string{"soft.db": "evolved.db", "db.svg": "evolved.db", "db.png": "hard.db"})
	daemon, out, exited := startDaemon(t, dir, "run", "--config", config, "--db", "hard.db")
	defer func() {
		daemon.Process.Signal(syscall.SIGTERM)
		<-exited
	}()
	waitCommitted(t, db, 0, out)

	for _, args := range [][]string{
		{"export", "--db", "hard.db", "-o", "evolved.db"},
		{"export", "-o", "soft.db"},
		{"export", "-o", "hard.db-wal"},
		{"export", "-o", "evolved.db-shm"},
		{"export", "-o", "soft.db-journal"},
		{"match", "--game", "draughts", "--a", "random", "--b", "random", "--games", "2", "--pgn", "hard.db"},
		{"run", "--config", "evolved.toml", "--db", "other.db", "--generations", "1", "--cpuprofile", "soft.db"},
		{"run", "--config", "evolved.toml", "--db", "other.db", "--generations", "1", "--cpuprofile", "other.db-wal"},
		{"plot", "--db", "hard.db", "-o", "db.svg"},
		{"plot", "--compare", "evolved.db", "-o", "db.png"},
		{"climb", "--db", "soft.db", "-o", "db.png"},
		{"chess960", "ga", "--iterations", "1", "--plot", "db.svg"},
		{"distill", "--agent", "none.json", "--games", "none.pdn", "-o", "hard.db"},
		{"ladder", "--game", "draughts", "-o", "evolved.db-wal"},
		{"meta", "--method", "aco", "--opponent", "material:1", "--db", "lab.db", "-o", "soft.db"},
		{"meta", "--show", "1", "--db", "hard.db", "--plot", "db.svg"},
	} {
		got, err := evolvedIn(t, dir, args...).CombinedOutput()
		if code := exitCodeOf(err); code != 1 || !strings.Contains(string(got), "refusing to write over a database") {
			t.Errorf("evolved %s: status %d, %s\nwant status 1, refusing to write over the database", strings.Join(args, " "), code, got)
		}
	}
	for _, name := range []string{"other.db", "lab.db"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("a refused command created %s", name)
		}
	}

	// The daemon never noticed: it commits on, and stops cleanly.
	n := waitCommitted(t, db, committed(t, db), out)
	daemon.Process.Signal(syscall.SIGTERM)
	if err := <-exited; err != nil {
		t.Fatalf("the daemon after the commands: %v\n%s", err, out.String())
	}
	exited <- nil // for the deferred stop
	w, err := storage.Open(context.Background(), db, storage.Options{})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer w.Close()
	if err := w.CheckIntegrity(context.Background()); err != nil {
		t.Error(err)
	}
	if got, err := w.Generations(context.Background(), "draughts"); err != nil || got < n {
		t.Errorf("after the stop: %d generations, %v; want at least the %d seen", got, err, n)
	}
}

// TestKilledDaemonThroughALinkLosesNothing kills a daemon with SIGKILL,
// at a random moment, twenty times, each time restarting it through the
// other name of its database (a hard link one time, the first name the
// next, a symbolic link now and then): every generation committed before
// a kill is there after it, and the run goes on to its end.
func TestKilledDaemonThroughALinkLosesNothing(t *testing.T) {
	longtest.Skip(t, "a soak test, twenty SIGKILLs")
	dir, config, db := namesOfOneDatabase(t, map[string]string{"soft.db": "hard.db"})
	names := []string{"hard.db", "evolved.db", "hard.db", "soft.db"}
	rng := rand.New(rand.NewPCG(2026, 60))
	seen := 0 // generations seen committed before the last kill
	const trials = 20
	for trial := range trials {
		name := names[trial%len(names)]
		if got := committed(t, filepath.Join(dir, name)); got < seen {
			t.Fatalf("trial %d: through %s %d generations, but %d were committed before the kill", trial, name, got, seen)
		}
		cmd, out, exited := startDaemon(t, dir, "run", "--config", config, "--db", name)
		seen = waitCommitted(t, db, seen, out)
		time.Sleep(time.Duration(rng.Int64N(int64(300 * time.Millisecond))))
		if got := committed(t, db); got > seen {
			seen = got
		}
		cmd.Process.Signal(syscall.SIGKILL)
		err := <-exited
		var exit *exec.ExitError
		if !errors.As(err, &exit) || !exit.Sys().(syscall.WaitStatus).Signaled() {
			t.Fatalf("trial %d: the daemon ended before the kill: %v\n%s", trial, err, out.String())
		}
	}
	for _, name := range []string{"evolved.db", "hard.db", "soft.db"} {
		if got := committed(t, filepath.Join(dir, name)); got < seen {
			t.Errorf("after %d kills, through %s: %d generations, want at least %d", trials, name, got, seen)
		}
	}
	w, err := storage.Open(context.Background(), db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.CheckIntegrity(context.Background()); err != nil {
		t.Error(err)
	}
	t.Logf("%d kills through alternating names, %d generations, none lost", trials, seen)
}
