package nnet

import (
	"errors"
	"math"
	"testing"

	"evolved/game"
	"evolved/game/xiangqi"
)

// TestXiangqiLinearGradientByDifferences checks the derivatives against
// the evaluation itself, as TestChessLinearGradientByDifferences does for
// chess: every linear weight moved by h in turn, and some of the hidden
// layers', from both sides, with the ten terms and with the fourteen.
func TestXiangqiLinearGradientByDifferences(t *testing.T) {
	positions := randomXiangqiPositions(newRNG(43), 6)
	for _, flags := range []Flags{
		EvolvePieceValues | EvolvePST | EvolveTerms | EvolveMoreTerms,
		EvolvePieceValues | EvolvePST | EvolveTerms,
		EvolvePST,
	} {
		n := xiangqiTestNet(t, []int{4}, flags, 9)
		w := n.Weights()
		linear := len(n.pieceValues()) + len(n.pst()) + len(n.terms())
		var check []int
		for i := len(w) - linear; i < len(w); i++ {
			check = append(check, i)
		}
		check = append(check, 0, 9, 300)
		base, err := NewXiangqiEval(n)
		if err != nil {
			t.Fatal(err)
		}
		const h = 0.25
		moved := make([]*XiangqiEval, len(check))
		for k, i := range check {
			v := n.Weights()
			v[i] += h
			m, err := n.WithWeights(v)
			if err != nil {
				t.Fatal(err)
			}
			if moved[k], err = NewXiangqiEval(m); err != nil {
				t.Fatal(err)
			}
		}
		nonzero := 0
		for pi, p := range positions {
			for _, pov := range []game.Player{game.First, game.Second} {
				idx, grad, err := n.XiangqiLinearGradient(nil, nil, &p, pov)
				if err != nil {
					t.Fatal(err)
				}
				want := map[int]float64{}
				for j, ix := range idx {
					want[int(ix)] += grad[j]
				}
				v0 := base.Evaluate(p, pov)
				for k, i := range check {
					got := (moved[k].Evaluate(p, pov) - v0) / h
					if i < len(w)-linear {
						if _, listed := want[i]; listed {
							t.Errorf("%v: position %d: weight %d of the hidden layers listed", flags, pi, i)
						}
						continue
					}
					if want[i] != 0 {
						nonzero++
					}
					if math.Abs(got-want[i]) > 1e-4 {
						t.Errorf("%v: position %d pov %d: weight %d: the value moves by %.6f per unit, the gradient says %.6f", flags, pi, pov, i, got, want[i])
					}
				}
			}
		}
		if nonzero < 20 {
			t.Errorf("%v: only %d nonzero derivatives checked", flags, nonzero)
		}
	}
}

// TestXiangqiLinearGradientHandCounted: at the start each of the 32
// pieces adds one table entry, and Black's, seen from their side, use the
// entries Red's use: Red's +1 and Black's -1 cancel, and material is
// level, so every derivative is 0.
func TestXiangqiLinearGradientHandCounted(t *testing.T) {
	n := xiangqiTestNet(t, []int{4}, EvolvePieceValues|EvolvePST, 3)
	p := xiangqi.Start()
	idx, grad, err := n.XiangqiLinearGradient(nil, nil, &p, game.First)
	if err != nil {
		t.Fatal(err)
	}
	sum := map[int32]float64{}
	for j, ix := range idx {
		sum[ix] += grad[j]
	}
	if len(idx) != 32 {
		t.Errorf("%d entries at the start, want 32, one a piece", len(idx))
	}
	for ix, v := range sum {
		if v != 0 {
			t.Errorf("weight %d: %v at the start, want 0", ix, v)
		}
	}
}

func TestXiangqiLinearGradientRefusesOtherGames(t *testing.T) {
	n := chessTestNet(t, []int{4}, EvolvePST, 1)
	p := xiangqi.Start()
	if _, _, err := n.XiangqiLinearGradient(nil, nil, &p, game.First); !errors.Is(err, ErrArchitecture) {
		t.Fatalf("a chess net: %v, want ErrArchitecture", err)
	}
}
