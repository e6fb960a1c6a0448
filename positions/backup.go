package positions

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// sumsName is the file of a backup's directory that records the SHA-256
// of each segment's bytes, so that the next backup can tell a segment it
// may link from one it must copy.
const sumsName = "backup.json"

// BackupReport says what Backup did.
type BackupReport struct {
	// Records are the committed records backed up, of Generation (-1 for
	// a store with no commit).
	Records    int64
	Generation int
	// Copied and Linked count the segments copied and those hard-linked
	// from the earlier backup; CopiedBytes the bytes copied.
	Copied, Linked int
	CopiedBytes    int64
}

// segmentSum is a backed-up segment's size and the SHA-256 of its bytes.
type segmentSum struct {
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// Backup copies the store in dir, as of its last commit, to to, a
// directory that must not exist: its manifest and the committed bytes of
// each live segment, which is all a store needs to be opened again (Open
// rewinds it to a database's generation as usual). It reads only files
// and is safe beside the store's writer: a commit replaces the manifest
// by a rename and only appends to segments, so the manifest read first
// names bytes that stay as they are (a segment the writer drops
// meanwhile makes Backup fail; the next try sees the new manifest).
//
// A segment whose committed bytes are those of the same segment in prev,
// an earlier backup's directory ("" for none) — the same size and
// SHA-256, which each backup records in backup.json — is hard-linked from
// there instead of copied, so daily backups of a store of gigabytes cost
// the new segments only (where links fail, as across file systems, it is
// copied). The backup is written to to+".tmp" and renamed to to once
// whole; a leftover .tmp of a failed backup is removed first.
func Backup(ctx context.Context, dir, to, prev string) (BackupReport, error) {
	rep, err := backup(ctx, dir, to, prev)
	if err != nil {
		return rep, fmt.Errorf("back up positions store %s: %w", dir, err)
	}
	return rep, nil
}

// backup is Backup without the context of its errors.
func backup(ctx context.Context, dir, to, prev string) (BackupReport, error) {
	rep := BackupReport{Generation: -1}
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return rep, err
	}
	var game struct{ Game string }
	if err := json.Unmarshal(b, &game); err != nil {
		return rep, fmt.Errorf("%w manifest %s: %v", ErrCorrupt, filepath.Join(dir, manifestName), err)
	}
	m, err := parseManifest(b, filepath.Join(dir, manifestName), game.Game)
	if err != nil {
		return rep, err
	}
	if _, err := os.Stat(to); !errors.Is(err, fs.ErrNotExist) {
		return rep, fmt.Errorf("%s exists already", to)
	}
	tmp := to + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return rep, err
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return rep, err
	}
	earlier := readSums(prev)
	sums := map[string]segmentSum{}
	for _, g := range m.Segments {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		name := segmentName(g.Seq)
		sum, err := hashPrefix(filepath.Join(dir, name), g.Bytes)
		if err != nil {
			return rep, err
		}
		sums[name] = sum
		if e, ok := earlier[name]; ok && e == sum && os.Link(filepath.Join(prev, name), filepath.Join(tmp, name)) == nil {
			rep.Linked++
			continue
		}
		if err := copyPrefix(filepath.Join(dir, name), filepath.Join(tmp, name), g.Bytes); err != nil {
			return rep, err
		}
		rep.Copied++
		rep.CopiedBytes += g.Bytes
	}
	if err := writeSynced(filepath.Join(tmp, manifestName), b); err != nil {
		return rep, err
	}
	sb, err := json.MarshalIndent(sums, "", " ")
	if err != nil {
		return rep, err
	}
	if err := writeSynced(filepath.Join(tmp, sumsName), sb); err != nil {
		return rep, err
	}
	if err := syncDir(tmp); err != nil {
		return rep, err
	}
	if err := os.Rename(tmp, to); err != nil {
		return rep, err
	}
	if err := syncDir(filepath.Dir(to)); err != nil {
		return rep, err
	}
	for _, g := range m.Segments {
		rep.Records += g.records() / RecordSize
	}
	if n := len(m.Commits); n > 0 {
		rep.Generation = m.Commits[n-1].Generation
	}
	return rep, nil
}

// readSums reads the segment sums of the backup in dir; none when dir is
// "" or holds none that parse (its segments are then copied, not linked).
func readSums(dir string) map[string]segmentSum {
	if dir == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(dir, sumsName))
	if err != nil {
		return nil
	}
	var sums map[string]segmentSum
	if json.Unmarshal(b, &sums) != nil {
		return nil
	}
	return sums
}

// hashPrefix returns the size n and the SHA-256 of the first n bytes of
// the file at path, which must hold them.
func hashPrefix(path string, n int64) (segmentSum, error) {
	f, err := os.Open(path)
	if err != nil {
		return segmentSum{}, err
	}
	defer f.Close()
	h := sha256.New()
	if got, err := io.Copy(h, io.LimitReader(f, n)); err != nil || got != n {
		return segmentSum{}, errors.Join(fmt.Errorf("%s holds %d bytes, its commit %d", path, got, n), err)
	}
	return segmentSum{Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// copyPrefix copies the first n bytes of from to a new file to, synced.
func copyPrefix(from, to string, n int64) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if got, err := io.Copy(dst, io.LimitReader(src, n)); err != nil || got != n {
		dst.Close()
		return errors.Join(fmt.Errorf("copy %s: %d of %d bytes", from, got, n), err)
	}
	if err := dst.Sync(); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

// writeSynced writes b to a new file at path and syncs it.
func writeSynced(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
