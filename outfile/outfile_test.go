package outfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sqliteHeader is the first 100 bytes of an SQLite database, as far as the
// guard reads them.
func sqliteHeader() []byte {
	h := make([]byte, 100)
	copy(h, "SQLite format 3\x00")
	return h
}

// walHeader is the first 32 bytes of a write-ahead log.
func walHeader() []byte {
	h := make([]byte, 32)
	binary.BigEndian.PutUint32(h, 0x377f0682)
	return h
}

// writeFile writes data to path or fails the test.
func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fixture lays out a directory with a protected database r.db (given as
// an empty file, as a daemon's lock creates it before SQLite writes, so
// that only its name protects it), its log, a hard link and a symbolic
// link to it, an SQLite database of someone else's and an ordinary file.
func fixture(t *testing.T) (dir string, g *Guard) {
	t.Helper()
	dir = t.TempDir()
	db := filepath.Join(dir, "r.db")
	writeFile(t, db, nil)
	writeFile(t, db+"-wal", walHeader())
	if err := os.Link(db, filepath.Join(dir, "hard.db")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(db, filepath.Join(dir, "soft.db")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(db+"-wal", filepath.Join(dir, "soft-wal")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "other.db"), sqliteHeader())
	writeFile(t, filepath.Join(dir, "stray-log"), walHeader())
	writeFile(t, filepath.Join(dir, "agent.json"), []byte("old"))
	return dir, NewGuard("", db)
}

func TestGuard_Check(t *testing.T) {
	dir, g := fixture(t)
	cases := []struct {
		name      string
		path      string
		protected bool // ErrProtected
		fails     bool // some other error
	}{
		{name: "the database", path: "r.db", protected: true},
		{name: "the database, another spelling", path: "./sub/../r.db", protected: true},
		{name: "a hard link to it", path: "hard.db", protected: true},
		{name: "a symbolic link to it", path: "soft.db", protected: true},
		{name: "its write-ahead log", path: "r.db-wal", protected: true},
		{name: "a symbolic link to its log", path: "soft-wal", protected: true},
		{name: "its shared memory, not there yet", path: "r.db-shm", protected: true},
		{name: "its journal, not there yet", path: "r.db-journal", protected: true},
		{name: "the log of a hard link's name", path: "hard.db-wal", protected: true},
		{name: "the log of a symbolic link's name", path: "soft.db-shm", protected: true},
		{name: "an unprotected SQLite database", path: "other.db", protected: true},
		{name: "the log of an unprotected database", path: "other.db-wal", protected: true},
		{name: "a write-ahead log by its contents", path: "stray-log", protected: true},
		{name: "an ordinary file", path: "agent.json"},
		{name: "a new file", path: "new.json"},
		{name: "a new file named like a log of nothing", path: "nothing.db-wal"},
		{name: "a directory", path: ".", fails: true},
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := g.Check(filepath.Join(dir, c.path))
			switch {
			case c.protected && !errors.Is(err, ErrProtected):
				t.Errorf("Check(%s) = %v, want ErrProtected", c.path, err)
			case c.fails && (err == nil || errors.Is(err, ErrProtected)):
				t.Errorf("Check(%s) = %v, want another error", c.path, err)
			case !c.protected && !c.fails && err != nil:
				t.Errorf("Check(%s) = %v, want nil", c.path, err)
			}
		})
	}
}

func TestGuard_Check_message(t *testing.T) {
	dir, g := fixture(t)
	err := g.Check(filepath.Join(dir, "r.db-wal"))
	want := "refusing to write over a database: " + filepath.Join(dir, "r.db-wal") + " is the wal file of the database " + filepath.Join(dir, "r.db")
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Check = %v, want it to contain %q", err, want)
	}
}

// TestGuard_WriteRefusesAndLeavesBytes checks that a refused write leaves
// the database's files as they were, through every writer.
func TestGuard_WriteRefusesAndLeavesBytes(t *testing.T) {
	dir, g := fixture(t)
	for _, name := range []string{"hard.db", "soft-wal", "other.db"} {
		path := filepath.Join(dir, name)
		before, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.WriteFile(path, []byte("agent")); !errors.Is(err, ErrProtected) {
			t.Errorf("WriteFile(%s) = %v, want ErrProtected", name, err)
		}
		if f, err := g.Create(path); !errors.Is(err, ErrProtected) {
			t.Errorf("Create(%s) = %v, want ErrProtected", name, err)
			if f != nil {
				f.Close()
			}
		}
		after, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before, after) {
			t.Errorf("%s changed: %q, was %q", name, after, before)
		}
	}
}

func TestGuard_WriteReplacesWhole(t *testing.T) {
	dir, g := fixture(t)
	path := filepath.Join(dir, "agent.json")
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := g.WriteFile(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "new" {
		t.Errorf("after WriteFile: %q, %v; want \"new\"", got, err)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("mode after WriteFile: %v, %v; want the old file's -rw-------", info.Mode(), err)
	}

	// A write that fails half way leaves the old file and no temporary.
	err = g.Write(path, func(w io.Writer) error {
		w.Write([]byte("half"))
		return errors.New("disk on fire")
	})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("Write of a failing producer = %v, want its error", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Errorf("after a failed write: %q, want the old \"new\"", got)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestGuard_WriteFollowsSymlink(t *testing.T) {
	dir, g := fixture(t)
	link := filepath.Join(dir, "latest.json")
	if err := os.Symlink("agent.json", link); err != nil {
		t.Fatal(err)
	}
	if err := g.WriteFile(link, []byte("via link")); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file: %v, %v", info.Mode(), err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "agent.json")); string(got) != "via link" {
		t.Errorf("the link's target holds %q, want \"via link\"", got)
	}
}

func TestGuard_WriteDevice(t *testing.T) {
	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skip("no", os.DevNull)
	}
	if err := NewGuard().WriteFile(os.DevNull, []byte("x")); err != nil {
		t.Errorf("WriteFile(%s) = %v", os.DevNull, err)
	}
	if info, err := os.Stat(os.DevNull); err != nil || info.Mode().IsRegular() {
		t.Errorf("%s is no longer a device: %v, %v", os.DevNull, info.Mode(), err)
	}
}

func TestGuard_CreateTruncatesOrdinaryFile(t *testing.T) {
	dir, g := fixture(t)
	path := filepath.Join(dir, "agent.json")
	f, err := g.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("pgn")
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "pgn" {
		t.Errorf("after Create and a write: %q, want \"pgn\"", got)
	}
}

// TestGuard_PositionStore refuses every path in a position store's
// directory (a manifest beside segments, or beside the writer's lock),
// existing or not, and allows a manifest.json elsewhere.
func TestGuard_PositionStore(t *testing.T) {
	store, other := t.TempDir(), t.TempDir()
	for _, name := range []string{"manifest.json", "seg-00000001.pos"} {
		if err := os.WriteFile(filepath.Join(store, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(other, "manifest.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := NewGuard()
	for _, name := range []string{"manifest.json", "seg-00000001.pos", "champion.json"} {
		if err := g.Check(filepath.Join(store, name)); !errors.Is(err, ErrProtected) {
			t.Errorf("%s: %v, want ErrProtected", name, err)
		}
	}
	if err := g.Check(filepath.Join(other, "manifest.json")); err != nil {
		t.Errorf("a manifest.json outside a store: %v", err)
	}
	if err := g.ForStore(store).Check(filepath.Join(store, "manifest.json")); err != nil {
		t.Errorf("the store's own writer was refused its manifest: %v", err)
	}
	if err := g.ForStore(other).Check(filepath.Join(store, "manifest.json")); !errors.Is(err, ErrProtected) {
		t.Errorf("another store's writer: %v, want ErrProtected", err)
	}
	locked := t.TempDir()
	for _, name := range []string{"manifest.json", "lock"} {
		if err := os.WriteFile(filepath.Join(locked, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Check(filepath.Join(locked, "a.svg")); !errors.Is(err, ErrProtected) {
		t.Errorf("a file in a new store (manifest and lock, no segment yet): %v, want ErrProtected", err)
	}
}
