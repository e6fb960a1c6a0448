package chess

import "evolved/game"

// Attack sets for evaluation: the same precomputed tables and magic
// bitboards the move generator uses, for evaluators that count mobility or
// attacks on the king's squares. None of them allocates.

// KnightAttacks returns the squares a knight on s attacks.
func KnightAttacks(s Square) Bitboard { return tab.knight[s&63] }

// KingAttacks returns the squares a king on s attacks.
func KingAttacks(s Square) Bitboard { return tab.king[s&63] }

// BishopAttacks returns the squares a bishop on s attacks given the
// occupancy occ: each diagonal ray up to and including the first occupied
// square.
func BishopAttacks(s Square, occ Bitboard) Bitboard { return bishopAttacks(s, occ) }

// RookAttacks returns the squares a rook on s attacks given the occupancy
// occ: each rank and file ray up to and including the first occupied
// square.
func RookAttacks(s Square, occ Bitboard) Bitboard { return rookAttacks(s, occ) }

// PawnAttacksOf returns the squares the pawns pawns of colour c attack
// (diagonally forward, towards rank 8 for White and rank 1 for Black).
func PawnAttacksOf(c game.Player, pawns Bitboard) Bitboard {
	if c&1 == White {
		return north(east(pawns)) | north(west(pawns))
	}
	return south(east(pawns)) | south(west(pawns))
}

// FileMask returns the squares of file f, 0 (a) to 7 (h).
func FileMask(f int) Bitboard { return fileA << (f & 7) }
