package xiangqi

// This file holds only the hot path: legal move generation. Moves are
// generated piece by piece from the move tables, and a move is tested for
// the safety of its own general only if it can change it: a general's
// move, any move when in check, and otherwise only a move from a square on
// the general's file or rank or diagonally next to it (it may open a line,
// unblock a horse's leg or remove a cannon's screen) or to a square on its
// file or rank (it may become a cannon's screen). A capture elsewhere
// only removes attackers. The test plays the move on a scratch copy of
// the board and looks outwards from the general.

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
	if g.check || pt == General || tab.sensitive[g.king][from]&sensFrom != 0 || tab.sensitive[g.king][to]&sensTo != 0 {
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
func (p *Position) LegalMoves(buf []Move) []Move {
	us := p.side & 1
	buf = buf[:0]
	g := generator{board: p.board, us: us, king: p.kings[us]}
	g.check = attacked(&g.board, g.king, us)
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
					if to := l.sq[i]; g.board[to] == 0 || g.board[to]&8 != ourBit {
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
					if g.board[l.leg[i]] == 0 && (g.board[to] == 0 || g.board[to]&8 != ourBit) {
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
						buf = g.add(buf, from, to, pt)
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
						buf = g.add(buf, from, to, pt)
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
					if to := l.sq[i]; g.board[to] == 0 || g.board[to]&8 != ourBit {
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
