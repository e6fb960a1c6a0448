package lineage_test

import (
	"encoding/hex"
	"errors"
	"testing"

	"evolved/lineage"
	"evolved/nnet"
	"evolved/seed"
)

// parents returns two random nets of Blondie24's draughts architecture with
// self-adaptive sigmas and a king value, drawn from fixed streams.
func parents(t *testing.T) (a, b *nnet.Net) {
	t.Helper()
	sizes := []int{nnet.NumDraughtsInputs, 40, 10, 1}
	flags := nnet.SelfAdaptive | nnet.EvolveKing
	a, err := nnet.Random(sizes, flags, seed.Rand(5, "draughts", 0, seed.Init, 0))
	if err != nil {
		t.Fatal(err)
	}
	b, err = nnet.Random(sizes, flags, seed.Rand(5, "draughts", 0, seed.Init, 1))
	if err != nil {
		t.Fatal(err)
	}
	return a, b
}

// TestRecipesMakeTheSameGenomesForever pins what each operation makes,
// by checksum. Databases keep genomes as recipes and rebuild them with
// this code: an operation that changed what it makes would turn every
// stored run's rebuilt genomes into others (which the checksums would
// then refuse). If this test fails, the change broke every database
// written before it; keep the old operation under its old name instead.
func TestRecipesMakeTheSameGenomesForever(t *testing.T) {
	a, b := parents(t)
	steps := nnet.Steps{Net: 1, Tables: 1}
	for _, c := range []struct {
		recipe  lineage.Recipe
		parents []*nnet.Net
		node    nnet.Node
		sum     string
	}{
		{lineage.Recipe{Op: lineage.Mutation, Index: 3}, []*nnet.Net{a}, nnet.Node{}, "f4d4496c0b6fa867"},
		{lineage.Recipe{Op: lineage.CrossoverFirst, Index: 1}, []*nnet.Net{a, b}, nnet.Node{Layer: 1, Index: 6}, "be3b1df4d298ce3d"},
		{lineage.Recipe{Op: lineage.CrossoverSecond, Index: 1}, []*nnet.Net{b, a}, nnet.Node{Layer: 1, Index: 6}, "49301a16929fd493"},
	} {
		n, node, err := c.recipe.Make(5, "draughts", 12, steps, c.parents...)
		if err != nil {
			t.Fatalf("%v: %v", c.recipe, err)
		}
		sum, err := lineage.Sum(n)
		if err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(sum); got != c.sum || node != c.node {
			t.Errorf("%v makes sum %s swapping %v, want %s swapping %v", c.recipe, got, node, c.sum, c.node)
		}
	}
}

// TestCrossoverChildrenAreReciprocal checks the two crossover recipes
// against the node swap done by hand: each child is a copy of its first
// listed parent with the swapped node's incoming weights and bias taken
// from the other.
func TestCrossoverChildrenAreReciprocal(t *testing.T) {
	a, b := parents(t)
	first, node, err := lineage.Recipe{Op: lineage.CrossoverFirst, Index: 4}.Make(5, "draughts", 2, nnet.Steps{}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	second, node2, err := lineage.Recipe{Op: lineage.CrossoverSecond, Index: 4}.Make(5, "draughts", 2, nnet.Steps{}, b, a)
	if err != nil {
		t.Fatal(err)
	}
	if node != node2 {
		t.Fatalf("the children swap %v and %v", node, node2)
	}
	in := 91 // inputs of a first-layer node
	if node.Layer != 1 {
		in = 40
	}
	swapped := map[int]bool{a.BiasIndex(node.Layer, node.Index): true}
	for j := range in {
		swapped[a.WeightIndex(node.Layer, node.Index, j)] = true
	}
	wa, wb, w1, w2 := a.Weights(), b.Weights(), first.Weights(), second.Weights()
	for i := range wa {
		want1, want2 := wa[i], wb[i]
		if swapped[i] {
			want1, want2 = wb[i], wa[i]
		}
		if w1[i] != want1 || w2[i] != want2 {
			t.Fatalf("weight %d: children %v %v, want %v %v (node %v)", i, w1[i], w2[i], want1, want2, node)
		}
	}
}

func TestBadRecipesAreRefused(t *testing.T) {
	a, b := parents(t)
	for _, c := range []struct {
		recipe  lineage.Recipe
		parents []*nnet.Net
	}{
		{lineage.Recipe{Op: lineage.Mutation}, []*nnet.Net{a, b}},
		{lineage.Recipe{Op: lineage.CrossoverFirst}, []*nnet.Net{a}},
		{lineage.Recipe{Op: "transplant"}, []*nnet.Net{a}},
		{lineage.Recipe{Op: lineage.Distill, Step: []lineage.Change{{Index: 1 << 30, Delta: 1}}}, []*nnet.Net{a}},
		{lineage.Recipe{Op: lineage.Distill, Step: []lineage.Change{{Index: -1, Delta: 1}}}, []*nnet.Net{a}},
		{lineage.Recipe{Op: lineage.Distill}, []*nnet.Net{a, b}},
	} {
		if _, _, err := c.recipe.Make(5, "draughts", 1, nnet.Steps{}, c.parents...); !errors.Is(err, lineage.ErrRecipe) {
			t.Errorf("%v with %d parents: %v, want ErrRecipe", c.recipe, len(c.parents), err)
		}
	}
}

// TestDistillAddsItsStep: a distilled genome is its parent with the step
// added where the step says, each sum rounded to a float32, every other
// value (weights, sigmas, king) its parent's; and the step reads back from
// what storage keeps of it, a malformed blob refused.
func TestDistillAddsItsStep(t *testing.T) {
	a, _ := parents(t)
	step := []lineage.Change{{Index: 0, Delta: 0.5}, {Index: 7, Delta: -0.125}, {Index: int32(a.NumWeights() - 1), Delta: 1e-3}}
	r := lineage.Recipe{Op: lineage.Distill, Step: step}
	d, node, err := r.Make(5, "draughts", 3, nnet.Steps{}, a)
	if err != nil || node != (nnet.Node{}) {
		t.Fatal(err, node)
	}
	aw, dw := a.Weights(), d.Weights()
	for i := range aw {
		want := aw[i]
		for _, c := range step {
			if int(c.Index) == i {
				want = float64(float32(aw[i] + float64(c.Delta)))
			}
		}
		if dw[i] != want {
			t.Errorf("weight %d: %v, want %v", i, dw[i], want)
		}
	}
	if d.King() != a.King() || len(d.Sigmas()) != len(a.Sigmas()) || d.Sigmas()[3] != a.Sigmas()[3] || !d.Float32Exact() {
		t.Error("the king, the sigmas or the float32 values were not kept")
	}
	got, err := lineage.DecodeStep(lineage.EncodeStep(step))
	if err != nil || len(got) != len(step) {
		t.Fatalf("decode: %v, %v", got, err)
	}
	for i := range step {
		if got[i] != step[i] {
			t.Errorf("change %d: %+v, want %+v", i, got[i], step[i])
		}
	}
	if b := lineage.EncodeStep(step); len(b) != 4+8*len(step) {
		t.Errorf("%d bytes for %d changes", len(b), len(step))
	}
	for _, bad := range [][]byte{nil, {1, 0, 0}, {2, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}} {
		if _, err := lineage.DecodeStep(bad); !errors.Is(err, lineage.ErrRecipe) {
			t.Errorf("decode %v: %v, want ErrRecipe", bad, err)
		}
	}
}
