// Package outfile writes the files evolved's commands produce (agents,
// plots, game records, tables, profiles) so that no output path can
// destroy a run: a path that names a database, one of its SQLite side
// files (-wal, -shm, -journal) or any SQLite database at all is refused
// before the first byte, whatever name it reaches the file by (a hard link
// or a symbolic link is the same file); and a file written whole goes
// through a temporary file and a rename, so an interrupted write never
// leaves half a file where a good one was.
//
// A Guard is built by each command from the databases it knows of (the
// one it opened, the default one a daemon would use, a web site's lab
// database). The check does not depend on that list alone: an existing
// file that starts as an SQLite database or write-ahead log does, is never
// written over, so a daemon's database is safe even from a command that
// was not told about it.
package outfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// ErrLockHeld is Lock's error when another process holds the lock.
var ErrLockHeld = errors.New("outfile: lock held")

// ErrProtected means an output path names a database or one of its side
// files; nothing was written.
var ErrProtected = errors.New("outfile: refusing to write over a database")

// sideSuffixes are the suffixes SQLite appends to a database's name for
// the files that belong to it: the write-ahead log, its shared-memory
// index and the rollback journal. Writing over any of them destroys the
// database's last changes.
var sideSuffixes = [...]string{"-wal", "-shm", "-journal"}

// Guard refuses output paths that would overwrite a protected database or
// its side files. The zero value protects only the databases that every
// Guard recognises by their contents; NewGuard names more. A Guard is safe
// for concurrent use (its methods do not change it).
type Guard struct {
	dbs   []string // the protected databases' names, as given
	store string   // the position store that its own writer may write in (ForStore); "" for none
}

// NewGuard returns a guard over the named databases; empty names are
// skipped, so a command can pass an optional flag's value as it is.
func NewGuard(databases ...string) *Guard {
	g := &Guard{}
	for _, db := range databases {
		if db != "" {
			g.dbs = append(g.dbs, db)
		}
	}
	return g
}

// ForStore returns a guard like g that lets the position store in dir
// write its own files there: the store's writer (package positions), the
// one writer every other is kept out of a store's directory for.
func (g *Guard) ForStore(dir string) *Guard {
	c := *g
	c.store = dir
	return &c
}

// Check returns an error wrapping ErrProtected when writing path would
// write over a protected database, one of its side files, or any existing
// SQLite database or write-ahead log; other errors say why path cannot be
// an output at all (it is a directory, or cannot be examined). A path that
// does not exist yet, and is no side file of a database, passes.
func (g *Guard) Check(path string) error {
	if path == "" {
		return errors.New("outfile: no output file named")
	}
	info, err := os.Stat(path) // follows a symbolic link to what it names
	switch {
	case err == nil && info.IsDir():
		return fmt.Errorf("outfile: %s is a directory, not a file to write", path)
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("outfile: %w", err)
	}
	if err := g.CheckNames(path); err != nil {
		return err
	}
	if what := sqliteKind(path); what != "" {
		return fmt.Errorf("%w: %s is %s", ErrProtected, path, what)
	}
	if dir := filepath.Dir(path); positionStore(dir) && (g.store == "" || !sameFile(dir, g.store)) {
		return fmt.Errorf("%w: %s is in the position store %s", ErrProtected, path, dir)
	}
	// The side file's name of any SQLite database.
	for _, suffix := range sideSuffixes {
		if stem, ok := strings.CutSuffix(path, suffix); ok && stem != "" && sqliteKind(stem) == "an SQLite database" {
			return fmt.Errorf("%w: %s is the %s file of the SQLite database %s", ErrProtected, path, suffix[1:], stem)
		}
	}
	return nil
}

// CheckNames returns an error wrapping ErrProtected when path names one of
// the guard's databases or one of their side files, by any name; unlike
// Check it does not look at what an unprotected file holds, for a path
// that is to be a database itself (a web site's lab database, which must
// not be the served database or its log).
func (g *Guard) CheckNames(path string) error {
	if db, name, ok := g.find(func(name string) bool { return sameFile(path, name) }); ok {
		return fmt.Errorf("%w: %s is %s", ErrProtected, path, describe(db, name))
	}
	// A side file's name under another name of a protected database:
	// x.db-wal, where x.db is a hard link to the daemon's database, is a
	// log that a later open through x.db replays.
	for _, suffix := range sideSuffixes {
		stem, ok := strings.CutSuffix(path, suffix)
		if !ok || stem == "" {
			continue
		}
		for _, db := range g.dbs {
			if sameFile(stem, db) {
				return fmt.Errorf("%w: %s is the %s file of the database %s (the same file as %s)", ErrProtected, path, suffix[1:], db, stem)
			}
		}
	}
	return nil
}

// describe names what name is to the database db.
func describe(db, name string) string {
	if name == db {
		return "the database " + db
	}
	return "the " + strings.TrimPrefix(name[len(db):], "-") + " file of the database " + db
}

// find returns the first protected name (a database, then each of its
// side files) for which is reports true, and the database it belongs to.
func (g *Guard) find(is func(name string) bool) (db, name string, ok bool) {
	for _, db := range g.dbs {
		if is(db) {
			return db, db, true
		}
		for _, s := range sideSuffixes {
			if is(db + s) {
				return db, db + s, true
			}
		}
	}
	return "", "", false
}

// sameFile reports whether a and b name one file: the same path once made
// absolute with symbolic links resolved (so a name whose file does not
// exist yet still matches), or, when both exist, the same inode (so hard
// links match).
func sameFile(a, b string) bool {
	if canonical(a) == canonical(b) {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// canonical returns path made absolute, with the symbolic links of its
// directory resolved, and of itself when it is one; as far as the file
// system allows, and the cleaned path where it does not.
func canonical(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	dir, base := filepath.Split(abs)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return filepath.Join(real, base)
	}
	return abs
}

// Magic numbers at the start of SQLite's files: a database's header, and a
// write-ahead log's (big-endian, its low bit the checksums' byte order).
var (
	sqliteMagic = []byte("SQLite format 3\x00")
	walMagics   = [...]uint32{0x377f0682, 0x377f0683}
)

// sqliteKind reads the start of the regular file at path and names it if
// it is an SQLite database or write-ahead log; "" otherwise, and for what
// cannot be read (such a file is not opened for writing here either, so
// the write itself reports it). It never opens a FIFO or device, which
// could block.
func sqliteKind(path string) string {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, len(sqliteMagic))
	n, _ := io.ReadFull(f, head)
	switch {
	case n == len(head) && bytes.Equal(head, sqliteMagic):
		return "an SQLite database"
	case n >= 4 && (binary.BigEndian.Uint32(head) == walMagics[0] || binary.BigEndian.Uint32(head) == walMagics[1]):
		return "an SQLite write-ahead log"
	}
	return ""
}

// WriteFile writes data to path as a whole, as Write does.
func (g *Guard) WriteFile(path string, data []byte) error {
	return g.Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write checks path and writes the file that write produces: into a
// temporary file beside it, synced, then renamed over path, so a reader
// sees the old file or the whole new one and an interrupted write leaves
// the old one. A symbolic link is followed (the file it names is
// replaced, the link stays). A path that names a device or a FIFO
// (/dev/stdout) is written directly, since it cannot be replaced. The
// new file's mode is the old file's, or 0644.
func (g *Guard) Write(path string, write func(io.Writer) error) (err error) {
	if err := g.Check(path); err != nil {
		return err
	}
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	mode := os.FileMode(0o644)
	if info, err := os.Stat(target); err == nil {
		if !info.Mode().IsRegular() {
			return writeInPlace(target, write)
		}
		mode = info.Mode().Perm()
	}
	dir, base := filepath.Split(target)
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("outfile: write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return fmt.Errorf("outfile: write %s: %w", path, err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return fmt.Errorf("outfile: write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("outfile: write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("outfile: write %s: %w", path, err)
	}
	// Once more just before the rename: the path may have become a
	// database while the content was made (a daemon started on it).
	if err := g.Check(path); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("outfile: write %s: %w", path, err)
	}
	syncDir(dir)
	return nil
}

// writeInPlace writes to a device or FIFO that already exists.
func writeInPlace(path string, write func(io.Writer) error) (err error) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("outfile: write %s: %w", path, err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("outfile: write %s: %w", path, cerr)
		}
	}()
	if err := write(f); err != nil {
		return fmt.Errorf("outfile: write %s: %w", path, err)
	}
	return nil
}

// syncDir makes a rename in dir durable where the system allows it; a
// failure only weakens durability after a power cut, so it is ignored.
func syncDir(dir string) {
	if dir == "" {
		dir = "."
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Create checks path and opens it for a file written as it goes (a CPU
// profile, a long match's game records), truncated to nothing only once
// the opened file is known not to be a protected one: no byte of a
// database is touched even if the name changed between the check and the
// open. The caller closes the file.
func (g *Guard) Create(path string) (*os.File, error) {
	if err := g.Check(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("outfile: create %s: %w", path, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("outfile: create %s: %w", path, err)
	}
	opened := func(name string) bool {
		other, err := os.Stat(name)
		return err == nil && os.SameFile(info, other)
	}
	if db, name, ok := g.find(opened); ok {
		f.Close()
		return nil, fmt.Errorf("%w: %s is %s", ErrProtected, path, describe(db, name))
	}
	if info.Mode().IsRegular() {
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, fmt.Errorf("outfile: create %s: %w", path, err)
		}
	}
	return f, nil
}

// positionStore reports whether dir holds a run's position store (package
// positions): its manifest beside its segment files or its lock. Nothing
// a command writes belongs there, and a file written over the manifest
// or a segment would lose the run's positions.
func positionStore(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		return false
	}
	if _, err := os.Stat(filepath.Join(dir, "lock")); err == nil {
		return true
	}
	segs, _ := filepath.Glob(filepath.Join(dir, "seg-*.pos"))
	return len(segs) > 0
}
