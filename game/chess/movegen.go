package chess

// This file holds only the hot path: legal move generation and move
// counting. Both generate legal moves directly rather than testing
// pseudo-legal ones: pinned pieces move only along the line of their pin,
// a check restricts the other pieces to capturing or blocking the checker,
// the king avoids attacked squares, and only en passant and castling, which
// are rare, are tested square by square. CountMoves mirrors LegalMoves with
// popcounts instead of a list, which is what makes perft's bulk counting at
// the last ply cheap; TestCountMoves checks that the two agree.

import "evolved/game"

// MaxMoves bounds the number of legal moves of a position that can arise in
// a game (the most known is 218). A buffer of this capacity never grows.
const MaxMoves = 256

// LegalMoves appends the legal moves of p to buf[:0] and returns the
// extended slice. It allocates only if buf is too small; a buffer with
// capacity MaxMoves is always enough.
func (p *Position) LegalMoves(buf []Move) []Move { return p.generate(buf, false) }

// LegalNoisyMoves appends the legal captures and promotions of p (en
// passant included, castling not) to buf[:0] and returns the extended
// slice: those moves of LegalMoves, in the same order, without generating
// the quiet ones (the quiescence search's moves).
func (p *Position) LegalNoisyMoves(buf []Move) []Move { return p.generate(buf, true) }

// generate is LegalMoves, or LegalNoisyMoves with noisy set: the pieces'
// targets are then the enemy's pieces, and the pawns' pushes only the
// promotions.
func (p *Position) generate(buf []Move, noisy bool) []Move {
	buf = buf[:0]
	us := p.side & 1
	them := us ^ 1
	ours, theirs := p.colors[us], p.colors[them]
	occ := ours | theirs
	k := lsb(p.pieces[King] & ours)
	checkers := p.attackersTo(k, occ) & theirs
	reach := ^ours // the squares a piece may move to
	if noisy {
		reach = theirs
	}

	kingOcc := occ ^ bit(k)
	for t := tab.king[k] & reach; t != 0; t &= t - 1 {
		if to := lsb(t); !p.attackedBy(to, kingOcc, them) {
			buf = append(buf, newMove(k, to, King, kindNormal))
		}
	}
	if checkers&(checkers-1) != 0 {
		return buf // double check: only the king moves
	}
	target := ^ours
	if checkers != 0 {
		target = tab.between[k][lsb(checkers)] | checkers
	}
	pinned := p.pinned(k, us, occ)
	pieceTarget := target & reach // the pieces' (the pawns' pushes may promote)

	for b := p.pieces[Knight] & ours &^ pinned; b != 0; b &= b - 1 {
		from := lsb(b)
		buf = appendTargets(buf, from, tab.knight[from]&pieceTarget, Knight)
	}
	for b := p.pieces[Bishop] & ours; b != 0; b &= b - 1 {
		from := lsb(b)
		att := bishopAttacks(from, occ) & pieceTarget
		if pinned&bit(from) != 0 {
			att &= tab.line[k][from]
		}
		buf = appendTargets(buf, from, att, Bishop)
	}
	for b := p.pieces[Rook] & ours; b != 0; b &= b - 1 {
		from := lsb(b)
		att := rookAttacks(from, occ) & pieceTarget
		if pinned&bit(from) != 0 {
			att &= tab.line[k][from]
		}
		buf = appendTargets(buf, from, att, Rook)
	}
	for b := p.pieces[Queen] & ours; b != 0; b &= b - 1 {
		from := lsb(b)
		att := (bishopAttacks(from, occ) | rookAttacks(from, occ)) & pieceTarget
		if pinned&bit(from) != 0 {
			att &= tab.line[k][from]
		}
		buf = appendTargets(buf, from, att, Queen)
	}

	// Pawns that are not pinned, set-wise; from = to - delta.
	pawns := p.pieces[Pawn] & ours
	free := pawns &^ pinned
	empty := ^occ
	var push1, push2, capE, capW, promoRank Bitboard
	var dPush, dE, dW int
	if us == White {
		push1 = north(free) & empty
		push2 = north(push1&rank3) & empty & target
		capE = north(east(free)) & theirs & target
		capW = north(west(free)) & theirs & target
		promoRank, dPush, dE, dW = rank8, 8, 9, 7
	} else {
		push1 = south(free) & empty
		push2 = south(push1&rank6) & empty & target
		capE = south(east(free)) & theirs & target
		capW = south(west(free)) & theirs & target
		promoRank, dPush, dE, dW = rank1, -8, -7, -9
	}
	push1 &= target
	if !noisy {
		buf = appendPawnMoves(buf, push1&^promoRank, dPush, kindNormal)
		buf = appendPawnMoves(buf, push2, 2*dPush, kindDouble)
	}
	buf = appendPawnMoves(buf, capE&^promoRank, dE, kindNormal)
	buf = appendPawnMoves(buf, capW&^promoRank, dW, kindNormal)
	if (push1|capE|capW)&promoRank != 0 {
		buf = appendPromotions(buf, push1&promoRank, dPush)
		buf = appendPromotions(buf, capE&promoRank, dE)
		buf = appendPromotions(buf, capW&promoRank, dW)
	}
	// Pinned pawns, one by one, along their pin (never when in check: a
	// pinned piece cannot help against a check).
	if checkers == 0 {
		for b := pawns & pinned; b != 0; b &= b - 1 {
			from := lsb(b)
			line := tab.line[k][from]
			to := Square(int(from) + dPush)
			if line&empty&bit(to) != 0 {
				if bit(to)&promoRank != 0 {
					buf = appendPromotion(buf, from, to)
				} else if !noisy {
					buf = append(buf, newMove(from, to, Pawn, kindNormal))
					if to2 := Square(int(to) + dPush); bit(from)&(rank2|rank7) != 0 && empty&bit(to2) != 0 {
						buf = append(buf, newMove(from, to2, Pawn, kindDouble))
					}
				}
			}
			for t := tab.pawn[us][from] & theirs & line; t != 0; t &= t - 1 {
				to := lsb(t)
				if bit(to)&promoRank != 0 {
					buf = appendPromotion(buf, from, to)
				} else {
					buf = append(buf, newMove(from, to, Pawn, kindNormal))
				}
			}
		}
	}
	if p.ep != NoSquare {
		for b := tab.pawn[them][p.ep] & pawns; b != 0; b &= b - 1 {
			if from := lsb(b); p.enPassantLegal(from, k, occ) {
				buf = append(buf, newMove(from, p.ep, Pawn, kindEnPassant))
			}
		}
	}
	if checkers == 0 && !noisy {
		for r := p.castling & ours; r != 0; r &= r - 1 {
			if rs := lsb(r); p.canCastle(k, rs, occ) {
				buf = append(buf, newMove(k, rs, King, kindCastle))
			}
		}
	}
	return buf
}

// CountMoves returns the number of legal moves of p, len(p.LegalMoves(buf)),
// without building the list.
func (p *Position) CountMoves() int {
	us := p.side & 1
	them := us ^ 1
	ours, theirs := p.colors[us], p.colors[them]
	occ := ours | theirs
	k := lsb(p.pieces[King] & ours)
	checkers := p.attackersTo(k, occ) & theirs

	n := 0
	kingOcc := occ ^ bit(k)
	for t := tab.king[k] &^ ours; t != 0; t &= t - 1 {
		if !p.attackedBy(lsb(t), kingOcc, them) {
			n++
		}
	}
	if checkers&(checkers-1) != 0 {
		return n
	}
	target := ^ours
	if checkers != 0 {
		target = tab.between[k][lsb(checkers)] | checkers
	}
	pinned := p.pinned(k, us, occ)

	for b := p.pieces[Knight] & ours &^ pinned; b != 0; b &= b - 1 {
		n += popcount(tab.knight[lsb(b)] & target)
	}
	for b := (p.pieces[Bishop] | p.pieces[Queen]) & ours; b != 0; b &= b - 1 {
		from := lsb(b)
		att := bishopAttacks(from, occ) & target
		if pinned&bit(from) != 0 {
			att &= tab.line[k][from]
		}
		n += popcount(att)
	}
	for b := (p.pieces[Rook] | p.pieces[Queen]) & ours; b != 0; b &= b - 1 {
		from := lsb(b)
		att := rookAttacks(from, occ) & target
		if pinned&bit(from) != 0 {
			att &= tab.line[k][from]
		}
		n += popcount(att)
	}

	pawns := p.pieces[Pawn] & ours
	free := pawns &^ pinned
	empty := ^occ
	var push1, push2, caps1, caps2, promoRank Bitboard
	var dPush int
	if us == White {
		push1 = north(free) & empty
		push2 = north(push1&rank3) & empty & target
		caps1 = north(east(free)) & theirs & target
		caps2 = north(west(free)) & theirs & target
		promoRank, dPush = rank8, 8
	} else {
		push1 = south(free) & empty
		push2 = south(push1&rank6) & empty & target
		caps1 = south(east(free)) & theirs & target
		caps2 = south(west(free)) & theirs & target
		promoRank, dPush = rank1, -8
	}
	push1 &= target
	n += popcount(push1) + popcount(push2) + popcount(caps1) + popcount(caps2)
	if promos := (push1 & promoRank).Count() + (caps1 & promoRank).Count() + (caps2 & promoRank).Count(); promos != 0 {
		n += 3 * promos // four moves each, one already counted
	}
	if checkers == 0 {
		for b := pawns & pinned; b != 0; b &= b - 1 {
			from := lsb(b)
			line := tab.line[k][from]
			to := Square(int(from) + dPush)
			if line&empty&bit(to) != 0 {
				if bit(to)&promoRank != 0 {
					n += 4
				} else {
					n++
					if to2 := Square(int(to) + dPush); bit(from)&(rank2|rank7) != 0 && empty&bit(to2) != 0 {
						n++
					}
				}
			}
			caps := tab.pawn[us][from] & theirs & line
			n += popcount(caps) + 3*popcount(caps&promoRank)
		}
	}
	if p.ep != NoSquare {
		for b := tab.pawn[them][p.ep] & pawns; b != 0; b &= b - 1 {
			if p.enPassantLegal(lsb(b), k, occ) {
				n++
			}
		}
	}
	if checkers == 0 {
		for r := p.castling & ours; r != 0; r &= r - 1 {
			if p.canCastle(k, lsb(r), occ) {
				n++
			}
		}
	}
	return n
}

// appendTargets appends a move of the piece pt from from to each square of targets.
func appendTargets(buf []Move, from Square, targets Bitboard, pt PieceType) []Move {
	base := newMove(from, 0, pt, kindNormal)
	for ; targets != 0; targets &= targets - 1 {
		buf = append(buf, base|Move(lsb(targets))<<6)
	}
	return buf
}

// appendPawnMoves appends a pawn move to each square of targets from the
// square delta behind it.
func appendPawnMoves(buf []Move, targets Bitboard, delta int, kind uint32) []Move {
	for ; targets != 0; targets &= targets - 1 {
		to := lsb(targets)
		buf = append(buf, newMove(Square(int(to)-delta), to, Pawn, kind))
	}
	return buf
}

// appendPromotions appends the four promotions onto each square of targets
// from the square delta behind it.
func appendPromotions(buf []Move, targets Bitboard, delta int) []Move {
	for ; targets != 0; targets &= targets - 1 {
		to := lsb(targets)
		buf = appendPromotion(buf, Square(int(to)-delta), to)
	}
	return buf
}

// appendPromotion appends the four promotions from from to to, queen first.
func appendPromotion(buf []Move, from, to Square) []Move {
	return append(buf,
		newPromotion(from, to, Queen), newPromotion(from, to, Rook),
		newPromotion(from, to, Bishop), newPromotion(from, to, Knight))
}

// pinned returns the pieces of colour us that are pinned to their king on k.
func (p *Position) pinned(k Square, us game.Player, occ Bitboard) Bitboard {
	theirs := p.colors[us^1]
	// The enemy sliders that would attack k if our pieces were not there.
	snipers := (rookAttacks(k, theirs)&(p.pieces[Rook]|p.pieces[Queen]) |
		bishopAttacks(k, theirs)&(p.pieces[Bishop]|p.pieces[Queen])) & theirs
	var pinned Bitboard
	for ; snipers != 0; snipers &= snipers - 1 {
		b := tab.between[k][lsb(snipers)] & occ
		if b != 0 && b&(b-1) == 0 {
			pinned |= b // b holds one piece, and it is ours (theirs stop the ray)
		}
	}
	return pinned
}

// enPassantLegal reports whether the pawn on from may capture en passant:
// whether its own king on k is safe once both pawns have left their squares
// (the captured pawn's removal can uncover an attack along the rank).
func (p *Position) enPassantLegal(from, k Square, occ Bitboard) bool {
	capSq := p.ep ^ 8
	occ = occ ^ bit(from) ^ bit(capSq) | bit(p.ep)
	return p.attackersTo(k, occ)&p.colors[p.side^1]&^bit(capSq) == 0
}

// canCastle reports whether the king on k may castle with the rook on r,
// under the Chess960 rules that include classical castling: every square
// the king or the rook passes over or lands on is empty but for the two of
// them, the king is not in check (the caller tests that) and neither passes
// over nor lands on an attacked square. The attacks are computed without the
// king and the rook, since the rook may be shielding the king's destination
// (a king on c1 that "castles" with a rook on b1 stays on c1 while the rook
// leaves, uncovering an enemy rook on a1).
func (p *Position) canCastle(k, r Square, occ Bitboard) bool {
	kTo, rTo := castleKingTo(k, r), castleRookTo(k, r)
	both := bit(k) | bit(r)
	kingPath := tab.between[k][kTo] | bit(kTo)
	if (kingPath|tab.between[r][rTo]|bit(rTo))&^both&occ != 0 {
		return false
	}
	rest := occ &^ both
	them := p.side ^ 1
	for path := kingPath; path != 0; path &= path - 1 {
		if p.attackedBy(lsb(path), rest, them) {
			return false
		}
	}
	return true
}
