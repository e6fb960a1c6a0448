package game

import (
	"slices"
	"testing"
)

// takeAway is a Mover for a game small enough to count by hand: a pile of
// counters, from which a move takes one or two (but never more than there
// are). From a pile of k, perft(d) is the number of sequences of d ones
// and twos that add up to at most k.
type takeAway struct{}

func (takeAway) Moves(pile int) (moves [PerftMoves]int8, n int) {
	for take := int8(1); take <= 2 && int(take) <= pile; take++ {
		moves[n] = take
		n++
	}
	return moves, n
}

func (takeAway) Play(pile int, take int8) int { return pile - int(take) }

func (takeAway) Count(pile int) uint64 { return uint64(min(pile, 2)) }

func (g takeAway) Perft3(pile int) uint64 {
	var n uint64
	moves, count := g.Moves(pile)
	for _, m := range moves[:count] {
		q := g.Play(pile, m)
		replies, count := g.Moves(q)
		for _, r := range replies[:count] {
			n += g.Count(g.Play(q, r))
		}
	}
	return n
}

func TestPerft(t *testing.T) {
	// From a pile of 5 the sequences of d moves are those of d ones and
	// twos that add up to at most 5: d=3 leaves out 2+2+2 of the 8, d=4
	// keeps 1+1+1+1 and the four orders of 1+1+1+2, d=5 only 1+1+1+1+1.
	for _, tc := range []struct {
		pile  int
		perft []uint64 // depth 0 first
	}{
		{5, []uint64{1, 2, 4, 7, 5, 1, 0, 0}},
		{0, []uint64{1, 0, 0, 0}},
		{1, []uint64{1, 1, 0, 0}},
		{2, []uint64{1, 2, 1, 0}},
		// With j twos among d moves the sum is d+j, so perft(d) adds up
		// C(d, j) for j <= 10-d: 1+6+15+20+15 = 57 at d=6, 1+7+21+35 = 64
		// at d=7, 1+8+28 = 37 at d=8.
		{10, []uint64{1, 2, 4, 8, 16, 32, 57, 64, 37, 10, 1, 0}},
	} {
		for d, want := range tc.perft {
			if got := Perft(takeAway{}, tc.pile, d); got != want {
				t.Errorf("Perft(pile %d, %d) = %d, want %d", tc.pile, d, got, want)
			}
		}
	}
	if got := Perft(takeAway{}, 5, -1); got != 1 {
		t.Errorf("Perft(pile 5, -1) = %d, want 1", got)
	}
}

func TestDivide(t *testing.T) {
	// Taking 1 from 5 leaves 4, below which 4 sequences of two moves fit
	// (all of them); taking 2 leaves 3, below which 3 do (not 2+2).
	want := []DivideEntry[int8]{{Move: 1, Nodes: 4}, {Move: 2, Nodes: 3}}
	if got := Divide(takeAway{}, 5, 3); !slices.Equal(got, want) {
		t.Errorf("Divide(pile 5, 3) = %v, want %v", got, want)
	}
	if got := Divide(takeAway{}, 0, 3); len(got) != 0 {
		t.Errorf("Divide(pile 0, 3) = %v, want none", got)
	}
}

func TestPerftDoesNotAllocate(t *testing.T) {
	allocs := testing.AllocsPerRun(10, func() { Perft(takeAway{}, 20, 8) })
	if allocs != 0 {
		t.Errorf("Perft: %v allocations, want 0", allocs)
	}
}
