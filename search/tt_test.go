package search

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"evolved/game"
	"evolved/game/draughts"
)

// TestTableClearEmptiesWhatWasStored stores into a table a few buckets'
// worth (listed, cleared one by one), more than its list holds (cleared
// whole), and through a parallel search's sharing; after each clear every
// bucket must be empty, as a new table's are, and no key found.
func TestTableClearEmptiesWhatWasStored(t *testing.T) {
	tab := newTable[draughts.Move](10) // 512 buckets, 32 of them listed
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		name   string
		stores int
		shared bool
		listed bool // clear empties the listed buckets alone
	}{
		{"a few", 20, false, true},
		{"as many as listed", 32, false, true},
		{"more than listed", 300, false, false},
		{"again a few", 5, false, true},
		{"shared", 5, true, false},
		{"after sharing", 5, false, true},
	} {
		if c.shared {
			tab.share(true)
		}
		keys := make([]uint64, c.stores)
		for i := range keys {
			keys[i] = rng.Uint64()
			tab.store(keys[i], draughts.Move(i+1), i, 3, 0, boundExact)
		}
		if c.shared {
			tab.share(false)
		}
		if got := !tab.spilled; got != c.listed && c.stores > 0 {
			t.Errorf("%s: %d stores listed %v, want %v", c.name, c.stores, got, c.listed)
		}
		tab.clear()
		for i := range tab.buckets {
			if b := &tab.buckets[i]; b.lock.Load() != 0 || b.slots != [2]ttEntry[draughts.Move]{} {
				t.Fatalf("%s: bucket %d holds %+v after clear", c.name, i, b.slots)
			}
		}
		for _, k := range keys {
			if _, ok := tab.probe(k); ok {
				t.Fatalf("%s: key %x found after clear", c.name, k)
			}
		}
		if len(tab.used) != 0 || tab.spilled || tab.generation != 0 {
			t.Fatalf("%s: after clear %d listed, spilled %v, generation %d", c.name, len(tab.used), tab.spilled, tab.generation)
		}
	}
}

// TestResetSearchesAsNew: a search reset between positions gives each
// position the result a new search of it gives (score, move, nodes), with
// searches of a few hundred nodes (the table's list) and of many (the whole
// table cleared) in turn.
func TestResetSearchesAsNew(t *testing.T) {
	opts := Options{Depth: 6, CaptureExtension: true, TableBits: 12}
	used := NewAlphaBeta[draughts.Move, *draughts.Game](material{}, opts)
	g := draughts.NewGame(draughts.Start(), draughts.DefaultRules())
	rng := rand.New(rand.NewPCG(3, 4))
	var moves []draughts.Move
	for ply := 0; ply < 30 && g.Outcome().Result == game.Ongoing; ply++ {
		depth := 2 + ply%2*6 // small searches, then ones that fill the table
		used.Reset()
		used.Limits(depth, 0, 0)
		got := used.Search(context.Background(), g)
		fresh := NewAlphaBeta[draughts.Move, *draughts.Game](material{}, opts)
		fresh.Limits(depth, 0, 0)
		want := fresh.Search(context.Background(), g)
		if got.Score != want.Score || got.Move != want.Move || got.Nodes != want.Nodes {
			t.Fatalf("ply %d, depth %d: after Reset %v %d in %d nodes, a new search %v %d in %d", ply, depth,
				got.Move, got.Score, got.Nodes, want.Move, want.Score, want.Nodes)
		}
		moves = g.LegalMoves(moves)
		g.Make(moves[rng.IntN(len(moves))])
	}
}

// TestClockGivesTheTableRoom checks that a player searching by the clock
// (Searcher.SetClock) gets a table of ClockTableBits entries in place of a
// smaller one, keeps a larger one, and gets none without one; that Limits
// (the tournaments' node and depth limits) leaves the table as it is; and
// that Clock alone (the UCI server's way) keeps a table ResizeTable made
// (its Hash option).
func TestClockGivesTheTableRoom(t *testing.T) {
	for _, tc := range []struct {
		bits, want int
		noTable    bool
	}{
		{bits: 14, want: ClockTableBits},
		{bits: ClockTableBits + 2, want: ClockTableBits + 2},
		{bits: 14, noTable: true},
	} {
		ab := NewAlphaBeta[draughts.Move, *draughts.Game](material{}, Options{TableBits: tc.bits, NoTable: tc.noTable})
		ab.Limits(6, 1000, 0)
		if tc.noTable && ab.table != nil || !tc.noTable && len(ab.table.buckets) != 1<<(tc.bits-1) {
			t.Fatalf("%+v: Limits changed the table", tc)
		}
		p := Searcher[draughts.Move, *draughts.Game]{AlphaBeta: ab}
		p.SetClock(10*time.Second, 10*time.Second, 0)
		switch {
		case tc.noTable:
			if ab.table != nil {
				t.Fatalf("%+v: SetClock gave a search without a table one", tc)
			}
		case len(ab.table.buckets) != 1<<(tc.want-1) || ab.Options().TableBits != tc.want:
			t.Fatalf("%+v: after SetClock %d buckets (TableBits %d), want %d entries", tc, len(ab.table.buckets), ab.Options().TableBits, 1<<tc.want)
		}
		g := draughts.NewGame(draughts.Start(), draughts.DefaultRules())
		ab.Clock(0, 50*time.Millisecond)
		if res := ab.Search(context.Background(), g); res.Move == 0 {
			t.Fatalf("%+v: no move from a search by the clock", tc)
		}
	}
	ab := NewAlphaBeta[draughts.Move, *draughts.Game](material{}, Options{TableBits: ClockTableBits})
	ab.ResizeTable(1)
	small := len(ab.table.buckets)
	ab.Clock(time.Second, 2*time.Second)
	if small >= 1<<(ClockTableBits-1) || len(ab.table.buckets) != small {
		t.Fatalf("Clock changed a table of 1 MB (%d buckets) to %d buckets", small, len(ab.table.buckets))
	}
}
