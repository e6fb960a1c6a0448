package nnet

import (
	"fmt"
	"math"

	"evolved/game"
)

// lane is the type of an accumulator's sums: int32 for the narrow nets'
// first layers (see sparseColumns), int16 for the perspective net's
// feature transformer (see PerspectiveNet).
type lane interface{ int16 | int32 }

// stack is the storage of an accumulator along a search path: per ply the
// position and, for each point of view, the first layer's sums and whether
// they are computed yet. The draughts, chess and xiangqi accumulators and
// the perspective net's embed it; only how they diff two positions and
// the type of their sums differ.
type stack[P any, A lane] struct {
	h1   int
	top  int     // the current ply; -1 before the first reset
	pos  []P     // pos[ply]
	done []uint8 // done[ply] has bit pov set when acc holds ply's sums for pov
	acc  []A     // acc[(2*ply+pov)*h1 : +h1]
}

// newStack returns a stack for first layers of h1 nodes, room for
// defaultPlies plies.
func newStack[P any, A lane](h1 int) stack[P, A] {
	return stack[P, A]{
		h1:   h1,
		top:  -1,
		pos:  make([]P, defaultPlies),
		done: make([]uint8, defaultPlies),
		acc:  make([]A, 2*defaultPlies*h1),
	}
}

// sums returns the first-layer sums of ply for pov.
func (s *stack[P, A]) sums(ply int, pov game.Player) []A {
	off := (2*ply + int(pov)) * s.h1
	return s.acc[off : off+s.h1 : off+s.h1]
}

// pair returns the first-layer sums of ply for both points of view, the
// first's then the second's.
func (s *stack[P, A]) pair(ply int) []A {
	off := 2 * ply * s.h1
	return s.acc[off : off+2*s.h1 : off+2*s.h1]
}

// push records p as the new current position, computing nothing.
func (s *stack[P, A]) push(p P) { *s.next() = p }

// next makes the ply above the current one current, with no sums, and
// returns its entry for the caller to fill in.
func (s *stack[P, A]) next() *P {
	s.top++
	if s.top == len(s.pos) {
		s.grow()
	}
	s.done[s.top] = 0
	return &s.pos[s.top]
}

// pop takes back the last push; what names the accumulator in the panic
// for a pop without a push.
func (s *stack[P, A]) pop(what string) {
	if s.top <= 0 {
		panic("nnet: " + what + ".Pop without a Push")
	}
	s.top--
}

// grow doubles the stack.
func (s *stack[P, A]) grow() {
	n := 2 * len(s.pos)
	pos := make([]P, n)
	copy(pos, s.pos)
	done := make([]uint8, n)
	copy(done, s.done)
	acc := make([]A, 2*n*s.h1)
	copy(acc, s.acc)
	s.pos, s.done, s.acc = pos, done, acc
}

// copies holds the positions an accumulator records by value, one per
// ply, for the accumulators whose stack keeps pointers (chess, xiangqi):
// those of the game a search plays on, or these copies.
type copies[P any] []P

// keep stores p as ply's copy, growing the storage to n plies if needed,
// and returns where it is. When the storage grows, the pointers kept for
// the plies below still point into the old array, whose entries nothing
// writes again: they stay right until popped.
func (c *copies[P]) keep(ply, n int, p P) *P {
	if ply >= len(*c) {
		*c = append(*c, make([]P, max(n, ply+1)-len(*c))...)
	}
	(*c)[ply] = p
	return &(*c)[ply]
}

// stepper computes an accumulator's sums: from scratch, or from another
// ply's (marking the target ply done).
type stepper[P any, A lane] interface {
	refresh(dst []A, p *P, pov game.Player)
	step(from, to int, pov game.Player)
}

// update computes the current ply's sums for pov lazily: it first brings
// the parent up to date from the nearest computed ancestor (so that the
// parent's other children start one move away), then the current ply from
// the parent; with no computed ancestor it sums from scratch.
func update[P any, A lane, T stepper[P, A]](s *stack[P, A], t T, pov game.Player) {
	bit := uint8(1) << pov
	anc := s.top - 1
	for anc >= 0 && s.done[anc]&bit == 0 {
		anc--
	}
	if anc < 0 { // no reset: nothing to start from
		t.refresh(s.sums(s.top, pov), &s.pos[s.top], pov)
		s.done[s.top] |= bit
		return
	}
	if anc < s.top-1 {
		t.step(anc, s.top-1, pov)
		anc = s.top - 1
	}
	t.step(anc, s.top, pov)
}

// sparseColumns returns the first layer of n as columns for sparse
// one-hot inputs (chess, xiangqi), which come in planes of one input per
// square (input plane*squares + s): cols[i*h1+h] is the weight from input
// i into first-layer node h as an int32 multiple of unit[h], the
// columnUnit of squareBound of node h's weights. That bounds every sum an
// accumulator holds: a sum over the active inputs, at most one per square.
func sparseColumns(n *Net, unit []float32, squares int) []int32 {
	inputs, h1 := n.sizes[0], n.sizes[1]
	cols := make([]int32, inputs*h1)
	for h := range h1 {
		row := n.w[n.WeightIndex(1, h, 0):][:inputs]
		scale, u := columnUnit(squareBound(inputs, squares, func(i int) float64 { return row[i] }))
		unit[h] = u
		for i, w := range row {
			cols[i*h1+h] = quantize(clampWeight(w), scale)
		}
	}
	return cols
}

// squareBound returns the sum over the squares of the largest
// |clampWeight(value(i))| of the inputs i on that square, inputs being in
// planes of squares inputs each: the largest magnitude a sum over at most
// one input per square can reach.
func squareBound(inputs, squares int, value func(i int) float64) float64 {
	bound := 0.0
	for s := range squares {
		m := 0.0
		for i := s; i < inputs; i += squares {
			m = max(m, math.Abs(clampWeight(value(i))))
		}
		bound += m
	}
	return bound
}

// sparseLayer is what the chess and xiangqi evaluators share: their copy
// of the net, its head, and the first layer's columns over sparse one-hot
// inputs, with the tables' channel when the net has EvolvePST.
type sparseLayer struct {
	net *Net
	head
	// persp is, with Perspective, the net in int16: the layer's columns
	// then hold only the tables' channels.
	persp *QuantizedPerspective
	// cols[input*stride+h], h < h1: the first layer's columns, int32
	// multiples of the head's units (see sparseColumns). With EvolvePST,
	// stride is h1+1 and cols[input*stride+h1] is what the input adds to
	// the piece-square balance, in multiples of balanceUnit (see
	// withBalanceChannel); with TaperedTables too, stride is h1+2, that
	// channel is the middlegame tables' balance and cols[input*stride+h1+1]
	// the endgame tables', in multiples of endgameUnit; without tables,
	// stride is h1.
	cols        []int32
	stride      int
	balanceUnit float64
	endgameUnit float64
}

// newSparseLayer checks that n has the given number of inputs and one
// output (otherwise the error, naming the game, wraps ErrArchitecture) and
// builds the sparse layer of a copy of n, whose inputs come in planes of
// squares inputs (see sparseColumns); entry(t, i) is input i's entry
// in the tables' channel, t being the net's tables.
func newSparseLayer(n *Net, game string, inputs, squares int, entry func(t []float64, i int) float64) (sparseLayer, error) {
	if n.sizes[0] != inputs || n.sizes[len(n.sizes)-1] != 1 {
		return sparseLayer{}, fmt.Errorf("new %s evaluator: %w: sizes %v, want %d inputs and 1 output",
			game, ErrArchitecture, n.sizes, inputs)
	}
	if err := n.validate(); err != nil {
		return sparseLayer{}, fmt.Errorf("new %s evaluator: %w", game, err)
	}
	n = n.Clone()
	l := sparseLayer{net: n}
	var err error
	if n.flags&Perspective == 0 {
		l.head = newHead(n)
		l.cols = sparseColumns(n, l.unit, squares)
	} else if l.persp, err = n.quantizedPerspective(); err != nil { // its first layer is its own
		return sparseLayer{}, fmt.Errorf("new %s evaluator: %w", game, err)
	}
	l.stride = l.h1
	if t := n.pst(); t != nil {
		mg, eg := t, []float64(nil)
		if n.flags&TaperedTables != 0 {
			mg, eg = t[:len(t)/2], t[len(t)/2:]
		}
		l.cols, l.balanceUnit = withBalanceChannel(l.cols, l.stride, inputs, squares, func(i int) float64 { return entry(mg, i) })
		l.stride++
		if eg != nil {
			l.cols, l.endgameUnit = withBalanceChannel(l.cols, l.stride, inputs, squares, func(i int) float64 { return entry(eg, i) })
			l.stride++
		}
	}
	return l, nil
}

// scratch returns the buffers of an evaluation from scratch: the head's
// (see head.output) and the sums', slices of arr and sums when they are
// large enough, as they are for layers of up to 64 nodes (so that
// Evaluate does not allocate), fresh ones otherwise.
func (l *sparseLayer) scratch(arr *[2 * 64]float32, sums *[66]int32) ([]float32, []int32) {
	if 2*l.width > len(arr) || l.stride > len(sums) {
		return make([]float32, 2*l.width), make([]int32, l.stride)
	}
	return arr[:], sums[:l.stride]
}

// withBalanceChannel returns the columns cols (inputs of them, width
// wide) widened to width+1 by one more channel, entry(i) for input i, and
// that channel's unit: a balance that is linear in the inputs (the
// piece-square tables' balance), which the accumulators then sum with the
// first layer, exactly and incrementally, as if it were one more node with
// no activation. The entries are int32 multiples of the columnUnit of
// their squareBound, each off by at most half a unit; the balance of a
// position is its sum times the unit, in float64.
func withBalanceChannel(cols []int32, width, inputs, squares int, entry func(i int) float64) ([]int32, float64) {
	stride := width + 1
	wide := make([]int32, inputs*stride)
	scale, unit := columnUnit(squareBound(inputs, squares, entry))
	for i := range inputs {
		copy(wide[i*stride:i*stride+width], cols[i*width:i*width+width])
		wide[i*stride+width] = quantize(clampWeight(entry(i)), scale)
	}
	return wide, float64(unit)
}

// rowKernels are the operations on an accumulator's rows of sums that
// applyColumns uses: dst = src + p - m, dst = src + p and dst = src - m,
// element-wise, wrapping on overflow (kernels32 for int32, kernels16 for
// int16).
type rowKernels[A lane] struct {
	addSub   func(dst, src, p, m []A)
	add, sub func(dst, src, r []A)
}

// kernels32 are the int32 row operations, for applyColumns.
func kernels32() rowKernels[int32] { return rowKernels[int32]{addSubCols, addCols, subCols} }

// applyColumns sets dst to src plus the columns plus and minus the columns
// minus of cols (each h1 wide), with the row operations k. A move by either
// side adds and removes at least one column each, and the first pair goes
// in one pass.
func applyColumns[A lane](k rowKernels[A], dst, src, cols []A, h1 int, plus, minus []uint16) {
	col := func(c uint16) []A { return cols[int(c)*h1 : int(c)*h1+h1] }
	if len(plus) > 0 && len(minus) > 0 {
		k.addSub(dst, src, col(plus[0]), col(minus[0]))
		plus, minus = plus[1:], minus[1:]
	} else {
		copy(dst, src)
	}
	for _, c := range plus {
		k.add(dst, dst, col(c))
	}
	for _, c := range minus {
		k.sub(dst, dst, col(c))
	}
}
