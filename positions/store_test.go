package positions

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testRecord returns the record of position id: its bytes a mix of id,
// its labels read from id, so that two ids give two positions and a
// record can be checked against its id.
func testRecord(id int) Record {
	r := Record{Score: int16(id%2000 - 1000), Move: uint16(id), Ply: uint16(id % 300), Result: Result(id%4 - 1), Source: DataGame + Source(id%2)}
	x := uint64(id)
	for i := 0; i < PackedSize; i += 8 {
		x = mix(x)
		for j := range 8 {
			r.Position[i+j] = byte(x >> (8 * j))
		}
	}
	return r
}

// testRecords returns the records of ids.
func testRecords(ids ...int) []Record {
	recs := make([]Record, len(ids))
	for i, id := range ids {
		recs[i] = testRecord(id)
	}
	return recs
}

// openStore opens the store in dir or fails t.
func openStore(t testing.TB, dir string, opts Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// scanAll returns the store's records in order, failing t if Scan does
// or if Scan's index skips.
func scanAll(t testing.TB, s *Store) []Record {
	t.Helper()
	var recs []Record
	err := s.Scan(context.Background(), func(i int64, r *Record) error {
		if i != int64(len(recs)) {
			return fmt.Errorf("index %d after %d records", i, len(recs))
		}
		recs = append(recs, *r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// files returns the name and bytes of every file in dir.
func files(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = b
	}
	return m
}

// fileSize returns the size of the file at path or fails t.
func fileSize(t testing.TB, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

// mustAdd adds recs to s as generation's and returns how many were added.
func mustAdd(t testing.TB, s *Store, generation int, recs []Record) int {
	t.Helper()
	n, err := s.Add(generation, recs)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// mustCommit commits generation or fails t.
func mustCommit(t testing.TB, s *Store, generation int) {
	t.Helper()
	if err := s.Commit(generation); err != nil {
		t.Fatal(err)
	}
}

func TestStoreRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir, Options{Game: "chess", DedupBits: 12})
	if s.Committed() != -1 || s.Records() != 0 {
		t.Fatalf("new store: committed %d, %d records; want -1, 0", s.Committed(), s.Records())
	}
	ids := make([]int, 100)
	for i := range ids {
		ids[i] = 7 * i
	}
	want := testRecords(ids...)
	if n := mustAdd(t, s, 0, want); n != 100 {
		t.Fatalf("added %d, want 100", n)
	}
	if got := scanAll(t, s); len(got) != 0 {
		t.Fatalf("scanned %d records before the commit, want 0", len(got))
	}
	mustCommit(t, s, 0)
	if got := scanAll(t, s); !slices.Equal(got, want) {
		t.Fatalf("scanned %d records, not the %d added", len(got), len(want))
	}
	if s.Records() != 100 || s.Bytes() != 4000 || s.Committed() != 0 {
		t.Fatalf("%d records, %d bytes, committed %d; want 100, 4000, 0", s.Records(), s.Bytes(), s.Committed())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if size := fileSize(t, filepath.Join(dir, "seg-00000001.pos")); size != headerSize+4000 {
		t.Fatalf("segment file of %d bytes, want %d", size, headerSize+4000)
	}
	s = openStore(t, dir, Options{Game: "chess", DedupBits: 12})
	defer s.Close()
	if got := scanAll(t, s); !slices.Equal(got, want) || s.Committed() != 0 {
		t.Fatalf("reopened: %d records, committed %d; want the %d added, 0", len(got), s.Committed(), len(want))
	}
}

func TestStoreDuplicates(t *testing.T) {
	s := openStore(t, t.TempDir(), Options{Game: "chess", DedupBits: 16})
	defer s.Close()
	for _, step := range []struct {
		generation int
		ids        []int
		added      int
		commit     bool
	}{
		{1, []int{1, 2, 1, 3, 3, 3}, 3, false}, // duplicates within a call
		{1, []int{2, 4}, 1, true},              // and with a call not yet committed
		{2, []int{1, 5, 5, 4, 6}, 2, true},     // and with a committed generation
		{3, []int{1, 2, 3, 4, 5, 6}, 0, true},
	} {
		if n := mustAdd(t, s, step.generation, testRecords(step.ids...)); n != step.added {
			t.Fatalf("Add(%d, %v) = %d, want %d", step.generation, step.ids, n, step.added)
		}
		if step.commit {
			mustCommit(t, s, step.generation)
		}
	}
	if got, want := scanAll(t, s), testRecords(1, 2, 3, 4, 5, 6); !slices.Equal(got, want) {
		t.Fatalf("scanned %d records, want ids 1 to 6 in order", len(got))
	}
}

// windowOptions make segments of 10 records and keep 25 records at most,
// so that generations of a dozen records drop a segment every commit or
// two.
var windowOptions = Options{Game: "xiangqi", SegmentBytes: 10 * RecordSize, MaxBytes: 25 * RecordSize, DedupBits: 20}

// generationIDs returns the ids generation g adds: a dozen new ones,
// one twice, one of the generation before (still live) and one of the
// first generation (dropped after a few generations, then new again).
func generationIDs(g int) []int {
	ids := []int{100*g + 0, 100*g + 1}
	for i := range 10 {
		ids = append(ids, 100*g+2+i)
	}
	return append(ids, 100*g+0, 100*(g-1)+3, 101)
}

// storeModel is what a store should hold, computed with a set of keys
// instead of the table: equal to the store when no two keys share a
// slot.
type storeModel struct {
	segments [][]int // the live segments' ids
	perSeg   int
	max      int // records
}

// add adds ids and returns how many were not live.
func (m *storeModel) add(ids []int) int {
	added := 0
	for _, id := range ids {
		if m.live(id) {
			continue
		}
		if n := len(m.segments); n == 0 || len(m.segments[n-1]) == m.perSeg {
			m.segments = append(m.segments, nil)
		}
		m.segments[len(m.segments)-1] = append(m.segments[len(m.segments)-1], id)
		added++
	}
	return added
}

func (m *storeModel) live(id int) bool {
	for _, seg := range m.segments {
		if slices.Contains(seg, id) {
			return true
		}
	}
	return false
}

func (m *storeModel) records() int {
	n := 0
	for _, seg := range m.segments {
		n += len(seg)
	}
	return n
}

// commit drops the oldest segments while the records exceed the bound.
func (m *storeModel) commit() {
	for m.records() > m.max && len(m.segments) > 1 {
		m.segments = m.segments[1:]
	}
}

// checkDistinctSlots fails t unless the generations' ids fall in distinct
// slots of a table of bits, so that the model is exact.
func checkDistinctSlots(t *testing.T, generations, bits int) {
	t.Helper()
	slots := map[uint64]int{}
	for g := 1; g <= generations; g++ {
		for _, id := range generationIDs(g) {
			r := testRecord(id)
			slot := r.Position.Key() & (1<<bits - 1)
			if other, ok := slots[slot]; ok && other != id {
				t.Fatalf("ids %d and %d share slot %d: the model would not be exact", id, other, slot)
			}
			slots[slot] = id
		}
	}
}

func TestStoreWindow(t *testing.T) {
	const generations = 12
	checkDistinctSlots(t, generations, windowOptions.DedupBits)
	dir := t.TempDir()
	s := openStore(t, dir, windowOptions)
	defer s.Close()
	m := storeModel{perSeg: 10, max: 25}
	dropped := false
	for g := 1; g <= generations; g++ {
		ids := generationIDs(g)
		added, model := mustAdd(t, s, g, testRecords(ids...)), m.add(ids)
		// Generation 1 adds 13 of its 15 ids (100 and 101 come twice);
		// generation 2 adds its 12 new ones (103 and 101 are live).
		if added != model || g == 1 && added != 13 || g == 2 && added != 12 {
			t.Fatalf("generation %d: added %d, want %d", g, added, model)
		}
		mustCommit(t, s, g)
		m.commit()
		if s.Bytes() > windowOptions.MaxBytes || s.Records() != int64(m.records()) {
			t.Fatalf("generation %d: %d records, %d bytes; want %d, at most %d bytes", g, s.Records(), s.Bytes(), m.records(), windowOptions.MaxBytes)
		}
		var want []Record
		var names []string
		for _, seg := range m.segments {
			want = append(want, testRecords(seg...)...)
		}
		if got := scanAll(t, s); !slices.Equal(got, want) {
			t.Fatalf("generation %d: scanned %d records, want %d", g, len(got), len(want))
		}
		for name := range files(t, dir) {
			if strings.HasPrefix(name, "seg-") {
				names = append(names, name)
			}
		}
		if len(names) != len(m.segments) {
			t.Fatalf("generation %d: segment files %v, want %d", g, names, len(m.segments))
		}
		dropped = dropped || s.man.Segments[0].Seq > 1
	}
	if !dropped {
		t.Fatal("no segment was dropped: the test does not test the window")
	}
}

func TestStoreCrashLosesOnlyUncommitted(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir, windowOptions)
	for g := 1; g <= 3; g++ {
		mustAdd(t, s, g, testRecords(generationIDs(g)...))
		mustCommit(t, s, g)
	}
	want, before := scanAll(t, s), files(t, dir)
	// Generation 4 fills one segment and begins another, both on disk,
	// then the process dies without a commit or a Close.
	ids := make([]int, 25)
	for i := range ids {
		ids[i] = 400 + i
	}
	mustAdd(t, s, 4, testRecords(ids...))
	if err := s.flush(); err != nil {
		t.Fatal(err)
	}
	die(s)
	if after := files(t, dir); len(after) <= len(before) {
		t.Fatalf("the uncommitted generation wrote %d files, want more than %d", len(after), len(before))
	}
	s = openStore(t, dir, windowOptions)
	defer s.Close()
	if got := scanAll(t, s); !slices.Equal(got, want) || s.Committed() != 3 {
		t.Fatalf("after the crash: %d records, committed %d; want %d, 3", len(got), s.Committed(), len(want))
	}
	after := files(t, dir)
	if len(after) != len(before) {
		t.Fatalf("after the crash: files %d, want %d", len(after), len(before))
	}
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Fatalf("after the crash: %s differs from the committed store", name)
		}
	}
	if n := mustAdd(t, s, 4, testRecords(ids...)); n != 25 {
		t.Fatalf("generation 4 again: added %d, want 25", n)
	}
}

func TestStoreRewind(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	opts := Options{Game: "draughts", DedupBits: 16}
	s := openStore(t, dir, opts)
	var at [6][]Record
	for g := 1; g <= 5; g++ {
		mustAdd(t, s, g, testRecords(10*g, 10*g+1, 10*g+2))
		if g != 4 { // generation 4 has no commit of its own: 5 commits it
			mustCommit(t, s, g)
		}
		at[g] = scanAll(t, s)
	}
	mustAdd(t, s, 6, testRecords(60))
	if err := s.Rewind(ctx, 4); err != nil {
		t.Fatal(err)
	}
	if got := scanAll(t, s); !slices.Equal(got, at[3]) || s.Committed() != 3 || s.Records() != 9 {
		t.Fatalf("rewound to 4: %d records (%d live), committed %d; want 9, 9, 3", len(got), s.Records(), s.Committed())
	}
	if n := mustAdd(t, s, 4, testRecords(10, 40, 50)); n != 2 {
		t.Fatalf("after the rewind, added %d of 10, 40 and 50; want 2 (40 and 50 are new again)", n)
	}
	mustCommit(t, s, 4)
	if err := s.Rewind(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, dir, opts)
	if got := scanAll(t, s); !slices.Equal(got, at[2]) || s.Committed() != 2 {
		t.Fatalf("rewound to 2 and reopened: %d records, committed %d; want %d, 2", len(got), s.Committed(), len(at[2]))
	}
	if size := fileSize(t, filepath.Join(dir, "seg-00000001.pos")); size != headerSize+6*RecordSize {
		t.Fatalf("rewound segment of %d bytes, want %d", size, headerSize+6*RecordSize)
	}
	for g := 3; g <= 72; g++ {
		mustCommit(t, s, g)
	}
	err := s.Rewind(ctx, 8)
	if err == nil || !strings.Contains(err.Error(), "to generation 8: unknown generation: the oldest kept commit is of generation 9") {
		t.Fatalf("Rewind(8) after 72 commits = %v, want an unknown generation 8", err)
	}
	if err := s.Rewind(ctx, 9); err != nil || s.Committed() != 9 {
		t.Fatalf("Rewind(9) = %v, committed %d; want nil, 9", err, s.Committed())
	}
	s.Close()
}

// resumeRun adds generations from..to of generationIDs, committing each,
// to s.
func resumeRun(t *testing.T, s *Store, from, to int) {
	t.Helper()
	for g := from; g <= to; g++ {
		ids := generationIDs(g)
		mustAdd(t, s, g, testRecords(ids[:7]...))
		mustAdd(t, s, g, testRecords(ids[7:]...))
		mustCommit(t, s, g)
	}
}

func TestStoreResumeIsBitIdentical(t *testing.T) {
	const last, stop = 14, 7
	ctx := context.Background()
	whole := t.TempDir()
	s := openStore(t, whole, windowOptions)
	resumeRun(t, s, 1, last)
	s.Close()
	want := files(t, whole)
	if _, ok := want["seg-00000001.pos"]; ok {
		t.Fatal("no segment was dropped: the test does not test the window")
	}
	check := func(name, dir string) {
		t.Helper()
		got := files(t, dir)
		if len(got) != len(want) {
			t.Fatalf("%s: %d files, want %d", name, len(got), len(want))
		}
		for file, b := range want {
			if !bytes.Equal(got[file], b) {
				t.Fatalf("%s: %s differs from the uninterrupted run's", name, file)
			}
		}
	}

	// A crash after generation stop's commit, with records of the next
	// generation (others than the run's) on disk.
	crashed := t.TempDir()
	s = openStore(t, crashed, windowOptions)
	resumeRun(t, s, 1, stop)
	mustAdd(t, s, stop+1, testRecords(900, 901, 902, 903, 904, 905, 906, 907, 908, 909, 910, 911))
	if err := s.flush(); err != nil {
		t.Fatal(err)
	}
	die(s)
	s = openStore(t, crashed, windowOptions)
	resumeRun(t, s, stop+1, last)
	s.Close()
	check("resumed after a crash", crashed)

	// A store ahead of the database: generation stop+1 committed with
	// records the database never saw, rewound to stop. No segment is
	// dropped at stop+1's commit, so the rewind returns to the very store
	// of generation stop.
	rewound := t.TempDir()
	s = openStore(t, rewound, windowOptions)
	resumeRun(t, s, 1, stop)
	first := s.man.Segments[0].Seq
	if n := mustAdd(t, s, stop+1, testRecords(950, 951, 952, 953, 954)); n != 5 {
		t.Fatalf("added %d, want 5: one segment filled, the next begun", n)
	}
	mustCommit(t, s, stop+1)
	if s.man.Segments[0].Seq != first || len(s.man.Segments) != 3 {
		t.Fatalf("generation stop+1 left segments %v: want none dropped and one begun", s.man.Segments)
	}
	s.Close()
	s = openStore(t, rewound, windowOptions)
	if err := s.Rewind(ctx, stop); err != nil {
		t.Fatal(err)
	}
	resumeRun(t, s, stop+1, last)
	s.Close()
	check("rewound", rewound)

	// Closed and reopened at every generation.
	reopened := t.TempDir()
	for g := 1; g <= last; g++ {
		s = openStore(t, reopened, windowOptions)
		resumeRun(t, s, g, g)
		s.Close()
	}
	check("reopened every generation", reopened)
}

// corruptStore returns a committed store of two segments (chess, 10
// records each, 15 records) and the path of its files.
func corruptStore(t *testing.T) (dir string, opts Options) {
	t.Helper()
	dir, opts = t.TempDir(), Options{Game: "chess", SegmentBytes: 10 * RecordSize, MaxBytes: 100 * RecordSize, DedupBits: 12}
	s := openStore(t, dir, opts)
	ids := make([]int, 15)
	for i := range ids {
		ids[i] = i
	}
	mustAdd(t, s, 1, testRecords(ids...))
	mustCommit(t, s, 1)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return dir, opts
}

func TestStoreCorrupt(t *testing.T) {
	for _, tc := range []struct {
		name   string
		damage func(dir string) error
		game   string
		want   string // in the error
	}{
		{"magic", func(dir string) error {
			return writeAt(filepath.Join(dir, "seg-00000001.pos"), 0, []byte("EVPOS002"))
		}, "", `seg-00000001.pos: magic "EVPOS002", want "EVPOS001"`},
		{"segment game", func(dir string) error {
			return writeAt(filepath.Join(dir, "seg-00000002.pos"), 8, []byte("xiangqi\x00"))
		}, "", `seg-00000002.pos: game "xiangqi", want "chess"`},
		{"store game", nil, "xiangqi", "manifest.json: store of game chess, want xiangqi"},
		{"truncated last segment", func(dir string) error {
			return os.Truncate(filepath.Join(dir, "seg-00000002.pos"), headerSize+4*RecordSize)
		}, "", "seg-00000002.pos: 176 bytes, committed 216"},
		{"truncated older segment", func(dir string) error {
			return os.Truncate(filepath.Join(dir, "seg-00000001.pos"), headerSize+9*RecordSize+3)
		}, "", "seg-00000001.pos: 379 bytes, committed 416"},
		{"longer older segment", func(dir string) error {
			return writeAt(filepath.Join(dir, "seg-00000001.pos"), headerSize+10*RecordSize, make([]byte, RecordSize))
		}, "", "seg-00000001.pos: 456 bytes, committed 416"},
		{"missing segment", func(dir string) error {
			return os.Remove(filepath.Join(dir, "seg-00000001.pos"))
		}, "", "seg-00000001.pos: no such file"},
		{"torn manifest", func(dir string) error {
			return os.Truncate(filepath.Join(dir, "manifest.json"), 40)
		}, "", "manifest.json: unexpected end of JSON input"},
		{"bad record", func(dir string) error {
			return writeAt(filepath.Join(dir, "seg-00000002.pos"), headerSize+2*RecordSize+38, []byte{9})
		}, "", "seg-00000002.pos at byte 96: positions: corrupt record: result byte 9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, opts := corruptStore(t)
			if tc.damage != nil {
				if err := tc.damage(dir); err != nil {
					t.Fatal(err)
				}
			}
			if tc.game != "" {
				opts.Game = tc.game
			}
			s, err := Open(context.Background(), dir, opts)
			if err == nil {
				s.Close()
			}
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "open positions store "+dir+": ") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Open = %v, want ErrCorrupt naming %q", err, tc.want)
			}
		})
	}
}

// writeAt writes b into the file at path at offset off.
func writeAt(path string, off int64, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(b, off); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func TestStoreScanCorrupt(t *testing.T) {
	dir, opts := corruptStore(t)
	s := openStore(t, dir, opts)
	defer s.Close()
	if err := writeAt(filepath.Join(dir, "seg-00000001.pos"), 0, []byte("X")); err != nil {
		t.Fatal(err)
	}
	err := s.Scan(context.Background(), func(int64, *Record) error { return nil })
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "scan positions store "+dir+": positions: corrupt segment "+filepath.Join(dir, "seg-00000001.pos")+": magic") {
		t.Fatalf("Scan = %v, want ErrCorrupt naming the segment's magic", err)
	}
	stop := errors.New("stop")
	s2 := openStore(t, t.TempDir(), opts)
	defer s2.Close()
	mustAdd(t, s2, 0, testRecords(1, 2, 3))
	mustCommit(t, s2, 0)
	seen := 0
	err = s2.Scan(context.Background(), func(int64, *Record) error { seen++; return stop })
	if err != stop || seen != 1 {
		t.Fatalf("Scan with fn failing = %v after %d records, want fn's error after 1", err, seen)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s2.Scan(ctx, func(int64, *Record) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("Scan cancelled = %v, want context.Canceled", err)
	}
}

func TestStoreCrashBytesAreCut(t *testing.T) {
	dir, opts := corruptStore(t)
	path := filepath.Join(dir, "seg-00000002.pos")
	// Half a record beyond the commit: the write a crash interrupted.
	if err := writeAt(path, headerSize+5*RecordSize, make([]byte, RecordSize/2)); err != nil {
		t.Fatal(err)
	}
	s := openStore(t, dir, opts)
	defer s.Close()
	if size := fileSize(t, path); size != headerSize+5*RecordSize {
		t.Fatalf("last segment of %d bytes after Open, want %d", size, headerSize+5*RecordSize)
	}
	if s.Records() != 15 {
		t.Fatalf("%d records, want 15", s.Records())
	}
}

func TestStoreRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{}, `game name ""`},
		{Options{Game: "shogi-variant"}, `game name "shogi-variant"`},
		{Options{Game: "chess", SegmentBytes: 100, MaxBytes: 80}, "segment bytes 100 above max bytes 80"},
		{Options{Game: "chess", SegmentBytes: 40, MaxBytes: 1 << 30}, "hold more than 16384 segments"},
		{Options{Game: "chess", DedupBits: 31}, "dedup bits 31"},
	} {
		if _, err := Open(context.Background(), dir, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%+v) = %v, want %q", tc.opts, err, tc.want)
		}
	}
	s := openStore(t, dir, Options{Game: "chess", DedupBits: 8})
	defer s.Close()
	mustCommit(t, s, 3)
	if _, err := s.Add(3, testRecords(1)); err == nil || !strings.Contains(err.Error(), "generation 3, already committed 3") {
		t.Errorf("Add(3) after Commit(3) = %v, want a refusal", err)
	}
	if err := s.Commit(2); err == nil || !strings.Contains(err.Error(), "generation 2, already committed 3") {
		t.Errorf("Commit(2) after Commit(3) = %v, want a refusal", err)
	}
	bad := testRecords(1, 2)
	bad[1].Source = 0
	if n, err := s.Add(4, bad); n != 0 || err == nil || !strings.Contains(err.Error(), "record 1: result 1, source 0") {
		t.Errorf("Add of a record without a source = %d, %v; want 0 and a refusal", n, err)
	}
	if s.Records() != 0 {
		t.Errorf("%d records after a refused Add, want 0", s.Records())
	}
}

func TestStoreAddDoesNotAllocate(t *testing.T) {
	s := openStore(t, t.TempDir(), Options{Game: "chess", DedupBits: 16})
	defer s.Close()
	mustAdd(t, s, 1, testRecords(0)) // the segment's file is opened once
	batches := make([][]Record, 12)
	for i := range batches {
		ids := make([]int, 500)
		for j := range ids {
			ids[j] = 1 + 500*i + j
		}
		batches[i] = testRecords(ids...)
	}
	i := 0
	allocs := testing.AllocsPerRun(10, func() {
		if n, err := s.Add(1, batches[i]); n != 500 || err != nil {
			t.Fatalf("added %d, %v; want 500", n, err)
		}
		i++
	})
	if allocs != 0 {
		t.Fatalf("Add of 500 records: %v allocations, want 0", allocs)
	}
}

func FuzzOpenManifest(f *testing.F) {
	seed, opts := corruptStoreForFuzz(f)
	manifest, err := os.ReadFile(filepath.Join(seed, manifestName))
	if err != nil {
		f.Fatal(err)
	}
	segment, err := os.ReadFile(filepath.Join(seed, "seg-00000001.pos"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(manifest)
	f.Add([]byte(`{"version":1,"game":"chess","record_size":40,"segments":[{"seq":1,"bytes":96}],"commits":[{"generation":0,"segment":1,"bytes":96}]}`))
	f.Add([]byte(`{"version":1,"game":"chess","record_size":40,"segments":[],"commits":[{"generation":3,"segment":9,"bytes":56}]}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, manifestName), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "seg-00000001.pos"), segment, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Open(context.Background(), dir, opts)
		if err != nil {
			return
		}
		defer s.Close()
		if err := s.Scan(context.Background(), func(int64, *Record) error { return nil }); err != nil {
			t.Fatalf("Scan after a successful Open = %v", err)
		}
		if s.Committed() > 1<<40 {
			return // no generation after it
		}
		if _, err := s.Add(s.Committed()+1, testRecords(1, 2, 3)); err != nil {
			t.Fatal(err)
		}
		if err := s.Commit(s.Committed() + 1); err != nil {
			t.Fatal(err)
		}
		if err := s.Rewind(context.Background(), 0); err != nil && !errors.Is(err, errUnknownGeneration) {
			t.Fatal(err)
		}
	})
}

// corruptStoreForFuzz is corruptStore for a fuzz target: one segment of
// 2 records.
func corruptStoreForFuzz(f *testing.F) (string, Options) {
	dir, opts := f.TempDir(), Options{Game: "chess", DedupBits: 8}
	s := openStore(f, dir, opts)
	mustAdd(f, s, 0, testRecords(1, 2))
	mustCommit(f, s, 0)
	if err := s.Close(); err != nil {
		f.Fatal(err)
	}
	return dir, opts
}

func BenchmarkStoreAddCommit(b *testing.B) {
	const batch = 4096
	s := openStore(b, b.TempDir(), Options{Game: "chess", SegmentBytes: 16 << 20, MaxBytes: 256 << 20})
	defer s.Close()
	recs := testRecords(make([]int, batch)...)
	b.ReportAllocs()
	id, g := uint64(0), 0
	for b.Loop() {
		// New positions at the cost of a store: the first 8 bytes count.
		for i := range recs {
			binary.LittleEndian.PutUint64(recs[i].Position[:], id)
			id++
		}
		if n := mustAdd(b, s, g, recs); n != batch {
			b.Fatalf("added %d, want %d", n, batch)
		}
		if id%(64*batch) == 0 {
			mustCommit(b, s, g)
			g++
		}
	}
	mustCommit(b, s, g)
	b.ReportMetric(float64(id)/b.Elapsed().Seconds(), "records/s")
}

func BenchmarkStoreScan(b *testing.B) {
	const n = 1 << 20
	s := openStore(b, b.TempDir(), Options{Game: "chess", SegmentBytes: 16 << 20})
	defer s.Close()
	recs := make([]Record, n)
	for i := range recs {
		recs[i] = testRecord(i)
	}
	mustAdd(b, s, 0, recs)
	mustCommit(b, s, 0)
	b.ReportAllocs()
	b.ResetTimer()
	scanned := 0
	for b.Loop() {
		if err := s.Scan(context.Background(), func(int64, *Record) error { scanned++; return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(scanned)/b.Elapsed().Seconds(), "records/s")
}

// die leaves s as a killed process does: its files closed without a
// commit, its lock released by the kernel.
func die(s *Store) {
	if s.f != nil {
		s.f.Close()
	}
	s.lock.Close()
	s.closed = true
}

// TestStoreLock opens a store twice for writing, which the lock refuses,
// and once read-only beside the writer, which sees the committed records
// only and refuses to write.
func TestStoreLock(t *testing.T) {
	dir := t.TempDir()
	w := openStore(t, dir, windowOptions)
	defer w.Close()
	mustAdd(t, w, 1, testRecords(generationIDs(1)...))
	mustCommit(t, w, 1)
	committed := scanAll(t, w)
	if _, err := Open(context.Background(), dir, windowOptions); !errors.Is(err, ErrLocked) {
		t.Fatalf("a second writer: %v, want ErrLocked", err)
	}
	mustAdd(t, w, 2, testRecords(generationIDs(2)...))
	if err := w.flush(); err != nil {
		t.Fatal(err)
	}
	ro := windowOptions
	ro.ReadOnly = true
	r, err := Open(context.Background(), dir, ro)
	if err != nil {
		t.Fatal(err)
	}
	if got := scanAll(t, r); !slices.Equal(got, committed) {
		t.Fatalf("read-only beside a writer: %d records, want the %d committed", len(got), len(committed))
	}
	if _, err := r.Add(3, testRecords(1)); err == nil {
		t.Fatal("a read-only store took records")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	// The writer's uncommitted records are still there to commit.
	mustCommit(t, w, 2)
	if got := scanAll(t, w); len(got) <= len(committed) {
		t.Fatalf("after the reader: %d records, want more than %d", len(got), len(committed))
	}
	if _, err := Open(context.Background(), t.TempDir()+"/none", ro); err == nil {
		t.Fatal("a read-only open of no store succeeded")
	}
}
