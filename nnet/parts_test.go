package nnet

import (
	"math/rand/v2"
	"testing"
)

// TestMutatedByParts checks that each part steps by its own scale: equal
// scales are MutatedBy bit for bit, a zero scale leaves its part exactly
// as it was, and the other part moves.
func TestMutatedByParts(t *testing.T) {
	for _, flags := range []Flags{EvolvePieceValues | EvolvePST, EvolvePieceValues | EvolvePST | SelfAdaptive} {
		n, err := RandomChess([]int{8, 4}, flags, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		tables := len(n.w) - len(n.pieceValues()) - len(n.pst())
		if tables != len(n.w)-NumPSTValues-NumPieceValues {
			t.Fatalf("flags %v: the tables start at %d of %d weights", flags, tables, len(n.w))
		}
		a := n.MutatedBy(rand.New(rand.NewPCG(3, 4)), 0.3)
		b := n.MutatedByParts(rand.New(rand.NewPCG(3, 4)), 0.3, 0.3)
		for i := range a.w {
			if a.w[i] != b.w[i] {
				t.Fatalf("flags %v: equal scales differ from MutatedBy at weight %d", flags, i)
			}
		}
		netOnly := n.MutatedByParts(rand.New(rand.NewPCG(3, 4)), 1, 0)
		tablesOnly := n.MutatedByParts(rand.New(rand.NewPCG(3, 4)), 0, 1)
		netMoved, tablesMoved := 0, 0
		for i := range n.w {
			switch {
			case i < tables && tablesOnly.w[i] != n.w[i]:
				t.Fatalf("flags %v: net weight %d moved at net scale 0", flags, i)
			case i >= tables && netOnly.w[i] != n.w[i]:
				t.Fatalf("flags %v: table value %d moved at table scale 0", flags, i)
			case i < tables && netOnly.w[i] != n.w[i]:
				netMoved++
			case i >= tables && tablesOnly.w[i] != n.w[i]:
				tablesMoved++
			}
		}
		if netMoved < tables*9/10 || tablesMoved < (len(n.w)-tables)*9/10 {
			t.Errorf("flags %v: %d of %d net weights and %d of %d table values moved", flags, netMoved, tables, tablesMoved, len(n.w)-tables)
		}
	}
}
