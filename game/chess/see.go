package chess

// Static exchange evaluation: what a move wins on its target square if
// both sides then capture there, each with its least valuable piece, and
// each free to stop when going on would lose more. It is the swap
// algorithm with x-rays: a slider behind a piece that captures joins the
// exchange. Pins are ignored, as usual; the king captures only when the
// other side has no attacker left. Search orders and prunes captures with
// it (see search.Exchanger).

// The values of the exchange, in centipawns: the usual 1, 3, 3, 5, 9 and
// a king worth more than everything else together.
const (
	seePawn   = 100
	seeKnight = 300
	seeBishop = 300
	seeRook   = 500
	seeQueen  = 900
	seeKing   = 20000
)

// seeValue is a piece type's value in the exchange; NoPieceType is an
// empty square.
var seeValue = exchangeValues{Pawn: seePawn, Knight: seeKnight, Bishop: seeBishop, Rook: seeRook, Queen: seeQueen, King: seeKing, NoPieceType: 0}

// exchangeValues are the values of an exchange by piece type.
type exchangeValues [NoPieceType + 1]int

// ExchangeValues returns the piece values, in centipawns, that an
// evaluator which counts the pieces otherwise than 1, 3, 3, 5, 9 hands to
// SEEAtLeast and CaptureValue, so that the exchanges search prunes are the
// ones its own evaluation would call losing.
func ExchangeValues(pawn, knight, bishop, rook, queen int) []int {
	v := exchangeValues{Pawn: pawn, Knight: knight, Bishop: bishop, Rook: rook, Queen: queen, King: seeKing}
	return v[:]
}

// valuesOf returns the exchange values values gives (as ExchangeValues
// makes them), or the usual ones if values is nil. It panics if values is
// too short.
func valuesOf(values []int) *exchangeValues {
	if values == nil {
		return &seeValue
	}
	return (*exchangeValues)(values)
}

// maxExchange bounds the captures of one exchange: every piece on the
// board captures at most once.
const maxExchange = 32

// CaptureValue returns the material m wins at once in the current
// position, in centipawns (pawn 100, knight and bishop 300, rook 500,
// queen 900): the value of the captured piece, a pawn for en passant, plus
// for a promotion what the new piece is worth more than the pawn; 0 for a
// quiet move and for castling.
//
// values, if not nil, are the piece values to count instead (see
// ExchangeValues); so for SEEAtLeast.
func (g *Game) CaptureValue(m Move, values []int) int {
	return g.history.Top().Pos.captureValue(m, valuesOf(values))
}

// SEEAtLeast reports whether the exchange that m starts on its target
// square wins at least threshold centipawns for the side to move (values
// as CaptureValue), each side recapturing with its least valuable piece
// and free to stop. A quiet move risks the moving piece: SEEAtLeast(m, 0)
// is false when it hangs. A pawn that recaptures on the last rank becomes
// a queen; castling counts as 0. It does not allocate.
func (g *Game) SEEAtLeast(m Move, threshold int, values []int) bool {
	return g.history.Top().Pos.seeAtLeast(m, threshold, valuesOf(values))
}

// captureValue is CaptureValue in p.
func (p *Position) captureValue(m Move, val *exchangeValues) int {
	v := 0
	switch {
	case m.IsCastle():
		return 0
	case m.IsEnPassant():
		v = val[Pawn]
	case p.Occupied().Has(m.To()):
		v = val[p.typeAt(bit(m.To()))]
	}
	if pr := m.Promotion(); pr != NoPieceType {
		v += val[pr] - val[Pawn]
	}
	return v
}

// seeAtLeast is SEEAtLeast in p. It settles most captures from bounds
// alone: the exchange never wins more than m captures, as the other side
// may decline to recapture; and never less than that minus the piece that
// then stands on the square (a queen more if a pawn recaptures there and
// promotes), as the side to move may stop after the first recapture.
func (p *Position) seeAtLeast(m Move, threshold int, val *exchangeValues) bool {
	v := p.captureValue(m, val)
	if v < threshold {
		return false
	}
	risk := val[m.Piece()]
	if pr := m.Promotion(); pr != NoPieceType {
		risk = val[pr]
	}
	if bit(m.To())&(rank1|rank8) != 0 {
		risk += val[Queen] - val[Pawn]
	}
	if v-risk >= threshold {
		return true
	}
	return p.see(m, val) >= threshold
}

// see returns the value of the exchange that m starts: gain[d] is what the
// side making the d-th capture has won if the exchange stops after it;
// walking back, each side either stops or captures on, whichever is
// better for it.
func (p *Position) see(m Move, val *exchangeValues) int {
	if m.IsCastle() {
		return 0
	}
	from, to := m.From(), m.To()
	toBB := bit(to)
	var gain [maxExchange]int
	gain[0] = p.captureValue(m, val)
	onSquare := val[m.Piece()] // the value of the piece on to
	if pr := m.Promotion(); pr != NoPieceType {
		onSquare = val[pr]
	}
	occ := p.Occupied()&^bit(from) | toBB
	if m.IsEnPassant() {
		occ &^= bit(to ^ 8)
	}
	diagonal := p.pieces[Bishop] | p.pieces[Queen]
	straight := p.pieces[Rook] | p.pieces[Queen]
	attackers := p.attackersTo(to, occ) & occ
	promotes := toBB&(rank1|rank8) != 0 // a pawn capturing on to promotes
	side := p.side ^ 1
	d := 0
	for d < maxExchange-1 {
		mine := attackers & p.colors[side&1]
		if mine == 0 {
			break
		}
		pt := Pawn
		for p.pieces[pt]&mine == 0 {
			pt++
		}
		b := p.pieces[pt] & mine
		b &= -b
		occ ^= b
		if pt == Pawn || pt == Bishop || pt == Queen || pt == King {
			attackers |= bishopAttacks(to, occ) & diagonal
		}
		if pt == Rook || pt == Queen || pt == King {
			attackers |= rookAttacks(to, occ) & straight
		}
		attackers &= occ
		if pt == King && attackers&p.colors[side&1^1] != 0 {
			break // the king may not capture onto an attacked square
		}
		d++
		captured := onSquare
		onSquare = val[pt]
		if pt == Pawn && promotes {
			captured += val[Queen] - val[Pawn]
			onSquare = val[Queen]
		}
		gain[d] = captured - gain[d-1]
		side ^= 1
	}
	for ; d > 0; d-- {
		gain[d-1] = -max(-gain[d-1], gain[d])
	}
	return gain[0]
}
