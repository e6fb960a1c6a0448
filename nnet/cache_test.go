package nnet

import (
	"math/rand/v2"
	"testing"

	"evolved/game"
	"evolved/game/draughts"
)

// TestEvalCache checks probes, stores, the two points of view, replacement,
// sizes and Clear.
func TestEvalCache(t *testing.T) {
	for _, c := range []struct{ in, want int }{{-1, 2}, {0, 2}, {2, 2}, {3, 4}, {1000, 1024}, {1024, 1024}} {
		if got := NewEvalCache(c.in).Len(); got != c.want {
			t.Errorf("NewEvalCache(%d).Len() = %d, want %d", c.in, got, c.want)
		}
	}
	c := NewEvalCache(1024)
	// A fresh cache has no entry, whatever the hash, zero included.
	for _, h := range []uint64{0, 1, 1023, ^uint64(0), ^uint64(5), povKey} {
		for pov := game.First; pov <= game.Second; pov++ {
			if v, ok := c.Probe(h, pov); ok {
				t.Errorf("fresh cache: Probe(%#x, %v) = %v, true", h, pov, v)
			}
		}
	}
	c.Store(42, game.First, 0.25)
	if v, ok := c.Probe(42, game.First); !ok || v != 0.25 {
		t.Errorf("Probe(42, first) = %v, %v; want 0.25, true", v, ok)
	}
	if _, ok := c.Probe(42, game.Second); ok {
		t.Error("Probe(42, second) hit the first player's entry")
	}
	c.Store(42+1024, game.First, -0.5) // same slot: replaces
	if _, ok := c.Probe(42, game.First); ok {
		t.Error("replaced entry still found")
	}
	if v, ok := c.Probe(42+1024, game.First); !ok || v != -0.5 {
		t.Errorf("Probe(42+1024, first) = %v, %v; want -0.5, true", v, ok)
	}
	c.Clear()
	if _, ok := c.Probe(42+1024, game.First); ok {
		t.Error("entry found after Clear")
	}
	if a := testing.AllocsPerRun(100, func() { c.Store(7, game.Second, 1); c.Probe(7, game.Second) }); a != 0 {
		t.Errorf("%v allocations per probe and store", a)
	}
}

// miniSearch is a plain fixed-depth alpha-beta search (no move ordering,
// no transposition table) that evaluates its leaves for the side to move
// with an accumulator, through an eval cache when it has one: a realistic
// mix of leaf positions for measuring the cache.
type miniSearch struct {
	acc          *DraughtsAccumulator
	cache        *EvalCache // nil: no cache
	bufs         [][]draughts.Move
	leaves, hits int
}

func newMiniSearch(e *DraughtsEval, cache *EvalCache) *miniSearch {
	s := &miniSearch{acc: e.NewAccumulator(), cache: cache, bufs: make([][]draughts.Move, 64)}
	for i := range s.bufs {
		s.bufs[i] = make([]draughts.Move, 0, 64)
	}
	return s
}

// search returns the negamax value of root to depth plies.
func (s *miniSearch) search(root draughts.Position, depth int) float64 {
	s.acc.Reset(root)
	return s.negamax(root, depth, 0, -3, 3)
}

func (s *miniSearch) negamax(p draughts.Position, depth, ply int, alpha, beta float64) float64 {
	if depth == 0 {
		return s.leaf(p)
	}
	moves := p.Moves(s.bufs[ply])
	s.bufs[ply] = moves[:0]
	if len(moves) == 0 {
		return -2 // a loss, worse than any evaluation
	}
	best := -3.0
	for _, m := range moves {
		q := p.Play(m)
		s.acc.Push(q)
		v := -s.negamax(q, depth-1, ply+1, -beta, -alpha)
		s.acc.Pop()
		if v > best {
			best = v
		}
		alpha = max(alpha, v)
		if alpha >= beta {
			break
		}
	}
	return best
}

func (s *miniSearch) leaf(p draughts.Position) float64 {
	s.leaves++
	if s.cache == nil {
		return s.acc.Evaluate(p.Side)
	}
	if v, ok := s.cache.Probe(p.Hash(), p.Side); ok {
		s.hits++
		return v
	}
	v := s.acc.Evaluate(p.Side)
	s.cache.Store(p.Hash(), p.Side, v)
	return v
}

// searchRoots returns positions after a few random plies from the start.
func searchRoots(rng *rand.Rand, count int) []draughts.Position {
	var roots []draughts.Position
	var buf []draughts.Move
	for len(roots) < count {
		p := draughts.Start()
		plies := 4 + rng.IntN(30)
		for range plies {
			buf = p.Moves(buf)
			if len(buf) == 0 {
				break
			}
			p = p.Play(buf[rng.IntN(len(buf))])
		}
		if p.CountRoutes(buf) > 0 {
			roots = append(roots, p)
		}
	}
	return roots
}

// TestCacheDoesNotChangeSearch checks that searches with and without the
// cache give the same values: evaluations are bit-identical whatever the
// path to a position, so the cache changes speed only.
func TestCacheDoesNotChangeSearch(t *testing.T) {
	e := testEval(t, allExtras, 101)
	plain, cached := newMiniSearch(e, nil), newMiniSearch(e, NewEvalCache(1<<14))
	for _, root := range searchRoots(newRNG(102), 10) {
		if a, b := plain.search(root, 5), cached.search(root, 5); a != b {
			t.Fatalf("%+v: %v without the cache, %v with", root, a, b)
		}
	}
	if cached.hits == 0 {
		t.Error("no cache hits")
	}
}

// BenchmarkSearchCache measures the eval cache in depth-8 alpha-beta
// searches (no transposition table, no move ordering) from random opening
// and middle-game positions, each search starting with a cleared cache:
// leaves/s counts leaf evaluations, cached or not; hit% is the share the
// cache answered. The cost of clearing is included, as a fresh search pays it.
func BenchmarkSearchCache(b *testing.B) {
	e := testEval(b, allExtras, 101)
	roots := searchRoots(newRNG(103), 16)
	for _, bc := range []struct {
		name    string
		entries int
	}{{"nocache", 0}, {"cache=16K", 1 << 14}, {"cache=256K", 1 << 18}} {
		b.Run(bc.name, func(b *testing.B) {
			var cache *EvalCache
			if bc.entries > 0 {
				cache = NewEvalCache(bc.entries)
			}
			s := newMiniSearch(e, cache)
			i := 0
			for b.Loop() {
				if cache != nil {
					cache.Clear()
				}
				s.search(roots[i%len(roots)], 8)
				i++
			}
			b.ReportMetric(float64(s.leaves)/b.Elapsed().Seconds(), "leaves/s")
			b.ReportMetric(float64(s.leaves)/float64(i), "leaves/op")
			b.ReportMetric(100*float64(s.hits)/float64(s.leaves), "hit%")
		})
	}
}
