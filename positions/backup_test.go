package positions

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBackup backs up a store of several segments beside its open
// writer: the copy opens as a store with the same committed records and
// generation, and leaves out what was added and not committed. A second
// backup links the segments that did not change and copies the one that
// grew; after a rewind rewrites a segment with other records of the same
// size, a third copies it again rather than link the old bytes.
func TestBackup(t *testing.T) {
	ctx := context.Background()
	dir, out := t.TempDir(), t.TempDir()
	opts := Options{Game: "chess", DedupBits: 16, SegmentBytes: 10 * RecordSize, MaxBytes: 1000 * RecordSize}
	s := openStore(t, dir, opts)
	defer s.Close()
	for g := 1; g <= 5; g++ {
		mustAdd(t, s, g, testRecords(10*g, 10*g+1, 10*g+2, 10*g+3, 10*g+4))
		mustCommit(t, s, g)
	}
	mustAdd(t, s, 6, testRecords(60, 61)) // not committed: not backed up
	want := scanAll(t, s)[:25]

	first := filepath.Join(out, "b1")
	rep, err := Backup(ctx, dir, first, "")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Records != 25 || rep.Generation != 5 || rep.Copied != 3 || rep.Linked != 0 {
		t.Errorf("first backup: %+v, want 25 records of generation 5 in 3 segments copied", rep)
	}
	check := func(path string, want []Record, generation int) {
		t.Helper()
		c, err := Open(ctx, path, Options{Game: "chess", ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := scanAll(t, c); !slices.Equal(got, want) || c.Committed() != generation {
			t.Errorf("%s: %d records of generation %d, want %d of %d", path, len(got), c.Committed(), len(want), generation)
		}
	}
	check(first, want, 5)

	mustCommit(t, s, 6)
	mustAdd(t, s, 7, testRecords(70, 71, 72))
	mustCommit(t, s, 7)
	second := filepath.Join(out, "b2")
	if rep, err = Backup(ctx, dir, second, first); err != nil {
		t.Fatal(err)
	}
	if rep.Records != 30 || rep.Generation != 7 || rep.Linked != 2 || rep.Copied != 1 {
		t.Errorf("second backup: %+v, want 30 records of generation 7, 2 segments linked and the one that grew copied", rep)
	}
	check(second, scanAll(t, s), 7)
	if !sameFile(t, filepath.Join(first, "seg-00000001.pos"), filepath.Join(second, "seg-00000001.pos")) {
		t.Error("an unchanged segment was copied, not linked")
	}

	// Rewind to generation 2 and write other records of the same sizes:
	// segment 2 then holds other bytes than b2's.
	if err := s.Rewind(ctx, 2); err != nil {
		t.Fatal(err)
	}
	for g, n := range []int{3: 5, 4: 5, 5: 5, 6: 2, 7: 3} { // as many as before
		if g < 3 {
			continue
		}
		ids := make([]int, n)
		for i := range ids {
			ids[i] = 100*g + i
		}
		mustAdd(t, s, g, testRecords(ids...))
		mustCommit(t, s, g)
	}
	third := filepath.Join(out, "b3")
	if rep, err = Backup(ctx, dir, third, second); err != nil {
		t.Fatal(err)
	}
	if rep.Linked != 1 || rep.Copied != 2 {
		t.Errorf("after the rewind: %+v, want segment 1 linked and the two rewritten copied", rep)
	}
	check(third, scanAll(t, s), 7)
	check(second, slices.Concat(want, testRecords(60, 61, 70, 71, 72)), 7) // the earlier backup is untouched

	// A leftover of a failed backup is replaced; an existing backup is
	// not overwritten; a directory that is no store is refused.
	if err := os.MkdirAll(filepath.Join(out, "b4.tmp", "junk"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Backup(ctx, dir, filepath.Join(out, "b4"), third); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "b4", "junk")); err == nil {
		t.Error("the failed backup's leftover is in the new one")
	}
	if _, err := Backup(ctx, dir, third, ""); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("a backup over an existing one: %v", err)
	}
	if _, err := Backup(ctx, out, filepath.Join(out, "b5"), ""); err == nil {
		t.Error("a directory without a manifest was backed up")
	}
}

// sameFile reports whether a and b are links to one file.
func sameFile(t *testing.T, a, b string) bool {
	t.Helper()
	ia, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	ib, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	return os.SameFile(ia, ib)
}
