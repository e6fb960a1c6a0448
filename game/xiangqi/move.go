package xiangqi

// Move is a xiangqi move packed into 32 bits:
//
//	bits  0..6   the square the piece starts from
//	bits  7..13  the square it ends on
//	bits 14..16  the moving piece's PieceType
//	bits 17..19  the captured piece's PieceType, or NoPieceType
//	bit  20      set on every valid move, so that the zero Move is "no move"
//
// A Move is only meaningful in the position it was generated for. Moves
// compare with ==.
type Move uint32

// NoMove is the zero Move, returned where there is no move.
const NoMove Move = 0

const moveValid = 1 << 20

// newMove packs a move of a piece of type pt that captures a piece of type
// captured (NoPieceType for none).
func newMove(from, to Square, pt, captured PieceType) Move {
	return Move(uint32(from) | uint32(to)<<7 | uint32(pt)<<14 | uint32(captured)<<17 | moveValid)
}

// From returns the square the moving piece starts from.
func (m Move) From() Square { return Square(m & 127) }

// To returns the square the move ends on.
func (m Move) To() Square { return Square(m >> 7 & 127) }

// Piece returns the type of the moving piece.
func (m Move) Piece() PieceType { return PieceType(m >> 14 & 7) }

// Captured returns the type of the captured piece, or NoPieceType.
func (m Move) Captured() PieceType { return PieceType(m >> 17 & 7) }

// IsCapture reports whether m captures.
func (m Move) IsCapture() bool { return m.Captured() != NoPieceType }

// String returns m in Fairy-Stockfish's coordinates ("h2e2", "h10g8"), or
// "0000" for NoMove.
func (m Move) String() string {
	if m == NoMove {
		return "0000"
	}
	return m.From().String() + m.To().String()
}
