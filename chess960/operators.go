package chess960

import "math/rand/v2"

// This file holds the variation operators shared by the genetic algorithms:
// the constructive generator, the validity-preserving crossover and the
// swap mutation. Each takes the caller's *rand.Rand, so a run is determined
// by its seed; none allocates.

// Random returns a valid arrangement built by the constructive method of the
// classic GA: the king on a file b..g, one rook on a random file left of it
// and one right of it, a bishop on a random free light square and one on a
// random free dark square, the queen on a random free square, the knights on
// the two left. It reaches all 960 arrangements, though not uniformly (use
// FromNumber(r.IntN(960)) for a uniform draw).
func Random(r *rand.Rand) Arrangement {
	a := empty()
	k := 1 + r.IntN(6)
	a[k] = King
	a[r.IntN(k)] = Rook
	a[k+1+r.IntN(7-k)] = Rook
	// Three squares are taken, so each colour keeps at least one free square.
	a[a.randomFree(r, light)] = Bishop
	a[a.randomFree(r, dark)] = Bishop
	a.fillNth(r.IntN(3), Queen)
	a.fillNth(0, Knight)
	a.fillNth(0, Knight)
	return a
}

// Square colours by file parity on the first rank: a1 is dark.
const (
	dark      = 0
	light     = 1
	anyColour = 2
)

// randomFree returns a uniformly drawn empty file of the given colour (dark,
// light or any); there must be one.
func (a *Arrangement) randomFree(r *rand.Rand, colour int) int {
	var free [8]int
	n := 0
	for f, p := range a {
		if p == noPiece && (colour == anyColour || f%2 == colour) {
			free[n] = f
			n++
		}
	}
	return free[r.IntN(n)]
}

// bishops returns the files of the light-squared and the dark-squared
// bishop of a valid arrangement.
func (a *Arrangement) bishops() (lightFile, darkFile int) {
	b1, b2 := a.files(Bishop)
	if b1%2 == light {
		return b1, b2
	}
	return b2, b1
}

// Crossover returns the one child of first and second (both valid) by the
// classic GA's validity-preserving rules, applied in this order:
//
//   - King and rooks: if first's rooks enclose second's king, the child takes
//     first's rooks and second's king; else if second's rooks enclose first's
//     king, second's rooks and first's king; else first's king and rooks.
//   - Bishops, one from each parent where the colours and the free squares
//     allow: first's light-squared bishop with second's dark-squared one, or
//     second's light-squared with first's dark-squared (the two tried in a
//     random order); else both of second's bishops if their squares are
//     free; else both of first's; else a random free square of each colour.
//   - Queen: second's square if free, else first's, else a random free one.
//   - Knights on the two squares left.
//
// The child is always valid.
func Crossover(r *rand.Rand, first, second Arrangement) Arrangement {
	c := empty()
	fk, _ := first.files(King)
	sk, _ := second.files(King)
	fr1, fr2 := first.files(Rook)
	sr1, sr2 := second.files(Rook)
	switch {
	case fr1 < sk && sk < fr2:
		c[fr1], c[fr2], c[sk] = Rook, Rook, King
	case sr1 < fk && fk < sr2:
		c[sr1], c[sr2], c[fk] = Rook, Rook, King
	default:
		c[fr1], c[fr2], c[fk] = Rook, Rook, King
	}

	fl, fd := first.bishops()
	sl, sd := second.bishops()
	mixed := [2][2]int{{fl, sd}, {sl, fd}}
	if r.IntN(2) == 1 {
		mixed[0], mixed[1] = mixed[1], mixed[0]
	}
	placed := false
	for _, pair := range [4][2]int{mixed[0], mixed[1], {sl, sd}, {fl, fd}} {
		if c[pair[0]] == noPiece && c[pair[1]] == noPiece {
			c[pair[0]], c[pair[1]] = Bishop, Bishop
			placed = true
			break
		}
	}
	if !placed {
		c[c.randomFree(r, light)] = Bishop
		c[c.randomFree(r, dark)] = Bishop
	}

	fq, _ := first.files(Queen)
	sq, _ := second.files(Queen)
	switch {
	case c[sq] == noPiece:
		c[sq] = Queen
	case c[fq] == noPiece:
		c[fq] = Queen
	default:
		c[c.randomFree(r, anyColour)] = Queen
	}
	c.fillNth(0, Knight)
	c.fillNth(0, Knight)
	return c
}

// Mutate returns a with two of its pieces of different types swapped, the
// pair drawn uniformly among the swaps that keep the arrangement valid (a
// queen-knight swap always does, so there is at least one). a must be valid.
func Mutate(r *rand.Rand, a Arrangement) Arrangement {
	var swaps [28][2]int8
	n := 0
	for i := range 8 {
		for j := i + 1; j < 8; j++ {
			if a[i] == a[j] {
				continue
			}
			b := a
			b[i], b[j] = b[j], b[i]
			if b.Valid() {
				swaps[n] = [2]int8{int8(i), int8(j)}
				n++
			}
		}
	}
	s := swaps[r.IntN(n)]
	a[s[0]], a[s[1]] = a[s[1]], a[s[0]]
	return a
}
