package search

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"evolved/game"
	"evolved/game/draughts"
)

type (
	dm = draughts.Move
	dg = *draughts.Game
)

// material is a test evaluator: men 100, kings 150, side to move's view.
type material struct{}

func (material) Evaluate(g dg) int {
	p := g.Position()
	us, them := p.Side, p.Side.Other()
	c := func(b uint32) int { return bits.OnesCount32(b) }
	return 100*(c(p.Men(us))-c(p.Men(them))) + 150*(c(p.KingsOf(us))-c(p.KingsOf(them)))
}

// minimax is the plain, unpruned reference search: same leaf rules as
// AlphaBeta (rule draws, no-move outcomes, the capture extension) and
// nothing else.
func minimax(g dg, depth, ply, ext int, extend bool) int {
	if ply > 0 && g.Drawn() {
		return 0
	}
	if depth <= 0 {
		if !extend || ext >= 8 || !g.Tactical() {
			return material{}.Evaluate(g)
		}
		depth, ext = 1, ext+1
	}
	moves := g.LegalMoves(nil)
	if len(moves) == 0 {
		return terminalScore(g.Outcome(), g.ToMove(), ply)
	}
	best := -Infinity
	for _, m := range moves {
		g.Make(m)
		best = max(best, -minimax(g, depth-1, ply+1, ext, extend))
		g.Unmake()
	}
	return best
}

// samplePositions returns games at positions reached by seeded random play.
func samplePositions(n int, seed uint64) []dg {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []dg
	for len(out) < n {
		g := draughts.NewGame(draughts.Start(), draughts.DefaultRules())
		plies := 4 + rng.IntN(50)
		for g.Ply() < plies && !g.Outcome().Over() {
			moves := g.LegalMoves(nil)
			g.Make(moves[rng.IntN(len(moves))])
		}
		if !g.Outcome().Over() {
			out = append(out, g)
		}
	}
	return out
}

func TestAlphaBetaEqualsMinimax(t *testing.T) {
	// The techniques that never change the root's value: the null window
	// and the aspiration window only prove bounds that a re-search then
	// makes exact, and mate-distance pruning cuts only lines that cannot
	// beat a mate already found.
	exact := PVS | Aspiration | MateDistance
	for _, extend := range []bool{false, true} {
		ab := NewAlphaBeta[dm, dg](material{}, Options{Depth: 4, CaptureExtension: extend, Techniques: exact})
		for i, g := range samplePositions(60, 3) {
			ab.Reset()
			before := g.Position()
			res := ab.Search(context.Background(), g)
			want := minimax(g, 4, 0, 0, extend)
			if res.Score != want {
				t.Errorf("extend=%v position %d (%s): alpha-beta %d, minimax %d", extend, i, before.FEN(), res.Score, want)
			}
			if g.Position() != before {
				t.Fatalf("search changed the game")
			}
			// The best move must achieve the score one ply down.
			g.Make(res.Move)
			if got := -minimax(g, 3, 1, 0, extend); got != want && !IsWin(want) {
				t.Errorf("extend=%v position %d: move %s scores %d, want %d", extend, i, before.FormatMove(res.Move), got, want)
			}
			g.Unmake()
		}
	}
}

func TestAlphaBetaFindsShortestWin(t *testing.T) {
	// Black king on 15, White's only piece a man on 19: 15x24 takes it and
	// White, with nothing left, has no move: a win at ply 1.
	k := uint32(1) << 14
	g := draughts.NewGame(draughts.NewPosition(k, 1<<18, k, draughts.Black), draughts.DefaultRules())
	res := NewAlphaBeta[dm, dg](material{}, Options{Depth: 6}).Search(context.Background(), g)
	if res.Score != Win-1 {
		t.Errorf("score = %d, want Win-1 = %d", res.Score, Win-1)
	}
	if got := g.FormatMove(res.Move); got != "15x24" {
		t.Errorf("move = %s, want 15x24", got)
	}
}

func TestAlphaBetaLimits(t *testing.T) {
	g := draughts.NewGame(draughts.Start(), draughts.DefaultRules())
	ab := NewAlphaBeta[dm, dg](material{}, Options{Depth: 30, Nodes: 5000})
	res := ab.Search(context.Background(), g)
	if res.Nodes > 5000+1024 || res.Depth >= 30 || res.Depth < 1 {
		t.Errorf("node limit 5000: searched %d nodes to depth %d", res.Nodes, res.Depth)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res = ab.Search(ctx, g)
	if res.Depth > 1 {
		t.Errorf("cancelled context: reached depth %d, want at most 1", res.Depth)
	}
}

func TestMCTSTakesTheWin(t *testing.T) {
	k := uint32(1) << 14
	g := draughts.NewGame(draughts.NewPosition(k, 1<<18|1<<31, k, draughts.Black), draughts.DefaultRules())
	// 15x24 wins material; the playouts must see it.
	for _, plies := range []int{0, 6} {
		tree := NewMCTS[dm, dg](MCTSOptions{Playouts: 2000, PlayoutPlies: plies}, material{}, func(v int) float64 {
			return 0.5 + float64(v)/1000
		})
		res := tree.Search(context.Background(), g, rand.New(rand.NewPCG(1, 2)))
		if got := g.FormatMove(res.Move); got != "15x24" {
			t.Errorf("plies=%d: move = %s, want 15x24", plies, got)
		}
	}
}

func TestMCTSIsReproducible(t *testing.T) {
	g := samplePositions(1, 9)[0]
	tree := NewMCTS[dm, dg](MCTSOptions{Playouts: 500}, nil, nil)
	a := tree.Search(context.Background(), g, rand.New(rand.NewPCG(5, 6)))
	b := tree.Search(context.Background(), g, rand.New(rand.NewPCG(5, 6)))
	if a.Move != b.Move || a.Score != b.Score {
		t.Errorf("same seed: %v/%d then %v/%d", a.Move, a.Score, b.Move, b.Score)
	}
}

func TestTerminalScore(t *testing.T) {
	loss := game.Outcome{Result: game.SecondWins, Reason: game.NoMoves}
	if got := terminalScore(loss, game.First, 3); got != -Win+3 {
		t.Errorf("loss at ply 3 = %d, want %d", got, -Win+3)
	}
	if got := terminalScore(loss, game.Second, 2); got != Win-2 {
		t.Errorf("win at ply 2 = %d, want %d", got, Win-2)
	}
}

func newTestRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

func TestResizeTable(t *testing.T) {
	ab := NewAlphaBeta[dm, dg](material{}, Options{})
	ab.ResizeTable(1)
	n, size := len(ab.table.buckets), int(unsafe.Sizeof(ttBucket[dm]{}))
	if n&(n-1) != 0 || n*size > 1<<20 || n*size*2 <= 1<<20 {
		t.Errorf("1 MB gives %d buckets of %d bytes, want the largest power of two that fits", n, size)
	}
	// A draughts move is 8 bytes, a chess one 4: both entries fit in 16,
	// and a bucket is two of them and its 4-byte lock (aligned).
	if d, c := unsafe.Sizeof(ttEntry[dm]{}), unsafe.Sizeof(ttEntry[cm]{}); d != 16 || c != 12 {
		t.Errorf("table entries take %d bytes in draughts and %d in chess, want 16 and 12", d, c)
	}
	if d, c := unsafe.Sizeof(ttBucket[dm]{}), unsafe.Sizeof(ttBucket[cm]{}); d != 40 || c != 28 {
		t.Errorf("table buckets take %d bytes in draughts and %d in chess, want 40 and 28", d, c)
	}
}

// TestMultiPVRanksTheRootMoves checks SetMultiPV against the unpruned
// reference: with the techniques that keep the root's value exact, the
// lines of the last iteration are the k best root moves, distinct, each
// with its own minimax score, in order (a tie may list either move of
// it, so the scores are compared as sorted lists and each move against
// its own score); line 1 has the score of a search of one line; every
// completed iteration is reported as k lines ranked 1..k; and
// SetMultiPV(1) reports plain results again, with no rank.
func TestMultiPVRanksTheRootMoves(t *testing.T) {
	const depth, k = 4, 3
	exact := PVS | Aspiration | MateDistance
	ab := NewAlphaBeta[dm, dg](material{}, Options{Depth: depth, Techniques: exact})
	one := NewAlphaBeta[dm, dg](material{}, Options{Depth: depth, Techniques: exact})
	checked := 0
	for i, g := range samplePositions(40, 5) {
		moves := g.LegalMoves(nil)
		if len(moves) < k {
			continue
		}
		checked++
		var want []int
		value := map[dm]int{}
		for _, m := range moves {
			g.Make(m)
			value[m] = -minimax(g, depth-1, 1, 0, false)
			g.Unmake()
			want = append(want, value[m])
		}
		slices.SortFunc(want, func(a, b int) int { return b - a })
		var reports []Result[dm]
		ab.OnIteration(func(r Result[dm]) {
			r.PV = slices.Clone(r.PV)
			reports = append(reports, r)
		})
		ab.Reset()
		ab.SetMultiPV(k)
		res := ab.Search(context.Background(), g)
		if len(reports) != depth*k {
			t.Fatalf("position %d: %d reports, want %d (%d iterations of %d lines)", i, len(reports), depth*k, depth, k)
		}
		for j, r := range reports {
			if r.MultiPV != j%k+1 || r.Depth != j/k+1 || r.Move != r.PV[0] {
				t.Errorf("position %d: report %d has rank %d at depth %d, move %v, PV %v; want rank %d at depth %d, the PV's first move", i, j, r.MultiPV, r.Depth, r.Move, r.PV, j%k+1, j/k+1)
			}
		}
		last := reports[len(reports)-k:]
		seen := map[dm]bool{}
		for j, r := range last {
			if seen[r.Move] {
				t.Errorf("position %d: line %d repeats %s", i, j+1, g.FormatMove(r.Move))
			}
			seen[r.Move] = true
			if r.Score != want[j] || value[r.Move] != r.Score {
				t.Errorf("position %d (%s): line %d %s scores %d; want %d, and minimax gives the move %d", i, g.Position().FEN(), j+1, g.FormatMove(r.Move), r.Score, want[j], value[r.Move])
			}
		}
		one.Reset()
		if single := one.Search(context.Background(), g); res.Score != single.Score || res.Move != last[0].Move {
			t.Errorf("position %d: MultiPV search returns %s %d (line 1 %s); one line scores %d", i, g.FormatMove(res.Move), res.Score, g.FormatMove(last[0].Move), single.Score)
		}
	}
	if checked < 20 {
		t.Fatalf("only %d positions with %d moves: the test checks too little", checked, k)
	}
	// Back to one line: plain reports, the search's own result.
	var ranks []int
	ab.OnIteration(func(r Result[dm]) { ranks = append(ranks, r.MultiPV) })
	ab.SetMultiPV(1)
	g := draughts.NewGame(draughts.Start(), draughts.DefaultRules())
	ab.Search(context.Background(), g)
	if !slices.Equal(ranks, make([]int, depth)) {
		t.Errorf("SetMultiPV(1): ranks %v, want %d reports of rank 0", ranks, depth)
	}
}

// TestMultiPVBeyondTheMoves: asking for more lines than the root has
// moves ranks them all.
func TestMultiPVBeyondTheMoves(t *testing.T) {
	g := draughts.NewGame(draughts.Start(), draughts.DefaultRules())
	n := len(g.LegalMoves(nil)) // 7 at the start
	ab := NewAlphaBeta[dm, dg](material{}, Options{Depth: 2})
	ab.SetMultiPV(16)
	var ranks []int
	ab.OnIteration(func(r Result[dm]) {
		if r.Depth == 2 {
			ranks = append(ranks, r.MultiPV)
		}
	})
	ab.Search(context.Background(), g)
	if len(ranks) != n || ranks[n-1] != n {
		t.Errorf("MultiPV 16 of %d moves: ranks %v, want 1..%d", n, ranks, n)
	}
}
