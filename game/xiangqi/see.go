package xiangqi

import "evolved/game"

// Static exchange evaluation: what a move wins on its target point if both
// sides then capture there, each with its least valuable piece, and each
// free to stop when going on would lose more. Xiangqi's attacks depend on
// the board in more ways than chess's x-rays: a cannon needs exactly one
// screen, a horse a free leg, an elephant a free eye, and the generals may
// not face each other. So after every capture the least valuable attacker
// is found again from the board as it then stands (a scratch copy), which
// gets a cannon that loses or gains its screen, a horse whose leg is
// freed, and a chariot behind another right. Pins are ignored, as usual;
// a general captures only when the point is then safe for it (the enemy
// general facing it on an open file included). Search orders and prunes
// captures with it (see search.Exchanger).

// The values of the exchange, in centipawns: the usual 9, 4.5, 4, 2, 2, 1
// of xiangqi programs, a soldier counted 1 on either side of the river,
// and a general worth more than everything else together.
const (
	seeSoldier  = 100
	seeAdvisor  = 200
	seeElephant = 200
	seeHorse    = 400
	seeCannon   = 450
	seeChariot  = 900
	seeGeneral  = 20000
)

// seeValue is a piece type's value in the exchange; NoPieceType is an
// empty point.
var seeValue = exchangeValues{General: seeGeneral, Advisor: seeAdvisor, Elephant: seeElephant, Horse: seeHorse,
	Chariot: seeChariot, Cannon: seeCannon, Soldier: seeSoldier, NoPieceType: 0}

// exchangeValues are the values of an exchange by piece type.
type exchangeValues [NoPieceType + 1]int

// ExchangeValues returns the piece values, in centipawns, that an
// evaluator which counts the pieces otherwise than the usual ones hands to
// SEEAtLeast and CaptureValue, so that the exchanges search prunes are the
// ones its own evaluation would call losing. (The exchange still brings in
// attackers in the usual order, soldier first and chariot last.)
func ExchangeValues(advisor, elephant, horse, chariot, cannon, soldier int) []int {
	v := exchangeValues{General: seeGeneral, Advisor: advisor, Elephant: elephant, Horse: horse,
		Chariot: chariot, Cannon: cannon, Soldier: soldier}
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

// CaptureValue returns the material m wins at once, in centipawns
// (chariot 900, cannon 450, horse 400, advisor and elephant 200, soldier
// 100): the captured piece's value, 0 for a quiet move. values, if not
// nil, are the piece values to count instead (see ExchangeValues); so for
// SEEAtLeast.
func (g *Game) CaptureValue(m Move, values []int) int { return valuesOf(values)[m.Captured()] }

// SEEAtLeast reports whether the exchange that m starts on its target
// point wins at least threshold centipawns for the side to move (values as
// CaptureValue), each side recapturing with its least valuable piece and
// free to stop. A quiet move risks the moving piece: SEEAtLeast(m, 0) is
// false when it hangs. It does not allocate.
func (g *Game) SEEAtLeast(m Move, threshold int, values []int) bool {
	return g.history.Top().Pos.seeAtLeast(m, threshold, valuesOf(values))
}

// seeAtLeast is SEEAtLeast in p. It settles most captures from bounds
// alone: the exchange never wins more than m captures, as the other side
// may decline to recapture; and never less than that minus the moving
// piece, as the side to move may stop after the first recapture.
func (p *Position) seeAtLeast(m Move, threshold int, val *exchangeValues) bool {
	v := val[m.Captured()]
	if v < threshold {
		return false
	}
	if v-val[m.Piece()] >= threshold {
		return true
	}
	return p.see(m, val) >= threshold
}

// see returns the value of the exchange that m starts: gain[d] is what the
// side making the d-th capture has won if the exchange stops after it;
// walking back, each side either stops or captures on, whichever is
// better for it.
func (p *Position) see(m Move, val *exchangeValues) int {
	from, to := m.From(), m.To()
	b := p.board // the scratch board the exchange is played on
	var gain [maxExchange]int
	gain[0] = val[m.Captured()]
	onPoint := val[m.Piece()] // the value of the piece on to
	b[to], b[from] = b[from], 0
	side := p.side ^ 1
	d := 0
	for d < maxExchange-1 {
		s, pt := leastAttacker(&b, to, side)
		if s == NoSquare {
			break
		}
		x := b[s]
		b[to], b[s] = x, 0
		if pt == General && attacked(&b, to, side) {
			break // the general may not capture onto an attacked point
		}
		d++
		gain[d] = onPoint - gain[d-1]
		onPoint = val[pt]
		side ^= 1
	}
	for ; d > 0; d-- {
		gain[d-1] = -max(-gain[d-1], gain[d])
	}
	return gain[0]
}

// leastAttacker returns the point and type of c's least valuable piece
// that attacks to on board b (soldier, advisor, elephant, horse, cannon,
// chariot, general), or NoSquare if none does. A cannon attacks across
// exactly one screen, a horse over a free leg, an elephant over a free
// eye; the general and the advisors within their palace (the tables keep
// each piece to its points).
func leastAttacker(b *[Squares]cell, to Square, c game.Player) (Square, PieceType) {
	soldier := makeCell(c, Soldier)
	sa := &tab.soldierFrom[c&1][to]
	for i := range int(sa.n) {
		if b[sa.sq[i]] == soldier {
			return sa.sq[i], Soldier
		}
	}
	advisor := makeCell(c, Advisor)
	aa := &tab.advisor[to] // advisor steps are symmetric
	for i := range int(aa.n) {
		if b[aa.sq[i]] == advisor {
			return aa.sq[i], Advisor
		}
	}
	elephant := makeCell(c, Elephant)
	ea := &tab.elephant[to] // so are elephant steps, with the same eye
	for i := range int(ea.n) {
		if b[ea.to[i]] == elephant && b[ea.leg[i]] == 0 {
			return ea.to[i], Elephant
		}
	}
	horse := makeCell(c, Horse)
	ha := &tab.horseAttack[to]
	for i := range int(ha.n) {
		if b[ha.to[i]] == horse && b[ha.leg[i]] == 0 {
			return ha.to[i], Horse
		}
	}
	chariot, cannon := makeCell(c, Chariot), makeCell(c, Cannon)
	found := NoSquare
	for d := range 4 {
		ray := &tab.ray[to][d]
		n := int(tab.rayLen[to][d])
		i := 0
		for i < n && b[ray[i]] == 0 {
			i++
		}
		if i == n {
			continue
		}
		if b[ray[i]] == chariot {
			found = ray[i]
		}
		for i++; i < n && b[ray[i]] == 0; i++ {
		}
		if i < n && b[ray[i]] == cannon {
			return ray[i], Cannon
		}
	}
	if found != NoSquare {
		return found, Chariot
	}
	general := makeCell(c, General)
	ga := &tab.general[to]
	for i := range int(ga.n) {
		if b[ga.sq[i]] == general {
			return ga.sq[i], General
		}
	}
	return NoSquare, NoPieceType
}
