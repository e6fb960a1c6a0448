package nnet

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWithPerspectiveRoundTrip writes changed masters into a genome and
// reads them back exactly, and leaves every other weight as it was.
func TestWithPerspectiveRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n, err := RandomChess([]int{8}, Perspective|EvolvePST, rng)
	if err != nil {
		t.Fatal(err)
	}
	p, err := n.Perspective()
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.FeatureWeights {
		p.FeatureWeights[i] = float32(i%7) / 8
	}
	p.FeatureBias[3], p.OutputWeights[15], p.OutputBias = -1.5, 2.25, 0.125
	m, err := n.WithPerspective(p)
	if err != nil {
		t.Fatal(err)
	}
	q, err := m.Perspective()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(q.FeatureWeights, p.FeatureWeights) || !slices.Equal(q.FeatureBias, p.FeatureBias) ||
		!slices.Equal(q.OutputWeights, p.OutputWeights) || q.OutputBias != p.OutputBias {
		t.Fatal("masters written into the genome read back differently")
	}
	// Everything outside the two layers is n's.
	before, after := n.Weights(), m.Weights()
	inLayers := func(i int) bool {
		return i >= n.WeightIndex(1, 0, 0) && i <= n.BiasIndex(2, 0)
	}
	for i := range before {
		if !inLayers(i) && before[i] != after[i] {
			t.Fatalf("weight %d changed: %v, was %v", i, after[i], before[i])
		}
	}
	if _, err := narrowChess(t).WithPerspective(p); !errors.Is(err, ErrArchitecture) {
		t.Errorf("a narrow genome took masters: %v", err)
	}
	wide, _ := NewPerspectiveNet(16)
	if _, err := n.WithPerspective(wide); !errors.Is(err, ErrArchitecture) {
		t.Errorf("masters of another width were taken: %v", err)
	}
}

// narrowChess returns a chess genome without the Perspective flag.
func narrowChess(t *testing.T) *Net {
	n, err := RandomChess([]int{4}, 0, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}
