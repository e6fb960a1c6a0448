package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"evolved/game/chess"
)

type (
	cm = chess.Move
	cg = *chess.Game
)

// chessMaterial is a test evaluator: pawn 100, knight and bishop 300, rook
// 500, queen 900, from the side to move's view.
type chessMaterial struct{}

func (chessMaterial) Evaluate(g cg) int {
	p := g.Position()
	values := [...]int{chess.Pawn: 100, chess.Knight: 300, chess.Bishop: 300, chess.Rook: 500, chess.Queen: 900}
	score := 0
	for pt, v := range values {
		if v == 0 {
			continue
		}
		score += v * (p.Pieces(p.Side(), chess.PieceType(pt)).Count() - p.Pieces(p.Side().Other(), chess.PieceType(pt)).Count())
	}
	return score
}

// refBudget bounds the nodes of one reference search: the unpruned
// quiescence explodes in busy middlegames, and such positions are skipped.
type refBudget struct{ left int }

// spend takes a node from the budget and reports whether it was there.
func (b *refBudget) spend() bool { b.left--; return b.left >= 0 }

// minimaxQ is the unpruned reference: full width to depth, then a full-width
// quiescence (stand pat unless in check; noisy moves, or every move in check).
// It returns ok = false when the budget ran out.
func minimaxQ(g cg, depth, ply int, b *refBudget) (int, bool) {
	if !b.spend() {
		return 0, false
	}
	if ply > 0 && g.Drawn() {
		return 0, true
	}
	if depth <= 0 {
		return quiesceRef(g, ply, b)
	}
	moves := g.LegalMoves(nil)
	if len(moves) == 0 {
		return terminalScore(g.Outcome(), g.ToMove(), ply), true
	}
	best := -Infinity
	for _, m := range moves {
		g.Make(m)
		v, ok := minimaxQ(g, depth-1, ply+1, b)
		g.Unmake()
		if !ok {
			return 0, false
		}
		best = max(best, -v)
	}
	return best, true
}

func quiesceRef(g cg, ply int, b *refBudget) (int, bool) {
	if !b.spend() {
		return 0, false
	}
	if ply > 0 && g.Drawn() {
		return 0, true
	}
	var moves []cm
	best := -Infinity
	if g.InCheck() {
		moves = g.LegalMoves(nil)
		if len(moves) == 0 {
			return terminalScore(g.Outcome(), g.ToMove(), ply), true
		}
	} else {
		best = chessMaterial{}.Evaluate(g)
		moves = g.NoisyMoves(nil)
	}
	for _, m := range moves {
		g.Make(m)
		v, ok := quiesceRef(g, ply+1, b)
		g.Unmake()
		if !ok {
			return 0, false
		}
		best = max(best, -v)
	}
	return best, true
}

func TestQuiescenceEqualsMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	ab := NewAlphaBeta[cm, cg](chessMaterial{}, Options{Depth: 1, Quiescence: true, Techniques: None})
	tested, skipped, want := 0, 0, 40
	if testing.Short() {
		want = 10
	}
	for tested < want {
		g := chess.NewGame(chess.Start(), chess.DefaultRules())
		// Long random games shed most pieces: their capture trees are small
		// enough for the unpruned reference.
		for g.Ply() < 80+rng.IntN(120) && !g.Outcome().Over() {
			moves := g.LegalMoves(nil)
			g.Make(moves[rng.IntN(len(moves))])
		}
		if g.Outcome().Over() || len(g.NoisyMoves(nil)) == 0 {
			continue // only positions where quiescence has work to do
		}
		ref, ok := minimaxQ(g, 1, 0, &refBudget{left: 50_000})
		if !ok {
			skipped++
			if skipped > 400 {
				t.Fatalf("only %d positions small enough for the reference", tested)
			}
			continue
		}
		ab.Reset()
		if got := ab.Search(context.Background(), g).Score; got != ref {
			t.Errorf("position %s: alpha-beta with quiescence %d, minimax %d", g.Position().FEN(), got, ref)
		}
		tested++
	}
	t.Logf("%d positions compared, %d skipped as too large for the unpruned reference", tested, skipped)
}

func TestQuiescenceSeesTheRecapture(t *testing.T) {
	// White (queen against two pawns: +700) can take the d5 pawn with the
	// queen, but e6 defends it: at depth 1 without quiescence the grab looks
	// like +800; with quiescence the recapture is seen and White keeps +700.
	g := chess.NewGame(mustFEN(t, "4k3/8/4p3/3p4/8/8/3Q4/4K3 w - - 0 1"), chess.DefaultRules())
	p := g.Position()
	naive := NewAlphaBeta[cm, cg](chessMaterial{}, Options{Depth: 1, Techniques: None}).Search(context.Background(), g)
	quiet := NewAlphaBeta[cm, cg](chessMaterial{}, Options{Depth: 1, Quiescence: true, Techniques: None}).Search(context.Background(), g)
	if naive.Score != 800 || p.FormatUCI(naive.Move, false) != "d2d5" {
		t.Errorf("without quiescence: %s scoring %d, want the greedy d2d5 at 800", p.FormatUCI(naive.Move, false), naive.Score)
	}
	if quiet.Score != 700 || p.FormatUCI(quiet.Move, false) == "d2d5" {
		t.Errorf("with quiescence: %s scoring %d, want another move at 700", p.FormatUCI(quiet.Move, false), quiet.Score)
	}
}

// TestCheckExtension: White mates in two with two quiet rook moves, a
// check (Rb7+) and then Ra8#. At nominal depth 2 the mate lies past the
// horizon (quiescence searches captures only, out of check); the check
// extension searches the checked position a ply deeper and finds it.
func TestCheckExtension(t *testing.T) {
	g := chess.NewGame(mustFEN(t, "8/7k/R7/8/8/8/8/KR6 w - - 0 1"), chess.DefaultRules())
	p := g.Position()
	plain := NewAlphaBeta[cm, cg](chessMaterial{}, Options{Depth: 2, Quiescence: true, Techniques: None}).Search(context.Background(), g)
	ext := NewAlphaBeta[cm, cg](chessMaterial{}, Options{Depth: 2, Quiescence: true, Techniques: CheckExtension}).Search(context.Background(), g)
	if IsWin(plain.Score) {
		t.Errorf("without the extension depth 2 found a mate (%s, %d): the test position is too easy", p.FormatUCI(plain.Move, false), plain.Score)
	}
	if !IsWin(ext.Score) || p.FormatUCI(ext.Move, false) != "b1b7" {
		t.Errorf("with the extension: %s scoring %d, want b1b7 and a mate score", p.FormatUCI(ext.Move, false), ext.Score)
	}
}

func mustFEN(t *testing.T, fen string) chess.Position {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var _ Quiescent[cm] = (*chess.Game)(nil)
