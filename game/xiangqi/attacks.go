package xiangqi

// This file holds helpers for evaluation functions that weigh piece
// activity: which squares a side's pieces attack and how many
// pseudo-legal moves each kind of piece has. They read the position's
// mailbox and occupancy sets directly, in one walk over the side's pieces,
// which is several times faster than rebuilding the same from PieceAt, and
// they do not allocate.

import (
	"math/bits"

	"evolved/game"
)

// SquareSet is a set of squares as a 128-bit mask: square s is bit s%64
// of word s/64, the layout of the position's own occupancy sets. Only bits
// 0..89 are ever set. The zero SquareSet is empty.
type SquareSet [2]uint64

// Has reports whether s is in the set.
func (s SquareSet) Has(sq Square) bool { return sq < NoSquare && s[sq>>6]>>(sq&63)&1 != 0 }

// Count returns the number of squares in the set.
func (s SquareSet) Count() int { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }

// And returns the squares that are in both s and t.
func (s SquareSet) And(t SquareSet) SquareSet { return SquareSet{s[0] & t[0], s[1] & t[1]} }

// Or returns the squares that are in s or t.
func (s SquareSet) Or(t SquareSet) SquareSet { return SquareSet{s[0] | t[0], s[1] | t[1]} }

// With returns s with sq added.
func (s SquareSet) With(sq Square) SquareSet {
	s[sq>>6] |= 1 << (sq & 63)
	return s
}

// Occupied returns the squares of c's pieces.
func (p *Position) Occupied(c game.Player) SquareSet { return p.occ[c&1] }

// Activity is what one side's pieces reach in a position, as Position.Activity
// computes it.
type Activity struct {
	// Moves counts the pseudo-legal moves of the side's pieces by piece
	// type: the moves the rules of movement allow (palace, river, horse
	// legs, elephant eyes, cannon screens all respected) to an empty
	// square or one holding an enemy piece, without asking whether the
	// move leaves the mover's own general attacked. When the side is not
	// in check and none of its pieces is pinned, their sum equals the
	// number of legal moves.
	Moves [NoPieceType]int
	// Attacks holds every square that at least one of the side's pieces
	// attacks: the squares it could capture on if an enemy piece stood
	// there, whatever stands there now (a piece of the side's own colour
	// on it is defended). A cannon attacks only the first occupied square
	// beyond its screen, not the empty squares it may move to before the
	// screen; the general attacks its palace steps, not the enemy general
	// along an open file (the rule against facing generals is a matter of
	// legality, not of attack here).
	Attacks SquareSet
}

// Activity returns the pseudo-legal move counts by piece type and the
// attacked squares of c's pieces in p, whoever is to move. It walks c's
// pieces once and does not allocate.
func (p *Position) Activity(c game.Player) Activity {
	var a Activity
	var att [2]uint64
	us := c & 1
	ourBit := uint8(us) << 3
	b := &p.board
	for w := range 2 {
		for set := p.occ[us][w]; set != 0; set &= set - 1 {
			from := Square(w*64 + bits.TrailingZeros64(set))
			pt := cellType(b[from])
			n := 0
			switch pt {
			case General, Advisor:
				l := &tab.general[from]
				if pt == Advisor {
					l = &tab.advisor[from]
				}
				for i := range int(l.n) {
					to := l.sq[i]
					att[to>>6] |= 1 << (to & 63)
					if x := b[to]; x == 0 || x&8 != ourBit {
						n++
					}
				}
			case Elephant, Horse:
				l := &tab.elephant[from]
				if pt == Horse {
					l = &tab.horse[from]
				}
				for i := range int(l.n) {
					if b[l.leg[i]] != 0 {
						continue
					}
					to := l.to[i]
					att[to>>6] |= 1 << (to & 63)
					if x := b[to]; x == 0 || x&8 != ourBit {
						n++
					}
				}
			case Chariot:
				for d := range 4 {
					ray := &tab.ray[from][d]
					for i := range int(tab.rayLen[from][d]) {
						to := ray[i]
						att[to>>6] |= 1 << (to & 63)
						if x := b[to]; x != 0 {
							if x&8 != ourBit {
								n++
							}
							break
						}
						n++
					}
				}
			case Cannon:
				for d := range 4 {
					ray := &tab.ray[from][d]
					k := int(tab.rayLen[from][d])
					i := 0
					for ; i < k && b[ray[i]] == 0; i++ {
						n++
					}
					for i++; i < k; i++ {
						to := ray[i]
						if x := b[to]; x != 0 {
							att[to>>6] |= 1 << (to & 63)
							if x&8 != ourBit {
								n++
							}
							break
						}
					}
				}
			case Soldier:
				l := &tab.soldier[us][from]
				for i := range int(l.n) {
					to := l.sq[i]
					att[to>>6] |= 1 << (to & 63)
					if x := b[to]; x == 0 || x&8 != ourBit {
						n++
					}
				}
			}
			a.Moves[pt] += n
		}
	}
	a.Attacks = att
	return a
}
