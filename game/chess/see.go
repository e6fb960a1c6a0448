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
var seeValue = [...]int{Pawn: seePawn, Knight: seeKnight, Bishop: seeBishop, Rook: seeRook, Queen: seeQueen, King: seeKing, NoPieceType: 0}

// maxExchange bounds the captures of one exchange: every piece on the
// board captures at most once.
const maxExchange = 32

// CaptureValue returns the material m wins at once in the current
// position, in centipawns (pawn 100, knight and bishop 300, rook 500,
// queen 900): the value of the captured piece, a pawn for en passant, plus
// for a promotion what the new piece is worth more than the pawn; 0 for a
// quiet move and for castling.
func (g *Game) CaptureValue(m Move) int { return g.history.Top().Pos.captureValue(m) }

// SEEAtLeast reports whether the exchange that m starts on its target
// square wins at least threshold centipawns for the side to move (values
// as CaptureValue), each side recapturing with its least valuable piece
// and free to stop. A quiet move risks the moving piece: SEEAtLeast(m, 0)
// is false when it hangs. A pawn that recaptures on the last rank becomes
// a queen; castling counts as 0. It does not allocate.
func (g *Game) SEEAtLeast(m Move, threshold int) bool {
	return g.history.Top().Pos.seeAtLeast(m, threshold)
}

// captureValue is CaptureValue in p.
func (p *Position) captureValue(m Move) int {
	v := 0
	switch {
	case m.IsCastle():
		return 0
	case m.IsEnPassant():
		v = seePawn
	case p.Occupied().Has(m.To()):
		v = seeValue[p.typeAt(bit(m.To()))]
	}
	if pr := m.Promotion(); pr != NoPieceType {
		v += seeValue[pr] - seePawn
	}
	return v
}

// seeAtLeast is SEEAtLeast in p. It settles most captures from bounds
// alone: the exchange never wins more than m captures, as the other side
// may decline to recapture; and never less than that minus the piece that
// then stands on the square (a queen more if a pawn recaptures there and
// promotes), as the side to move may stop after the first recapture.
func (p *Position) seeAtLeast(m Move, threshold int) bool {
	v := p.captureValue(m)
	if v < threshold {
		return false
	}
	risk := seeValue[m.Piece()]
	if pr := m.Promotion(); pr != NoPieceType {
		risk = seeValue[pr]
	}
	if bit(m.To())&(rank1|rank8) != 0 {
		risk += seeQueen - seePawn
	}
	if v-risk >= threshold {
		return true
	}
	return p.see(m) >= threshold
}

// see returns the value of the exchange that m starts: gain[d] is what the
// side making the d-th capture has won if the exchange stops after it;
// walking back, each side either stops or captures on, whichever is
// better for it.
func (p *Position) see(m Move) int {
	if m.IsCastle() {
		return 0
	}
	from, to := m.From(), m.To()
	toBB := bit(to)
	var gain [maxExchange]int
	gain[0] = p.captureValue(m)
	onSquare := seeValue[m.Piece()] // the value of the piece on to
	if pr := m.Promotion(); pr != NoPieceType {
		onSquare = seeValue[pr]
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
		onSquare = seeValue[pt]
		if pt == Pawn && promotes {
			captured += seeQueen - seePawn
			onSquare = seeQueen
		}
		gain[d] = captured - gain[d-1]
		side ^= 1
	}
	for ; d > 0; d-- {
		gain[d-1] = -max(-gain[d-1], gain[d])
	}
	return gain[0]
}
