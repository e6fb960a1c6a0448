package draughts

import "math/bits"

// Move is a draughts move packed into 64 bits:
//
//	bits  0..31  the squares of the pieces it captures (bit n-1 for square n)
//	bits 32..36  the square it starts from, 0..31 (square number minus one)
//	bits 40..44  the square it ends on, 0..31
//	bit  48      set on every valid move, so that the zero Move is "no move"
//
// A capture is identified by its start, its end and the set of pieces it
// takes. In English draughts the landing squares of a multi-jump determine
// the jumped pieces, so two routes with the same start and end are different
// moves exactly when they capture different pieces; two routes that capture
// the same pieces (a king going round a ring either way) lead to the same
// position and are one move. Route returns a route for printing.
type Move uint64

// NoMove is the zero Move, returned where there is no move.
const NoMove Move = 0

const moveValid = 1 << 48

// newMove packs a move; from and to are square indices 0..31.
func newMove(from, to int, captured uint32) Move {
	return Move(captured) | Move(from)<<32 | Move(to)<<40 | moveValid
}

// From returns the index (0..31, square number minus one) of the start square.
func (m Move) From() int { return int(m>>32) & 31 }

// To returns the index (0..31) of the end square.
func (m Move) To() int { return int(m>>40) & 31 }

// Captured returns the set of captured squares as a bitboard (bit n-1 for square n).
func (m Move) Captured() uint32 { return uint32(m) }

// IsCapture reports whether m captures.
func (m Move) IsCapture() bool { return uint32(m) != 0 }

// Jumps returns the number of pieces m captures.
func (m Move) Jumps() int { return bits.OnesCount32(uint32(m)) }
