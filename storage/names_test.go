package storage_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"evolved/storage"
)

// envDyingWriter names the database TestHelperDyingWriter writes to, in
// the child process TestKilledWriter... start.
const envDyingWriter = "EVOLVED_TEST_DYING_WRITER"

// TestHelperDyingWriter is not a test: run as a child process (envDyingWriter
// set to NAME:N), it starts or resumes a run in the database NAME, commits
// N generations and exits without closing the database, as a daemon killed
// with SIGKILL leaves it: its last generations only in the write-ahead log
// beside NAME.
func TestHelperDyingWriter(t *testing.T) {
	spec := os.Getenv(envDyingWriter)
	if spec == "" {
		t.Skip("a child process of the tests of a killed writer")
	}
	i := strings.LastIndexByte(spec, ':')
	n, _ := strconv.Atoi(spec[i+1:])
	db, err := storage.Open(context.Background(), spec[:i], storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := loadState(context.Background(), db)
	if err != nil {
		st = newRun(t, db, 1)
	}
	commitGenerations(t, db, st, n)
	os.Exit(0)
}

// dieWriting runs TestHelperDyingWriter on the database at path, n
// generations, and checks that it left its log beside logOf.
func dieWriting(t *testing.T, path string, n int, logOf string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperDyingWriter$")
	cmd.Env = append(os.Environ(), envDyingWriter+"="+path+":"+strconv.Itoa(n))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the dying writer: %v\n%s", err, out)
	}
	if info, err := os.Stat(logOf + "-wal"); err != nil || info.Size() == 0 {
		t.Fatalf("the dying writer left no log beside %s: %v", logOf, err)
	}
}

// twoNames makes the file evolved.db with a second name, link.db, a hard
// link, in a fresh directory; empty, as a writer's lock makes a new file.
func twoNames(t *testing.T) (path, link string) {
	t.Helper()
	dir := t.TempDir()
	path, link = filepath.Join(dir, "evolved.db"), filepath.Join(dir, "link.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(path, link); err != nil {
		t.Skip("no hard links here:", err)
	}
	return path, link
}

// generationsIn opens path (as a writer, or a reader) and returns how many
// generations of draughts it holds.
func generationsIn(t *testing.T, path string, opts storage.Options) (int, error) {
	t.Helper()
	db, err := storage.Open(context.Background(), path, opts)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	n, err := db.Generations(context.Background(), "draughts")
	if err != nil {
		t.Fatal(err)
	}
	return n, nil
}

// TestKilledWriterResumesThroughAnotherName kills a writer that wrote
// through one name of a file (a hard link) and opens the file through the
// other: every committed generation is there, for a reader and for the
// next writer alike, and the next writer's log is the killed one's.
func TestKilledWriterResumesThroughAnotherName(t *testing.T) {
	path, link := twoNames(t)
	dir := filepath.Dir(path)
	dieWriting(t, link, 3, link)
	if n, err := generationsIn(t, path, storage.Options{ReadOnly: true}); err != nil || n != 3 {
		t.Errorf("a reader through the other name: %d generations, %v; want the 3 committed", n, err)
	}
	if n, err := generationsIn(t, path, storage.Options{}); err != nil || n != 3 {
		t.Errorf("a writer through the other name: %d generations, %v; want the 3 committed", n, err)
	}
	// The writer closed cleanly: the log is folded into the file.
	for _, name := range []string{path, link} {
		if _, err := os.Stat(name + "-wal"); err == nil {
			t.Errorf("%s-wal is left after a clean close", filepath.Base(name))
		}
	}

	// Killed again, given a symbolic link to the first name: it writes
	// through the recorded name, and is read back through the first.
	soft := filepath.Join(dir, "soft.db")
	if err := os.Symlink(path, soft); err != nil {
		t.Fatal(err)
	}
	dieWriting(t, soft, 2, link)
	if n, err := generationsIn(t, path, storage.Options{}); err != nil || n != 5 {
		t.Errorf("through the first name after writes through a symbolic link: %d generations, %v; want 5", n, err)
	}
}

// TestStaleLogUnderAnotherNameIsRefused: a log beside a name of the file
// other than its last writer's is older than that writer's session
// (another build's, before the name was recorded); replayed, it would undo
// generations. Every open is refused, naming it, and nothing is written.
func TestStaleLogUnderAnotherNameIsRefused(t *testing.T) {
	path, link := twoNames(t)
	dieWriting(t, link, 2, link)
	stale, err := os.ReadFile(link + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := generationsIn(t, link, storage.Options{}); err != nil || n != 2 {
		t.Fatalf("reopened through its own name: %d generations, %v", n, err)
	}
	if err := os.WriteFile(path+"-wal", stale, 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	for _, name := range []string{path, link} {
		for _, opts := range []storage.Options{{}, {ReadOnly: true}} {
			_, err := storage.Open(context.Background(), name, opts)
			if !errors.Is(err, storage.ErrOtherName) || !strings.Contains(err.Error(), path+"-wal is the log of "+path) {
				t.Errorf("open %s (read-only %v) beside a stale log: %v, want ErrOtherName naming it", filepath.Base(name), opts.ReadOnly, err)
			}
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
		t.Error("a refused open changed the database")
	}
}

// TestMovedDatabaseWithoutItsLogIsRefused: a database moved after a kill
// leaves its log behind under the old name; opened where it is now, it is
// refused with what to do, until the log follows it.
func TestMovedDatabaseWithoutItsLogIsRefused(t *testing.T) {
	dir := t.TempDir()
	old, moved := filepath.Join(dir, "old.db"), filepath.Join(dir, "moved.db")
	dieWriting(t, old, 2, old)
	if err := os.Rename(old, moved); err != nil {
		t.Fatal(err)
	}
	_, err := storage.Open(context.Background(), moved, storage.Options{})
	if !errors.Is(err, storage.ErrOtherName) || !strings.Contains(err.Error(), "last written as "+old+", which is gone") {
		t.Fatalf("open the moved database: %v, want ErrOtherName naming %s", err, old)
	}
	if err := os.Rename(old+"-wal", moved+"-wal"); err != nil {
		t.Fatal(err)
	}
	os.Remove(old + "-shm")
	if n, err := generationsIn(t, moved, storage.Options{}); err != nil || n != 2 {
		t.Errorf("with its log moved too: %d generations, %v; want 2", n, err)
	}
}

// TestReaderThroughAnotherNameSeesTheWriter: a reader given another name
// of the file a writer has open (a hard link, a symbolic link) reads the
// writer's log, and makes no file beside the name it was given.
func TestReaderThroughAnotherNameSeesTheWriter(t *testing.T) {
	path, link := twoNames(t)
	soft := filepath.Join(filepath.Dir(path), "soft.db")
	if err := os.Symlink(path, soft); err != nil {
		t.Fatal(err)
	}
	w := mustOpen(t, link)
	st := newRun(t, w, 1)
	for want := 1; want <= 2; want++ {
		st = commitGenerations(t, w, st, 1)
		for _, name := range []string{path, soft} {
			if n, err := generationsIn(t, name, storage.Options{ReadOnly: true}); err != nil || n != want {
				t.Errorf("a reader through %s: %d generations, %v; want %d", filepath.Base(name), n, err, want)
			}
		}
	}
	w.Close()
	// With no writer, the reader makes the log and index a writer would,
	// beside the name the writer uses.
	if n, err := generationsIn(t, soft, storage.Options{ReadOnly: true}); err != nil || n != 2 {
		t.Errorf("a reader through soft.db after the writer: %d generations, %v; want 2", n, err)
	}
	for _, name := range []string{path + "-wal", path + "-shm", soft + "-wal", soft + "-shm"} {
		if _, err := os.Stat(name); err == nil {
			t.Errorf("the reader made %s beside a name the writer does not use", filepath.Base(name))
		}
	}
}

// TestOpenRefusesWhatIsNotARegularFile: a FIFO or a device given as the
// database is refused at once, without being opened (a FIFO's open blocks
// until a writer comes, and no signal ends it).
func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.db")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{fifo, link, os.DevNull, dir} {
		for _, opts := range []storage.Options{{}, {ReadOnly: true}} {
			done := make(chan error, 1)
			go func() {
				db, err := storage.Open(context.Background(), name, opts)
				if err == nil {
					db.Close()
				}
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, storage.ErrNotEvolved) || !strings.Contains(err.Error(), "not a regular file") {
					t.Errorf("open %s (read-only %v): %v, want ErrNotEvolved: not a regular file", name, opts.ReadOnly, err)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("open %s (read-only %v) hangs", name, opts.ReadOnly)
			}
		}
	}
}

// TestCorruptDatabaseIsRefusedUnwritten: a damaged database in SQLite's
// rollback mode (a copy made with another tool, say) is refused before
// the writer's first write, which would switch it to WAL in its header.
// Its last page is damaged, so that its schema still reads and only the
// integrity check finds it.
func TestCorruptDatabaseIsRefusedUnwritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "evolved.db")
	db := mustOpen(t, path)
	commitGenerations(t, db, newRun(t, db, 1), 1)
	db.Close()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("PRAGMA journal_mode = DELETE"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if b[18] != 1 || b[19] != 1 {
		t.Fatalf("the header says versions %d, %d; want 1, 1 (rollback mode)", b[18], b[19])
	}
	for i := len(b) - 4096; i < len(b); i++ {
		b[i] = byte(i * 7)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := storage.Open(context.Background(), path, storage.Options{}); !errors.Is(err, storage.ErrCorrupt) {
		t.Fatalf("corrupt database: %v, want ErrCorrupt", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(after, b) {
		for i := range min(len(after), len(b)) {
			if after[i] != b[i] {
				t.Errorf("the refused database was written to: first changed byte %d (%d, was %d)", i, after[i], b[i])
				break
			}
		}
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + suffix); err == nil {
			t.Errorf("refusing it left %s behind", filepath.Base(path+suffix))
		}
	}
}

// TestReaderLeavesFilesTheWriterReuses: a reader of a database no writer
// has open creates its log and index as a writer would have them (the
// owner's, writable by the owner), even beside a database whose mode is
// read-only, so that the daemon can open them once the mode is repaired.
func TestReaderLeavesFilesTheWriterReuses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "evolved.db")
	db := mustOpen(t, path)
	commitGenerations(t, db, newRun(t, db, 1), 1)
	db.Close()
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	owner := -1
	if os.Geteuid() == 0 {
		// As root, the files must go to the database's owner, as root
		// reading a service's database does.
		owner = 65534
		if err := os.Chown(path, owner, owner); err != nil {
			t.Fatal(err)
		}
	}
	// Through a symbolic link: SQLite resolves it, and so must the files.
	soft := filepath.Join(dir, "soft.db")
	if err := os.Symlink(path, soft); err != nil {
		t.Fatal(err)
	}
	if n, err := generationsIn(t, soft, storage.Options{ReadOnly: true}); err != nil || n != 1 {
		t.Fatalf("reader: %d generations, %v", n, err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(soft + suffix); err == nil {
			t.Errorf("the reader made %s beside the symbolic link", filepath.Base(soft+suffix))
		}
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		info, err := os.Stat(path + suffix)
		if err != nil {
			continue // nothing made is nothing in the way
		}
		if info.Mode().Perm()&0o200 == 0 {
			t.Errorf("%s has mode %v: its owner cannot write it", filepath.Base(path+suffix), info.Mode().Perm())
		}
		if st, ok := info.Sys().(*syscall.Stat_t); ok && owner >= 0 && int(st.Uid) != owner {
			t.Errorf("%s belongs to user %d, want the database's owner %d", filepath.Base(path+suffix), st.Uid, owner)
		}
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if n, err := generationsIn(t, path, storage.Options{}); err != nil || n != 1 {
		t.Errorf("the writer after the reader: %d generations, %v", n, err)
	}
}
