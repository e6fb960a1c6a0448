package nnet

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"testing"
)

// TestGoldenBits pins results bit for bit: evaluations of a fixed net, and
// the bytes of a net made by Random, Mutated (self-adaptive, evolving K)
// and Crossover. The constants were computed on amd64 with and without the
// AVX2 kernels (-tags purego); the same bits on any other machine are the
// determinism that checkpoints and resumed runs rely on. A change here
// means every stored population would evolve differently: it needs a
// reason, and a note in the change. (The evaluations changed once, when
// the evaluators moved from float64 to int32 columns and a float32 head.)
func TestGoldenBits(t *testing.T) {
	e := testEval(t, allExtras, 201)
	want := []uint64{0x3fc211e5e0000000, 0x3fd369f3a0000000, 0x3fbfe83a60000000, 0x3fc7812c00000000}
	for i, p := range randomPositions(newRNG(202), len(want)) {
		if got := math.Float64bits(e.Evaluate(p, p.Side)); got != want[i] {
			t.Errorf("position %d: Evaluate bits %#016x, want %#016x", i, got, want[i])
		}
	}
	n := testNet(t, draughtsSizes, allExtras, 203).Mutated(newRNG(204))
	child, _, _, err := Crossover(n, testNet(t, draughtsSizes, allExtras, 205), newRNG(206))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := child.MarshalBinary()
	sum := sha256.Sum256(b)
	if got, want := hex.EncodeToString(sum[:]), "ce4c0d177a17b0e804792a792cd1d7d2c991c2184db5a3947f9ae721d3b9b5d0"; got != want {
		t.Errorf("SHA-256 of the child = %s, want %s", got, want)
	}
}
