package xiangqi

import (
	"strconv"

	"evolved/game"
)

// Red and Black name the xiangqi sides. Red moves first.
const (
	Red   = game.First
	Black = game.Second
)

// Files and Ranks are the board's dimensions; Squares is their product.
const (
	Files   = 9
	Ranks   = 10
	Squares = Files * Ranks
)

// Square is a point of the board, rank*9+file: a1 is 0, i1 is 8, a10 is 81
// and i10 is 89. Rank 1 is Red's back rank.
type Square uint8

// NoSquare is returned where there is no square.
const NoSquare Square = Squares

// NewSquare returns the square on file 0..8 (a..i) and rank 0..9 (1..10).
func NewSquare(file, rank int) Square { return Square(rank*Files + file) }

// File returns the square's file, 0 (a) to 8 (i).
func (s Square) File() int { return int(s) % Files }

// Rank returns the square's rank, 0 (rank 1, Red's back rank) to 9.
func (s Square) Rank() int { return int(s) / Files }

// String returns the square as Fairy-Stockfish writes it, "a1" to "i10",
// or "-" for a value that is not a square.
func (s Square) String() string {
	if s >= NoSquare {
		return "-"
	}
	return string(rune('a'+s.File())) + strconv.Itoa(s.Rank()+1)
}

// PieceType is a kind of piece regardless of colour.
type PieceType uint8

// The piece types. NoPieceType marks an empty square or the absence of a
// capture.
const (
	General PieceType = iota
	Advisor
	Elephant
	Horse
	Chariot
	Cannon
	Soldier
	NoPieceType
)

// pieceLetters are the FEN letters of the piece types, Red's in upper case.
const pieceLetters = "KABNRCP"

// String returns the upper-case FEN letter of the piece type (K, A, B, N,
// R, C, P), or "-" for NoPieceType.
func (pt PieceType) String() string {
	if pt < NoPieceType {
		return pieceLetters[pt : pt+1]
	}
	return "-"
}

// pieceNames are the English names of the piece types, for messages.
var pieceNames = [...]string{"general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier", "nothing"}

// standardCount is the number of pieces of each type in a set.
var standardCount = [...]int{General: 1, Advisor: 2, Elephant: 2, Horse: 2, Chariot: 2, Cannon: 2, Soldier: 5}

// A cell is the content of a board square: 0 when empty, otherwise the
// piece type plus one in bits 0..2 and the colour in bit 3.
type cell = uint8

// makeCell returns the cell of a piece of type pt and colour c.
func makeCell(c game.Player, pt PieceType) cell { return uint8(pt) + 1 | uint8(c&1)<<3 }

// cellType returns the type of the piece in the occupied cell x.
func cellType(x cell) PieceType { return PieceType(x&7) - 1 }

// cellColor returns the colour of the piece in the occupied cell x.
func cellColor(x cell) game.Player { return game.Player(x >> 3) }

// The four orthogonal directions, as indices into tables.ray.
const (
	north = iota
	south
	east
	west
)

// sqList is a short list of squares.
type sqList struct {
	n  uint8
	sq [4]Square
}

// legList is a list of destinations, each with the square that must be
// empty for the move (a horse's leg, an elephant's eye).
type legList struct {
	n   uint8
	to  [8]Square
	leg [8]Square
}

// tables are the move and attack tables, computed once at initialisation.
type tables struct {
	ray          [Squares][4][9]Square // the squares from s to the edge, nearest first
	rayLen       [Squares][4]uint8
	general      [Squares]sqList    // orthogonal steps inside the palace
	advisor      [Squares]sqList    // diagonal steps inside the palace
	elephant     [Squares]legList   // two-point diagonal steps on the same side of the river
	horse        [Squares]legList   // horse moves with their legs
	horseAttack  [Squares]legList   // to: squares a horse attacks s from; leg: its leg
	soldier      [2][Squares]sqList // soldier steps by colour
	soldierFrom  [2][Squares]sqList // squares a soldier of that colour attacks s from
	diagonal     [Squares][2]uint64 // the points diagonally next to a point, as a 128-bit set
	inPalace     [2][Squares]bool
	advisorPoint [2][Squares]bool
	elephantPt   [2][Squares]bool
}

// tab holds the tables. It is never written after init.
var tab = buildTables()

// onBoard reports whether file f and rank r lie on the board.
func onBoard(f, r int) bool { return f >= 0 && f < Files && r >= 0 && r < Ranks }

// sideOf returns the colour on whose half of the board rank r lies.
func sideOf(r int) game.Player {
	if r <= 4 {
		return Red
	}
	return Black
}

// palace reports whether file f and rank r lie in c's palace.
func palace(c game.Player, f, r int) bool {
	if f < 3 || f > 5 {
		return false
	}
	if c == Red {
		return r >= 0 && r <= 2
	}
	return r >= 7 && r <= 9
}

func buildTables() *tables {
	t := new(tables)
	df := [4]int{0, 0, 1, -1}
	dr := [4]int{1, -1, 0, 0}
	for s := range Square(Squares) {
		f, r := s.File(), s.Rank()
		for d := range 4 {
			n := 0
			for ff, rr := f+df[d], r+dr[d]; onBoard(ff, rr); ff, rr = ff+df[d], rr+dr[d] {
				t.ray[s][d][n] = NewSquare(ff, rr)
				n++
			}
			t.rayLen[s][d] = uint8(n)
		}
		for c := Red; c <= Black; c++ {
			if !palace(c, f, r) {
				continue
			}
			t.inPalace[c][s] = true
			if (f+r)%2 == 1-int(c) {
				t.advisorPoint[c][s] = true
			}
			for d := range 4 {
				if ff, rr := f+df[d], r+dr[d]; palace(c, ff, rr) {
					l := &t.general[s]
					l.sq[l.n] = NewSquare(ff, rr)
					l.n++
				}
			}
		}
		for _, d := range [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
			for c := Red; c <= Black; c++ {
				ff, rr := f+d[0], r+d[1]
				if palace(c, f, r) && palace(c, ff, rr) && (f+r)%2 == 1-int(c) {
					l := &t.advisor[s]
					l.sq[l.n] = NewSquare(ff, rr)
					l.n++
				}
			}
			if ff, rr := f+2*d[0], r+2*d[1]; onBoard(ff, rr) && sideOf(rr) == sideOf(r) {
				l := &t.elephant[s]
				l.to[l.n] = NewSquare(ff, rr)
				l.leg[l.n] = NewSquare(f+d[0], r+d[1])
				l.n++
			}
		}
		for _, d := range [8][2]int{{1, 2}, {-1, 2}, {1, -2}, {-1, -2}, {2, 1}, {2, -1}, {-2, 1}, {-2, -1}} {
			ff, rr := f+d[0], r+d[1]
			if !onBoard(ff, rr) {
				continue
			}
			leg := NewSquare(f, r+d[1]/2)
			if d[0] == 2 || d[0] == -2 {
				leg = NewSquare(f+d[0]/2, r)
			}
			to := NewSquare(ff, rr)
			l := &t.horse[s]
			l.to[l.n], l.leg[l.n] = to, leg
			l.n++
			a := &t.horseAttack[to]
			a.to[a.n], a.leg[a.n] = s, leg
			a.n++
		}
		for c := Red; c <= Black; c++ {
			fwd := 1 - 2*int(c)
			if (c == Red && r < 3) || (c == Black && r > 6) {
				continue // a soldier never stands behind its start rank
			}
			steps := [][2]int{{0, fwd}}
			if sideOf(r) != c {
				steps = append(steps, [2]int{1, 0}, [2]int{-1, 0})
			}
			for _, st := range steps {
				if ff, rr := f+st[0], r+st[1]; onBoard(ff, rr) {
					to := NewSquare(ff, rr)
					l := &t.soldier[c][s]
					l.sq[l.n] = to
					l.n++
					a := &t.soldierFrom[c][to]
					a.sq[a.n] = s
					a.n++
				}
			}
		}
	}
	for c := Red; c <= Black; c++ {
		base := 0
		if c == Black {
			base = 9
		}
		for _, fr := range [7][2]int{{2, 0}, {6, 0}, {0, 2}, {4, 2}, {8, 2}, {2, 4}, {6, 4}} {
			r := fr[1]
			if c == Black {
				r = base - r
			}
			t.elephantPt[c][NewSquare(fr[0], r)] = true
		}
	}
	for k := range Square(Squares) {
		for s := range Square(Squares) {
			df, dr := s.File()-k.File(), s.Rank()-k.Rank()
			if (df == 1 || df == -1) && (dr == 1 || dr == -1) {
				t.diagonal[k][s>>6] |= 1 << (s & 63)
			}
		}
	}
	return t
}

// zobristKeys are the random numbers of the Zobrist hash.
type zobristKeys struct {
	cell [16][Squares]uint64 // [cell][square]; cells 0 and 8 are unused
	side uint64              // xored in when Black is to move
}

// zobrist holds fixed keys drawn from game.SplitMix64 with a constant seed, so
// hashes are the same in every run and on every machine (they are stored in
// databases and compared across processes). It is never written after init.
var zobrist = func() (z zobristKeys) {
	keys := game.SplitMix64(0x6576_6f6c_7665_6458) // "evolvedX"
	for c := range 16 {
		for s := range Squares {
			z.cell[c][s] = keys.Next()
		}
	}
	z.side = keys.Next()
	return z
}()
