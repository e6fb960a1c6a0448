package chess

// Move is a chess move packed into 32 bits:
//
//	bits  0..5   the square the piece starts from
//	bits  6..11  the square it ends on; for castling, the castling rook's square
//	bits 12..14  the moving piece's PieceType
//	bits 15..17  the PieceType promoted to, or 0 (Pawn) for no promotion
//	bits 18..19  the kind: normal, double pawn push, en passant or castling
//	bit  20      set on every valid move, so that the zero Move is "no move"
//
// Castling is written king-takes-rook inside a Move, the only encoding that
// is unambiguous in Chess960 (the king may not move at all, or may land on
// the rook's square); FormatUCI converts it to the king's destination unless
// asked for the Chess960 form. A Move is only meaningful in the position it
// was generated for. Moves compare with ==.
type Move uint32

// NoMove is the zero Move, returned where there is no move.
const NoMove Move = 0

// Move kinds.
const (
	kindNormal    = 0
	kindDouble    = 1 // a pawn's two-square advance
	kindEnPassant = 2
	kindCastle    = 3
)

const moveValid = 1 << 20

// newMove packs a move.
func newMove(from, to Square, pt PieceType, kind uint32) Move {
	return Move(uint32(from) | uint32(to)<<6 | uint32(pt)<<12 | kind<<18 | moveValid)
}

// newPromotion packs a promotion to promo.
func newPromotion(from, to Square, promo PieceType) Move {
	return Move(uint32(from) | uint32(to)<<6 | uint32(Pawn)<<12 | uint32(promo)<<15 | moveValid)
}

// From returns the square the moving piece starts from (the king's for castling).
func (m Move) From() Square { return Square(m & 63) }

// To returns the square the move ends on; for castling it is the rook's
// square, not the king's destination (see KingTo).
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Piece returns the type of the moving piece (King for castling).
func (m Move) Piece() PieceType { return PieceType(m >> 12 & 7) }

// Promotion returns the piece a pawn promotes to, or NoPieceType.
func (m Move) Promotion() PieceType {
	if p := PieceType(m >> 15 & 7); p != Pawn {
		return p
	}
	return NoPieceType
}

// IsCastle reports whether m is castling.
func (m Move) IsCastle() bool { return m>>18&3 == kindCastle }

// IsEnPassant reports whether m is an en passant capture.
func (m Move) IsEnPassant() bool { return m>>18&3 == kindEnPassant }

// IsDoublePush reports whether m is a pawn's two-square advance.
func (m Move) IsDoublePush() bool { return m>>18&3 == kindDouble }

// kind returns the move kind.
func (m Move) kind() uint32 { return uint32(m) >> 18 & 3 }

// KingTo returns the square the king ends on for castling (the g- or c-file
// of its rank), and To for every other move.
func (m Move) KingTo() Square {
	if !m.IsCastle() {
		return m.To()
	}
	return castleKingTo(m.From(), m.To())
}

// castleKingTo returns the king's destination when the king on k castles
// with the rook on r: the g-file towards the h-side, the c-file otherwise.
func castleKingTo(k, r Square) Square {
	if r > k {
		return k&^7 | 6
	}
	return k&^7 | 2
}

// castleRookTo returns the castling rook's destination: the f-file towards
// the h-side, the d-file otherwise.
func castleRookTo(k, r Square) Square {
	if r > k {
		return k&^7 | 5
	}
	return k&^7 | 3
}
