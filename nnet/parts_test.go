package nnet

import (
	"math"
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

// TestMutatedByStepsValues checks the piece values' own step, for chess
// and xiangqi nets, with and without SelfAdaptive: Values 0 is
// MutatedByParts bit for bit; with Values v every weight before the piece
// values is as MutatedByParts leaves it, and each piece value moves by
// less than v times its classic value, most by more than a tenth of that
// (the tables are stepped at 0.01 here, far smaller).
func TestMutatedByStepsValues(t *testing.T) {
	const v = 0.05
	for _, tc := range []struct {
		name   string
		random func([]int, Flags, *rand.Rand) (*Net, error)
	}{{"chess", RandomChess}, {"xiangqi", RandomXiangqi}} {
		for _, flags := range []Flags{EvolvePieceValues | EvolvePST, EvolvePieceValues | EvolveTerms | SelfAdaptive} {
			n, err := tc.random([]int{8, 4}, flags, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatal(err)
			}
			classic := defaultPieceValues(n.sizes[0])
			first := len(n.w) - len(classic) // the first piece value
			far := 0
			for k := range uint64(40) {
				parts := n.MutatedByParts(rand.New(rand.NewPCG(3, k)), 0.1, 0.01)
				same := n.MutatedBySteps(rand.New(rand.NewPCG(3, k)), Steps{Net: 0.1, Tables: 0.01})
				own := n.MutatedBySteps(rand.New(rand.NewPCG(3, k)), Steps{Net: 0.1, Tables: 0.01, Values: v})
				for i := range n.w {
					if same.w[i] != parts.w[i] {
						t.Fatalf("%s %v: Values 0 differs from MutatedByParts at weight %d", tc.name, flags, i)
					}
					if i < first && own.w[i] != parts.w[i] {
						t.Fatalf("%s %v: weight %d of %d, before the piece values, differs with Values %v", tc.name, flags, i, first, v)
					}
					if i < first {
						continue
					}
					limit := v * classic[i-first]
					d := math.Abs(own.w[i] - n.w[i])
					if d >= limit*(1+1e-6) {
						t.Fatalf("%s %v: piece value %d stepped %v, want below %v", tc.name, flags, i-first, d, limit)
					}
					if d > limit/10 {
						far++
					}
					if dt := math.Abs(parts.w[i] - n.w[i]); dt > limit/10 {
						t.Fatalf("%s %v: piece value %d stepped %v as a table, want far below %v", tc.name, flags, i-first, dt, limit)
					}
				}
			}
			if steps := 40 * len(classic); far < steps*2/3 {
				t.Errorf("%s %v: %d of %d piece value steps above a tenth of the limit, want most", tc.name, flags, far, steps)
			}
		}
	}
}

// TestMutatedByStepsTableScale checks Steps.TableScale: the mutant is the
// mutant without it (the same draws first) with each piece type's table
// multiplied by one factor within 1 ± TableScale, different per table;
// without tables it draws nothing and changes nothing.
func TestMutatedByStepsTableScale(t *testing.T) {
	const step = 0.05
	for _, tc := range []struct {
		name    string
		random  func([]int, Flags, *rand.Rand) (*Net, error)
		squares int
	}{{"chess", RandomChess, 64}, {"xiangqi", RandomXiangqi, 90}} {
		for _, flags := range []Flags{EvolvePST, EvolvePST | EvolveTerms | SelfAdaptive, EvolveTerms} {
			n, err := tc.random([]int{8, 4}, flags, rand.New(rand.NewPCG(3, 4)))
			if err != nil {
				t.Fatal(err)
			}
			steps := Steps{Net: 0.1, Tables: 0.1, Values: 0.05}
			plain := n.MutatedBySteps(rand.New(rand.NewPCG(5, 6)), steps)
			steps.TableScale = step
			scaled := n.MutatedBySteps(rand.New(rand.NewPCG(5, 6)), steps)
			pst, spst := plain.pst(), scaled.pst()
			if flags&EvolvePST == 0 {
				if !scaled.Equal(plain) {
					t.Errorf("%s %v: without tables TableScale changed the mutant", tc.name, flags)
				}
				continue
			}
			first := len(n.w) - len(n.pieceValues()) - len(n.terms()) - len(pst)
			for i := range n.w {
				if (i < first || i >= first+len(pst)) && scaled.w[i] != plain.w[i] {
					t.Fatalf("%s %v: weight %d = %v, want %v: only the tables scale", tc.name, flags, i, scaled.w[i], plain.w[i])
				}
			}
			factors := map[float64]bool{}
			for table := 0; table < len(pst); table += tc.squares {
				f := 0.0
				for i := table; i < table+tc.squares; i++ {
					if pst[i] != 0 && math.Abs(pst[i]) > 0.01 {
						f = spst[i] / pst[i]
						break
					}
				}
				if f < 1-step || f > 1+step {
					t.Fatalf("%s %v: table %d scaled by %v, want within 1 ± %v", tc.name, flags, table/tc.squares, f, step)
				}
				for i := table; i < table+tc.squares; i++ {
					if want := round32(pst[i] * f); math.Abs(spst[i]-want) > 1e-6*math.Abs(pst[i])+1e-9 {
						t.Fatalf("%s %v: table %d value %d = %v, want %v (the table's factor %v)", tc.name, flags, table/tc.squares, i-table, spst[i], want, f)
					}
				}
				factors[math.Round(f*1e6)] = true
			}
			if len(factors) != len(pst)/tc.squares {
				t.Errorf("%s %v: %d distinct factors over %d tables, want one each", tc.name, flags, len(factors), len(pst)/tc.squares)
			}
		}
	}
}

// TestSignPerturbed checks SPSA's pairs against the mutation's steps
// written out by part: every weight of plus is the net's plus its step
// with a sign, minus the same with the other sign (each rounded to
// float32); the steps are a term's Tables of its unit, a piece value's
// Values of its classic value, a table value MutationStep(K)*Tables and a
// net weight MutationStep(K)*Net; about half the signs are +; the same
// generator gives the same pair.
func TestSignPerturbed(t *testing.T) {
	steps := Steps{Net: 0.1, Tables: 0.2, Values: 0.05}
	for _, tc := range []struct {
		name   string
		random func([]int, Flags, *rand.Rand) (*Net, error)
	}{{"chess", RandomChess}, {"xiangqi", RandomXiangqi}} {
		n, err := tc.random([]int{8, 4}, EvolvePieceValues|EvolvePST|EvolveTerms, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		classic := defaultPieceValues(n.sizes[0])
		values := len(n.w) - len(classic) // the first piece value
		terms := values - len(n.terms())  // the first term
		tables := terms - len(n.pst())    // the first table value
		k := MutationStep(len(n.w))
		plus, minus := n.SignPerturbed(rand.New(rand.NewPCG(5, 6)), steps)
		again, _ := n.SignPerturbed(rand.New(rand.NewPCG(5, 6)), steps)
		positive := 0
		for i, w := range n.w {
			var s float64
			switch {
			case i >= values:
				s = classic[i-values] * steps.Values
			case i >= terms:
				s = steps.Tables
			case i >= tables:
				s = k * steps.Tables
			default:
				s = k * steps.Net
			}
			up, down := float64(float32(w+s)), float64(float32(w-s))
			switch {
			case plus.w[i] == up && minus.w[i] == down:
				positive++
			case plus.w[i] == down && minus.w[i] == up:
			default:
				t.Fatalf("%s: weight %d: plus %v, minus %v, want %v ± %v", tc.name, i, plus.w[i], minus.w[i], w, s)
			}
			if again.w[i] != plus.w[i] {
				t.Fatalf("%s: weight %d differs with the same generator", tc.name, i)
			}
		}
		if f := float64(positive) / float64(len(n.w)); f < 0.45 || f > 0.55 {
			t.Errorf("%s: %d of %d signs +, want about half", tc.name, positive, len(n.w))
		}
	}
}
