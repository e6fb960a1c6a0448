package nnet

import (
	"errors"
	"testing"

	"evolved/game"
	"evolved/game/xiangqi"
)

// TestXiangqiLinearGradientByDifferences checks the derivatives against
// the evaluation itself (checkLinearGradient), with the ten terms and with
// the fourteen.
func TestXiangqiLinearGradientByDifferences(t *testing.T) {
	positions := randomXiangqiPositions(newRNG(43), 6)
	for _, flags := range []Flags{
		EvolvePieceValues | EvolvePST | EvolveTerms | EvolveMoreTerms,
		EvolvePieceValues | EvolvePST | EvolveTerms,
		EvolvePST,
	} {
		n := xiangqiTestNet(t, []int{4}, flags, 9)
		evaluator := func(m *Net) (func(int, game.Player) float64, error) {
			e, err := NewXiangqiEval(m)
			if err != nil {
				return nil, err
			}
			return func(i int, pov game.Player) float64 { return e.Evaluate(positions[i], pov) }, nil
		}
		checkLinearGradient(t, n, len(positions), evaluator, func(i int, pov game.Player) ([]int32, []float64, error) {
			return n.XiangqiLinearGradient(nil, nil, &positions[i], pov)
		})
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
