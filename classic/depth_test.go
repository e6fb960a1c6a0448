package classic

import "testing"

// TestDepth checks the depth formula at every count a game can have and
// beyond, with the boundaries worked out in Depth's doc comment (30 pieces
// is depth 4: 7.3 - 0.11*30 is exactly 4 in doubles too), and against
// the same formula in exact integer arithmetic, (730 - 11*pieces)/100.
func TestDepth(t *testing.T) {
	for _, tc := range []struct{ pieces, depth int }{
		{40, 3}, {33, 3}, // never in a game: 7.3-4.4 < 3 is clamped
		{32, 3}, {31, 3},
		{30, 4}, {29, 4}, {25, 4}, {21, 4},
		{20, 5}, {16, 5}, {12, 5},
		{11, 6}, {3, 6},
		{2, 7},
		{0, 7}, {-30, 9}, // clamped above: 7.3+3.3 = 10.6
	} {
		if got := Depth(tc.pieces); got != tc.depth {
			t.Errorf("Depth(%d) = %d, want %d", tc.pieces, got, tc.depth)
		}
	}
	for n := -60; n <= 120; n++ {
		exact := min(MaxDepth, max(MinDepth, (730-11*n)/100))
		if got := Depth(n); got != exact {
			t.Errorf("Depth(%d) = %d, exact arithmetic gives %d", n, got, exact)
		}
	}
	// Over 2..32 the depth only grows as pieces come off.
	for n := 3; n <= 32; n++ {
		if Depth(n) > Depth(n-1) {
			t.Errorf("Depth(%d) = %d > Depth(%d) = %d", n, Depth(n), n-1, Depth(n-1))
		}
	}
}
