package positions

// A Store is a directory of files the daemon writes: the records of one
// run, bounded in bytes, deduplicated, safe from crashes, rewindable to a
// generation and read as a stream.
//
// Files, not the run's SQLite database: a store holds gigabytes (millions
// of 40-byte records, default bound 2 GiB), while the database stays
// within 100 MB a day and is backed up whole; the trainer reads the
// records in order, which a flat file gives at the disk's speed. The
// store is a sequence of segment files, seg-%08d.pos, numbered by a
// sequence that grows along the committed history; each starts with a
// 16-byte header (the magic "EVPOS001" and the game's name NUL-padded to 8
// bytes) and holds whole records after it. A segment is closed and the
// next begun once it holds SegmentBytes of records, so where segments end
// depends on the records alone, not on when commits fall. The manifest,
// manifest.json, is the truth: the game, the live segments with their
// sizes, and the last 64 commits (generation, segment, size). It is
// rewritten whole at each Commit through a temporary file, a sync and a
// rename; bytes on disk beyond it (records added but never committed: the
// daemon crashed) are cut away by Open. A Commit drops the oldest whole
// segments while the records kept exceed MaxBytes, a rolling window.
//
// Duplicates are found by a direct-mapped table (see dedupTable): 1<<22
// slots of 8 bytes by default, 32 MiB whatever the store holds, where an
// exact set of millions of keys would grow with the run; a collision
// costs a position written twice, not a position lost. The table holds
// entries of live segments only, so it is a function of the live records:
// Open and Rewind rebuild it by reading the segments in order, and a run
// resumed after a crash writes the same files, byte for byte, as a run
// that never stopped (TestStoreResumeIsBitIdentical). Rewind past a
// generation at whose commit segments were dropped cannot bring those
// back: the records after it may then differ from the uninterrupted run's.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"evolved/outfile"
)

// The defaults of Options.
const (
	// DefaultMaxBytes is the default bound of a store's records: 2 GiB.
	DefaultMaxBytes = 2 << 30
	// DefaultSegmentBytes is the default size of a segment's records:
	// 64 MiB, 32 segments in the default window.
	DefaultSegmentBytes = 64 << 20
	// DefaultDedupBits is the default size of the duplicate table: 1<<22
	// slots of 8 bytes, 32 MiB.
	DefaultDedupBits = 22
)

const (
	// segmentMagic opens every segment file; its digits are the format's
	// version.
	segmentMagic = "EVPOS001"
	// headerSize is a segment's header: the magic and the game's name.
	headerSize = 16
	// maxGameName is the longest game name the header holds.
	maxGameName = headerSize - len(segmentMagic)
	// manifestName is the manifest's file in a store's directory.
	manifestName = "manifest.json"
	// lockName is the file a writer holds locked (outfile.Lock) while it
	// has the store open; the kernel releases it when the process dies.
	lockName = "lock"
	// manifestVersion is the manifest's format.
	manifestVersion = 1
	// keptCommits is how many of the last commits the manifest keeps,
	// the generations Rewind can return to.
	keptCommits = 64
	// maxSegments bounds the live segments, so the 16 bits of a segment's
	// number in the duplicate table name it without ambiguity (see
	// dedupTable.forget); Open allows a window of half as many.
	maxSegments = 1 << 15
	// writeBufferSize is the buffer of records not yet written: a write
	// call per 26,214 records.
	writeBufferSize = 1 << 20
	// scanChunk is what Scan reads at once: 65,536 records.
	scanChunk = 1 << 16 * RecordSize
)

// Options are a store's settings; zero values take the defaults.
type Options struct {
	// Game is the game's name ("chess", "xiangqi", "draughts"), at most 8
	// bytes; required. A store of another game is refused by Open.
	Game string
	// MaxBytes bounds the records kept (DefaultMaxBytes when 0): after a
	// Commit, the oldest whole segments are dropped while the records of
	// the live ones exceed it. It must hold at least one segment.
	MaxBytes int64
	// SegmentBytes is where a segment ends (DefaultSegmentBytes when 0): a
	// segment is closed and a new one begun once it holds this many bytes
	// of records or more (rounded up to whole records).
	SegmentBytes int64
	// DedupBits sizes the duplicate table: 1<<DedupBits slots of 8 bytes
	// (DefaultDedupBits when 0; 8 to 30).
	DedupBits int
	// ReadOnly opens a store that another process may be writing (evolved
	// train beside selfplay, or beside the daemon): nothing is created,
	// cut or written and no lock is taken; Scan reads what was committed
	// when Open read the manifest; Add, Commit and Rewind refuse. A writer
	// holds the store's lock file (lockName), so a second writer is
	// refused by Open rather than cutting away the first one's records.
	ReadOnly bool
}

// withDefaults returns o with its zero values replaced by the defaults,
// or why o cannot make a store.
func (o Options) withDefaults() (Options, error) {
	if o.MaxBytes == 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.SegmentBytes == 0 {
		o.SegmentBytes = DefaultSegmentBytes
	}
	if o.DedupBits == 0 {
		o.DedupBits = DefaultDedupBits
	}
	segment := (o.SegmentBytes + RecordSize - 1) / RecordSize * RecordSize
	switch {
	case o.Game == "" || len(o.Game) > maxGameName || strings.IndexByte(o.Game, 0) >= 0:
		return o, fmt.Errorf("game name %q: want 1 to %d bytes, no NUL", o.Game, maxGameName)
	case o.MaxBytes < 0 || o.SegmentBytes < 0:
		return o, fmt.Errorf("max bytes %d, segment bytes %d: want positive sizes", o.MaxBytes, o.SegmentBytes)
	case segment > o.MaxBytes:
		return o, fmt.Errorf("segment bytes %d above max bytes %d", o.SegmentBytes, o.MaxBytes)
	case o.MaxBytes/segment > maxSegments/2:
		return o, fmt.Errorf("max bytes %d hold more than %d segments of %d bytes", o.MaxBytes, maxSegments/2, o.SegmentBytes)
	case o.DedupBits < 8 || o.DedupBits > 30:
		return o, fmt.Errorf("dedup bits %d: want 8 to 30", o.DedupBits)
	}
	return o, nil
}

// manifest is manifest.json: what a store holds as of its last commit.
type manifest struct {
	Version    int    `json:"version"`
	Game       string `json:"game"`
	RecordSize int    `json:"record_size"`
	// Segments are the live segments, oldest first, numbered in a row.
	Segments []segment `json:"segments"`
	// Commits are the last keptCommits commits, oldest first.
	Commits []commit `json:"commits"`
}

// segment is a live segment file: its number and its size in bytes,
// header included.
type segment struct {
	Seq   uint64 `json:"seq"`
	Bytes int64  `json:"bytes"`
}

// records returns the bytes of g's records.
func (g segment) records() int64 { return g.Bytes - headerSize }

// commit is where a generation's records end: the size of the segment
// that was being written (segment 0, size 0: the store was empty).
type commit struct {
	Generation int    `json:"generation"`
	Segment    uint64 `json:"segment"`
	Bytes      int64  `json:"bytes"`
}

// Store is a run's positions on disk (see the comment at the top of
// store.go for the design). It is used by one goroutine at a time: its
// methods change it, and none is safe to call concurrently with another.
type Store struct {
	dir  string
	opts Options
	// man is the store as committed: what manifest.json says.
	man manifest
	// segs are the live segments, with the records added since the last
	// commit counted in their sizes.
	segs []segment
	// f is the last segment, open for appending; nil until Add writes.
	f *os.File
	// buf holds the records added but not yet written to f.
	buf []byte
	// dirty says f has bytes not yet synced.
	dirty bool
	table dedupTable
	// lock is the writer's lock file; nil when ReadOnly.
	lock *os.File
	// err is the failed write after which the store must be reopened.
	err    error
	closed bool
}

// DirBeside returns the directory of game's position store beside the
// database at db, where the daemon keeps it: evolved.db keeps chess's in
// evolved.positions/chess.
func DirBeside(db, game string) string {
	base := strings.TrimSuffix(db, filepath.Ext(db))
	return filepath.Join(base+".positions", game)
}

// Open opens the store in dir for opts.Game, creating dir and an empty
// store when there is none. It cuts away what lies beyond the last commit
// (the records of a crash between Add and Commit), then rebuilds the
// duplicate table by reading the live segments in order: a few seconds
// for a full default store, stopped by ctx. The error wraps ErrCorrupt
// when the manifest or a segment is not what this package writes, or is
// of another game.
func Open(ctx context.Context, dir string, opts Options) (*Store, error) {
	s, err := open(ctx, dir, opts)
	if err != nil {
		return nil, fmt.Errorf("open positions store %s: %w", dir, err)
	}
	return s, nil
}

// open is Open without the context of its errors.
func open(ctx context.Context, dir string, opts Options) (*Store, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if opts.ReadOnly {
		return openReadOnly(dir, opts)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	s := &Store{dir: dir, opts: opts}
	if err := s.takeLock(); err != nil {
		return nil, err
	}
	if err := s.load(ctx); err != nil {
		s.lock.Close()
		return nil, err
	}
	return s, nil
}

// takeLock takes the writer's lock on the store's lock file, at once or
// not at all.
func (s *Store) takeLock() error {
	f, err := os.OpenFile(s.path(lockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if err := outfile.Lock(f); err != nil {
		f.Close()
		if errors.Is(err, outfile.ErrLockHeld) {
			return fmt.Errorf("%w (another process writes to this store; evolved train reads it beside a writer)", ErrLocked)
		}
		return fmt.Errorf("lock: %w", err)
	}
	s.lock = f
	return nil
}

// openReadOnly opens the store in dir to read what its manifest says was
// committed (see Options.ReadOnly).
func openReadOnly(dir string, opts Options) (*Store, error) {
	s := &Store{dir: dir, opts: opts}
	b, err := os.ReadFile(s.path(manifestName))
	if err != nil {
		return nil, err
	}
	if s.man, err = parseManifest(b, s.path(manifestName), opts.Game); err != nil {
		return nil, err
	}
	s.segs = slices.Clone(s.man.Segments)
	return s, nil
}

// load reads the manifest (or creates an empty store), cuts what lies
// beyond the last commit and rebuilds the duplicate table.
func (s *Store) load(ctx context.Context) error {
	opts := s.opts
	b, err := os.ReadFile(s.path(manifestName))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := s.create(); err != nil {
			return err
		}
	case err != nil:
		return err
	default:
		if s.man, err = parseManifest(b, s.path(manifestName), opts.Game); err != nil {
			return err
		}
	}
	if err := s.recover(); err != nil {
		return err
	}
	s.table = newDedupTable(opts.DedupBits)
	s.segs = slices.Clone(s.man.Segments)
	if err := s.rebuild(ctx); err != nil {
		return err
	}
	s.buf = make([]byte, 0, writeBufferSize)
	return nil
}

// create writes the manifest of an empty store, so a store's game is
// known from its first moment; segments found without a manifest are
// someone else's, or a store that lost its manifest, and are refused.
func (s *Store) create() error {
	names, err := s.segmentFiles()
	if err != nil {
		return err
	}
	if len(names) > 0 {
		return fmt.Errorf("%w store: %d segment files and no %s", ErrCorrupt, len(names), manifestName)
	}
	s.man = manifest{Version: manifestVersion, Game: s.opts.Game, RecordSize: RecordSize}
	return s.writeManifest(s.man)
}

// parseManifest reads manifest.json's bytes b and checks that they
// describe a store of game this package could have written; path names
// the file in errors.
func parseManifest(b []byte, path, game string) (manifest, error) {
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("%w manifest %s: %v", ErrCorrupt, path, err)
	}
	if err := m.check(game); err != nil {
		return m, fmt.Errorf("%w manifest %s: %v", ErrCorrupt, path, err)
	}
	return m, nil
}

// check returns what makes m not a manifest of a store of game.
func (m *manifest) check(game string) error {
	switch {
	case m.Version != manifestVersion:
		return fmt.Errorf("version %d, want %d", m.Version, manifestVersion)
	case m.RecordSize != RecordSize:
		return fmt.Errorf("record size %d, want %d", m.RecordSize, RecordSize)
	case m.Game != game:
		return fmt.Errorf("store of game %s, want %s", m.Game, game)
	case len(m.Segments) >= maxSegments:
		return fmt.Errorf("%d segments, at most %d", len(m.Segments), maxSegments-1)
	case len(m.Commits) > keptCommits:
		return fmt.Errorf("%d commits, at most %d", len(m.Commits), keptCommits)
	case len(m.Commits) == 0 && len(m.Segments) > 0:
		return fmt.Errorf("%d segments and no commit", len(m.Segments))
	}
	for i, g := range m.Segments {
		if g.Seq == 0 || i > 0 && g.Seq != m.Segments[i-1].Seq+1 {
			return fmt.Errorf("segment %d after %v: want numbers in a row from 1", g.Seq, m.Segments[:i])
		}
		if !wholeRecords(g.Bytes) {
			return fmt.Errorf("segment %d of %d bytes: not a header and whole records", g.Seq, g.Bytes)
		}
	}
	for i, c := range m.Commits {
		if err := m.checkCommit(i, c); err != nil {
			return err
		}
	}
	if n := len(m.Segments); n > 0 {
		last, c := m.Segments[n-1], m.Commits[len(m.Commits)-1]
		if c.Segment != last.Seq || c.Bytes != last.Bytes {
			return fmt.Errorf("last commit %+v, last segment %+v: want the same end", c, last)
		}
	}
	return nil
}

// checkCommit returns what makes c, the i-th commit, not one of m's.
func (m *manifest) checkCommit(i int, c commit) error {
	if c.Generation < 0 || i > 0 && c.Generation <= m.Commits[i-1].Generation {
		return fmt.Errorf("commit of generation %d after %+v: want generations rising from 0", c.Generation, m.Commits[:i])
	}
	if i > 0 && c.Segment < m.Commits[i-1].Segment {
		return fmt.Errorf("commit %+v after %+v: want segments rising", c, m.Commits[i-1])
	}
	if c.Segment == 0 && c.Bytes == 0 {
		return nil
	}
	if c.Segment == 0 || !wholeRecords(c.Bytes) {
		return fmt.Errorf("commit %+v: not a segment's header and whole records", c)
	}
	if n := len(m.Segments); n > 0 && c.Segment >= m.Segments[0].Seq {
		if c.Segment > m.Segments[n-1].Seq || c.Bytes > m.Segments[c.Segment-m.Segments[0].Seq].Bytes {
			return fmt.Errorf("commit %+v beyond the live segments %+v", c, m.Segments)
		}
	}
	return nil
}

// wholeRecords reports whether a segment of n bytes is a header and whole
// records.
func wholeRecords(n int64) bool {
	return n >= headerSize && (n-headerSize)%RecordSize == 0
}

// path returns the path of the store's file name.
func (s *Store) path(name string) string { return filepath.Join(s.dir, name) }

// segmentName returns the file name of segment seq.
func segmentName(seq uint64) string { return fmt.Sprintf("seg-%08d.pos", seq) }

// segmentFiles returns the sequence numbers of the segment files in the
// store's directory, the names this package writes only.
func (s *Store) segmentFiles() ([]uint64, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, err
	}
	var seqs []uint64
	for _, e := range entries {
		digits, ok := strings.CutPrefix(e.Name(), "seg-")
		digits, ok2 := strings.CutSuffix(digits, ".pos")
		seq, err := strconv.ParseUint(digits, 10, 64)
		if ok && ok2 && err == nil && segmentName(seq) == e.Name() {
			seqs = append(seqs, seq)
		}
	}
	return seqs, nil
}

// recover makes the files what the manifest says: each live segment's
// header checked, the last one cut to its committed size (a crash left
// records beyond it), the segment files the manifest does not name
// removed (begun after the last commit, or dropped by a commit that
// crashed before removing them), and the manifest's temporary files too.
func (s *Store) recover() error {
	segs := s.man.Segments
	for i, g := range segs {
		if err := s.recoverSegment(g, i == len(segs)-1); err != nil {
			return err
		}
	}
	seqs, err := s.segmentFiles()
	if err != nil {
		return err
	}
	removed := false
	for _, seq := range seqs {
		if len(segs) == 0 || seq < segs[0].Seq || seq > segs[len(segs)-1].Seq {
			if err := os.Remove(s.path(segmentName(seq))); err != nil {
				return err
			}
			removed = true
		}
	}
	temps, err := filepath.Glob(s.path("." + manifestName + ".tmp-*"))
	if err != nil {
		return err
	}
	for _, name := range temps {
		if err := os.Remove(name); err != nil {
			return err
		}
	}
	if removed {
		return syncDir(s.dir)
	}
	return nil
}

// recoverSegment checks g's file and cuts it to g's size if it is the
// last segment.
func (s *Store) recoverSegment(g segment, last bool) error {
	path := s.path(segmentName(g.Seq))
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w segment: %w", ErrCorrupt, err)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	size, err := checkSegment(f, path, s.opts.Game, g, last)
	if err != nil || size == g.Bytes {
		return err
	}
	if err := f.Truncate(g.Bytes); err != nil {
		return err
	}
	return f.Sync()
}

// checkSegment reads the header of f, segment g at path, checks it names
// game and that the file holds g's committed bytes (whole records, as
// the manifest's check made sure), no more unless it is the last segment,
// and returns the file's size. Bytes beyond the last segment's commit are
// records added since, or the torn write of a crash, which Open cuts.
func checkSegment(f *os.File, path, game string, g segment, last bool) (int64, error) {
	var h [headerSize]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return 0, fmt.Errorf("%w segment %s: reading its header: %v", ErrCorrupt, path, err)
	}
	if string(h[:len(segmentMagic)]) != segmentMagic {
		return 0, fmt.Errorf("%w segment %s: magic %q, want %q", ErrCorrupt, path, h[:len(segmentMagic)], segmentMagic)
	}
	if name := string(bytes.TrimRight(h[len(segmentMagic):], "\x00")); name != game {
		return 0, fmt.Errorf("%w segment %s: game %q, want %q", ErrCorrupt, path, name, game)
	}
	info, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size := info.Size()
	if size < g.Bytes || size > g.Bytes && !last {
		return 0, fmt.Errorf("%w segment %s: %d bytes, committed %d", ErrCorrupt, path, size, g.Bytes)
	}
	return size, nil
}

// header returns a segment's header for game.
func header(game string) [headerSize]byte {
	var h [headerSize]byte
	copy(h[:], segmentMagic)
	copy(h[len(segmentMagic):], game)
	return h
}

// writeManifest writes m as manifest.json through a temporary file, a
// sync, a rename and a sync of the directory.
func (s *Store) writeManifest(m manifest) error {
	b, err := json.MarshalIndent(m, "", "\t")
	if err != nil {
		return err
	}
	return outfile.NewGuard().ForStore(s.dir).WriteFile(s.path(manifestName), append(b, '\n'))
}

// syncDir makes the renames and removals in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// rebuild fills the duplicate table from the committed segments, each
// record inserted in order as Add inserted it.
func (s *Store) rebuild(ctx context.Context) error {
	s.table.reset()
	return s.scan(ctx, func(seq uint64, r *Record) error {
		s.table.insert(r.Position.Key(), seq)
		return nil
	})
}

// Committed returns the last committed generation, -1 for none.
func (s *Store) Committed() int {
	if n := len(s.man.Commits); n > 0 {
		return s.man.Commits[n-1].Generation
	}
	return -1
}

// Records returns the number of live records, those added since the last
// commit included.
func (s *Store) Records() int64 { return s.Bytes() / RecordSize }

// CommittedRecords returns the number of records Scan reads: the live
// records as of the last commit.
func (s *Store) CommittedRecords() int64 {
	var n int64
	for _, g := range s.man.Segments {
		n += g.records()
	}
	return n / RecordSize
}

// Bytes returns the bytes of the live records (the segments' headers not
// counted), those added since the last commit included.
func (s *Store) Bytes() int64 {
	var n int64
	for _, g := range s.segs {
		n += g.records()
	}
	return n
}

// usable returns why the store cannot do op: it is closed, or a write
// failed (the store on disk is still its last commit: reopen it).
func (s *Store) usable(op string) error {
	if s.closed {
		return fmt.Errorf("%s positions store %s: closed", op, s.dir)
	}
	if s.opts.ReadOnly {
		return fmt.Errorf("%s positions store %s: opened read-only", op, s.dir)
	}
	if s.err != nil {
		return fmt.Errorf("%s positions store %s: an earlier write failed, reopen the store: %w", op, s.dir, s.err)
	}
	return nil
}

// Add appends to generation's records those of recs that the store does
// not hold, duplicates among recs included, and returns how many it
// added. The records are buffered and a crash loses them until Commit.
// Generation must be after the last committed one. The error names the
// first record that is not one Unmarshal would read back (nothing of recs
// is added then), or a failed write, after which the store must be
// reopened. Add allocates nothing but the new segment files.
func (s *Store) Add(generation int, recs []Record) (added int, err error) {
	if err := s.usable("add to"); err != nil {
		return 0, err
	}
	if c := s.Committed(); generation <= c {
		return 0, fmt.Errorf("add to positions store %s: generation %d, already committed %d", s.dir, generation, c)
	}
	for i := range recs {
		if r := &recs[i]; r.Result < Loss || r.Result > Unknown || r.Source != DataGame && r.Source != Tournament {
			return 0, fmt.Errorf("add to positions store %s: record %d: result %d, source %d", s.dir, i, r.Result, r.Source)
		}
	}
	for i := range recs {
		r := &recs[i]
		key := r.Position.Key()
		if s.table.seen(key) {
			continue
		}
		if err := s.room(); err != nil {
			s.err = err
			return added, fmt.Errorf("add to positions store %s: %w", s.dir, err)
		}
		n := len(s.buf)
		s.buf = s.buf[:n+RecordSize]
		r.MarshalTo(s.buf[n:])
		last := &s.segs[len(s.segs)-1]
		last.Bytes += RecordSize
		s.table.insert(key, last.Seq)
		added++
	}
	return added, nil
}

// room makes room for one record: the last segment open, not full, and
// the buffer not full.
func (s *Store) room() error {
	n := len(s.segs)
	if s.f == nil || s.segs[n-1].records() >= s.opts.SegmentBytes {
		if n > 0 && s.segs[n-1].records() < s.opts.SegmentBytes {
			return s.reopenLast()
		}
		return s.startSegment()
	}
	if len(s.buf)+RecordSize > cap(s.buf) {
		return s.flush()
	}
	return nil
}

// reopenLast opens the last segment, not full, for appending.
func (s *Store) reopenLast() error {
	f, err := os.OpenFile(s.path(segmentName(s.segs[len(s.segs)-1].Seq)), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	s.f = f
	return nil
}

// startSegment closes the last segment, synced, and begins the next one
// with its header in the buffer. Its number follows the last live
// segment's, or the last commit's when none is live (a Rewind emptied
// the store).
func (s *Store) startSegment() error {
	if s.f != nil {
		if err := s.sync(); err != nil {
			return err
		}
		if err := s.f.Close(); err != nil {
			return err
		}
		s.f = nil
	}
	if len(s.segs) >= maxSegments-1 {
		return fmt.Errorf("%d segments live since the last commit: commit more often or raise SegmentBytes", len(s.segs))
	}
	seq := uint64(1)
	if n := len(s.segs); n > 0 {
		seq = s.segs[n-1].Seq + 1
	} else if n := len(s.man.Commits); n > 0 {
		seq = s.man.Commits[n-1].Segment + 1
	}
	f, err := os.OpenFile(s.path(segmentName(seq)), os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	s.f = f
	h := header(s.opts.Game)
	s.buf = append(s.buf, h[:]...)
	s.segs = append(s.segs, segment{Seq: seq, Bytes: headerSize})
	return nil
}

// flush writes the buffer to the last segment.
func (s *Store) flush() error {
	if len(s.buf) == 0 {
		return nil
	}
	if _, err := s.f.Write(s.buf); err != nil {
		return err
	}
	s.buf = s.buf[:0]
	s.dirty = true
	return nil
}

// sync writes the buffer and syncs the last segment.
func (s *Store) sync() error {
	if err := s.flush(); err != nil {
		return err
	}
	if !s.dirty {
		return nil
	}
	if err := s.f.Sync(); err != nil {
		return err
	}
	s.dirty = false
	return nil
}

// Commit makes the records added so far generation's and durable: it
// writes and syncs them, rewrites the manifest (a temporary file, a sync,
// a rename, a sync of the directory) with where generation ends, then
// drops the oldest whole segments while the records exceed MaxBytes (the
// last segment is kept). Generation must be after the last committed one.
// A failed write leaves the store as of the last commit, to be reopened.
func (s *Store) Commit(generation int) error {
	if err := s.usable("commit"); err != nil {
		return err
	}
	if c := s.Committed(); generation <= c {
		return fmt.Errorf("commit positions store %s: generation %d, already committed %d", s.dir, generation, c)
	}
	if err := s.commit(generation); err != nil {
		s.err = err
		return fmt.Errorf("commit positions store %s generation %d: %w", s.dir, generation, err)
	}
	return nil
}

// commit is Commit once its arguments are checked.
func (s *Store) commit(generation int) error {
	if s.f != nil {
		if err := s.sync(); err != nil {
			return err
		}
	}
	total, drop := s.Bytes(), 0
	for total > s.opts.MaxBytes && len(s.segs)-drop > 1 {
		total -= s.segs[drop].records()
		drop++
	}
	dropped := slices.Clone(s.segs[:drop])
	m := s.man
	m.Segments = slices.Clone(s.segs[drop:])
	c := commit{Generation: generation}
	if n := len(s.segs); n > 0 {
		c.Segment, c.Bytes = s.segs[n-1].Seq, s.segs[n-1].Bytes
	}
	m.Commits = append(slices.Clone(s.man.Commits), c)
	m.Commits = m.Commits[max(0, len(m.Commits)-keptCommits):]
	if err := s.writeManifest(m); err != nil {
		return err
	}
	s.man = m
	s.segs = append(s.segs[:0], s.segs[drop:]...)
	if drop > 0 {
		s.table.forget(dropped[0].Seq, uint64(drop))
	}
	for _, g := range dropped {
		if err := os.Remove(s.path(segmentName(g.Seq))); err != nil {
			return fmt.Errorf("generation committed, but dropping a segment: %w", err)
		}
	}
	return nil
}

// Rewind makes the store what it was at the end of generation's commit:
// the records added since the last commit are discarded, the segments
// after it removed and its segment cut to its size, and the duplicate
// table rebuilt (stopped by ctx). The daemon calls it on resuming, when
// its database's last generation is before the store's. A generation
// without a commit of its own goes back to the last commit before it; one
// before the oldest kept commit (the manifest keeps 64) is an error.
// Segments dropped since generation's commit are not brought back.
func (s *Store) Rewind(ctx context.Context, generation int) error {
	if err := s.usable("rewind"); err != nil {
		return err
	}
	if err := s.rewind(ctx, generation); err != nil {
		if !errors.Is(err, errUnknownGeneration) {
			s.err = err
		}
		return fmt.Errorf("rewind positions store %s to generation %d: %w", s.dir, generation, err)
	}
	return nil
}

// errUnknownGeneration is Rewind's error for a generation older than
// every kept commit.
var errUnknownGeneration = errors.New("unknown generation")

// rewind is Rewind without the context of its errors.
func (s *Store) rewind(ctx context.Context, generation int) error {
	if s.f != nil {
		s.f.Close() // the records not committed are discarded: nothing to sync
		s.f, s.dirty = nil, false
	}
	s.buf = s.buf[:0]
	if generation < -1 {
		return fmt.Errorf("%w: generations count from 0", errUnknownGeneration)
	}
	if generation < s.Committed() {
		i := len(s.man.Commits) - 1
		for i >= 0 && s.man.Commits[i].Generation > generation {
			i--
		}
		if i < 0 {
			return fmt.Errorf("%w: the oldest kept commit is of generation %d", errUnknownGeneration, s.man.Commits[0].Generation)
		}
		c, m := s.man.Commits[i], s.man
		m.Commits = slices.Clone(m.Commits[:i+1])
		m.Segments = nil
		for _, g := range s.man.Segments {
			if g.Seq == c.Segment {
				m.Segments = append(m.Segments, segment{Seq: g.Seq, Bytes: c.Bytes})
			} else if g.Seq < c.Segment {
				m.Segments = append(m.Segments, g)
			}
		}
		if err := s.writeManifest(m); err != nil {
			return err
		}
		s.man = m
	}
	if err := s.recover(); err != nil {
		return err
	}
	s.segs = slices.Clone(s.man.Segments)
	return s.rebuild(ctx)
}

// Scan calls fn with every live committed record, oldest first, i
// counting from 0; the record is fn's only during the call. It reads the
// segments in chunks of 65,536 records and checks each segment's header
// and size and each record (an error wrapping ErrCorrupt names the file),
// and ctx between chunks. An error of fn stops the scan and is returned
// as it is.
func (s *Store) Scan(ctx context.Context, fn func(i int64, r *Record) error) error {
	if s.closed {
		return fmt.Errorf("scan positions store %s: closed", s.dir)
	}
	var i int64
	var fnErr error
	err := s.scan(ctx, func(_ uint64, r *Record) error {
		if fnErr = fn(i, r); fnErr != nil {
			return fnErr
		}
		i++
		return nil
	})
	if err != nil && err == fnErr {
		return err
	}
	if err != nil {
		return fmt.Errorf("scan positions store %s: %w", s.dir, err)
	}
	return nil
}

// scan calls fn with each committed record and the number of its
// segment.
func (s *Store) scan(ctx context.Context, fn func(seq uint64, r *Record) error) error {
	var most int64
	for _, g := range s.man.Segments {
		most = max(most, g.records())
	}
	buf := make([]byte, max(RecordSize, min(scanChunk, most)))
	for i, g := range s.man.Segments {
		if err := s.scanSegment(ctx, g, i == len(s.man.Segments)-1, buf, fn); err != nil {
			return err
		}
	}
	return nil
}

// scanSegment calls fn with each committed record of g, the last
// segment or not, read through buf.
func (s *Store) scanSegment(ctx context.Context, g segment, last bool, buf []byte, fn func(seq uint64, r *Record) error) error {
	path := s.path(segmentName(g.Seq))
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := checkSegment(f, path, s.opts.Game, g, last); err != nil {
		return err
	}
	var r Record
	for off := int64(headerSize); off < g.Bytes; {
		if err := ctx.Err(); err != nil {
			return err
		}
		chunk := buf[:min(int64(len(buf)), g.Bytes-off)]
		if _, err := io.ReadFull(f, chunk); err != nil {
			return fmt.Errorf("%w segment %s: %v", ErrCorrupt, path, err)
		}
		for j := 0; j < len(chunk); j += RecordSize {
			if err := r.Unmarshal(chunk[j:]); err != nil {
				return fmt.Errorf("segment %s at byte %d: %w", path, off+int64(j), err)
			}
			if err := fn(g.Seq, &r); err != nil {
				return err
			}
		}
		off += int64(len(chunk))
	}
	return nil
}

// Close closes the store's files. The records added since the last
// commit are discarded, as a crash would lose them.
func (s *Store) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if s.lock != nil {
		defer s.lock.Close() // after the segment: the lock is released last
		s.lock = nil
	}
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	if err != nil {
		return fmt.Errorf("close positions store %s: %w", s.dir, err)
	}
	return nil
}
