package nnet

import (
	"errors"
	"math"
	"testing"

	"evolved/game"
	"evolved/game/chess"
)

// checkLinearGradient checks a net's linear gradient against its
// evaluation, for TestChessLinearGradientByDifferences and
// TestXiangqiLinearGradientByDifferences: every linear weight of n, and
// three of its hidden layers', is moved by h in turn and the evaluator
// rebuilt (evaluator), and the change of each position's value (value of
// position i from pov) divided by h must be the sum of the gradient's
// entries for that weight (gradient), 0 where it lists none; a hidden
// layer's weight must not be listed.
func checkLinearGradient(t *testing.T, n *Net, positions int, evaluator func(*Net) (func(i int, pov game.Player) float64, error),
	gradient func(i int, pov game.Player) ([]int32, []float64, error)) {
	t.Helper()
	w := n.Weights()
	linear := len(n.pieceValues()) + len(n.pst()) + len(n.terms())
	var check []int
	for i := len(w) - linear; i < len(w); i++ {
		check = append(check, i)
	}
	check = append(check, 0, 5, 100)
	base, err := evaluator(n)
	if err != nil {
		t.Fatal(err)
	}
	const h = 0.25
	moved := make([]func(int, game.Player) float64, len(check))
	for k, i := range check {
		v := n.Weights()
		v[i] += h
		m, err := n.WithWeights(v)
		if err != nil {
			t.Fatal(err)
		}
		if moved[k], err = evaluator(m); err != nil {
			t.Fatal(err)
		}
	}
	nonzero := 0
	for pi := range positions {
		for _, pov := range []game.Player{game.First, game.Second} {
			idx, grad, err := gradient(pi, pov)
			if err != nil {
				t.Fatal(err)
			}
			want := map[int]float64{}
			for j, ix := range idx {
				want[int(ix)] += grad[j]
			}
			v0 := base(pi, pov)
			for k, i := range check {
				got := (moved[k](pi, pov) - v0) / h
				if i < len(w)-linear {
					if _, listed := want[i]; listed {
						t.Errorf("%v: position %d: weight %d of the hidden layers listed", n.Flags(), pi, i)
					}
					continue
				}
				if want[i] != 0 {
					nonzero++
				}
				if math.Abs(got-want[i]) > 1e-4 {
					t.Errorf("%v: position %d pov %d: weight %d: the value moves by %.6f per unit, the gradient says %.6f",
						n.Flags(), pi, pov, i, got, want[i])
				}
			}
		}
	}
	if nonzero < 20 {
		t.Errorf("%v: only %d nonzero derivatives checked", n.Flags(), nonzero)
	}
}

// TestChessLinearGradientByDifferences checks the derivatives against the
// evaluation itself (checkLinearGradient) for five flag sets, the tapered
// terms, the tapered tables and the king danger table among them.
func TestChessLinearGradientByDifferences(t *testing.T) {
	positions := randomChessPositions(t, newRNG(41), 6)
	for _, flags := range []Flags{
		EvolvePieceValues | EvolvePST | EvolveTerms | EvolveMoreTerms,
		EvolvePieceValues | EvolvePST | EvolveTerms | EvolveMoreTerms | EvolveKingDanger | TaperedTerms,
		EvolvePST,
		EvolvePieceValues | EvolvePST | TaperedTables,
		EvolveTerms,
	} {
		n := chessTestNet(t, []int{4}, flags, 7)
		evaluator := func(m *Net) (func(int, game.Player) float64, error) {
			e, err := NewChessEval(m)
			if err != nil {
				return nil, err
			}
			return func(i int, pov game.Player) float64 { return e.Evaluate(positions[i], pov) }, nil
		}
		checkLinearGradient(t, n, len(positions), evaluator, func(i int, pov game.Player) ([]int32, []float64, error) {
			return n.ChessLinearGradient(nil, nil, &positions[i], pov)
		})
	}
}

// TestChessLinearGradientHandCounted checks one position by hand: White
// has an extra knight; its pawns, king and knights each add +1 at their
// square's table entry, Black's -1 at the mirrored square.
func TestChessLinearGradientHandCounted(t *testing.T) {
	p, err := chess.ParseFEN("4k3/4p3/8/8/8/8/3P4/1N2K1N1 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	n := chessTestNet(t, []int{4}, EvolvePieceValues|EvolvePST, 3)
	idx, grad, err := n.ChessLinearGradient(nil, nil, &p, game.First)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]float64{}
	for j, ix := range idx {
		got[int(ix)] += grad[j]
	}
	pst := len(n.w) - NumPieceValues - NumPSTValues
	sq := func(s string) int { return int(chess.NewSquare(int(s[0]-'a'), int(s[1]-'1'))) }
	want := map[int]float64{
		n.PieceValueIndex(int(chess.Knight)):         2,
		pst + PSTIndex(int(chess.Knight), sq("b1")):  1,
		pst + PSTIndex(int(chess.Knight), sq("g1")):  1,
		pst + PSTIndex(int(chess.Pawn), sq("d2")):    1,
		pst + PSTIndex(int(chess.Pawn), sq("e7")^56): -1, // e2 on Black's board
		pst + PSTIndex(int(chess.King), sq("e1")):    0,  // both kings on their e1
	}
	for i, v := range want {
		if got[i] != v {
			t.Errorf("weight %d: %v, want %v", i, got[i], v)
		}
	}
	for i, v := range got {
		if _, ok := want[i]; !ok && v != 0 {
			t.Errorf("weight %d: %v, want 0", i, v)
		}
	}
	// From Black's side every derivative changes sign.
	idx, grad, err = n.ChessLinearGradient(nil, nil, &p, game.Second)
	if err != nil {
		t.Fatal(err)
	}
	black := map[int]float64{}
	for j, ix := range idx {
		black[int(ix)] += grad[j]
	}
	for i, v := range got {
		if black[i] != -v {
			t.Errorf("weight %d from Black's side: %v, want %v", i, black[i], -v)
		}
	}
}

func TestChessLinearGradientRefusesOtherGames(t *testing.T) {
	n, err := Random(XiangqiSizes(4), EvolvePST, newRNG(1))
	if err != nil {
		t.Fatal(err)
	}
	p := chess.Start()
	if _, _, err := n.ChessLinearGradient(nil, nil, &p, game.First); !errors.Is(err, ErrArchitecture) {
		t.Fatalf("a xiangqi net: %v, want ErrArchitecture", err)
	}
}
