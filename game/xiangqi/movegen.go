package xiangqi

// This file holds only the hot path: legal move generation. Moves are
// generated piece by piece from the move tables, and a move is tested for
// the safety of its own general only if it can change it: a general's
// move, any move when in check, and otherwise only a move from a square
// that shields the general (see shields) or to a square where it would
// become a cannon's screen. A capture elsewhere only removes attackers.
// The test plays the move on a scratch copy of the board and looks
// outwards from the general.

import (
	"math/bits"

	"evolved/game"
)

// MaxMoves bounds the number of legal moves of a position: the pieces of a
// set have at most 116 moves (two chariots and two cannons 17 each, two
// horses 8 each, two elephants 4 each, advisors 5, the general 4, five
// soldiers 3 each). A buffer of this capacity never grows.
const MaxMoves = 128

// generator is the state of one LegalMoves call.
type generator struct {
	board [Squares]cell // scratch copy, restored after each test
	us    game.Player
	king  Square
	check bool
	// from and to are the squares a move must leave or reach to be
	// tested, as 128-bit sets (squares 0..63, 64..89); see shields.
	from, to [2]uint64
}

// shields fills g.from and g.to for a general that is not in check. A
// move can attack its own general only by opening a line or a horse's leg,
// or by becoming a cannon's screen:
//   - on each of the four lines from the general, with its first pieces
//     p1, p2 and p3: leaving p1 lets p2 attack if p2 is an enemy chariot
//     or general, and lets p3 attack if p3 is an enemy cannon; leaving p2
//     lets p3 attack if p3 is an enemy cannon;
//   - reaching an empty point before p1 makes p1 a cannon's second piece,
//     and one between p1 and p2 does so for p2: that matters if it is an
//     enemy cannon;
//   - leaving a point diagonally next to the general may free the leg of
//     an enemy horse (all four are marked).
//
// A piece moving along a line keeps shielding only if it stops before the
// attacker, which the test then checks, since its start is marked.
func (g *generator) shields() {
	k := g.king
	them := g.us ^ 1
	chariot, general, cannon := makeCell(them, Chariot), makeCell(them, General), makeCell(them, Cannon)
	mark := func(set *[2]uint64, s Square) { set[s>>6] |= 1 << (s & 63) }
	for d := range 4 {
		ray := &tab.ray[k][d]
		n := int(tab.rayLen[k][d])
		var at [3]int // indices of p1, p2, p3 on the ray
		found := 0
		for i := 0; i < n && found < 3; i++ {
			if g.board[ray[i]] != 0 {
				at[found] = i
				found++
			}
		}
		piece := func(j int) cell {
			if j < found {
				return g.board[ray[at[j]]]
			}
			return 0
		}
		p2, p3 := piece(1), piece(2)
		if found >= 1 && (p2 == chariot || p2 == general || p3 == cannon) {
			mark(&g.from, ray[at[0]])
		}
		if found >= 2 && p3 == cannon {
			mark(&g.from, ray[at[1]])
		}
		// Screens: empty points before p1 if p1 is an enemy cannon, and
		// between p1 and p2 if p2 is.
		if found >= 1 && piece(0) == cannon {
			for i := 0; i < at[0]; i++ {
				mark(&g.to, ray[i])
			}
		}
		if found >= 2 && p2 == cannon {
			for i := at[0] + 1; i < at[1]; i++ {
				mark(&g.to, ray[i])
			}
		}
	}
	g.from[0] |= tab.diagonal[k][0]
	g.from[1] |= tab.diagonal[k][1]
}

// add appends to buf the move of the piece of type pt from from to to if
// it does not leave the mover's general attacked, and returns buf. to must
// not hold a piece of the mover's colour. The buffer is passed rather than
// kept in the generator, which would move the caller's array to the heap.
func (g *generator) add(buf []Move, from, to Square, pt PieceType) []Move {
	y := g.board[to]
	captured := NoPieceType
	if y != 0 {
		captured = cellType(y)
	}
	if g.check || pt == General || g.from[from>>6]>>(from&63)&1 != 0 || g.to[to>>6]>>(to&63)&1 != 0 {
		x := g.board[from]
		g.board[to], g.board[from] = x, 0
		k := g.king
		if pt == General {
			k = to
		}
		illegal := attacked(&g.board, k, g.us)
		g.board[from], g.board[to] = x, y
		if illegal {
			return buf
		}
	}
	return append(buf, newMove(from, to, pt, captured))
}

// LegalMoves appends the legal moves of p to buf[:0] and returns the
// extended slice. It allocates only if buf is too small; a buffer with
// capacity MaxMoves is always enough.
func (p *Position) LegalMoves(buf []Move) []Move { return p.generate(buf, false) }

// LegalCaptures appends the legal captures of p to buf[:0] and returns the
// extended slice: the captures of LegalMoves, in the same order, without
// generating and testing the quiet moves (the quiescence search's moves).
func (p *Position) LegalCaptures(buf []Move) []Move { return p.generate(buf, true) }

// generate is LegalMoves, or LegalCaptures with captures set: a quiet
// move is then skipped before its legality test.
func (p *Position) generate(buf []Move, captures bool) []Move {
	us := p.side & 1
	buf = buf[:0]
	g := generator{board: p.board, us: us, king: p.kings[us]}
	g.check = attacked(&g.board, g.king, us)
	if !g.check {
		g.shields()
	}
	ourBit := uint8(us) << 3
	for w := range 2 {
		for set := p.occ[us][w]; set != 0; set &= set - 1 {
			from := Square(w*64 + bits.TrailingZeros64(set))
			pt := cellType(g.board[from])
			switch pt {
			case General, Advisor:
				l := &tab.general[from]
				if pt == Advisor {
					l = &tab.advisor[from]
				}
				for i := range int(l.n) {
					if to := l.sq[i]; g.board[to] == 0 && !captures || g.board[to] != 0 && g.board[to]&8 != ourBit {
						buf = g.add(buf, from, to, pt)
					}
				}
			case Elephant, Horse:
				l := &tab.elephant[from]
				if pt == Horse {
					l = &tab.horse[from]
				}
				for i := range int(l.n) {
					to := l.to[i]
					if g.board[l.leg[i]] == 0 && (g.board[to] == 0 && !captures || g.board[to] != 0 && g.board[to]&8 != ourBit) {
						buf = g.add(buf, from, to, pt)
					}
				}
			case Chariot:
				for d := range 4 {
					ray := &tab.ray[from][d]
					for i := range int(tab.rayLen[from][d]) {
						to := ray[i]
						if x := g.board[to]; x != 0 {
							if x&8 != ourBit {
								buf = g.add(buf, from, to, pt)
							}
							break
						}
						if !captures {
							buf = g.add(buf, from, to, pt)
						}
					}
				}
			case Cannon:
				for d := range 4 {
					ray := &tab.ray[from][d]
					n := int(tab.rayLen[from][d])
					i := 0
					for ; i < n; i++ {
						to := ray[i]
						if g.board[to] != 0 {
							break
						}
						if !captures {
							buf = g.add(buf, from, to, pt)
						}
					}
					for i++; i < n; i++ {
						to := ray[i]
						if x := g.board[to]; x != 0 {
							if x&8 != ourBit {
								buf = g.add(buf, from, to, pt)
							}
							break
						}
					}
				}
			case Soldier:
				l := &tab.soldier[us][from]
				for i := range int(l.n) {
					if to := l.sq[i]; g.board[to] == 0 && !captures || g.board[to] != 0 && g.board[to]&8 != ourBit {
						buf = g.add(buf, from, to, pt)
					}
				}
			}
		}
	}
	return buf
}

// CountMoves returns the number of legal moves of p, len(p.LegalMoves(buf)),
// with the moves written to a buffer on the stack.
func (p *Position) CountMoves() int {
	var buf [MaxMoves]Move
	return len(p.LegalMoves(buf[:0]))
}
