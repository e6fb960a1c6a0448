package draughts

import "math/bits"

// Board layout.
//
// The 32 playable squares are numbered 1..32 in standard notation with Black
// at the top: squares 1..4 form the top row, 29..32 the bottom row. Square n
// is bit n-1 of a uint32. Rows alternate between two shapes: even rows
// (0, 2, 4, 6, counted from the top) hold their squares on files b, d, f, h
// and odd rows on files a, c, e, g:
//
//	       a  b  c  d  e  f  g  h
//	row 0     1     2     3     4     (Black's back rank)
//	row 1  5     6     7     8
//	row 2     9    10    11    12
//	row 3 13    14    15    16
//	row 4    17    18    19    20
//	row 5 21    22    23    24
//	row 6    25    26    27    28
//	row 7 29    30    31    32        (White's back rank)
//
// A diagonal step is then a shift by 4 on every row and, depending on the
// row's shape and direction, a shift by 3 or 5 that is only possible away
// from the board's edge. Every step is order-preserving on the bits it maps,
// which lets move generation walk sources and targets side by side.

const (
	evenRows uint32 = 0x0F0F0F0F // rows 0, 2, 4, 6
	oddRows  uint32 = 0xF0F0F0F0 // rows 1, 3, 5, 7
	// evenNotH: even-row squares not on file h (they have a right-hand neighbour one row away by 5/3).
	evenNotH uint32 = 0x07070707
	// oddNotA: odd-row squares not on file a.
	oddNotA uint32 = 0xE0E0E0E0

	// Rows where men are crowned: Black's men crown on row 7, White's on row 0.
	row0 uint32 = 0x0000000F
	row7 uint32 = 0xF0000000
)

// The four diagonal directions, "down" being towards White's side (higher numbers).
const (
	dirDL = iota // down-left
	dirDR        // down-right
	dirUL        // up-left
	dirUR        // up-right
)

// downLeft moves every square of b one step down and to the left.
func downLeft(b uint32) uint32 { return (b&evenRows)<<4 | (b&oddNotA)<<3 }

// downRight moves every square of b one step down and to the right.
func downRight(b uint32) uint32 { return (b&evenNotH)<<5 | (b&oddRows)<<4 }

// upLeft moves every square of b one step up and to the left.
func upLeft(b uint32) uint32 { return (b&evenRows)>>4 | (b&oddNotA)>>5 }

// upRight moves every square of b one step up and to the right.
func upRight(b uint32) uint32 { return (b&evenNotH)>>3 | (b&oddRows)>>4 }

// step moves every square of b one step in direction d. It is for set-up and
// notation code; move generation calls the direction functions directly.
func step(b uint32, d int) uint32 {
	switch d {
	case dirDL:
		return downLeft(b)
	case dirDR:
		return downRight(b)
	case dirUL:
		return upLeft(b)
	default:
		return upRight(b)
	}
}

// opposite returns the direction that undoes d.
func opposite(d int) int {
	return [4]int{dirDL: dirUR, dirDR: dirUL, dirUL: dirDR, dirUR: dirDL}[d]
}

// neighbour[d][s] is the bit of the square one step from s in direction d, or
// 0 off the board; beyond[d][s] is the square two steps away (a jump's landing
// square), or 0.
var neighbour, beyond = func() (n, j [4][32]uint32) {
	for d := range 4 {
		for s := range 32 {
			n[d][s] = step(1<<s, d)
			j[d][s] = step(n[d][s], d)
		}
	}
	return n, j
}()

// popcount returns the number of squares in b.
func popcount(b uint32) int { return bits.OnesCount32(b) }

// lowest returns the index of the lowest square of b, which must not be empty.
func lowest(b uint32) int { return bits.TrailingZeros32(b) }
