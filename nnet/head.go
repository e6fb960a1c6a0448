package nnet

import "math"

// head is the part of an evaluator that follows the first layer's sums:
// the first layer's units, biases and activation, the later layers, and
// the direct weight into the output node, in float32 (see kernels32.go).
// Draughts, chess and xiangqi evaluators share it; only their first
// layers differ.
type head struct {
	h1        int         // size of the first layer after the inputs
	unit      []float32   // unit[h]: the value of 1 in node h's int32 sums, a power of two
	b1        []float32   // biases of the first layer
	layers    []evalLayer // the layers after the first
	pieceDiff bool
	direct    float32 // the direct weight into the output node, with PieceDiff
	width     int     // the widest layer after the inputs
}

// evalLayer is a dense layer after the first: rows of incoming weights and
// biases, in float32.
type evalLayer struct {
	in, out int
	w       []float32 // out rows of in weights
	b       []float32
}

// newHead converts n's layers after the inputs to float32 (see weight32).
// The first layer's units are the caller's to set, with its columns.
func newHead(n *Net) head {
	h1 := n.sizes[1]
	e := head{h1: h1, pieceDiff: n.flags&PieceDiff != 0, unit: make([]float32, h1)}
	for _, size := range n.sizes[1:] {
		e.width = max(e.width, size)
	}
	b := n.BiasIndex(1, 0)
	e.b1 = weights32(n.w[b : b+h1])
	for l := 2; l < len(n.sizes); l++ {
		in, out := n.sizes[l-1], n.sizes[l]
		w := n.WeightIndex(l, 0, 0)
		b := n.BiasIndex(l, 0)
		e.layers = append(e.layers, evalLayer{in: in, out: out, w: weights32(n.w[w : w+in*out]), b: weights32(n.w[b : b+out])})
	}
	if e.pieceDiff {
		e.direct = weight32(n.w[n.DirectIndex(0)])
	}
	return e
}

// maxWeight32 is the magnitude to which an evaluator clamps a weight: far
// beyond any weight evolution produces, and small enough that no float32
// sum overflows (a layer after the first sums fewer than MaxWeights = 2^24
// products of a weight by an activation below 1, so less than 2^124; the
// first layer's columns and units stay below 2^128 likewise).
const maxWeight32 = 0x1p100

// clampWeight returns w clamped to ±maxWeight32, as evaluators read every
// weight.
func clampWeight(w float64) float64 { return min(max(w, -maxWeight32), maxWeight32) }

// weight32 returns w as an evaluator uses it after the first layer:
// clamped to ±maxWeight32 and rounded to float32.
func weight32(w float64) float32 { return float32(clampWeight(w)) }

// weights32 returns the weight32 of every element of w.
func weights32(w []float64) []float32 {
	out := make([]float32, len(w))
	for i, v := range w {
		out[i] = weight32(v)
	}
	return out
}

// sumBits is the magnitude, as a power of two, below which a column unit
// keeps every sum of an int32 accumulator: 2^30, leaving a factor of two
// for the rounding of the columns.
const sumBits = 30

// columnUnit returns the unit u = 2^k in which values whose absolute values
// sum to at most bound are stored as int32 multiples (round(v*scale),
// scale = 1/u): k is the least with bound < 2^(sumBits+k), but at least
// -126, so that u is a normal float32. Any sum of a subset of the rounded
// values, each off by at most u/2, then stays below 2^31*u in magnitude
// (there are far fewer than 2^31 values), and int32 arithmetic on them is
// exact: wrapping on the way does not matter, as the result is right
// modulo 2^32 and in range. A value is off by at most 2^-30 of bound.
func columnUnit(bound float64) (scale float64, unit float32) {
	_, exp := math.Frexp(bound) // bound < 2^exp
	k := max(exp-sumBits, -126)
	return math.Ldexp(1, -k), float32(math.Ldexp(1, k))
}

// quantize returns v*scale rounded to the nearest integer, v being a value
// bounded as columnUnit requires.
func quantize(v, scale float64) int32 { return int32(math.Round(v * scale)) }

// output finishes an evaluation from the first-layer sums acc (biases
// excluded, node h in units of unit[h]) and the value pd fed to the output
// node with PieceDiff (the piece differential in draughts, the material in
// chess and xiangqi), using the first 2*e.width floats of buf as scratch.
// First-layer node h computes tanh32(float32(acc[h])*unit[h] + b1[h]);
// later nodes compute tanh32(affine32), the output node adding
// float32(direct*float32(pd)) before its tanh32.
func (e *head) output(acc []int32, pd float64, buf []float32) float64 {
	h1, w := e.h1, e.width
	cur, next := buf[:w:w], buf[w:2*w:2*w] // the two halves, used in turn
	a := cur[:h1]
	if len(e.layers) == 0 { // the first layer is the output layer
		z := float32(float32(acc[0])*e.unit[0]) + e.b1[0]
		if e.pieceDiff {
			z += float32(e.direct * float32(pd))
		}
		return float64(tanh32(z))
	}
	activate(a, acc[:h1], e.unit, e.b1)
	last := len(e.layers) - 1
	for l := range e.layers {
		ly := &e.layers[l]
		out := next[:ly.out]
		affine32(out, ly.w, ly.b, a)
		if l == last && e.pieceDiff {
			out[0] += float32(e.direct * float32(pd))
		}
		tanhAll32(out)
		a = out
		cur, next = next, cur
	}
	return float64(a[0])
}
