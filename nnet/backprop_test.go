package nnet

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"evolved/game/draughts"
)

// TestBackpropMatchesTheNet checks Backprop against the net it trains: its
// output is Net.Forward's bit for bit, and its derivatives are the
// central differences of Net.Forward's output, weight by weight, for
// every weight of a small net (direct PieceDiff weight included) and a
// sample of a Blondie24 draughts net's, on draughts inputs.
func TestBackpropMatchesTheNet(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	positions := []draughts.Position{draughts.Start()}
	p := draughts.Start()
	var buf []draughts.Move
	for range 30 { // a random game's positions, kings and all
		if buf = p.Moves(buf[:0]); len(buf) == 0 {
			break
		}
		p = p.Play(buf[rng.IntN(len(buf))])
		positions = append(positions, p)
	}
	for _, tc := range []struct {
		name   string
		sizes  []int
		flags  Flags
		sample int // check every sample-th weight
	}{
		{"91-3-2-1 piece-diff", []int{NumDraughtsInputs, 3, 2, 1}, PieceDiff, 1},
		{"91-40-10-1 piece-diff", []int{NumDraughtsInputs, 40, 10, 1}, PieceDiff | SelfAdaptive, 37},
		{"91-5-1", []int{NumDraughtsInputs, 5, 1}, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := Random(tc.sizes, tc.flags, rng)
			if err != nil {
				t.Fatal(err)
			}
			w := n.Weights()
			if tc.flags&PieceDiff != 0 {
				w[n.DirectIndex(0)] = 0.3
			}
			n, err = n.WithWeights(w)
			if err != nil {
				t.Fatal(err)
			}
			bp, err := NewBackprop(n)
			if err != nil {
				t.Fatal(err)
			}
			grad := make([]float64, len(w))
			for pi, pos := range positions {
				pov := pos.Side
				in := DraughtsInputs(nil, pos, pov, n.King())
				pd := DraughtsPieceDiff(pos, pov, n.King())
				want := n.Forward(nil, in, pd)[0]
				if got := bp.Forward(w, in, pd); math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("position %d: Forward %v, the net's %v", pi, got, want)
				}
				clear(grad)
				bp.Backward(w, 2, grad)
				const h = 1e-5
				for i := 0; i < len(w); i += tc.sample {
					at := func(d float64) float64 {
						v := n.Weights()
						v[i] += d
						m, err := n.WithWeights(v)
						if err != nil {
							t.Fatal(err)
						}
						return m.Forward(nil, in, pd)[0]
					}
					fd := 2 * (at(h) - at(-h)) / (2 * h)
					if math.Abs(grad[i]-fd) > 1e-4*(1+math.Abs(fd)) {
						t.Fatalf("position %d weight %d: derivative %v, central difference %v", pi, i, grad[i], fd)
					}
				}
			}
		})
	}
}

// TestBackpropWantsOneOutput checks that a net of two outputs is refused.
func TestBackpropWantsOneOutput(t *testing.T) {
	n, err := New([]int{4, 3, 2}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewBackprop(n); !errors.Is(err, ErrArchitecture) {
		t.Fatalf("NewBackprop of a net of 2 outputs: %v, want ErrArchitecture", err)
	}
}

// BenchmarkBackprop measures a forward and backward pass of a Blondie24
// draughts net: the fit's cost a position and step.
func BenchmarkBackprop(b *testing.B) {
	n, err := Random([]int{NumDraughtsInputs, 40, 10, 1}, PieceDiff, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		b.Fatal(err)
	}
	bp, err := NewBackprop(n)
	if err != nil {
		b.Fatal(err)
	}
	w := n.Weights()
	grad := make([]float64, len(w))
	in := DraughtsInputs(nil, draughts.Start(), draughts.Black, n.King())
	b.ReportAllocs()
	for b.Loop() {
		v := bp.Forward(w, in, 0)
		bp.Backward(w, v, grad)
	}
}
