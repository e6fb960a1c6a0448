package nnet

// head is the part of an evaluator that follows the first layer's sums:
// the first layer's biases and activation, the later layers, and the
// direct weight into the output node. Draughts, chess and xiangqi
// evaluators share it; only their first layers differ.
type head struct {
	h1        int         // size of the first layer after the inputs
	b1        []float64   // biases of the first layer
	layers    []evalLayer // the layers after the first
	pieceDiff bool
	direct    float64 // the direct weight into the output node, with PieceDiff
	width     int     // the widest layer after the inputs
}

// newHead reads n's layers after the inputs. The slices alias n's weights.
func newHead(n *Net) head {
	h1 := n.sizes[1]
	e := head{h1: h1, pieceDiff: n.flags&PieceDiff != 0}
	for _, size := range n.sizes[1:] {
		e.width = max(e.width, size)
	}
	b := n.BiasIndex(1, 0)
	e.b1 = n.w[b : b+h1 : b+h1]
	for l := 2; l < len(n.sizes); l++ {
		in, out := n.sizes[l-1], n.sizes[l]
		w := n.WeightIndex(l, 0, 0)
		b := n.BiasIndex(l, 0)
		e.layers = append(e.layers, evalLayer{in: in, out: out, w: n.w[w : w+in*out], b: n.w[b : b+out]})
	}
	if e.pieceDiff {
		e.direct = n.w[n.DirectIndex(0)]
	}
	return e
}

// output finishes an evaluation from the first-layer sums acc (biases
// excluded) and the value pd fed to the output node with PieceDiff (the
// piece differential in draughts, the material in chess and xiangqi),
// using the first 2*e.width floats of buf as scratch. First-layer node h
// computes tanh(acc[h] + b1[h]); later nodes compute tanh(affine), the
// output node adding float64(direct*pd) before its tanh.
func (e *head) output(acc []float64, pd float64, buf []float64) float64 {
	h1, w := e.h1, e.width
	cur, next := buf[:w:w], buf[w:2*w:2*w] // the two halves, used in turn
	a := cur[:h1]
	acc, b1 := acc[:h1], e.b1[:h1]
	if len(e.layers) == 0 { // the first layer is the output layer
		z := acc[0] + b1[0]
		if e.pieceDiff {
			z += float64(e.direct * pd)
		}
		return Tanh(z)
	}
	add(a, acc, b1)
	tanhAll(a)
	last := len(e.layers) - 1
	for l := range e.layers {
		ly := &e.layers[l]
		out := next[:ly.out]
		affine(out, ly.w, ly.b, a)
		if l == last && e.pieceDiff {
			out[0] += float64(e.direct * pd)
		}
		tanhAll(out)
		a = out
		cur, next = next, cur
	}
	return a[0]
}
