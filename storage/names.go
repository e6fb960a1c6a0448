package storage

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// A database file can have several names: hard links, or the name it had
// before it was moved. SQLite keeps the write-ahead log beside the name it
// opened (symbolic links resolved), so each name has a log of its own, and
// after a kill the last generations are in the log of the name the killed
// writer used. Opened through another name, SQLite would not see them, and
// write on; that log, replayed later, would undo what came after. So each
// writer records its name in the file itself (the writer table, checkpointed
// at once), and Open reads it before SQLite touches the file and opens
// through that name.

// resolveName returns the name through which SQLite is to open the
// existing database at path, absolute with symbolic links resolved (where
// SQLite puts the log): path's own, unless the file's last writer used
// another name of it (recorded in the file), or, in a file without that
// record, another name in its directory holds the only log with changes.
// It refuses, with ErrOtherName and what to do, what it cannot decide
// without losing generations: a log under a name other than the last
// writer's (it is older than that writer's session), several logs and no
// record, or a record naming a file that is gone while its log is not.
func resolveName(ctx context.Context, path string) (string, error) {
	self, err := realPath(path)
	if err != nil {
		return "", fmt.Errorf("open %s: %w", path, err)
	}
	selfInfo, err := os.Stat(self)
	if err != nil {
		return "", fmt.Errorf("open %s: %w", path, err)
	}
	isSelf := func(name string) bool {
		info, err := os.Stat(name)
		return err == nil && os.SameFile(info, selfInfo)
	}
	recorded := readRecordedName(ctx, self)
	others := otherNames(self, selfInfo)
	switch {
	case recorded != "" && isSelf(recorded):
		// The last writer's name: its log is the one to replay; any other
		// name's log dates from before that writer's session.
		for _, name := range append(others, self) {
			if name == recorded {
				continue
			}
			if frames, _ := committedFrames(name + "-wal"); frames > 0 {
				return "", fmt.Errorf("open %s: %w: %s-wal is the log of %s, another name of this file, but the database was last written as %s, "+
					"so that log is older than the last writer's changes and replaying it would undo them; "+
					"move %s-wal and %s-shm out of the way and start again",
					path, ErrOtherName, name, name, recorded, name, name)
			}
		}
		return recorded, nil
	case recorded != "" && !exists(recorded):
		if frames, _ := committedFrames(recorded + "-wal"); frames > 0 {
			return "", fmt.Errorf("open %s: %w: the database was last written as %s, which is gone, and %s-wal still holds "+
				"its last changes; move the database back to %s (or move %s-wal to %s-wal and remove %s-shm), then start again",
				path, ErrOtherName, recorded, recorded, recorded, recorded, self, recorded)
		}
	}
	var logged []string
	for _, name := range append([]string{self}, others...) {
		if frames, _ := committedFrames(name + "-wal"); frames > 0 {
			logged = append(logged, name)
		}
	}
	switch {
	case len(logged) == 0:
		return self, nil
	case len(logged) == 1:
		return logged[0], nil
	}
	return "", fmt.Errorf("open %s: %w: the logs of several names of this file hold changes (%s), and the database does not say which name "+
		"was written last; open it once through the one its last daemon used (evolved run --db NAME), after moving the others' -wal and -shm files out of the way",
		path, ErrOtherName, strings.Join(logged, ", "))
}

// realPath returns path made absolute, with symbolic links resolved, as
// SQLite resolves them to place the log.
func realPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// exists reports whether name exists.
func exists(name string) bool {
	_, err := os.Lstat(name)
	return err == nil
}

// otherNames returns the names in self's directory that are the same file
// as self (hard links) and have a log beside them; the only other names
// that can have a log, short of one recorded in the file.
func otherNames(self string, selfInfo os.FileInfo) []string {
	dir := filepath.Dir(self)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		stem, ok := strings.CutSuffix(e.Name(), "-wal")
		if !ok || stem == "" {
			continue
		}
		name := filepath.Join(dir, stem)
		if name == self {
			continue
		}
		if info, err := os.Stat(name); err == nil && os.SameFile(info, selfInfo) {
			names = append(names, name)
		}
	}
	return names
}

// readRecordedName returns the name recorded by the file's last writer,
// read from the file alone (SQLite's immutable mode: no log is read or
// replayed, no file created), or "" when there is none or it cannot be
// read (an older schema; a page being checkpointed while a reader looks).
func readRecordedName(ctx context.Context, self string) string {
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: self}).EscapedPath()+"?mode=ro&immutable=1")
	if err != nil {
		return ""
	}
	defer db.Close()
	var name string
	if err := db.QueryRowContext(ctx, "SELECT path FROM writer WHERE id = 1").Scan(&name); err != nil {
		return ""
	}
	return name
}

// recordName records the name SQLite opened the file by as its writer's,
// when it is not already, and checkpoints it into the file, where
// readRecordedName finds it however the next writer ends.
func (d *DB) recordName(ctx context.Context) error {
	name, err := realPath(d.sqlName)
	if err != nil {
		return fmt.Errorf("open %s: record the writer's name: %w", d.path, err)
	}
	var recorded string
	err = d.db.QueryRowContext(ctx, "SELECT path FROM writer WHERE id = 1").Scan(&recorded)
	switch {
	case err == nil && recorded == name:
		return nil
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("open %s: record the writer's name: %w", d.path, err)
	}
	if _, err := d.db.ExecContext(ctx, "INSERT INTO writer (id, path) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET path = excluded.path", name); err != nil {
		return fmt.Errorf("open %s: record the writer's name: %w", d.path, err)
	}
	// FULL waits for readers (the busy timeout) and copies every frame
	// into the file.
	var busy, logFrames, done int
	if err := d.db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(FULL)").Scan(&busy, &logFrames, &done); err != nil {
		return fmt.Errorf("open %s: record the writer's name: checkpoint: %w", d.path, err)
	}
	if busy != 0 || done != logFrames {
		return fmt.Errorf("open %s: record the writer's name: a reader kept the checkpoint from finishing (%d of %d pages); try again", d.path, done, logFrames)
	}
	return nil
}

// committedFrames returns how many frames of the write-ahead log at path
// SQLite would replay: those up to the last valid commit frame, each with
// the log's salts and a checksum that continues the chain from the
// header. A log that is missing, empty, reset (frames of an earlier salt)
// or torn gives what it holds of them, often 0. It stops at the first
// commit frame, as any is enough to tell that the log holds changes.
func committedFrames(path string) (int, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	var head [32]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return 0, nil
	}
	var order binary.ByteOrder
	switch binary.BigEndian.Uint32(head[0:4]) {
	case 0x377f0682:
		order = binary.LittleEndian
	case 0x377f0683:
		order = binary.BigEndian
	default:
		return 0, nil
	}
	pageSize := int(binary.BigEndian.Uint32(head[8:12]))
	if pageSize == 1 {
		pageSize = 65536
	}
	if pageSize < 512 || pageSize > 65536 || pageSize&(pageSize-1) != 0 {
		return 0, nil
	}
	s0, s1 := walChecksum(order, head[:24], 0, 0)
	if s0 != binary.BigEndian.Uint32(head[24:28]) || s1 != binary.BigEndian.Uint32(head[28:32]) {
		return 0, nil
	}
	frame := make([]byte, 24+pageSize)
	for n := 1; ; n++ {
		if _, err := io.ReadFull(r, frame); err != nil {
			return 0, nil
		}
		if !bytes.Equal(frame[8:16], head[16:24]) {
			return 0, nil
		}
		s0, s1 = walChecksum(order, frame[:8], s0, s1)
		s0, s1 = walChecksum(order, frame[24:], s0, s1)
		if s0 != binary.BigEndian.Uint32(frame[16:20]) || s1 != binary.BigEndian.Uint32(frame[20:24]) {
			return 0, nil
		}
		if binary.BigEndian.Uint32(frame[4:8]) != 0 { // a commit frame
			return n, nil
		}
	}
}

// walChecksum continues SQLite's log checksum (s0, s1) over data, whose
// length is a multiple of 8, read as 32-bit words in order.
func walChecksum(order binary.ByteOrder, data []byte, s0, s1 uint32) (uint32, uint32) {
	for i := 0; i+8 <= len(data); i += 8 {
		s0 += order.Uint32(data[i:]) + s1
		s1 += order.Uint32(data[i+4:]) + s0
	}
	return s0, s1
}

// readerFiles makes sure that the write-ahead log and its index exist
// beside the WAL-mode database name before a reader opens it, made as a
// writer can reuse them: owned by the database's owner, with its mode and
// the owner's write permission. SQLite would create them itself with the
// reader's owner, and sets the database's mode on any that is empty when
// it opens it (0444 beside a read-only database), which a daemon then
// cannot open: so neither is left empty. The log gets 32 zero bytes, less
// than a log's header, which SQLite reads as an empty log and overwrites
// with its first frame; the index 3, which the first connection to lock
// it truncates and builds anew. Each is made whole under a temporary name
// and linked into place, so a writer that starts meanwhile finds either
// its own file or a finished one. It returns true when the reader must
// read the file as it is instead (immutable): it may not make them so
// (neither root nor the owner), or not at all (the directory is not
// writable), and no writer has.
func readerFiles(name string) (immutable bool, err error) {
	info, err := os.Stat(name)
	if err != nil {
		return false, err
	}
	if exists(name+"-wal") && exists(name+"-shm") {
		return false, nil
	}
	uid, gid, owned := fileOwner(info)
	euid := os.Geteuid()
	if owned && euid != 0 && euid != uid {
		return true, nil
	}
	mode := info.Mode().Perm() | 0o600
	for _, f := range []struct {
		suffix string
		size   int
	}{{"-wal", 32}, {"-shm", 3}} {
		err := placeFile(name+f.suffix, f.size, mode, uid, gid, owned && euid == 0)
		switch {
		case errors.Is(err, fs.ErrPermission):
			return true, nil
		case err != nil:
			return false, fmt.Errorf("create %s%s: %w", name, f.suffix, err)
		}
	}
	return false, nil
}

// placeFile makes the file path, unless it exists, holding size zero
// bytes, with mode, and owned by uid and gid when chown is set: made
// whole under a temporary name, then linked into place.
func placeFile(path string, size int, mode os.FileMode, uid, gid int, chown bool) error {
	if exists(path) {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(make([]byte, size))
	if err == nil {
		err = tmp.Chmod(mode) // past the umask
	}
	if err == nil && chown {
		err = tmp.Chown(uid, gid)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	err = os.Link(tmp.Name(), path)
	if errors.Is(err, fs.ErrExist) {
		return nil // a writer made it meanwhile
	}
	if err != nil && !exists(path) {
		// A file system without hard links: rename, which a writer
		// starting in the same instant could see replace its file.
		err = os.Rename(tmp.Name(), path)
	}
	return err
}
