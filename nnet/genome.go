package nnet

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"evolved/game/xiangqi"
)

// This file holds the variation operators of the genetic algorithm. They
// draw every random number from the caller's *rand.Rand in a documented
// order, so the same generator state always gives the same children, and
// they never modify their arguments.
//
// Every value they make (weights, sigmas, K) is rounded to the nearest
// float32 (see Float32Exact). Nets compute in float64 as before; the
// rounding, far below any mutation step, lets the database store an
// evolved genome in binary32, half the bytes, and read it back exactly.

// The explicit float64 conversions of products keep the compiler from
// fusing them into a multiply-add, which would round differently on some
// architectures.

// round32 returns x rounded to the nearest float32, as a float64.
func round32(x float64) float64 { return float64(float32(x)) }

// MutationStep returns the half-width of the uniform mutation of a net with
// k weights: 1/sqrt(2*sqrt(k)).
func MutationStep(k int) float64 { return 1 / math.Sqrt(2*math.Sqrt(float64(k))) }

// Mutated returns a mutated copy of n; n itself is unchanged.
//
// Without SelfAdaptive every weight (biases, direct weights and the piece
// values of EvolvePieceValues included, K = NumWeights of them) gets
// w += m*MutationStep(K), m uniform in [-1, 1), as in Blondie24 (docs/ARCHITECTURE.md). With
// SelfAdaptive every weight i first mutates its step size,
// sigma_i *= exp(tau*N(0,1)) with tau = 1/sqrt(2*sqrt(K)), then itself,
// w_i += sigma_i*N(0,1) with the new sigma_i (Blondie24). With EvolveKing
// the king value first becomes K*exp(N(0,1)/sqrt(2)), clamped to
// [MinKing, MaxKing]. Each new value is then rounded to float32.
//
// Draw order: with EvolveKing one NormFloat64 for K; then for each weight
// in storage order either one Float64 (uniform) or two NormFloat64 (sigma's,
// then the weight's). The exponentials use this package's deterministic exp,
// not math.Exp, so the result is the same on every machine. (NormFloat64
// itself calls math.Exp and math.Log on a rare slow path, comparing in
// float32; within one architecture it is exactly reproducible.)
func (n *Net) Mutated(rng *rand.Rand) *Net { return n.MutatedBy(rng, 1) }

// MutatedBy is Mutated with the weights' steps multiplied by scale (in
// (0, 1] in practice): the uniform half-width becomes scale*MutationStep(K),
// or with SelfAdaptive each w_i += scale*sigma_i*N(0,1); sigmas and K mutate
// as in Mutated. Scale 1 is Mutated, bit for bit. A smaller scale lets a
// long run refine its nets instead of random-walking every weight by a
// full step each generation.
func (n *Net) MutatedBy(rng *rand.Rand, scale float64) *Net {
	return n.MutatedByParts(rng, scale, scale)
}

// MutatedByParts is MutatedBy with a scale of its own for the evolvable
// tables, terms and piece values (EvolvePST, EvolveTerms,
// EvolvePieceValues; the weights after the net's): the net's weights step
// by netScale, the tables and piece values by tableScale. The draws are
// those of MutatedBy, so equal scales are MutatedBy bit for bit. Tables
// start from known-good values that a full step walks away from within a
// hundred generations, while a net's weights at a tenth of a step barely
// change its play.
//
// The positional terms of EvolveTerms are in units of their textbook
// values, not of the net's weights: each steps by m*tableScale, m uniform
// in [-1, 1) (one Float64, with or without SelfAdaptive; their sigmas are
// not used), so that at the chess default of 0.1 a term moves by up to a
// tenth of its textbook value a generation.
func (n *Net) MutatedByParts(rng *rand.Rand, netScale, tableScale float64) *Net {
	return n.MutatedBySteps(rng, Steps{Net: netScale, Tables: tableScale})
}

// Steps are the scales of a mutation's steps by part of the genome (see
// MutatedBySteps).
type Steps struct {
	// Net scales the steps of the net's weights, as MutatedBy's scale.
	Net float64
	// Tables scales the steps of the evolvable tables and piece values;
	// the positional terms step by up to Tables of their units.
	Tables float64
	// Values, if not 0, makes each piece value of EvolvePieceValues step
	// by up to Values times its classic value (ClassicPieceValues,
	// ClassicXiangqiPieceValues), as the terms step in units of theirs;
	// 0 steps them as the tables.
	Values float64
	// TableScale, if not 0, also scales each piece type's table of
	// EvolvePST as a whole: after the other steps, every value of the
	// table is multiplied by 1 + m*TableScale, m uniform in [-1, 1), one
	// draw per table (general or king first, in PSTIndex or
	// XiangqiPSTIndex order). The tables' own steps move single values by
	// thousandths of a pawn, independently, so they cannot find how much
	// position is worth against material; one factor per table can.
	TableScale float64
	// HalfLife, if not 0, makes every step above shrink as the run goes
	// (At): halved every HalfLife generations, down to Floor of itself.
	HalfLife int `json:",omitempty"`
	// Floor is the fraction of the steps that HalfLife's decay stops at,
	// in (0, 1].
	Floor float64 `json:",omitempty"`
}

// At returns the steps that breed the children of generation: s itself
// without HalfLife, else every step times a factor that halves every
// HalfLife generations and never falls below Floor. Within a half-life
// the factor falls linearly, 2^-k (1 - r/(2 HalfLife)) at generation
// k HalfLife + r, so that it is continuous and every CPU computes the same
// bits (no exponential, no fused multiply-add). The result has no
// HalfLife: its steps are the generation's.
func (s Steps) At(generation int) Steps {
	if s.HalfLife <= 0 {
		return s
	}
	k, r := generation/s.HalfLife, generation%s.HalfLife
	f := s.Floor
	if k < 1074 { // beyond it 2^-k rounds to 0, below any Floor
		f = max(math.Ldexp(1-float64(r)/float64(2*s.HalfLife), -k), s.Floor)
	}
	return Steps{Net: float64(s.Net * f), Tables: float64(s.Tables * f), Values: float64(s.Values * f), TableScale: float64(s.TableScale * f)}
}

// MutatedBySteps is MutatedByParts with the piece values' own step
// (Steps.Values): with it, each piece value steps by m*Values*classic, m
// uniform in [-1, 1) (one Float64, with or without SelfAdaptive; their
// sigmas are not used). The tables' steps are a few thousandths of a
// pawn, which let a piece value move by a few hundredths in hundreds of
// generations; in units of their own size they can find their worth as
// the terms do. Values 0 (and TableScale 0) is MutatedByParts bit for
// bit; TableScale's draws come after all the others.
func (n *Net) MutatedBySteps(rng *rand.Rand, steps Steps) *Net {
	netScale, tableScale := steps.Net, steps.Tables
	c := n.Clone()
	if c.flags&EvolveKing != 0 {
		k := c.king * detExp(rng.NormFloat64()*(1/math.Sqrt2))
		c.king = round32(min(max(k, MinKing), MaxKing))
	}
	terms := len(c.w) - len(c.pieceValues()) - len(c.terms()) // the first term
	termsEnd := terms + len(c.terms())
	tables := terms - len(c.pst()) // the first table weight
	isTerm := func(i int) bool { return i >= terms && i < termsEnd }
	var valueUnits []float64 // with Steps.Values: the classic value of each piece value
	if steps.Values != 0 && len(c.pieceValues()) > 0 {
		valueUnits = defaultPieceValues(c.sizes[0])
		for i := range valueUnits {
			valueUnits[i] = float64(valueUnits[i] * steps.Values)
		}
	}
	// ownStep returns the step of weight i when it steps by a unit of its
	// own (a term, or a piece value with Steps.Values), else 0.
	ownStep := func(i int) float64 {
		switch {
		case isTerm(i):
			return tableScale
		case valueUnits != nil && i >= termsEnd:
			return valueUnits[i-termsEnd]
		}
		return 0
	}
	scaleOf := func(i int) float64 {
		if i >= tables {
			return tableScale
		}
		return netScale
	}
	if c.flags&SelfAdaptive == 0 {
		for i, step := range c.stepWidths(steps) {
			m := float64(rng.Float64()*2) - 1
			c.w[i] = round32(c.w[i] + float64(m*step))
		}
		c.scaleTables(rng, steps.TableScale)
		return c
	}
	tau := MutationStep(len(c.w)) // the same expression: 1/sqrt(2*sqrt(K))
	for i := range c.w {
		if step := ownStep(i); step != 0 {
			m := float64(rng.Float64()*2) - 1
			c.w[i] = round32(c.w[i] + float64(m*step))
			continue
		}
		c.sigma[i] = round32(c.sigma[i] * detExp(float64(tau*rng.NormFloat64())))
		c.w[i] = round32(c.w[i] + float64(float64(c.sigma[i]*scaleOf(i))*rng.NormFloat64()))
	}
	c.scaleTables(rng, steps.TableScale)
	return c
}

// stepWidths returns the half-width of each weight's uniform step under
// steps, in storage order, as MutatedBySteps takes it without
// SelfAdaptive: a positional term's Tables of its units, a piece value's
// Values of its classic value (with Steps.Values), the other table
// weights MutationStep(K)*Tables, the net's MutationStep(K)*Net.
func (n *Net) stepWidths(steps Steps) []float64 {
	terms := len(n.w) - len(n.pieceValues()) - len(n.terms()) // the first term
	termsEnd := terms + len(n.terms())
	tables := terms - len(n.pst()) // the first table weight
	netStep := float64(MutationStep(len(n.w)) * steps.Net)
	tableStep := float64(MutationStep(len(n.w)) * steps.Tables)
	var values []float64
	if steps.Values != 0 && len(n.pieceValues()) > 0 {
		values = defaultPieceValues(n.sizes[0])
	}
	out := make([]float64, len(n.w))
	for i := range out {
		switch {
		case i >= terms && i < termsEnd:
			out[i] = steps.Tables
		case values != nil && i >= termsEnd:
			out[i] = float64(values[i-termsEnd] * steps.Values)
		case i >= tables:
			out[i] = tableStep
		default:
			out[i] = netStep
		}
	}
	return out
}

// SignPerturbed returns the mirrored pair of an SPSA step around n: every
// weight w_i gets w_i ± d_i*s_i, plus for the first net and minus for the
// second, each rounded to float32; d_i is +1 or -1, one bit of
// rng.Uint64() per weight (bit j%64 of the (j/64)-th draw for weight j, in
// storage order), and s_i is the half-width of weight i's uniform
// mutation under steps (as MutatedBySteps without SelfAdaptive:
// positional terms by Tables of their units, piece values by Values of
// theirs, tables and net by MutationStep(K) times their scale). Sigmas
// and K are copied from n unchanged (Steps.TableScale is not used); n is
// not modified. Every weight moves by its whole step at once, so the two
// nets differ in every part of the genome by twice a mutation's largest
// step, and their games measure the direction d.
func (n *Net) SignPerturbed(rng *rand.Rand, steps Steps) (plus, minus *Net) {
	plus, minus = n.Clone(), n.Clone()
	var bits uint64
	for i, s := range n.stepWidths(steps) {
		if i%64 == 0 {
			bits = rng.Uint64()
		}
		if bits>>(i%64)&1 == 1 {
			s = -s
		}
		plus.w[i] = round32(n.w[i] + s)
		minus.w[i] = round32(n.w[i] - s)
	}
	return plus, minus
}

// scaleTables multiplies each piece type's table of EvolvePST by
// 1 + m*step, m uniform in [-1, 1), one draw per table (with
// TaperedTables, per table of each phase, the middlegame's first); a step
// of 0, or a net without tables, draws nothing.
func (n *Net) scaleTables(rng *rand.Rand, step float64) {
	pst := n.pst()
	if step == 0 || len(pst) == 0 {
		return
	}
	squares := 64
	if n.isXiangqi() {
		squares = xiangqi.Squares
	}
	for t := 0; t < len(pst); t += squares {
		m := float64(rng.Float64()*2) - 1
		f := 1 + float64(m*step) // float64(): no fused multiply-add, the same on every machine
		for i := t; i < t+squares; i++ {
			pst[i] = round32(pst[i] * f)
		}
	}
}

// Node names a hidden node: node Index of layer Layer, counted as in Sizes
// (layer 0 is the inputs, so hidden layers are 1 .. len(Sizes)-2).
type Node struct {
	Layer int
	Index int
}

// String returns, for example, "layer 1 node 17".
func (nd Node) String() string { return fmt.Sprintf("layer %d node %d", nd.Layer, nd.Index) }

// HiddenNodes returns the number of hidden nodes of n, over all hidden layers.
func (n *Net) HiddenNodes() int {
	total := 0
	for _, size := range n.sizes[1 : len(n.sizes)-1] {
		total += size
	}
	return total
}

// HiddenNode returns the i-th hidden node of n (0 <= i < HiddenNodes()),
// counting layer by layer from the inputs.
func (n *Net) HiddenNode(i int) Node {
	for l := 1; l < len(n.sizes)-1; l++ {
		if i < n.sizes[l] {
			return Node{Layer: l, Index: i}
		}
		i -= n.sizes[l]
	}
	panic(fmt.Sprintf("nnet: hidden node %d out of range", i))
}

// Crossover performs Blondie24's node-swap crossover: it picks a hidden
// node uniformly over all hidden nodes of all hidden layers (one IntN draw
// from rng) and returns CrossoverAt's two reciprocal children together with
// the node, for the GA's records. The parents must have the same sizes and
// flags, and at least one hidden node; otherwise the error wraps
// ErrArchitecture. The parents are never modified.
func Crossover(dominant, submissive *Net, rng *rand.Rand) (child1, child2 *Net, node Node, err error) {
	if err := compatible(dominant, submissive); err != nil {
		return nil, nil, Node{}, fmt.Errorf("crossover: %w", err)
	}
	total := dominant.HiddenNodes()
	if total == 0 {
		return nil, nil, Node{}, fmt.Errorf("crossover: %w: no hidden node", ErrArchitecture)
	}
	node = dominant.HiddenNode(rng.IntN(total))
	child1, child2, err = CrossoverAt(dominant, submissive, node)
	return child1, child2, node, err
}

// CrossoverAt swaps node's incoming weights and bias (and their sigmas,
// with SelfAdaptive) between the parents, and for a Perspective net the
// node's two output weights too (those of sum h from both points of view):
// child1 is the dominant parent
// with that node taken from the submissive one, child2 the submissive
// parent with the dominant one's node. Everything else, K and the piece
// values included, comes from the parent the child is a copy of. The
// parents are never modified.
func CrossoverAt(dominant, submissive *Net, node Node) (child1, child2 *Net, err error) {
	if err := compatible(dominant, submissive); err != nil {
		return nil, nil, fmt.Errorf("crossover: %w", err)
	}
	if node.Layer < 1 || node.Layer >= len(dominant.sizes)-1 ||
		node.Index < 0 || node.Index >= dominant.sizes[node.Layer] {
		return nil, nil, fmt.Errorf("crossover: %w: %v is not a hidden node of %v", ErrArchitecture, node, dominant.sizes)
	}
	child1, child2 = dominant.Clone(), submissive.Clone()
	in := dominant.sizes[node.Layer-1]
	row := dominant.WeightIndex(node.Layer, node.Index, 0)
	bias := dominant.BiasIndex(node.Layer, node.Index)
	copy(child1.w[row:row+in], submissive.w[row:row+in])
	copy(child2.w[row:row+in], dominant.w[row:row+in])
	child1.w[bias], child2.w[bias] = submissive.w[bias], dominant.w[bias]
	if dominant.sigma != nil {
		copy(child1.sigma[row:row+in], submissive.sigma[row:row+in])
		copy(child2.sigma[row:row+in], dominant.sigma[row:row+in])
		child1.sigma[bias], child2.sigma[bias] = submissive.sigma[bias], dominant.sigma[bias]
	}
	if dominant.flags&Perspective != 0 {
		// Sum h means what its output weights make of it: they go with it.
		n := dominant.sizes[1]
		for _, i := range [2]int{dominant.WeightIndex(2, 0, node.Index), dominant.WeightIndex(2, 0, n+node.Index)} {
			child1.w[i], child2.w[i] = submissive.w[i], dominant.w[i]
			if dominant.sigma != nil {
				child1.sigma[i], child2.sigma[i] = submissive.sigma[i], dominant.sigma[i]
			}
		}
	}
	return child1, child2, nil
}

// compatible reports, as an error wrapping ErrArchitecture, whether a and b
// differ in sizes or flags.
func compatible(a, b *Net) error {
	if !slices.Equal(a.sizes, b.sizes) || a.flags != b.flags {
		return fmt.Errorf("%w: parents %v (%v) and %v (%v) differ", ErrArchitecture, a.sizes, a.flags, b.sizes, b.flags)
	}
	return nil
}

// Perturbed returns the mirrored pair of an evolution strategy's samples
// around n: every weight gets w ± sigma*e_i, e_i ~ N(0,1) drawn from rng in
// storage order (one NormFloat64 per weight, K = NumWeights of them), plus
// for the first net and minus for the second, each rounded to float32.
// Sigmas and K are copied from n unchanged. n is not modified.
func (n *Net) Perturbed(rng *rand.Rand, sigma float64) (plus, minus *Net) {
	plus, minus = n.Clone(), n.Clone()
	for i, w := range n.w {
		d := float64(sigma * rng.NormFloat64())
		plus.w[i] = round32(w + d)
		minus.w[i] = round32(w - d)
	}
	return plus, minus
}

// Recombined returns an evolution strategy's new mean: every weight
// w_i + sum over k of weights[k]*(parents[k].w_i - w_i), summed in order of
// k and rounded to float32, with n's sigmas and K. The parents must have
// n's sizes and flags (ErrArchitecture otherwise); none is modified.
func (n *Net) Recombined(parents []*Net, weights []float64) (*Net, error) {
	if len(parents) != len(weights) {
		return nil, fmt.Errorf("recombine: %d parents and %d weights", len(parents), len(weights))
	}
	for _, p := range parents {
		if err := compatible(n, p); err != nil {
			return nil, fmt.Errorf("recombine: %w", err)
		}
	}
	c := n.Clone()
	for i, w := range n.w {
		step := 0.0
		for k, p := range parents {
			step += float64(weights[k] * float64(p.w[i]-w))
		}
		c.w[i] = round32(w + step)
	}
	return c, nil
}
