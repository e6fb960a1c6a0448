package nnet

import (
	"errors"
	"math"
	"math/bits"
	"slices"
	"testing"

	"evolved/game"
	"evolved/game/draughts"
)

// TestDraughtsRegions checks the 91 sub-squares: how many of each size, how
// many playable squares each holds, and the 854 (sub-square, square) pairs.
func TestDraughtsRegions(t *testing.T) {
	i, pairs := 0, 0
	for k := 3; k <= 8; k++ {
		count := (9 - k) * (9 - k)
		for range count {
			got := bits.OnesCount32(draughtsRegions[i])
			if k%2 == 0 && got != k*k/2 || k%2 == 1 && got != k*k/2 && got != k*k/2+1 {
				t.Errorf("sub-square %d (%dx%d) holds %d squares", i, k, k, got)
			}
			pairs += got
			i++
		}
	}
	if i != NumDraughtsInputs || pairs != 854 {
		t.Errorf("%d sub-squares with %d pairs, want 91 with 854", i, pairs)
	}
	// Square 1 (row 0, file b) lies in the sub-squares whose top-left
	// corner is (0, a) or (0, b) for k = 3..7, and in the 8x8 board.
	want := []int{0, 1, 36, 37, 61, 62, 77, 78, 86, 87, 90}
	var got []int
	for i, r := range draughtsRegions {
		if r&1 != 0 {
			got = append(got, i)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("sub-squares holding square 1 = %v, want %v", got, want)
	}
}

// TestDraughtsInputsHandComputed checks input sums worked out by hand.
func TestDraughtsInputsHandComputed(t *testing.T) {
	bit := func(square int) uint32 { return 1 << (square - 1) }
	for _, c := range []struct {
		name                string
		black, white, kings uint32
		pov                 game.Player
		king, sum           float64
		nonZero             int
	}{
		// A square lies in as many sub-squares as it has corner choices:
		// square 1 (row 0, file b): 2 per k for k = 3..7, 1 for k = 8.
		{"own man on 1", bit(1), 0, 0, draughts.Black, 1.5, 11, 11},
		{"own king on 1", bit(1), 0, bit(1), draughts.Black, 2, 22, 11},
		// For White, square 1 is an opponent's man, seen on square 32.
		{"opponent man on 1", bit(1), 0, 0, draughts.White, 1.5, -11, 11},
		// Square 14 (row 3, file c): k=3: 3x3, k=4: 4x3, k=5: 4x3,
		// k=6: 3x3, k=7: 2x2, k=8: 1 corner choices: 9+12+12+9+4+1 = 47.
		{"own man on 14", bit(14), 0, 0, draughts.Black, 1.5, 47, 47},
		{"opponent king on 14", 0, bit(14), bit(14), draughts.Black, 1.5, -70.5, 47},
		// Square 4 (row 0, file h), a double corner: one corner choice per k.
		{"own man on 4", bit(4), 0, 0, draughts.Black, 1.5, 6, 6},
		// Square 15 (row 3, file e): k=3: 3x3, k=4: 4x4, k=5: 4x4, k=6: 3x3,
		// k=7: 2x2, k=8: 1 corner choices: 9+16+16+9+4+1 = 55.
		{"own man on 15", bit(15), 0, 0, draughts.Black, 1.5, 55, 55},
		// White's man on 19 is seen on square 33-19 = 14.
		{"White's own man on 19", 0, bit(19), 0, draughts.White, 1.5, 47, 47},
		// Every square once: the 854 pairs. The start position is
		// symmetric: every sum is zero.
		{"full board of own men", 0xFFFFFFFF, 0, 0, draughts.Black, 1.5, 854, 91},
		{"start position", 0x00000FFF, 0xFFF00000, 0, draughts.Black, 1.5, 0, -1},
	} {
		p := draughts.NewPosition(c.black, c.white, c.kings, draughts.Black)
		in := DraughtsInputs(nil, p, c.pov, c.king)
		if len(in) != NumDraughtsInputs {
			t.Fatalf("%s: %d inputs, want %d", c.name, len(in), NumDraughtsInputs)
		}
		sum, nonZero := 0.0, 0
		for _, v := range in {
			sum += v
			if v != 0 {
				nonZero++
			}
		}
		if sum != c.sum || c.nonZero >= 0 && nonZero != c.nonZero {
			t.Errorf("%s: inputs sum to %v with %d non-zero, want %v with %d", c.name, sum, nonZero, c.sum, c.nonZero)
		}
	}
}

// TestDraughtsFolding checks the folded first layer (rounded columns
// summed over the occupied squares) against W1 times the 91 inputs computed
// directly, and whole evaluations against Net.Forward, on hand-made and
// random boards, for both points of view, with and without the extras.
func TestDraughtsFolding(t *testing.T) {
	bit := func(square int) uint32 { return 1 << (square - 1) }
	boards := []draughts.Position{
		draughts.Start(),
		draughts.NewPosition(0, 0, 0, draughts.Black),
		draughts.NewPosition(bit(1), 0, 0, draughts.Black),
		draughts.NewPosition(bit(1), bit(32), bit(1)|bit(32), draughts.White),
		draughts.NewPosition(bit(5)|bit(14)|bit(23), bit(10)|bit(28), bit(14)|bit(28), draughts.Black),
		draughts.NewPosition(0xFFFFFFFF, 0, 0xF000000F, draughts.Black),
		draughts.NewPosition(0x0000F00F, 0xF00F0000, 0x00F00F00&0xF00FF00F, draughts.White),
	}
	boards = append(boards, randomPositions(newRNG(7), 200)...)
	for _, flags := range []Flags{0, allExtras} {
		e := testEval(t, flags, 11)
		n := e.Net()
		acc := make([]int32, e.h1)
		for _, p := range boards {
			for pov := draughts.Black; pov <= draughts.White; pov++ {
				in := DraughtsInputs(nil, p, pov, n.King())
				b := boardOf(&p)
				e.refresh(acc, &b, pov)
				for h := range e.h1 {
					row := n.w[n.WeightIndex(1, h, 0):][:NumDraughtsInputs]
					want := 0.0
					for i, x := range in {
						want += row[i] * x
					}
					got := sumOf(&e.head, acc, h)
					if math.Abs(got-want) > sumTolerance(&e.head, h) {
						t.Fatalf("flags %v, %+v, pov %v: first-layer sum %d = %v, want %v", flags, p, pov, h, got, want)
					}
				}
				got, want := e.Evaluate(p, pov), reference(n, p, pov)
				if math.Abs(got-want) > evalTolerance || !(got > -1 && got < 1) {
					t.Fatalf("flags %v, %+v, pov %v: Evaluate = %v, reference %v", flags, p, pov, got, want)
				}
			}
		}
	}
}

// TestDraughtsOrientation checks that a position and its mirror image (the
// board turned 180 degrees, colours swapped) look the same to the
// corresponding players: same inputs, same value, bit for bit.
func TestDraughtsOrientation(t *testing.T) {
	e := testEval(t, allExtras, 12)
	positions := append(randomPositions(newRNG(8), 300), draughts.Start())
	for _, p := range positions {
		q := rotated(p)
		for pov := draughts.Black; pov <= draughts.White; pov++ {
			if a, b := DraughtsInputs(nil, p, pov, 1.75), DraughtsInputs(nil, q, pov^1, 1.75); !slices.Equal(a, b) {
				t.Fatalf("%+v pov %v: inputs %v, mirrored %v", p, pov, a, b)
			}
			if a, b := e.Evaluate(p, pov), e.Evaluate(q, pov^1); a != b {
				t.Fatalf("%+v pov %v: Evaluate = %v, mirrored %v", p, pov, a, b)
			}
		}
	}
	// The start position is its own mirror image.
	if a, b := e.Evaluate(draughts.Start(), draughts.Black), e.Evaluate(draughts.Start(), draughts.White); a != b {
		t.Errorf("start: Evaluate(Black) = %v, Evaluate(White) = %v", a, b)
	}
}

// TestNewDraughtsEvalErrors checks that nets of the wrong shape are refused.
func TestNewDraughtsEvalErrors(t *testing.T) {
	for _, sizes := range [][]int{{90, 40, 10, 1}, {91, 40, 10, 2}, {32, 1}} {
		n, err := New(sizes, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewDraughtsEval(n); !errors.Is(err, ErrArchitecture) {
			t.Errorf("NewDraughtsEval(%v) error = %v, want ErrArchitecture", sizes, err)
		}
	}
	// No hidden layer, and wide layers: valid, evaluated like the rest.
	for _, sizes := range [][]int{{91, 1}, {91, 100, 70, 1}} {
		n := testNet(t, sizes, PieceDiff, 3)
		e, err := NewDraughtsEval(n)
		if err != nil {
			t.Fatalf("NewDraughtsEval(%v): %v", sizes, err)
		}
		for _, p := range randomPositions(newRNG(4), 20) {
			if got, want := e.Evaluate(p, p.Side), reference(n, p, p.Side); math.Abs(got-want) > evalTolerance {
				t.Fatalf("%v: Evaluate = %v, reference %v", sizes, got, want)
			}
		}
	}
}

// TestDraughtsEvalLargeWeights checks the columns' unit with weights far
// beyond anything evolution produces: the folded sums stay accurate.
func TestDraughtsEvalLargeWeights(t *testing.T) {
	n := testNet(t, draughtsSizes, PieceDiff, 5)
	w := n.Weights()
	for i := range w {
		w[i] *= 1e6
	}
	n, err := n.WithWeights(w)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewDraughtsEval(n)
	if err != nil {
		t.Fatal(err)
	}
	acc := make([]int32, e.h1)
	for _, p := range randomPositions(newRNG(6), 50) {
		in := DraughtsInputs(nil, p, p.Side, n.King())
		b := boardOf(&p)
		e.refresh(acc, &b, p.Side)
		for h := range e.h1 {
			want := dot(n.w[n.WeightIndex(1, h, 0):][:NumDraughtsInputs], in)
			if got := sumOf(&e.head, acc, h); math.Abs(got-want) > sumTolerance(&e.head, h) {
				t.Fatalf("first-layer sum %d = %v, want %v", h, got, want)
			}
		}
	}
}
