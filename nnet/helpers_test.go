package nnet

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"evolved/game"
	"evolved/game/draughts"
)

// draughtsSizes is Blondie24's architecture.
var draughtsSizes = []int{NumDraughtsInputs, 40, 10, 1}

// allExtras turns on every Blondie24 extra.
const allExtras = PieceDiff | EvolveKing | SelfAdaptive

// evalTolerance is how far an evaluator's value may lie from the plain
// float64 computation (the inputs and Net.Forward): the int32 columns are
// rounded to their units and the layers after the first run in float32.
const evalTolerance = 1e-6

// sumOf returns node h's first-layer sum in acc (in units of e.unit[h]) as
// a value.
func sumOf(e *head, acc []int32, h int) float64 { return float64(acc[h]) * float64(e.unit[h]) }

// sumTolerance is how far sumOf may lie from the exact sum of at most 32
// columns, each rounded to the nearest multiple of the node's unit.
func sumTolerance(e *head, h int) float64 { return 16 * float64(e.unit[h]) }

// newRNG returns a seeded generator.
func newRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x5eed)) }

// testNet returns a random net; with EvolveKing its K is moved off the
// default (by mutation) so that kings and men differ by a non-round factor.
func testNet(t testing.TB, sizes []int, flags Flags, seed uint64) *Net {
	t.Helper()
	rng := newRNG(seed)
	n, err := Random(sizes, flags, rng)
	if err != nil {
		t.Fatal(err)
	}
	if flags&EvolveKing != 0 {
		for n.King() == DefaultKing {
			n = n.Mutated(rng)
		}
	}
	return n
}

// testEval returns the evaluator of testNet(draughtsSizes, flags, seed).
func testEval(t testing.TB, flags Flags, seed uint64) *DraughtsEval {
	t.Helper()
	e, err := NewDraughtsEval(testNet(t, draughtsSizes, flags, seed))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// rotated returns p turned 180 degrees with the colours swapped: the same
// position seen from the other side.
func rotated(p draughts.Position) draughts.Position {
	return draughts.NewPosition(bits.Reverse32(p.White), bits.Reverse32(p.Black), bits.Reverse32(p.Kings), p.Side^1)
}

// reference evaluates p with the plain definition: the 91 inputs and Net.Forward.
func reference(n *Net, p draughts.Position, pov game.Player) float64 {
	in := DraughtsInputs(nil, p, pov, n.King())
	return n.Forward(nil, in, DraughtsPieceDiff(p, pov, n.King()))[0]
}

// randomPositions returns count positions from random games started at
// draughts.Start(), a few of each game, kings included.
func randomPositions(rng *rand.Rand, count int) []draughts.Position {
	var out []draughts.Position
	var buf []draughts.Move
	for len(out) < count {
		p := draughts.Start()
		for ply := 0; ply < 150 && len(out) < count; ply++ {
			buf = p.Moves(buf)
			if len(buf) == 0 {
				break
			}
			p = p.Play(buf[rng.IntN(len(buf))])
			if rng.IntN(8) == 0 {
				out = append(out, p)
			}
		}
	}
	return out
}
