package classic

// MaxDepth and MinDepth bound the classic program's search depth.
const (
	MaxDepth = 9
	MinDepth = 3
)

// Depth returns the classic program's search depth for a position with
// the given number of pieces on the board, generals included:
//
//	min(9, max(3, trunc(7.3 - 0.11*pieces)))
//
// computed in float64 as the classic program computed it in C doubles,
// each operation rounded (the product is converted explicitly, so that no
// architecture fuses the multiply and the subtraction into one rounding).
// Over the counts a game can have (2 to 32 pieces) the formula gives
//
//	31..32 pieces  depth 3 (32: 3.78, 31: 3.89)
//	21..30 pieces  depth 4 (30: exactly 4, see below; 21: 4.99)
//	12..20 pieces  depth 5 (20: 5.1, 12: 5.98)
//	 3..11 pieces  depth 6 (11: 6.09, 3: 6.97)
//	     2 pieces  depth 7 (the bare generals: 7.08)
//
// At 30 pieces the real value is exactly 4 and so is the double one:
// 0.11*30 rounds to 3.2999999999999998 and 7.3 to 7.2999999999999998,
// whose difference is 4. So depth 4 begins at 30 pieces, not below 30;
// in every case the double result truncates as the exact one, which is
// integral only at 30. The clamps to 3 and 9 never act within a game:
// the program's "depth 3 to 5" describes all but its last endgames,
// where it searches 6 (and 7 with the generals alone). Counts outside
// 2..32 are clamped into 3..9 all the same.
func Depth(pieces int) int {
	x := 7.3 - float64(0.11*float64(pieces))
	return min(MaxDepth, max(MinDepth, int(x)))
}
