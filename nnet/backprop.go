package nnet

import "fmt"

// Backprop computes a net's output under weights other than its own, and
// the derivatives of that output by every weight: what fitting a whole net
// to targets (package distill, for draughts) needs. It holds one
// evaluation's activations, so it belongs to one goroutine; make one per
// worker with NewBackprop. The net must have one output node.
//
// The computation is the plain float64 one of Net.Forward (Tanh at every
// node, the direct PieceDiff weight into the output), and the derivative
// of Tanh is taken as 1 - Tanh^2, which is what Tanh approximates to
// within its own error.
type Backprop struct {
	sizes    []int
	offset   []int // where layer l's weight matrix starts, as Net.offset
	pieceOut int   // the direct weight's index with PieceDiff, else -1
	weights  int   // NumWeights of the nets
	acts     [][]float64
	deltas   [][]float64
	direct   float64
}

// NewBackprop returns a Backprop for nets of n's architecture and flags.
// The error wraps ErrArchitecture for a net of more than one output.
func NewBackprop(n *Net) (*Backprop, error) {
	last := len(n.sizes) - 1
	if n.sizes[last] != 1 {
		return nil, fmt.Errorf("backprop: %w: %d outputs, want 1", ErrArchitecture, n.sizes[last])
	}
	b := &Backprop{sizes: n.Sizes(), offset: append([]int(nil), n.offset...), pieceOut: -1, weights: n.NumWeights()}
	if n.flags&PieceDiff != 0 {
		b.pieceOut = n.DirectIndex(0)
	}
	b.acts = make([][]float64, len(n.sizes))
	b.deltas = make([][]float64, len(n.sizes))
	for l, size := range n.sizes {
		if l > 0 {
			b.acts[l] = make([]float64, size)
			b.deltas[l] = make([]float64, size)
		}
	}
	return b, nil
}

// Forward returns the output of the net with weights w (a slice of
// NumWeights, as Net.Weights returns) for the inputs in and the direct
// value, and keeps what Backward needs. It panics if in or w have the
// wrong length. It does not allocate.
func (b *Backprop) Forward(w, in []float64, direct float64) float64 {
	if len(in) != b.sizes[0] || len(w) != b.weights {
		panic(fmt.Sprintf("nnet: Backprop.Forward with %d inputs and %d weights for sizes %v", len(in), len(w), b.sizes))
	}
	b.acts[0], b.direct = in, direct
	last := len(b.sizes) - 1
	for l := 1; l <= last; l++ {
		out, prev := b.acts[l], b.acts[l-1]
		start := b.offset[l-1]
		affine(out, w[start:], w[start+len(out)*len(prev):], prev)
		if l == last && b.pieceOut >= 0 {
			out[0] += w[b.pieceOut] * direct
		}
		tanhAll(out)
	}
	return b.acts[last][0]
}

// Backward adds scale times the derivative of the last Forward's output
// by each weight to grad[i]; w must be the weights Forward was given,
// and grad as long. It does not allocate.
func (b *Backprop) Backward(w []float64, scale float64, grad []float64) {
	if len(w) != b.weights || len(grad) != b.weights {
		panic(fmt.Sprintf("nnet: Backprop.Backward with %d weights and %d derivatives, want %d", len(w), len(grad), b.weights))
	}
	last := len(b.sizes) - 1
	out := b.acts[last][0]
	b.deltas[last][0] = scale * (1 - out*out)
	for l := last; l >= 1; l-- {
		prev, delta := b.acts[l-1], b.deltas[l]
		start := b.offset[l-1]
		n := len(prev)
		bias := start + len(delta)*n
		for to, d := range delta {
			if d == 0 {
				continue
			}
			row := grad[start+to*n : start+(to+1)*n]
			for from, a := range prev {
				row[from] += d * a
			}
			grad[bias+to] += d
		}
		if l == last && b.pieceOut >= 0 {
			grad[b.pieceOut] += delta[0] * b.direct
		}
		if l == 1 {
			break
		}
		below := b.deltas[l-1]
		for from := range below {
			var sum float64
			for to, d := range delta {
				sum += w[start+to*n+from] * d
			}
			a := prev[from]
			below[from] = sum * (1 - a*a)
		}
	}
}
