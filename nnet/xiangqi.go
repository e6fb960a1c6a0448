package nnet

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"evolved/game"
	"evolved/game/xiangqi"
)

// The xiangqi encoding.
//
// The net sees the board from one player's point of view (pov) as 1260
// one-hot inputs: input XiangqiInputIndex(side, pt, s) = side*630 + pt*90 +
// s is 1 when the point s holds a piece of type pt (xiangqi.General = 0,
// Advisor, Elephant, Horse, Chariot, Cannon, Soldier = 6) of side (0 =
// pov's own, 1 = the opponent's), and 0 otherwise. Points are numbered as
// in package xiangqi, rank*9+file, a1 = 0, b1 = 1 .. i10 = 89, on the board
// pov sees: as it is for Red, mirrored vertically for Black (rank r ->
// 9-r, the file kept: s -> s + 81 - 18*(s/9), so that e10, Black's
// general's start, becomes e1 and a7 becomes a4), so that the net always
// sees its own pieces start on the low ranks and its soldiers move up the
// board. The mirror, rather than a half turn, is the chess encoding's
// choice too; the start position is symmetric left to right, so either
// would do, and the mirror keeps the files' names. A position and its
// colour-flipped mirror image (ranks reversed, colours swapped) thus give
// the same inputs to the opposite players, bit for bit. The side to move
// and the clocks are not inputs.
//
// The value of a position for pov, in pawns (units of 100 of the classic
// program's scale, where a soldier is worth 70), positive when it is good
// for pov, is
//
//	material + XiangqiNetWeight*output [+ pst] [+ terms]
//
// where material = sum over advisor, elephant, horse, chariot, cannon and
// soldier of value[pt-1]*(pov's count - the opponent's count), with the
// net's piece values (see Net.XiangqiPieceValues; generals are not
// counted), and output in (-1, 1) is the net's: hidden layers of tanh
// nodes (1260-32-8-1, say; the caller chooses) and one tanh output node,
// which with PieceDiff also receives material through its direct weight.
// pst, with EvolvePST, is the piece-square balance with the net's tables
// (see XiangqiPSTIndex): pov's pieces add their tables' values, the
// opponent's subtract theirs, each piece seen from its own side. terms,
// with EvolveTerms, are the positional terms (see XiangqiTermNames). Random
// nets of small weights thus rank positions by material first (and the
// points of the pieces, with the classic tables), so generation 0 already
// plays sensibly, and the net learns the rest.

// NumXiangqiInputs is the number of inputs of a xiangqi net: 2 sides x 7
// piece types x 90 points.
const NumXiangqiInputs = 2 * 7 * xiangqi.Squares

// NumXiangqiPieceValues is the number of evolvable xiangqi piece values:
// advisor, elephant, horse, chariot, cannon and soldier, in the order of
// xiangqi.PieceType (the general is not counted).
const NumXiangqiPieceValues = 6

// XiangqiNetWeight is the weight of the net's output in a xiangqi
// evaluation: the net can move a position's value by less than
// XiangqiNetWeight pawns either way. It is a constant for the reason
// ChessNetWeight is: only its ratio to the evolving piece values matters.
const XiangqiNetWeight = 1.0

// ClassicXiangqiPieceValues returns the classic xiangqi piece values, by
// xiangqi.PieceType minus one (advisor .. soldier): advisor 1.1, elephant
// 1.1, horse 3, chariot 6, cannon 5, soldier 0.7, the classic program's
// strengths (110, 110, 300, 600, 500, 70) in units of 100, called pawns
// here as in chess. Xiangqi nets start from them (EvolvePieceValues) or
// keep them (without it).
func ClassicXiangqiPieceValues() [NumXiangqiPieceValues]float64 {
	return [NumXiangqiPieceValues]float64{1.1, 1.1, 3, 6, 5, 0.7}
}

// XiangqiSizes returns the layer sizes of a xiangqi net with the given
// hidden layers: NumXiangqiInputs, hidden..., 1.
func XiangqiSizes(hidden ...int) []int { return layerSizes(NumXiangqiInputs, hidden) }

// RandomXiangqi returns Random(XiangqiSizes(hidden...),
// flags|EvolvePieceValues, rng): a xiangqi net with small random weights
// and evolvable piece values that start at ClassicXiangqiPieceValues. For
// a xiangqi net whose piece values stay classic, call Random without
// EvolvePieceValues.
func RandomXiangqi(hidden []int, flags Flags, rng *rand.Rand) (*Net, error) {
	return randomWithPieceValues("xiangqi", XiangqiSizes(hidden...), flags, rng)
}

// XiangqiPieceValues returns the xiangqi piece values of n in pawns, by
// xiangqi.PieceType minus one (advisor .. soldier; see PieceValueIndex):
// the evolved ones with EvolvePieceValues, ClassicXiangqiPieceValues
// otherwise. Only a xiangqi net (NumXiangqiInputs inputs) has them:
// XiangqiPieceValues panics for any other, as a call with the wrong game
// is a bug.
func (n *Net) XiangqiPieceValues() [NumXiangqiPieceValues]float64 {
	if !n.isXiangqi() {
		panic(fmt.Sprintf("nnet: XiangqiPieceValues of a net with %d inputs, not %d", n.sizes[0], NumXiangqiInputs))
	}
	if n.flags&EvolvePieceValues == 0 {
		return ClassicXiangqiPieceValues()
	}
	return [NumXiangqiPieceValues]float64(n.pieceValues())
}

// WithXiangqiPieceValues returns a copy of n with the given xiangqi piece
// values (finite, by xiangqi.PieceType minus one, advisor .. soldier). n
// must be a xiangqi net with EvolvePieceValues; otherwise the error wraps
// ErrArchitecture.
func (n *Net) WithXiangqiPieceValues(v [NumXiangqiPieceValues]float64) (*Net, error) {
	if !n.isXiangqi() {
		return nil, fmt.Errorf("set xiangqi piece values: %w: %d inputs, want %d", ErrArchitecture, n.sizes[0], NumXiangqiInputs)
	}
	return n.withPieceValues(v[:])
}

// XiangqiInputIndex returns the index of the input that is 1 when point s,
// as pov sees it (mirrored for Black, see the encoding above), holds a
// piece of type pt (xiangqi.General .. xiangqi.Soldier) of side (0 =
// pov's own, 1 = the opponent's): side*630 + pt*90 + s.
func XiangqiInputIndex(side int, pt xiangqi.PieceType, s xiangqi.Square) int {
	return side*630 + int(pt)*xiangqi.Squares + int(s)
}

// xiangqiInput returns the index of the input that a piece of type pt and
// colour c on point s (as the board is) sets for pov. pt must be a piece.
func xiangqiInput(pt xiangqi.PieceType, c game.Player, s int, pov game.Player) int {
	pov &= 1
	view := s + int(pov)*(81-18*(s/xiangqi.Files)) // rank r -> 9-r for Black
	return int((c^pov)&1)*630 + int(pt)*xiangqi.Squares + view
}

// XiangqiInputs appends the 1260 inputs of p from pov's point of view to
// dst and returns the extended slice. It is the plain definition of the
// encoding; evaluators use the sparse form.
func XiangqiInputs(dst []float64, p xiangqi.Position, pov game.Player) []float64 {
	start := len(dst)
	dst = append(dst, make([]float64, NumXiangqiInputs)...)
	in := dst[start:]
	for s := range xiangqi.Squares {
		if pt, c := p.PieceAt(xiangqi.Square(s)); pt != xiangqi.NoPieceType {
			in[xiangqiInput(pt, c, s, pov)] = 1
		}
	}
	return dst
}

// XiangqiMaterial returns the material balance of p from pov's point of
// view in pawns with the piece values v (by xiangqi.PieceType minus one,
// advisor .. soldier): the sum of v[pt-1]*(pov's count - the opponent's
// count), summed from advisor to soldier as float64(v[pt-1]*float64(diff)),
// the same in every path.
func XiangqiMaterial(p xiangqi.Position, pov game.Player, v [NumXiangqiPieceValues]float64) float64 {
	var b xiangqiBoard
	b.read(&p)
	return b.balance.material(pov, &v)
}

// xiangqiBalance counts pieces by xiangqi.PieceType: Red's count minus
// Black's. Generals are counted too, and NoPieceType has a slot (always 0),
// so that counting needs no bounds check; material ignores both.
type xiangqiBalance [8]int8

// material returns the material balance for pov with the piece values v:
// the sum from advisor to soldier of float64(v[pt-1]*float64(diff)), diff
// being pov's count minus the opponent's.
func (b *xiangqiBalance) material(pov game.Player, v *[NumXiangqiPieceValues]float64) float64 {
	sign := 1 - 2*int(pov&1)
	m := 0.0
	for i := range v {
		m += float64(v[i] * float64(sign*int(b[i+1])))
	}
	return m
}

// xiangqiBoard is what the evaluators read of a position: its points
// packed eight to a word, point s in byte s%8 of word s/8 (0 when empty,
// otherwise the piece type plus one in bits 0..2 and the colour in bit 3),
// so that two boards compare a word at a time and the pieces are walked
// without visiting empty points; and the piece counts that the material
// needs. xiangqi.Position offers no bitboards, only PieceAt, so reading
// one costs 90 calls of PieceAt; the accumulator reads each position once,
// however often it is compared.
type xiangqiBoard struct {
	cells   [(xiangqi.Squares + 7) / 8]uint64
	balance xiangqiBalance // Red's count minus Black's, by piece type
	pieces  int            // the number of pieces on the board
}

// read sets b from p.
func (b *xiangqiBoard) read(p *xiangqi.Position) {
	*b = xiangqiBoard{}
	for s := range xiangqi.Squares {
		pt, c := p.PieceAt(xiangqi.Square(s))
		if pt == xiangqi.NoPieceType {
			continue
		}
		b.cells[s>>3] |= uint64(uint8(pt+1)|uint8(c&1)<<3) << (8 * (s & 7))
		b.balance[pt&7] += int8(1 - 2*int(c&1))
		b.pieces++
	}
}

// play sets b to the board after the piece on point from moved to point
// to, taking what was there, as xiangqi.Position.Play plays a move.
func (b *xiangqiBoard) play(from, to int) {
	k, y := b.cell(from), b.cell(to)
	b.cells[from>>3] &^= 0xff << (8 * (from & 7))
	b.cells[to>>3] = b.cells[to>>3]&^(0xff<<(8*(to&7))) | uint64(k)<<(8*(to&7))
	if y != 0 {
		b.balance[y&7-1] -= int8(1 - 2*int(y>>3))
		b.pieces--
	}
}

// cell returns the byte of point s.
func (b *xiangqiBoard) cell(s int) uint8 { return uint8(b.cells[s>>3] >> (8 * (s & 7))) }

// xiangqiCellInput returns the index of the input that the board byte k
// (not 0) on point s sets for pov.
func xiangqiCellInput(k uint8, s int, pov game.Player) int {
	return xiangqiInput(xiangqi.PieceType(k&7-1), game.Player(k>>3), s, pov)
}

// XiangqiEval evaluates xiangqi positions with one net. It is built once
// per net and is immutable: any number of goroutines may share it.
// Evaluate works from scratch; a XiangqiAccumulator (one per search)
// evaluates incrementally and gives bit-identical values.
//
// The first layer's pre-activation is the sum of the weight columns of the
// active inputs (at most 32 of the 1260) plus the biases. The columns are
// int32 multiples of a unit per node, exactly as ChessEval's are, so that
// every sum of a subset of them is exact: the order of the additions and
// subtractions does not matter, and an accumulator updated along any path
// holds exactly the sums a from-scratch evaluation computes. The rest of
// the net runs in float32 (see head). The tests check whole evaluations
// against the plain float64 computation (XiangqiInputs and Net.Forward).
type XiangqiEval struct {
	sparseLayer
	values [NumXiangqiPieceValues]float64
	terms  []float64 // with EvolveTerms, each feature count's value in pawns
}

// NewXiangqiEval builds the evaluator of n, which must have
// NumXiangqiInputs inputs and one output; otherwise the error wraps
// ErrArchitecture. The evaluator keeps its own copy of n.
//
// With Perspective, the net is the quantized PerspectiveNet of
// n.Perspective, whose value for the side to move (centipawns, negated
// for the other side's point of view) takes the tanh net's place, as in
// ChessEval.
func NewXiangqiEval(n *Net) (*XiangqiEval, error) {
	l, err := newSparseLayer(n, "xiangqi", NumXiangqiInputs, xiangqi.Squares, xiangqiPSTEntry)
	if err != nil {
		return nil, err
	}
	return &XiangqiEval{sparseLayer: l, values: l.net.XiangqiPieceValues(), terms: xiangqiTermValues(l.net)}, nil
}

// xiangqiPSTEntry is the tables' channel entry of input i (see
// withBalanceChannel) with the xiangqi tables t: input (side, pt, s) adds
// t[pt][s] for pov's own piece (side 0) and subtracts the value of the
// mirrored point for the opponent's (side 1), which sees the board from
// its side.
func xiangqiPSTEntry(t []float64, i int) float64 {
	side, pt, s := i/630, i%630/xiangqi.Squares, i%xiangqi.Squares
	if side == 0 {
		return t[pt*xiangqi.Squares+s]
	}
	return -t[pt*xiangqi.Squares+s+81-18*(s/xiangqi.Files)] // rank r -> 9-r
}

// Net returns the evaluator's copy of the net. It must not be modified.
func (e *XiangqiEval) Net() *Net { return e.net }

// PieceValues returns the piece values the evaluator counts material with
// (see Net.XiangqiPieceValues).
func (e *XiangqiEval) PieceValues() [NumXiangqiPieceValues]float64 { return e.values }

// Evaluate returns the value of p from pov's point of view in pawns,
// positive when p is good for pov (see the encoding above), computed from
// scratch. It does not allocate for nets whose layers after the inputs
// have at most 64 nodes.
func (e *XiangqiEval) Evaluate(p xiangqi.Position, pov game.Player) float64 {
	var arr [2 * 64]float32
	var sums [66]int32
	buf, acc := e.scratch(&arr, &sums)
	b := e.scan(acc, &p, pov)
	persp := 0
	if e.persp != nil {
		persp = e.persp.EvaluateXiangqi(&p)
	}
	return e.value(acc, &b, &p, pov, buf, persp)
}

// scan sets acc to the first-layer sums (biases excluded) of p from pov's
// point of view, with the tables' channel if any, as refresh does from p's
// board, and returns p's piece counts: one pass over the points, faster
// than reading the board first when nothing else needs it.
func (e *XiangqiEval) scan(acc []int32, p *xiangqi.Position, pov game.Player) xiangqiBalance {
	clear(acc)
	stride := e.stride
	var b xiangqiBalance
	for s := range xiangqi.Squares {
		pt, c := p.PieceAt(xiangqi.Square(s))
		if pt == xiangqi.NoPieceType {
			continue
		}
		off := xiangqiInput(pt, c, s, pov) * stride
		addCols(acc, acc, e.cols[off:off+stride])
		b[pt&7] += int8(1 - 2*int(c&1))
	}
	return b
}

// refresh sets acc to the first-layer sums (biases excluded) of the board
// b from pov's point of view, with the tables' channel if any.
func (e *XiangqiEval) refresh(acc []int32, b *xiangqiBoard, pov game.Player) {
	clear(acc)
	stride := e.stride
	for w, x := range b.cells {
		for x != 0 {
			shift := bits.TrailingZeros64(x) &^ 7 // the lowest occupied point's byte
			off := xiangqiCellInput(uint8(x>>shift), w*8+shift>>3, pov) * stride
			addCols(acc, acc, e.cols[off:off+stride])
			x &^= 0xff << shift
		}
	}
}

// value finishes an evaluation of p for pov from the first-layer sums acc
// (and the tables' channel, acc[h1], with EvolvePST) and the piece counts
// b: material + XiangqiNetWeight*output [+ pst] [+ terms], using the first
// 2*e.width floats of buf as scratch. With Perspective, persp is the
// perspective net's value of p for its side to move, in centipawns, which
// takes the output's place (negated for the other side).
func (e *XiangqiEval) value(acc []int32, b *xiangqiBalance, p *xiangqi.Position, pov game.Player, buf []float32, persp int) float64 {
	m := b.material(pov, &e.values)
	var v float64
	if e.persp != nil {
		v = m + perspectiveValue(persp, p.Side(), pov)
	} else {
		v = m + float64(XiangqiNetWeight*e.output(acc, m, buf))
	}
	if e.stride > e.h1 {
		v += float64(float64(acc[e.h1]) * e.balanceUnit)
	}
	if e.terms != nil {
		v += xiangqiTermsValue(p, pov, e.terms)
	}
	return v
}

// xiangqiPly is an entry of a XiangqiAccumulator's stack: the position
// (the game's, or the accumulator's copy), the move that led to it from
// the ply below if it was pushed with PushMove or PushPlayed, and its
// board once hasBoard is set (always, once the ply has sums for either
// point of view).
type xiangqiPly struct {
	pos      *xiangqi.Position
	move     xiangqi.Move // xiangqi.NoMove when pushed with Push, or for a pass
	hasBoard bool
	board    xiangqiBoard
}

// XiangqiAccumulator evaluates the positions along a search path
// incrementally, as NNUE engines do, exactly as ChessAccumulator does for
// chess: one entry per ply holding the position and, for each point of
// view, the first layer's sums. Push, PushMove and PushPlayed only record
// a position; Evaluate computes the sums of the current ply for the
// requested point of view, lazily, from the nearest ancestor that has
// them, first bringing the parent up to date (so that its other children
// start one move away). A step compares the two positions' boards (see xiangqiBoard), eight
// points at a time, and adds the columns of the inputs that appeared and
// subtracts those that went away (two for a quiet move, three for a
// capture), or sums from scratch when that is cheaper. The results are
// bit-identical to XiangqiEval.Evaluate.
//
// The boards cost most of an update: xiangqi.Position offers only PieceAt,
// so the board of a position recorded by Push is read point by point, 90
// calls, once per position however often it is compared. The board of a
// position recorded by PushMove follows instead from its parent's and the
// move's two points, which is about twice as fast overall (see
// BenchmarkXiangqiEvaluateIncremental): a search that knows its moves
// should use PushMove, or, when it plays them on a xiangqi.Game,
// PushPlayed, which keeps the game's position instead of playing the move
// again on a copy.
//
// A XiangqiAccumulator belongs to one search (one goroutine); many may
// share one XiangqiEval. It allocates its stack once, for 128 plies, and
// grows it only if a search goes deeper; Reset, Push, PushMove,
// PushPlayed, Pop and Evaluate do not allocate otherwise.
//
// With a Perspective net, a second stack of int16 sums beside it keeps the
// net's sums of the same plies, from the same boards, and the first one's
// sums hold only the tables' channel.
type XiangqiAccumulator struct {
	stack[xiangqiPly, int32]
	own   copies[xiangqi.Position] // what Reset, Push and PushMove record
	e     *XiangqiEval
	buf   []float32           // scratch for XiangqiEval.output
	persp *xiangqiPerspective // with Perspective, the net's sums; nil otherwise
}

// xiangqiPerspective is the perspective net's part of a
// XiangqiAccumulator: per ply of the accumulator's stack, both points of
// view's int16 sums, computed for both at once from the plies' boards.
type xiangqiPerspective struct {
	stack[struct{}, int16]
	a *XiangqiAccumulator
	q *QuantizedPerspective
}

// NewAccumulator returns an accumulator for searches with e. Call Reset
// before anything else.
func (e *XiangqiEval) NewAccumulator() *XiangqiAccumulator {
	a := &XiangqiAccumulator{stack: newStack[xiangqiPly, int32](e.stride), e: e, buf: make([]float32, 2*e.width)}
	if e.persp != nil {
		a.persp = &xiangqiPerspective{stack: newStack[struct{}, int16](e.persp.hidden), a: a, q: e.persp}
	}
	return a
}

// Eval returns the evaluation a sums for: a search of several threads
// makes each of them an accumulator of its own from it.
func (a *XiangqiAccumulator) Eval() *XiangqiEval { return a.e }

// Reset empties the stack and makes p its root, computing its sums for
// both points of view.
func (a *XiangqiAccumulator) Reset(p xiangqi.Position) {
	a.top = 0
	a.pos[0] = xiangqiPly{pos: a.own.keep(0, len(a.pos), p)}
	b := a.board(0)
	for pov := xiangqi.Red; pov <= xiangqi.Black; pov++ {
		a.e.refresh(a.sums(0, pov), b, pov)
	}
	a.done[0] = 3
	if p := a.persp; p != nil {
		p.top = 0
		for pov := xiangqi.Red; pov <= xiangqi.Black; pov++ {
			p.q.refreshBoard(p.sums(0, pov), b, pov)
		}
		p.done[0] = 3
	}
}

// Push records p, the position after a move from the current one (or any
// position: updates are exact between any two), as the new current
// position. It computes nothing (see Evaluate).
func (a *XiangqiAccumulator) Push(p xiangqi.Position) {
	ply := a.next()
	ply.pos, ply.move, ply.hasBoard = a.own.keep(a.top, len(a.pos), p), xiangqi.NoMove, false
	if a.persp != nil {
		a.persp.next()
	}
}

// PushMove records the position after m, which must be legal in the
// current position (as for xiangqi.Position.Play), as the new current
// position: it is Push(Position().Play(m)), only faster to evaluate. m
// NoMove is a pass, what xiangqi.Game.LastMove returns after MakeNull:
// Push(Position().PlayNull()). It plays m but computes nothing else (see
// Evaluate).
func (a *XiangqiAccumulator) PushMove(m xiangqi.Move) {
	var p xiangqi.Position
	if m == xiangqi.NoMove {
		p = a.pos[a.top].pos.PlayNull()
	} else {
		p = a.pos[a.top].pos.Play(m)
	}
	a.PushPlayed(a.own.keep(a.top+1, len(a.pos), p), m)
}

// PushPlayed is PushMove(m) for a search that has played m itself: p is
// the position after m, which it records without a copy, so p must not
// change until it is popped, as xiangqi.Game.Current's positions do not
// while their move is on the board.
func (a *XiangqiAccumulator) PushPlayed(p *xiangqi.Position, m xiangqi.Move) {
	ply := a.next()
	ply.pos, ply.move, ply.hasBoard = p, m, false
	if a.persp != nil {
		a.persp.next()
	}
}

// Pop takes back the last Push, PushMove or PushPlayed. It panics if there
// is none since the last Reset.
func (a *XiangqiAccumulator) Pop() {
	a.pop("XiangqiAccumulator")
	if a.persp != nil {
		a.persp.pop("XiangqiAccumulator")
	}
}

// Ply returns the number of positions pushed since the last Reset and not popped.
func (a *XiangqiAccumulator) Ply() int { return a.top }

// Position returns the current position.
func (a *XiangqiAccumulator) Position() xiangqi.Position { return *a.pos[a.top].pos }

// Evaluate returns the value of the current position from pov's point of
// view in pawns, exactly as XiangqiEval.Evaluate would.
func (a *XiangqiAccumulator) Evaluate(pov game.Player) float64 {
	pov &= 1
	if a.done[a.top]&(1<<pov) == 0 {
		update(&a.stack, a, pov)
	}
	persp := 0
	if p := a.persp; p != nil {
		for v := xiangqi.Red; v <= xiangqi.Black; v++ { // a step computes both, a refresh one
			if p.done[p.top]&(1<<v) == 0 {
				update(&p.stack, p, v)
			}
		}
		side := a.pos[a.top].pos.Side()
		persp = p.q.value(p.sums(p.top, side), p.sums(p.top, side^1))
	}
	return a.e.value(a.sums(a.top, pov), &a.pos[a.top].board.balance, a.pos[a.top].pos, pov, a.buf, persp)
}

// refresh sums the current ply from scratch for pov (for update, which
// calls it only for the current ply, and only before any Reset).
func (p *xiangqiPerspective) refresh(dst []int16, _ *struct{}, pov game.Player) {
	p.q.refreshBoard(dst, p.a.board(p.top), pov)
}

// step computes the sums of ply to from those of ply from for both points
// of view, as PerspectiveAccumulator.step does for chess: the features
// that changed are found once, from Red's point of view, and mirrored for
// Black's.
func (p *xiangqiPerspective) step(from, to int, _ game.Player) {
	p.done[to] = 3
	b0, b1 := p.a.board(from), p.a.board(to)
	var plus, minus [2][32]uint16
	np, nm := xiangqiChanges(b0, b1, xiangqi.Red, &plus[0], &minus[0])
	if np+nm > 3 && np+nm >= b1.pieces {
		for pov := xiangqi.Red; pov <= xiangqi.Black; pov++ {
			p.q.refreshBoard(p.sums(to, pov), b1, pov)
		}
		return
	}
	stepViews(&p.stack, p.q.features, from, to, &plus, &minus, np, nm, xiangqiOtherView)
}

// xiangqiOtherView returns the feature that the feature f of one point of
// view is for the other: the same piece, of the other side, on the point
// mirrored rank for rank.
func xiangqiOtherView(f uint16) uint16 {
	side, rest := f/630, f%630
	v := rest % xiangqi.Squares
	v = v + 81 - 18*(v/xiangqi.Files)
	return (1-side)*630 + rest - rest%xiangqi.Squares + v
}

// board returns the board of ply i, first reading it from the position,
// or deriving it from the board below (itself derived or read first) and
// the move that PushMove recorded.
func (a *XiangqiAccumulator) board(i int) *xiangqiBoard {
	j := i
	for j > 0 && !a.pos[j].hasBoard && a.pos[j].move != xiangqi.NoMove {
		j--
	}
	if ply := &a.pos[j]; !ply.hasBoard {
		ply.board.read(ply.pos)
		ply.hasBoard = true
	}
	for j < i {
		j++
		ply := &a.pos[j]
		ply.board = a.pos[j-1].board
		ply.board.play(int(ply.move.From()), int(ply.move.To()))
		ply.hasBoard = true
	}
	return &a.pos[i].board
}

// refresh sums ply from scratch for pov (for update, which calls it only
// for the current ply, and only before any Reset).
func (a *XiangqiAccumulator) refresh(dst []int32, _ *xiangqiPly, pov game.Player) {
	a.e.refresh(dst, a.board(a.top), pov)
}

// step computes the sums of ply to from those of ply from for pov, and
// marks them done.
func (a *XiangqiAccumulator) step(from, to int, pov game.Player) {
	a.done[to] |= 1 << pov
	e := a.e
	width := a.h1 // the sums' width: the stride of e's columns
	dst, src := a.sums(to, pov), a.sums(from, pov)
	b0, b1 := &a.pos[from].board, a.board(to) // from has sums, hence a board
	var plusCols, minusCols [32]uint16
	np, nm := xiangqiChanges(b0, b1, pov, &plusCols, &minusCols)
	// A move changes at most three inputs; beyond that, sum from scratch
	// if it is cheaper.
	if np+nm > 3 && np+nm >= b1.pieces {
		e.refresh(dst, b1, pov)
		return
	}
	applyColumns(kernels32(), dst, src, e.cols, width, plusCols[:np], minusCols[:nm])
}

// xiangqiChanges writes the inputs (from pov's point of view) that appear
// from board b0 to board b1 into plus and those that go away into minus,
// and returns how many of each. Each point whose content differs is one
// input out (the piece it held, if any) and one in (the piece it holds,
// if any), so sums updated with them are exact for any pair of boards,
// not only a move apart. np <= 32 and nm <= 32: they count pieces of b1
// and of b0.
func xiangqiChanges(b0, b1 *xiangqiBoard, pov game.Player, plus, minus *[32]uint16) (np, nm int) {
	for w := range b0.cells {
		x0, x1 := b0.cells[w], b1.cells[w]
		for d := x0 ^ x1; d != 0; {
			shift := bits.TrailingZeros64(d) &^ 7 // the lowest changed point's byte
			s := w*8 + shift>>3
			if k := uint8(x0 >> shift); k != 0 {
				minus[nm&31] = uint16(xiangqiCellInput(k, s, pov))
				nm++
			}
			if k := uint8(x1 >> shift); k != 0 {
				plus[np&31] = uint16(xiangqiCellInput(k, s, pov))
				np++
			}
			d &^= 0xff << shift
		}
	}
	return np, nm
}
