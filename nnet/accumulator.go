package nnet

import (
	"math/bits"

	"evolved/game"
	"evolved/game/draughts"
)

// defaultPlies is the depth a DraughtsAccumulator's stack holds before it grows.
const defaultPlies = 128

// DraughtsAccumulator evaluates the positions along a search path
// incrementally, as NNUE engines do. It keeps one entry per ply: the
// position and, for each point of view, the first layer's sums
// (see DraughtsEval). Push only records a position; Evaluate computes the
// sums of the current ply for the requested point of view, lazily, from the
// nearest ancestor that has them: it first brings the parent up to date from
// that ancestor (so that the parent's other children start one move away),
// then the current ply from the parent. Each step adds the columns of the
// squares whose content appeared and subtracts those of the squares whose
// content went away (the XOR of the before and after bitboards, per piece
// kind and colour), or sums from scratch when that is cheaper. The results
// are bit-identical to DraughtsEval.Evaluate.
//
// The piece differential is not stored: it is four popcounts of the
// position, cheaper than keeping it up to date, and thus identical in every
// path.
//
// A DraughtsAccumulator belongs to one search (one goroutine); many may
// share one DraughtsEval. It allocates its stack once, for 128 plies, and
// grows it only if a search goes deeper; Reset, Push, Pop and Evaluate do
// not allocate otherwise.
//
// With a perspective net, a second stack beside it keeps the net's int16
// sums of the same plies, computed from the boards of the first, which
// then has no sums of its own.
type DraughtsAccumulator struct {
	stack[draughtsBoard, int32]
	e     *DraughtsEval
	buf   []float32            // scratch for DraughtsEval.output
	persp *draughtsPerspective // with a perspective net, its sums; nil otherwise
}

// NewAccumulator returns an accumulator for searches with e. Call Reset
// before anything else.
func (e *DraughtsEval) NewAccumulator() *DraughtsAccumulator {
	a := &DraughtsAccumulator{stack: newStack[draughtsBoard, int32](e.h1), e: e, buf: make([]float32, 2*e.width)}
	if e.persp != nil {
		a.persp = &draughtsPerspective{stack: newStack[struct{}, int16](e.persp.hidden), a: a, q: e.persp}
	}
	return a
}

// Reset empties the stack and makes p its root, computing its sums for
// both points of view.
func (a *DraughtsAccumulator) Reset(p draughts.Position) {
	a.top = 0
	a.pos[0] = boardOf(&p)
	if a.persp != nil {
		a.persp.reset()
		return
	}
	for pov := draughts.Black; pov <= draughts.White; pov++ {
		a.e.refresh(a.sums(0, pov), &a.pos[0], pov)
	}
	a.done[0] = 3
}

// Push records p, the position after a move from the current one, as the
// new current position. It computes nothing (see Evaluate).
func (a *DraughtsAccumulator) Push(p draughts.Position) {
	a.PushPieces(p.Black, p.White, p.Kings)
}

// PushPieces is Push of the position whose Black, White and Kings
// bitboards are given (draughts.Game.Pieces): a search's way, which copies
// three words instead of a position.
func (a *DraughtsAccumulator) PushPieces(black, white, kings uint32) {
	a.push(draughtsBoard{black: black, white: white, kings: kings})
	if a.persp != nil {
		a.persp.next()
	}
}

// Pop takes back the last Push. It panics if there is none since the last Reset.
func (a *DraughtsAccumulator) Pop() {
	a.pop("DraughtsAccumulator")
	if a.persp != nil {
		a.persp.pop("DraughtsAccumulator")
	}
}

// Ply returns the number of positions pushed since the last Reset and not popped.
func (a *DraughtsAccumulator) Ply() int { return a.top }

// Evaluate returns the value of the current position from pov's point of
// view, in (-1, 1) ([-1, 1] for a perspective net), exactly as
// DraughtsEval.Evaluate would.
func (a *DraughtsAccumulator) Evaluate(pov game.Player) float64 {
	pov &= 1
	if a.persp != nil {
		return a.persp.evaluate(pov)
	}
	if a.done[a.top]&(1<<pov) == 0 {
		update(&a.stack, a, pov)
	}
	return a.e.output(a.sums(a.top, pov), pieceDiff(a.pos[a.top], pov, a.e.king), a.buf)
}

// refresh sums p from scratch for pov (for update).
func (a *DraughtsAccumulator) refresh(dst []int32, p *draughtsBoard, pov game.Player) {
	a.e.refresh(dst, p, pov)
}

// step computes the sums of ply to from those of ply from for pov, and marks
// them done.
func (a *DraughtsAccumulator) step(from, to int, pov game.Player) {
	a.done[to] |= 1 << pov
	e := a.e
	h1 := a.h1
	dst, src := a.sums(to, pov), a.sums(from, pov)
	p0, p1 := &a.pos[from], &a.pos[to]
	own0, opp0, own1, opp1, flip := p0.black, p0.white, p1.black, p1.white, 0
	if pov != draughts.Black {
		// White sees square s as 31-s = s^31; the planes stay unrotated.
		own0, opp0, own1, opp1, flip = opp0, own0, opp1, own1, 31
	}
	kings0, kings1 := p0.kings, p1.kings
	// The four planes (own men, own kings, opponent's men, opponent's
	// kings) before and after.
	ownMen0, ownKings0, oppMen0, oppKings0 := own0&^kings0, own0&kings0, opp0&^kings0, opp0&kings0
	ownMen1, ownKings1, oppMen1, oppKings1 := own1&^kings1, own1&kings1, opp1&^kings1, opp1&kings1
	// Columns added: own pieces that appeared, opponent's that went away;
	// subtracted: own pieces that went away, opponent's that appeared. Each
	// (square, plane) change is one column in or out (a square may change
	// twice, say from an opponent's man to an own man across two moves), so
	// the sums are exact for any pair of positions, not only a move apart.
	plus := [4]uint32{ownMen1 &^ ownMen0, oppMen0 &^ oppMen1, ownKings1 &^ ownKings0, oppKings0 &^ oppKings1}
	minus := [4]uint32{ownMen0 &^ ownMen1, oppMen1 &^ oppMen0, ownKings0 &^ ownKings1, oppKings1 &^ oppKings0}
	changes := 0
	for i := range plus {
		changes += bits.OnesCount32(plus[i]) + bits.OnesCount32(minus[i])
	}
	if changes >= bits.OnesCount32(own1|opp1) {
		e.refresh(dst, p1, pov)
		return
	}
	// The columns, as kind*32 + square: changes < 32 here.
	var plusCols, minusCols [32]uint16
	np, nm := 0, 0
	for i := range plus {
		kind := i >> 1 * 32 // planes 0, 1 are men, 2, 3 kings
		for b := plus[i]; b != 0; b &= b - 1 {
			plusCols[np] = uint16(kind + (bits.TrailingZeros32(b) ^ flip))
			np++
		}
		for b := minus[i]; b != 0; b &= b - 1 {
			minusCols[nm] = uint16(kind + (bits.TrailingZeros32(b) ^ flip))
			nm++
		}
	}
	applyColumns(kernels32(), dst, src, e.cols, h1, plusCols[:np], minusCols[:nm])
}
