package search

import (
	"context"
	"math/bits"
	"math/rand/v2"
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
	n := 2 * len(ab.table.buckets)
	if n&(n-1) != 0 || n*16 > 1<<20 || n*16*2 <= 1<<20 {
		t.Errorf("1 MB gives %d entries of 16 bytes, want the largest power of two that fits", n)
	}
	// A draughts move is 8 bytes, a chess one 4: both entries fit in 16.
	if d, c := unsafe.Sizeof(ttEntry[dm]{}), unsafe.Sizeof(ttEntry[cm]{}); d != 16 || c != 12 {
		t.Errorf("table entries take %d bytes in draughts and %d in chess, want 16 and 12", d, c)
	}
}
