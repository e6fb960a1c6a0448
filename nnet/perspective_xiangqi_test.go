package nnet

import (
	"errors"
	"math"
	"testing"

	"evolved/game"
	"evolved/game/xiangqi"
)

// xiangqiPerspectiveExtras are the flags of a perspective xiangqi genome
// with every extra a xiangqi run may use beside it.
const xiangqiPerspectiveExtras = Perspective | SelfAdaptive | EvolvePieceValues | EvolvePST | EvolveTerms | EvolveMoreTerms

// xiangqiPerspectiveEval returns the evaluator of a random perspective
// xiangqi genome 32 wide with every extra.
func xiangqiPerspectiveEval(t testing.TB, seed uint64) *XiangqiEval {
	t.Helper()
	e, err := NewXiangqiEval(xiangqiTestNet(t, []int{32}, xiangqiPerspectiveExtras, seed))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// xiangqiPerspectivePawns is the perspective net of n's value of p from
// pov's point of view in pawns, from scratch.
func xiangqiPerspectivePawns(n *Net, p xiangqi.Position, pov game.Player) float64 {
	cp := quantizedOf(n).EvaluateXiangqi(&p)
	if pov&1 != p.Side() {
		cp = -cp
	}
	return float64(cp) / 100
}

// TestXiangqiPerspectiveLayout checks a perspective xiangqi genome's
// layout: N rows of 1260 weights, N biases, 2N output weights and a bias.
func TestXiangqiPerspectiveLayout(t *testing.T) {
	const h = 8
	n, err := New([]int{NumXiangqiInputs, h, 1}, Perspective)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := n.NumWeights(), h*NumXiangqiInputs+h+2*h+1; got != want {
		t.Errorf("NumWeights = %d, want %d", got, want)
	}
	p, err := n.Perspective()
	if err != nil {
		t.Fatal(err)
	}
	if p.Inputs != NumXiangqiInputs || len(p.FeatureWeights) != NumXiangqiInputs*h {
		t.Errorf("Perspective: %d inputs, %d feature weights; want %d, %d", p.Inputs, len(p.FeatureWeights), NumXiangqiInputs, NumXiangqiInputs*h)
	}
	if _, err := New([]int{NumXiangqiInputs, 8, 4, 1}, Perspective); !errors.Is(err, ErrArchitecture) {
		t.Errorf("two hidden layers: %v, want ErrArchitecture", err)
	}
}

// TestXiangqiOtherView checks the mirror of a feature against the
// encoding: a piece's input for Black is the mirror of its input for Red.
func TestXiangqiOtherView(t *testing.T) {
	for pt := xiangqi.General; pt <= xiangqi.Soldier; pt++ {
		for c := xiangqi.Red; c <= xiangqi.Black; c++ {
			for s := range xiangqi.Squares {
				red, black := xiangqiInput(pt, c, s, xiangqi.Red), xiangqiInput(pt, c, s, xiangqi.Black)
				if got := xiangqiOtherView(uint16(red)); int(got) != black {
					t.Fatalf("%v of %v on %d: other view of %d is %d, want %d", pt, c, s, red, got, black)
				}
				if got := xiangqiOtherView(uint16(black)); int(got) != red {
					t.Fatalf("%v of %v on %d: other view of %d is %d, want %d", pt, c, s, black, got, red)
				}
			}
		}
	}
}

// TestXiangqiPerspectiveQuantization checks that the integer value of
// random xiangqi positions lies within the net's QuantizationTolerance of
// the float one, for a random genome 256 wide mutated once.
func TestXiangqiPerspectiveQuantization(t *testing.T) {
	n := xiangqiTestNet(t, []int{DefaultPerspectiveHidden}, Perspective|EvolvePieceValues, 41)
	f, err := n.Perspective()
	if err != nil {
		t.Fatal(err)
	}
	q, err := f.Quantize()
	if err != nil {
		t.Fatal(err)
	}
	tol := f.QuantizationTolerance()
	worst, sum := 0.0, 0.0
	positions := randomXiangqiPositions(newRNG(42), 2000)
	for _, p := range positions {
		d := math.Abs(float64(q.EvaluateXiangqi(&p)) - f.EvaluateXiangqi(&p))
		if d > tol {
			t.Fatalf("%s: integer %d, float %v: off by %v, tolerance %v", p.FEN(), q.EvaluateXiangqi(&p), f.EvaluateXiangqi(&p), d, tol)
		}
		worst, sum = max(worst, d), sum+d
	}
	t.Logf("tolerance %.1f cp, worst %.2f, mean %.2f over %d positions", tol, worst, sum/float64(len(positions)), len(positions))
}

// TestXiangqiPerspectiveEval checks a perspective genome's evaluation
// against the same genome's tables, terms and piece values beside a tanh
// net whose output is 0: the difference is the perspective net's value.
func TestXiangqiPerspectiveEval(t *testing.T) {
	const tail = NumXiangqiPSTValues + NumXiangqiTerms + NumXiangqiPieceValues
	n := xiangqiTestNet(t, []int{32}, xiangqiPerspectiveExtras&^SelfAdaptive, 43)
	e, err := NewXiangqiEval(n)
	if err != nil {
		t.Fatal(err)
	}
	quiet, err := New(XiangqiSizes(xiangqiHidden...), xiangqiPerspectiveExtras&^(Perspective|SelfAdaptive))
	if err != nil {
		t.Fatal(err)
	}
	w, nw := quiet.Weights(), n.Weights()
	copy(w[len(w)-tail:], nw[len(nw)-tail:])
	if quiet, err = quiet.WithWeights(w); err != nil {
		t.Fatal(err)
	}
	q, err := NewXiangqiEval(quiet)
	if err != nil {
		t.Fatal(err)
	}
	checkNetPart(t, randomXiangqiPositions(newRNG(44), 300), xiangqi.Position.FEN, func(p xiangqi.Position, pov game.Player) (float64, float64) {
		return e.Evaluate(p, pov) - q.Evaluate(p, pov), xiangqiPerspectivePawns(n, p, pov)
	})
}
