// Package lineage describes how the genetic algorithm makes a genome from
// its parents, exactly enough to make it again. A run keeps most genomes
// as such a record instead of their weights (package storage) and rebuilds
// them bit for bit when a champion is exported, rated or played.
//
// Breeding (package population) and rebuilding (package storage) both
// make genomes through Recipe.Make, so there is one implementation of each
// operation: a rebuilt genome is the bred one by construction, and Sum
// checks it.
package lineage

import (
	"crypto/sha256"
	"errors"
	"fmt"

	"evolved/nnet"
	"evolved/seed"
)

// Op is an operation that makes a genome from its parents.
type Op string

const (
	// Mutation is parents[0] mutated by the run's steps at the generation
	// (nnet.Net.MutatedBySteps, nnet.Steps.At), the random numbers from
	// seed.Rand(run, game, generation, seed.Mutation, index).
	Mutation Op = "mutation"
	// CrossoverFirst is the first child of the node-swap crossover of
	// parents[0] (dominant) and parents[1] (submissive), the node drawn
	// from seed.Rand(run, game, generation, seed.Crossover, index).
	CrossoverFirst Op = "crossover-first"
	// CrossoverSecond is the second child of the same crossover, whose
	// parents are listed the other way round: parents[0] is the
	// submissive parent, whose copy the child is, and parents[1] the
	// dominant one.
	CrossoverSecond Op = "crossover-second"
	// Distill is parents[0] with the distillation's step added to its
	// weights (Recipe.Step), each sum rounded to a float32: the change
	// that the fit of the generation's champion to its searches made,
	// which every elite takes (population.Config.DistillEvery).
	Distill Op = "distill"
)

// Change is one weight's part of a distillation's step: the index in the
// net's weights and what is added there.
type Change struct {
	Index int32
	Delta float32
}

// ErrRecipe means a recipe cannot be applied: an unknown operation, or
// the wrong number of parents.
var ErrRecipe = errors.New("lineage: bad recipe")

// Recipe is how a genome was made: the operation and its index among the
// operations of its kind in the generation that bred it (the index of the
// random stream it drew from); for Distill, which draws nothing, the step
// it added instead.
type Recipe struct {
	Op    Op
	Index int
	Step  []Change `json:",omitempty"`
}

// Parents returns how many parents the recipe's operation takes, or 0 for
// an unknown operation.
func (r Recipe) Parents() int {
	switch r.Op {
	case Mutation, Distill:
		return 1
	case CrossoverFirst, CrossoverSecond:
		return 2
	}
	return 0
}

// Make makes the genome r describes, bred in generation generation (the
// generation its parents formed; the genome is born in the next one) of
// the run with seed run of game, whose mutations take steps. It returns
// the swapped node of a crossover child (the zero Node for a mutant). The
// parents are not modified.
func (r Recipe) Make(run uint64, game string, generation int, steps nnet.Steps, parents ...*nnet.Net) (*nnet.Net, nnet.Node, error) {
	if want := r.Parents(); want == 0 || len(parents) != want {
		return nil, nnet.Node{}, fmt.Errorf("%w: %q with %d parents", ErrRecipe, r.Op, len(parents))
	}
	switch r.Op {
	case Mutation:
		return parents[0].MutatedBySteps(seed.Rand(run, game, generation, seed.Mutation, r.Index), steps.At(generation)), nnet.Node{}, nil
	case CrossoverFirst:
		c1, _, node, err := nnet.Crossover(parents[0], parents[1], seed.Rand(run, game, generation, seed.Crossover, r.Index))
		return c1, node, err
	case Distill:
		w := parents[0].Weights()
		for _, c := range r.Step {
			if c.Index < 0 || int(c.Index) >= len(w) {
				return nil, nnet.Node{}, fmt.Errorf("%w: a distillation's step changes weight %d of a net of %d", ErrRecipe, c.Index, len(w))
			}
			w[c.Index] = float64(float32(w[c.Index] + float64(c.Delta)))
		}
		n, err := parents[0].WithWeights(w)
		if err != nil {
			return nil, nnet.Node{}, fmt.Errorf("lineage: distill: %w", err)
		}
		return n, nnet.Node{}, nil
	default: // CrossoverSecond
		_, c2, node, err := nnet.Crossover(parents[1], parents[0], seed.Rand(run, game, generation, seed.Crossover, r.Index))
		return c2, node, err
	}
}

// SumSize is the length of a Sum.
const SumSize = 8

// Sum returns the checksum kept with a genome that may be rebuilt: the
// first SumSize bytes of the SHA-256 of its binary form
// (nnet.Net.MarshalBinary). A rebuilt genome whose sum differs was not
// rebuilt right, and is refused.
func Sum(n *nnet.Net) ([]byte, error) {
	b, err := n.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("lineage: sum: %w", err)
	}
	h := sha256.Sum256(b)
	return h[:SumSize], nil
}
