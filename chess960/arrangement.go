// Package chess960 searches the 960 Chess960 back ranks for the one closest
// to classical chess: the classic student genetic algorithm reproduced
// exactly, an improved genetic algorithm, random search, the exact
// enumeration of all 960 arrangements that gives the true answer, and a
// benchmark that measures the three searches over many seeded runs.
//
// The problem is tiny (960 candidates), so nothing here is tuned for speed
// beyond avoiding allocation in the loops the benchmark repeats.
package chess960

import (
	"errors"
	"fmt"
	"strings"
)

// Piece is a back-rank piece type.
type Piece uint8

// The five back-rank piece types.
const (
	Rook Piece = iota
	Knight
	Bishop
	Queen
	King
	noPiece // an empty square while an arrangement is being built
)

// letters and glyphs are indexed by Piece; each glyph takes 3 bytes of UTF-8.
const (
	letters = "RNBQK"
	glyphs  = "♖♘♗♕♔"
)

// String returns the piece's letter: R, N, B, Q or K.
func (p Piece) String() string {
	if p < noPiece {
		return letters[p : p+1]
	}
	return "-"
}

// Arrangement is a back rank, files a..h (index 0..7). A valid one holds two
// rooks, two knights, two bishops, a queen and a king, with the king strictly
// between the rooks and the bishops on squares of opposite colours (Valid).
type Arrangement [8]Piece

// Classical returns RNBQKBNR, the start of classical chess and Chess960
// number 518; its fitness is 0.
func Classical() Arrangement {
	return Arrangement{Rook, Knight, Bishop, Queen, King, Bishop, Knight, Rook}
}

// classicalFiles returns the classical files of the pieces of type p: the
// two files of a pair, or the same file twice for the queen and the king.
func classicalFiles(p Piece) (int, int) {
	switch p {
	case Rook:
		return 0, 7
	case Knight:
		return 1, 6
	case Bishop:
		return 2, 5
	case Queen:
		return 3, 3
	default:
		return 4, 4
	}
}

// ErrArrangement means a string is not a valid Chess960 back rank.
var ErrArrangement = errors.New("chess960: not a valid Chess960 arrangement")

// Parse reads an arrangement written in letters, like RNBQKBNR (upper or
// lower case). It must be valid: see Valid.
func Parse(s string) (Arrangement, error) {
	var a Arrangement
	if len(s) != 8 {
		return a, fmt.Errorf("%w: %q has %d letters, want 8", ErrArrangement, s, len(s))
	}
	for i := range 8 {
		k := strings.IndexByte(letters, s[i]&^0x20)
		if k < 0 {
			return a, fmt.Errorf("%w: %q: %q is not one of R, N, B, Q, K", ErrArrangement, s, s[i])
		}
		a[i] = Piece(k)
	}
	if !a.Valid() {
		return a, fmt.Errorf("%w: %q breaks the rules (pieces RRNNBBQK, king between the rooks, bishops on opposite colours)", ErrArrangement, s)
	}
	return a, nil
}

// String returns the arrangement in letters, like RNBQKBNR.
func (a Arrangement) String() string {
	var b [8]byte
	for i, p := range a {
		b[i] = p.String()[0]
	}
	return string(b[:])
}

// Glyphs returns the arrangement in chess glyphs, like ♖♘♗♕♔♗♘♖.
func (a Arrangement) Glyphs() string {
	var b strings.Builder
	for _, p := range a {
		if p < noPiece {
			b.WriteString(glyphs[3*p : 3*p+3])
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// files returns the files of the pieces of type p, in increasing order; the
// second is -1 for the queen and the king.
func (a *Arrangement) files(p Piece) (first, second int) {
	first, second = -1, -1
	for f, q := range a {
		if q != p {
			continue
		}
		if first < 0 {
			first = f
		} else {
			second = f
		}
	}
	return first, second
}

// Valid reports whether a is a Chess960 start: the pieces RRNNBBQK, the king
// strictly between the two rooks, the two bishops on squares of opposite
// colours (files of different parity).
func (a Arrangement) Valid() bool {
	var count [noPiece]int
	rooksLeftOfKing, bishopFiles := -1, 0
	for f, p := range a {
		if p >= noPiece {
			return false
		}
		count[p]++
		switch p {
		case King:
			rooksLeftOfKing = count[Rook]
		case Bishop:
			bishopFiles += f
		}
	}
	return count == [noPiece]int{2, 2, 2, 1, 1} && rooksLeftOfKing == 1 && bishopFiles%2 == 1
}

// Fitness returns the distance of a from the classical arrangement, lower
// is better: the sum over the pieces of |file - classical file|, where the
// two pieces of a pair (rooks, knights, bishops) are matched to the two
// classical files by whichever pairing gives the smaller sum. Classical()
// has fitness 0 and is the only arrangement with it. Fitness is defined for
// valid arrangements only. For example RNKQBBNR
// scores 0+0 (rooks) + 0+0 (knights) + 2+0 (bishops e, f for c, f) + 0
// (queen) + 2 (king c for e) = 4.
func (a Arrangement) Fitness() int {
	// at[p] holds the files of the pieces of type p, left to right.
	var at [noPiece + 1][2]int
	var n [noPiece + 1]int
	for f, p := range a {
		p = min(p, noPiece)
		at[p][n[p]&1] = f
		n[p]++
	}
	sum := 0
	for p := Rook; p <= King; p++ {
		c1, c2 := classicalFiles(p)
		x, y := at[p][0], at[p][1]
		if c1 == c2 {
			sum += abs(x - c1)
			continue
		}
		sum += min(abs(x-c1)+abs(y-c2), abs(x-c2)+abs(y-c1))
	}
	return sum
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// knightPlacement returns, for the Scharnagl numbering, which two of the
// five squares left after the bishops and the queen hold the knights: the
// k-th pair i < j in lexicographic order, (0,1), (0,2), ..., (3,4).
func knightPlacement(k int) [2]int {
	for i := range 5 {
		for j := i + 1; j < 5; j++ {
			if k == 0 {
				return [2]int{i, j}
			}
			k--
		}
	}
	panic("chess960: knight placement out of range 0..9")
}

// ErrNumber means a Scharnagl number outside 0..959.
var ErrNumber = errors.New("chess960: Scharnagl number out of range 0..959")

// FromNumber returns the arrangement with Scharnagl number n, 0..959 (518
// is RNBQKBNR): n mod 4 puts the light-squared bishop on b, d, f or h, the
// next base-4 digit the dark-squared one on a, c, e or g, the next base-6
// digit the queen on one of the six free squares, the quotient 0..9 the
// knights on two of the five left (knightPlacement), and rook, king, rook
// fill the last three squares from left to right.
func FromNumber(n int) (Arrangement, error) {
	if n < 0 || n > 959 {
		return Arrangement{}, fmt.Errorf("%w: %d", ErrNumber, n)
	}
	a := empty()
	a[2*(n%4)+1] = Bishop
	n /= 4
	a[2*(n%4)] = Bishop
	n /= 4
	a.fillNth(n%6, Queen)
	n /= 6
	kn := knightPlacement(n)
	a.fillNth(kn[1], Knight) // the later one first, so that kn[0] still counts the same squares
	a.fillNth(kn[0], Knight)
	a.fillNth(0, Rook)
	a.fillNth(0, King)
	a.fillNth(0, Rook)
	return a, nil
}

// Number returns the Scharnagl number of a valid arrangement (the inverse
// of FromNumber), or -1 if a is not valid.
func (a Arrangement) Number() int {
	if !a.Valid() {
		return -1
	}
	b1, b2 := a.files(Bishop)
	light, dark := b1, b2
	if light%2 == 0 {
		light, dark = dark, light
	}
	// Index the queen among the squares that are not bishops, the knights
	// among those that are neither bishops nor the queen.
	q, kn := -1, [2]int{-1, -1}
	qi, ki := 0, 0
	for _, p := range a {
		if p == Bishop {
			continue
		}
		if p == Queen {
			q = qi
		}
		qi++
		if p == Queen {
			continue
		}
		if p == Knight {
			if kn[0] < 0 {
				kn[0] = ki
			} else {
				kn[1] = ki
			}
		}
		ki++
	}
	k := 0
	for k < 9 && knightPlacement(k) != kn {
		k++
	}
	return light/2 + 4*(dark/2+4*(q+6*k))
}

// empty returns an arrangement with every square empty.
func empty() Arrangement {
	var a Arrangement
	for i := range a {
		a[i] = noPiece
	}
	return a
}

// fillNth puts p on the i-th empty square (from 0, left to right).
func (a *Arrangement) fillNth(i int, p Piece) {
	for f := range a {
		if a[f] != noPiece {
			continue
		}
		if i == 0 {
			a[f] = p
			return
		}
		i--
	}
	panic("chess960: fillNth past the last empty square")
}

// All returns the 960 arrangements, indexed by Scharnagl number.
func All() []Arrangement {
	all := make([]Arrangement, 960)
	for n := range all {
		all[n], _ = FromNumber(n)
	}
	return all
}
