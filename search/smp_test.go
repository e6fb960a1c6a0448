package search

import (
	"context"
	"errors"
	"sync"
	"testing"

	"evolved/game/chess"
)

// countingMaterial is chessMaterial that counts its evaluations in a
// field of its own: a clone starts its own count, so the race detector
// flags a search whose threads share one evaluator, and each count shows
// that its thread searched.
type countingMaterial struct {
	calls  *int64
	clones *[]*int64 // every evaluator's count, the original's first
}

func newCountingMaterial() countingMaterial {
	c := countingMaterial{calls: new(int64), clones: new([]*int64)}
	*c.clones = append(*c.clones, c.calls)
	return c
}

func (c countingMaterial) Evaluate(g cg) int {
	*c.calls++
	return chessMaterial{}.Evaluate(g)
}

// Clone is called by SetThreads in the test's goroutine, never by a
// helper, so clones needs no lock.
func (c countingMaterial) Clone() Evaluator[cg] {
	d := countingMaterial{calls: new(int64), clones: c.clones}
	*c.clones = append(*c.clones, d.calls)
	return d
}

const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

// TestThreadsSearchTogether runs a search of four threads (under -race in
// .ci, as the brief of Lazy SMP asks): every thread evaluates positions
// with its own evaluator, the move is legal, the node limit bounds all
// threads together, and Nodes is the sum of the threads' nodes.
func TestThreadsSearchTogether(t *testing.T) {
	g := chess.NewGame(mustFEN(t, kiwipete), chess.DefaultRules())
	eval := newCountingMaterial()
	ab := NewAlphaBeta[cm, cg](eval, Options{Depth: maxPly - 1, Quiescence: true, TableBits: 16})
	if err := ab.SetThreads(4); err != nil {
		t.Fatal(err)
	}
	if ab.Threads() != 4 || len(*eval.clones) != 4 {
		t.Fatalf("SetThreads(4): %d threads, %d evaluators; want 4 of each", ab.Threads(), len(*eval.clones))
	}
	const limit = 300_000
	ab.Limits(0, limit, 0)
	res := ab.Search(context.Background(), g)
	if _, err := g.ParseMove(g.FormatMove(res.Move)); err != nil || res.Depth < 1 {
		t.Fatalf("best move %v at depth %d: %v", res.Move, res.Depth, err)
	}
	if g.Position().FEN() != kiwipete {
		t.Errorf("the search left the game at %s", g.Position().FEN())
	}
	sum := ab.nodes
	for i, h := range ab.helpers {
		sum += h.nodes
		if h.nodes == 0 || *(*eval.clones)[i+1] == 0 {
			t.Errorf("helper %d searched %d nodes, %d evaluations: it did not run", i+1, h.nodes, *(*eval.clones)[i+1])
		}
	}
	// Each thread adds its count every 1024 nodes and stops at the next
	// check once the total is over the limit.
	if res.Nodes != sum || res.Nodes < limit || res.Nodes > limit+4*1024 {
		t.Errorf("Nodes %d, threads' sum %d; want the sum, %d to %d", res.Nodes, sum, limit, limit+4*1024)
	}
	if ab.table.shared || ab.total != nil {
		t.Errorf("after the search the table is still shared (%v) or the count (%v)", ab.table.shared, ab.total)
	}
}

// TestOneThreadIsTheSearchOfOne checks that threads taken away leave the
// search of one thread exactly: the nodes, move and score of an engine
// that never had helpers.
func TestOneThreadIsTheSearchOfOne(t *testing.T) {
	g := chess.NewGame(mustFEN(t, kiwipete), chess.DefaultRules())
	opts := Options{Depth: 6, Quiescence: true, TableBits: 16}
	want := NewAlphaBeta[cm, cg](newCountingMaterial(), opts).Search(context.Background(), g)
	ab := NewAlphaBeta[cm, cg](newCountingMaterial(), opts)
	for _, n := range []int{3, 1} {
		if err := ab.SetThreads(n); err != nil {
			t.Fatal(err)
		}
		ab.Reset()
		got := ab.Search(context.Background(), g)
		if n > 1 {
			if got.Depth != 6 {
				t.Errorf("3 threads: depth %d, want 6", got.Depth)
			}
			continue
		}
		if got.Nodes != want.Nodes || got.Move != want.Move || got.Score != want.Score {
			t.Errorf("back to one thread: %d nodes, %v scoring %d; never more than one: %d nodes, %v scoring %d",
				got.Nodes, got.Move, got.Score, want.Nodes, want.Move, want.Score)
		}
	}
}

// TestSetThreadsNeedsClones: a game or evaluator that cannot be cloned
// gets no helpers, and keeps the threads it had; the count is bounded.
func TestSetThreadsNeedsClones(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(n int) error
	}{
		{"draughts game", NewAlphaBeta[dm, dg](material{}, Options{}).SetThreads},
		{"evaluator", NewAlphaBeta[cm, cg](chessMaterial{}, Options{}).SetThreads},
	} {
		if err := c.set(2); !errors.Is(err, ErrNoClone) {
			t.Errorf("%s: SetThreads(2) = %v, want ErrNoClone", c.name, err)
		}
		if err := c.set(1); err != nil {
			t.Errorf("%s: SetThreads(1) = %v", c.name, err)
		}
	}
	ab := NewAlphaBeta[cm, cg](newCountingMaterial(), Options{})
	for _, n := range []int{0, MaxThreads + 1} {
		if err := ab.SetThreads(n); err == nil || ab.Threads() != 1 {
			t.Errorf("SetThreads(%d) = %v, %d threads; want an error and 1", n, err, ab.Threads())
		}
	}
}

// TestSkipDepth checks the pattern's first rows against Stockfish 9's
// tables: the first helper searches the even depths, the second the odd
// ones, the third one on, then two off and two on.
func TestSkipDepth(t *testing.T) {
	for _, c := range []struct {
		helper int
		want   string // depths 1..8, s for skipped
	}{
		{1, "s.s.s.s."},
		{2, ".s.s.s.s"},
		{3, ".ss..ss."},
		{21, "s.s.s.s."}, // rows repeat every 20 helpers
	} {
		got := ""
		for d := 1; d <= 8; d++ {
			if skipDepth(c.helper, d) {
				got += "s"
			} else {
				got += "."
			}
		}
		if got != c.want {
			t.Errorf("helper %d skips %q, want %q", c.helper, got, c.want)
		}
	}
}

// TestSharedTableIsRaceFree has goroutines store and probe one shared
// table's few buckets at once, as the threads of a search do, under the
// race detector in .ci: every entry a probe finds must be whole, one
// store's move, score and depth together, never parts of two.
func TestSharedTableIsRaceFree(t *testing.T) {
	tt := newTable[cm](4) // 8 buckets: the goroutines collide all the time
	tt.shared = true
	const workers, rounds = 4, 20_000
	var wg sync.WaitGroup
	errs := make(chan string, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				// An entry's move, score and depth all follow from its
				// check, the key's upper half: a probe that finds a check
				// with another's move or score read a torn entry.
				v := 1 + (i*7+w*13)%64
				tt.store(uint64(v)<<32|uint64(i+w), cm(v), 10*v, v, 0, boundExact)
				u := 1 + (i*11+w)%64
				if e, ok := tt.probe(uint64(u)<<32 | uint64(i+w+1)); ok && (int(e.move) != u || int(e.score) != 10*u || int(e.depth) != u) {
					errs <- "a torn entry"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if n := tt.permill(); n <= 0 {
		t.Errorf("hashfull %d after the stores, want some", n)
	}
}
