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
	"encoding/binary"
	"errors"
	"fmt"
	"math"

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

// The dense forms of a step (see EncodeStep) open with a marker where the
// sparse form has its count, which never comes near them (nets have at
// most nnet.MaxWeights weights): denseMarker for two bytes a weight,
// denseByteMarker for one.
const (
	denseMarker     = math.MaxUint32
	denseByteMarker = math.MaxUint32 - 1
)

// denseWidth is a dense form: its marker, the bytes of each weight's
// multiple, and the largest magnitude a multiple may have.
type denseWidth struct {
	marker  uint32
	bytes   int
	largest int
}

// denseWidths returns the dense forms, the shorter first.
func denseWidths() [2]denseWidth {
	return [2]denseWidth{{denseByteMarker, 1, math.MaxInt8}, {denseMarker, 2, math.MaxInt16}}
}

// EncodeStep returns a distillation's step as storage keeps it, in the
// shortest of three forms. The sparse form: the number of changes
// (uint32), then each change's index (uint32) and delta (float32 bits).
// The dense forms, for a step whose deltas are whole multiples q*2^k of
// one power of two and whose indices ascend (a fit that rounds its change
// so, as distill.FitDraughts does, over a whole net): a marker (uint32),
// the first index and the number of weights the step spans (uint32 each),
// k (int32), then q for each weight of the span, 0 where nothing changes:
// an int8 after denseByteMarker (|q| <= 127), an int16 after denseMarker
// (|q| <= 32767). All little-endian.
func EncodeStep(step []Change) []byte {
	for _, w := range denseWidths() {
		if b, ok := encodeDense(step, w); ok && len(b) < 4+8*len(step) {
			return b
		}
	}
	b := binary.LittleEndian.AppendUint32(make([]byte, 0, 4+8*len(step)), uint32(len(step)))
	for _, c := range step {
		b = binary.LittleEndian.AppendUint32(b, uint32(c.Index))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(c.Delta))
	}
	return b
}

// encodeDense returns step's dense form of width w, if it has one.
func encodeDense(step []Change, w denseWidth) ([]byte, bool) {
	if len(step) == 0 {
		return nil, false
	}
	var largest float64
	for i, c := range step {
		if c.Delta == 0 || math.IsInf(float64(c.Delta), 0) || math.IsNaN(float64(c.Delta)) || (i > 0 && c.Index <= step[i-1].Index) {
			return nil, false
		}
		largest = max(largest, math.Abs(float64(c.Delta)))
	}
	// The least k with largest <= w.largest*2^k: the power a rounding fit
	// chose, if the deltas are multiples of one.
	top := float64(w.largest)
	_, e := math.Frexp(largest / top) // largest/top < 2^e
	k := e
	for k > -200 && largest <= top*math.Ldexp(1, k-1) {
		k--
	}
	first, span := step[0].Index, step[len(step)-1].Index-step[0].Index+1
	b := binary.LittleEndian.AppendUint32(make([]byte, 0, 16+w.bytes*int(span)), w.marker)
	b = binary.LittleEndian.AppendUint32(b, uint32(first))
	b = binary.LittleEndian.AppendUint32(b, uint32(span))
	b = binary.LittleEndian.AppendUint32(b, uint32(int32(k)))
	q := make([]byte, w.bytes*int(span))
	for _, c := range step {
		v := math.Ldexp(float64(c.Delta), -k)
		if v != math.Trunc(v) || math.Abs(v) > top || float32(math.Ldexp(v, k)) != c.Delta {
			return nil, false
		}
		at := w.bytes * int(c.Index-first)
		if w.bytes == 1 {
			q[at] = byte(int8(v))
		} else {
			binary.LittleEndian.PutUint16(q[at:], uint16(int16(v)))
		}
	}
	return append(b, q...), true
}

// DecodeStep reads what EncodeStep wrote; a blob that is not one of its
// forms is ErrRecipe.
func DecodeStep(b []byte) ([]Change, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("%w: a distillation's step of %d bytes", ErrRecipe, len(b))
	}
	n := binary.LittleEndian.Uint32(b)
	for _, w := range denseWidths() {
		if n == w.marker {
			return decodeDense(b, w)
		}
	}
	if uint64(len(b)) != 4+8*uint64(n) {
		return nil, fmt.Errorf("%w: a distillation's step of %d bytes says it holds %d changes", ErrRecipe, len(b), n)
	}
	step := make([]Change, n)
	for i := range step {
		off := 4 + 8*i
		step[i] = Change{Index: int32(binary.LittleEndian.Uint32(b[off:])), Delta: math.Float32frombits(binary.LittleEndian.Uint32(b[off+4:]))}
	}
	return step, nil
}

// decodeDense reads a step's dense form of width w.
func decodeDense(b []byte, w denseWidth) ([]Change, error) {
	if len(b) < 16 {
		return nil, fmt.Errorf("%w: a dense distillation's step of %d bytes", ErrRecipe, len(b))
	}
	first, span := binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])
	k := int(int32(binary.LittleEndian.Uint32(b[12:])))
	switch {
	case uint64(len(b)) != 16+uint64(w.bytes)*uint64(span):
		return nil, fmt.Errorf("%w: a dense distillation's step of %d bytes, %d a weight, says it spans %d weights", ErrRecipe, len(b), w.bytes, span)
	case uint64(first)+uint64(span) > nnet.MaxWeights:
		return nil, fmt.Errorf("%w: a dense distillation's step spans weights %d to %d", ErrRecipe, first, uint64(first)+uint64(span))
	case k < -200 || k > 100:
		return nil, fmt.Errorf("%w: a dense distillation's step in units of 2^%d", ErrRecipe, k)
	}
	var step []Change
	for i := range int(span) {
		var q int
		if w.bytes == 1 {
			q = int(int8(b[16+i]))
		} else {
			q = int(int16(binary.LittleEndian.Uint16(b[16+2*i:])))
		}
		if q != 0 {
			step = append(step, Change{Index: int32(first) + int32(i), Delta: float32(math.Ldexp(float64(q), k))})
		}
	}
	return step, nil
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
