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

// PieceActivity is what one side's pieces reach, type by type, as
// Position.ActivityByType computes it beside Activity.
type PieceActivity struct {
	// ByType holds the squares attacked by the side's pieces of each type
	// (their union is Activity.Attacks), and Pieces the squares of those
	// pieces.
	ByType, Pieces [NoPieceType]SquareSet
	// PalaceAttackers counts the side's chariots, horses, cannons and
	// soldiers that attack at least one point of the enemy palace.
	PalaceAttackers int
}

// Activity is computed without a data-dependent branch per square: a
// branch that leaves a ray at an unpredictable point costs more than all
// the rest of the work. Sliders look up their attacks by the occupancy of
// their rank (9 bits) and file (10 bits), as rotated-bitboard engines do;
// horses and elephants by which of their 4 legs or eyes are blocked; the
// other pieces have fixed masks. Move counts are population counts of
// those masks less the side's own pieces.

// lineEntry is what a chariot or cannon on one point of a line (a rank or
// a file) reaches along it, for one occupancy of the line, as bit masks of
// points on the line.
type lineEntry struct {
	chariot uint16 // the points up to and including the first occupied one each way
	quiet   uint16 // the empty points before the first occupied one each way (cannon moves)
	hit     uint16 // the first occupied point beyond the first occupied one each way (cannon attacks)
}

// activityTables are the lookup tables of Activity.
type activityTables struct {
	rank     [Files][1 << Files]lineEntry // [file][occupancy of the rank]
	file     [Ranks][1 << Ranks]lineEntry // [rank][occupancy of the file]
	spread   [1 << Ranks]SquareSet        // a file's bit mask, bit k, as squares of file a, 9k
	legs     [Squares][4]Square           // the orthogonal neighbours N, S, E, W (the square itself off the board)
	eyes     [Squares][4]Square           // the diagonal neighbours (the square itself off the board)
	horse    [Squares][16]SquareSet       // [s][blocked legs]: the squares a horse on s attacks
	elephant [Squares][16]SquareSet       // [s][blocked eyes]: the squares an elephant on s attacks
	steps    [3][2][Squares]SquareSet     // general, advisor and soldier attacks, by colour
	palaces  [2]SquareSet                 // each colour's palace
	halves   [2]SquareSet                 // each colour's half of the board
}

// Palace returns the nine points of c's palace.
func Palace(c game.Player) SquareSet { return actTab.palaces[c&1] }

// Half returns the points of c's half of the board: its five home ranks,
// up to the river.
func Half(c game.Player) SquareSet { return actTab.halves[c&1] }

// line returns the lineEntry of point i of a line of n points occupied as o.
func line(i, n int, o uint) lineEntry {
	var e lineEntry
	for _, d := range [2]int{1, -1} {
		j := i + d
		for ; j >= 0 && j < n && o>>j&1 == 0; j += d {
			e.chariot |= 1 << j
			e.quiet |= 1 << j
		}
		if j < 0 || j >= n {
			continue
		}
		e.chariot |= 1 << j
		for j += d; j >= 0 && j < n; j += d {
			if o>>j&1 != 0 {
				e.hit |= 1 << j
				break
			}
		}
	}
	return e
}

// actTab holds the tables of Activity. It is never written after init.
var actTab = func() *activityTables {
	t := new(activityTables)
	for f := range Files {
		for o := range 1 << Files {
			t.rank[f][o] = line(f, Files, uint(o))
		}
	}
	for r := range Ranks {
		for o := range 1 << Ranks {
			t.file[r][o] = line(r, Ranks, uint(o))
		}
	}
	for m := range 1 << Ranks {
		for k := range Ranks {
			if m>>k&1 != 0 {
				t.spread[m] = t.spread[m].With(Square(9 * k))
			}
		}
	}
	for s := range Square(Squares) {
		f, r := s.File(), s.Rank()
		for d, st := range [4][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}} {
			t.legs[s][d] = s
			if onBoard(f+st[0], r+st[1]) {
				t.legs[s][d] = NewSquare(f+st[0], r+st[1])
			}
		}
		for d, st := range [4][2]int{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}} {
			t.eyes[s][d] = s
			if onBoard(f+st[0], r+st[1]) {
				t.eyes[s][d] = NewSquare(f+st[0], r+st[1])
			}
		}
		for blocked := range 16 {
			free := func(sq Square, of [4]Square) bool {
				for d, x := range of {
					if x == sq && blocked>>d&1 != 0 {
						return false
					}
				}
				return true
			}
			h := &tab.horse[s]
			for i := range int(h.n) {
				if free(h.leg[i], t.legs[s]) {
					t.horse[s][blocked] = t.horse[s][blocked].With(h.to[i])
				}
			}
			e := &tab.elephant[s]
			for i := range int(e.n) {
				if free(e.leg[i], t.eyes[s]) {
					t.elephant[s][blocked] = t.elephant[s][blocked].With(e.to[i])
				}
			}
		}
		for c := range game.Player(2) {
			if palace(c, f, r) {
				t.palaces[c] = t.palaces[c].With(s)
			}
			if (c == Red) == (r < Ranks/2) {
				t.halves[c] = t.halves[c].With(s)
			}
			lists := [3]*sqList{&tab.general[s], &tab.advisor[s], &tab.soldier[c][s]}
			for k, l := range lists {
				for i := range int(l.n) {
					t.steps[k][c][s] = t.steps[k][c][s].With(l.sq[i])
				}
			}
		}
	}
	return t
}()

// stepKind is the index in activityTables.steps of the pieces that have
// fixed attack masks.
var stepKind = [NoPieceType]uint8{General: 0, Advisor: 1, Soldier: 2}

// occupied returns 1 if the cell x holds a piece, else 0, without a
// branch (cells are 0..15).
func occupied(x cell) uint { return (uint(x) + 15) >> 4 }

// rankBits returns the occupancy of rank r in the set lo, hi as 9 bits,
// file a first. The shifts are unsigned, so that the ones past 63 give 0
// and no branch is needed.
func rankBits(lo, hi uint64, r uint) uint {
	s := 9 * r
	return uint(lo>>s|hi<<(64-s)|hi>>(s-64)) & (1<<Files - 1)
}

// fileBits returns the occupancy of file f in the set lo, hi as 10 bits,
// rank 1 first. Ranks 1 to 8 are gathered from a 64-bit window starting
// at the file by the multiplication that gathers a bitboard's diagonal:
// the window's bits 0, 9, ..., 63 land on bits 56..63 of the product, and
// the other partial products fall on distinct lower bits or overflow.
func fileBits(lo, hi uint64, f uint) uint {
	w := lo>>f | hi<<(64-f)
	low := (w & 0x8040201008040201) * 0x0101010101010101 >> 56
	return uint(low) | uint(hi>>(8+f)&1)<<8 | uint(hi>>(17+f)&1)<<9
}

// rankSet returns the 9-bit mask m of rank r as squares.
func rankSet(m uint16, r uint) (lo, hi uint64) {
	s, x := 9*r, uint64(m)
	return x << s, x<<(s-64) | x>>(64-s)
}

// fileSet returns the 10-bit mask m of file f as squares.
func fileSet(t *activityTables, m uint16, f uint) (lo, hi uint64) {
	sp := &t.spread[m]
	return sp[0] << f, sp[1]<<f | sp[0]>>(64-f)
}

// Activity returns the pseudo-legal move counts by piece type and the
// attacked squares of c's pieces in p, whoever is to move. It walks c's
// pieces once and does not allocate.
func (p *Position) Activity(c game.Player) Activity {
	var a Activity
	p.activity(c, &a, nil)
	return a
}

// ActivityByType returns Activity and, in the same walk, what c's pieces
// reach type by type. It costs about two fifths more than Activity alone
// (BenchmarkActivity).
func (p *Position) ActivityByType(c game.Player) (Activity, PieceActivity) {
	var a Activity
	var d PieceActivity
	p.activity(c, &a, &d)
	return a, d
}

// activity fills a, and d unless it is nil, for c's pieces in p.
func (p *Position) activity(c game.Player, a *Activity, d *PieceActivity) {
	var lo, hi uint64 // the attacked squares
	us := c & 1
	own0, own1 := p.occ[us][0], p.occ[us][1]
	all0, all1 := own0|p.occ[us^1][0], own1|p.occ[us^1][1]
	b := &p.board
	t := actTab
	for w := range 2 {
		for set := p.occ[us][w]; set != 0; set &= set - 1 {
			from := Square(w*64 + bits.TrailingZeros64(set))
			pt := cellType(b[from])
			var m0, m1 uint64 // the squares the piece attacks
			quiet := 0        // cannon moves to squares it does not attack
			switch pt {
			case Chariot, Cannon:
				f, r := uint(from)%Files, uint(from)/Files
				re := &t.rank[f][rankBits(all0, all1, r)]
				fe := &t.file[r][fileBits(all0, all1, f)]
				rm, fm := re.chariot, fe.chariot
				if pt == Cannon {
					rm, fm = re.hit, fe.hit
					quiet = bits.OnesCount16(re.quiet) + bits.OnesCount16(fe.quiet)
				}
				r0, r1 := rankSet(rm, r)
				f0, f1 := fileSet(t, fm, f)
				m0, m1 = r0|f0, r1|f1
			case Horse, Elephant:
				l, tbl := &t.legs[from], &t.horse[from]
				if pt == Elephant {
					l, tbl = &t.eyes[from], &t.elephant[from]
				}
				blocked := occupied(b[l[0]]) | occupied(b[l[1]])<<1 | occupied(b[l[2]])<<2 | occupied(b[l[3]])<<3
				m := &tbl[blocked&15]
				m0, m1 = m[0], m[1]
			default: // General, Advisor, Soldier
				m := &t.steps[stepKind[pt]][us][from]
				m0, m1 = m[0], m[1]
			}
			lo, hi = lo|m0, hi|m1
			a.Moves[pt] += quiet + bits.OnesCount64(m0&^own0) + bits.OnesCount64(m1&^own1)
			if d != nil {
				d.add(pt, from, m0, m1, &t.palaces[us^1])
			}
		}
	}
	a.Attacks = SquareSet{lo, hi}
}

// add records that the piece of type pt on from attacks the squares m0,
// m1, pal being the enemy palace. It stays out of line, which keeps
// Activity's loop as small as before PieceActivity existed.
//
//go:noinline
func (d *PieceActivity) add(pt PieceType, from Square, m0, m1 uint64, pal *SquareSet) {
	d.ByType[pt][0] |= m0
	d.ByType[pt][1] |= m1
	d.Pieces[pt][from>>6] |= 1 << (from & 63)
	if pt >= Horse && (m0&pal[0]|m1&pal[1]) != 0 {
		d.PalaceAttackers++
	}
}
