package nnet

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"evolved/game"
	"evolved/game/chess"
)

// The chess encoding.
//
// The net sees the board from one player's point of view (pov) as 768
// one-hot inputs: input ChessInputIndex(side, pt, s) = side*384 + pt*64 + s
// is 1 when the square s holds a piece of type pt (chess.Pawn = 0 ..
// chess.King = 5) of side (0 = pov's own, 1 = the opponent's), and 0
// otherwise. Squares are numbered as in package chess, a1 = 0, b1 = 1 ..
// h8 = 63, on the board pov sees: as it is for White, mirrored vertically
// for Black (square s -> s^56: a8 becomes a1, the ranks reversed, the
// files kept), so that the net always sees its own pieces start on the low
// ranks and its pawns move up the board. A position and its colour-flipped
// mirror image thus give the same inputs to the opposite players, bit for
// bit. The other state (side to move, castling rights, en passant, clocks)
// is not an input.
//
// The value of a position for pov, in pawns, positive when it is good for
// pov, is
//
//	material + ChessNetWeight*output [+ pst] [+ terms]
//
// where material = sum over pawn, knight, bishop, rook and queen of
// value[pt]*(pov's count - the opponent's count), with the net's piece
// values (see Net.PieceValues; kings are not counted), and output in
// (-1, 1) is the net's: hidden layers of tanh nodes (768-32-8-1, say; the
// caller chooses) and one tanh output node, which with PieceDiff also
// receives material through its direct weight; pst, with EvolvePST, is the
// piece-square balance with the net's tables (see EvolvePST), and terms,
// with EvolveTerms, the positional terms (see ChessTermNames). Random nets of small
// weights thus rank positions by material first, so generation 0 already
// plays sensibly, and the net learns the rest.

// NumChessInputs is the number of inputs of a chess net.
const NumChessInputs = 2 * 6 * 64

// NumPieceValues is the number of evolvable chess piece values: pawn,
// knight, bishop, rook and queen, in the order of chess.PieceType.
const NumPieceValues = 5

// ChessNetWeight is the weight of the net's output in a chess evaluation:
// the net can move a position's value by less than ChessNetWeight pawns
// either way. It is a constant rather than evolvable because only the ratio
// of the piece values to it matters to a search (draws score 0 either way),
// and the piece values evolve: piece values that shrink give the net more
// say.
const ChessNetWeight = 1.0

// ClassicPieceValues returns the classic piece values in pawns, by
// chess.PieceType: pawn 1, knight 3, bishop 3, rook 5, queen 9. Chess nets
// start from them (EvolvePieceValues) or keep them (without it).
func ClassicPieceValues() [NumPieceValues]float64 {
	return [NumPieceValues]float64{1, 3, 3, 5, 9}
}

// ChessSizes returns the layer sizes of a chess net with the given hidden
// layers: NumChessInputs, hidden..., 1.
func ChessSizes(hidden ...int) []int { return layerSizes(NumChessInputs, hidden) }

// RandomChess returns Random(ChessSizes(hidden...), flags|EvolvePieceValues,
// rng): a chess net with small random weights and evolvable piece values
// that start at ClassicPieceValues. For a chess net whose piece values stay
// classic, call Random without EvolvePieceValues.
func RandomChess(hidden []int, flags Flags, rng *rand.Rand) (*Net, error) {
	return randomWithPieceValues("chess", ChessSizes(hidden...), flags, rng)
}

// layerSizes returns the layer sizes of a net of a game with inputs
// inputs and the given hidden layers: inputs, hidden..., 1.
func layerSizes(inputs int, hidden []int) []int {
	sizes := make([]int, 0, len(hidden)+2)
	sizes = append(sizes, inputs)
	sizes = append(sizes, hidden...)
	return append(sizes, 1)
}

// randomWithPieceValues returns Random(sizes, flags|EvolvePieceValues,
// rng), its error naming the game's net: RandomChess and RandomXiangqi.
func randomWithPieceValues(game string, sizes []int, flags Flags, rng *rand.Rand) (*Net, error) {
	n, err := Random(sizes, flags|EvolvePieceValues, rng)
	if err != nil {
		return nil, fmt.Errorf("random %s net: %w", game, err)
	}
	return n, nil
}

// PieceValueIndex returns the storage index of the piece value number i
// of n's game, the last weights: i is the chess.PieceType for chess (0 =
// pawn .. 4 = queen), the xiangqi.PieceType minus one for xiangqi (0 =
// advisor .. 5 = soldier). It is meaningful only with EvolvePieceValues.
func (n *Net) PieceValueIndex(i int) int {
	return len(n.w) - pieceValueCount(n.sizes[0]) + i
}

// PieceValues returns the chess piece values of n in pawns, by
// chess.PieceType (pawn .. queen): the evolved ones with EvolvePieceValues,
// ClassicPieceValues otherwise. A xiangqi net has no chess piece values:
// PieceValues panics for one, as a call with the wrong game is a bug (see
// XiangqiPieceValues).
func (n *Net) PieceValues() [NumPieceValues]float64 {
	if n.isXiangqi() {
		panic("nnet: PieceValues of a xiangqi net (use XiangqiPieceValues)")
	}
	if n.flags&EvolvePieceValues == 0 {
		return ClassicPieceValues()
	}
	return [NumPieceValues]float64(n.pieceValues())
}

// WithPieceValues returns a copy of n with the given chess piece values
// (finite, by chess.PieceType, pawn .. queen). n must have
// EvolvePieceValues and not be a xiangqi net; otherwise the error wraps
// ErrArchitecture.
func (n *Net) WithPieceValues(v [NumPieceValues]float64) (*Net, error) {
	if n.isXiangqi() {
		return nil, fmt.Errorf("set piece values: %w: a xiangqi net (%d inputs) has no chess piece values", ErrArchitecture, n.sizes[0])
	}
	return n.withPieceValues(v[:])
}

// withPieceValues returns a copy of n with its piece values set to v,
// which has pieceValueCount of them. n must have EvolvePieceValues;
// otherwise the error wraps ErrArchitecture.
func (n *Net) withPieceValues(v []float64) (*Net, error) {
	if n.flags&EvolvePieceValues == 0 {
		return nil, fmt.Errorf("set piece values: %w: flags %v lack %v", ErrArchitecture, n.flags, EvolvePieceValues)
	}
	c := n.Clone()
	copy(c.pieceValues(), v)
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("set piece values: %w", err)
	}
	return c, nil
}

// ChessInputIndex returns the index of the input that is 1 when square s,
// as pov sees it (mirrored for Black, see the encoding above), holds a
// piece of type pt (chess.Pawn .. chess.King) of side (0 = pov's own, 1 =
// the opponent's): side*384 + pt*64 + s.
func ChessInputIndex(side int, pt chess.PieceType, s chess.Square) int {
	return side*384 + int(pt)*64 + int(s)
}

// chessFlip returns what pov's view xors into a square: 0 for White, 56
// (the vertical mirror) for Black.
func chessFlip(pov game.Player) int { return int(pov&1) * 56 }

// ChessInputs appends the 768 inputs of p from pov's point of view to dst
// and returns the extended slice. It is the plain definition of the
// encoding; evaluators use the sparse form.
func ChessInputs(dst []float64, p chess.Position, pov game.Player) []float64 {
	start := len(dst)
	dst = append(dst, make([]float64, NumChessInputs)...)
	in := dst[start:]
	flip := chessFlip(pov)
	for side, c := range [2]game.Player{pov & 1, pov&1 ^ 1} {
		for pt := chess.Pawn; pt <= chess.King; pt++ {
			for b := uint64(p.Pieces(c, pt)); b != 0; b &= b - 1 {
				s := bits.TrailingZeros64(b) ^ flip
				in[ChessInputIndex(side, pt, chess.Square(s))] = 1
			}
		}
	}
	return dst
}

// ChessMaterial returns the material balance of p from pov's point of view
// in pawns with the piece values v (by chess.PieceType, pawn .. queen):
// the sum of v[pt]*(pov's count - the opponent's count), summed from pawn
// to queen as float64(v[pt]*float64(diff)), the same in every path.
func ChessMaterial(p chess.Position, pov game.Player, v [NumPieceValues]float64) float64 {
	return chessMaterial(&p, pov, &v)
}

// chessMaterial is ChessMaterial on pointers.
func chessMaterial(p *chess.Position, pov game.Player, v *[NumPieceValues]float64) float64 {
	m := 0.0
	for pt := chess.Pawn; pt <= chess.Queen; pt++ {
		d := bits.OnesCount64(uint64(p.Pieces(pov, pt))) - bits.OnesCount64(uint64(p.Pieces(pov^1, pt)))
		m += float64(v[pt] * float64(d))
	}
	return m
}

// ChessEval evaluates chess positions with one net. It is built once per
// net and is immutable: any number of goroutines may share it. Evaluate
// works from scratch; a ChessAccumulator (one per search) evaluates
// incrementally and gives bit-identical values.
//
// The first layer's pre-activation is the sum of the weight columns of the
// active inputs (at most 32 of the 768) plus the biases. As in DraughtsEval,
// the columns are stored as int32 multiples of a unit per node h, the
// columnUnit of the sum over the squares of the largest |column[h]| of the
// twelve inputs of the square, which bounds every sum an accumulator holds
// (a sum over the active inputs, at most one per square): every
// addition and subtraction is exact int32 arithmetic, the order does not
// matter, and an accumulator updated along any path holds exactly the sums
// a from-scratch evaluation computes. The rest of the net runs in float32
// (see head). Each column is off by at most 2^-30 of its node's bound; the
// tests check whole evaluations against the plain float64 computation
// (ChessInputs and Net.Forward).
type ChessEval struct {
	sparseLayer
	values [NumPieceValues]float64
	terms  []float64 // with EvolveTerms, each feature count's value in pawns (with TaperedTerms, the middlegame's then the endgame's)
	nterms int       // the number of terms
}

// NewChessEval builds the evaluator of n, which must have NumChessInputs
// inputs and one output; otherwise the error wraps ErrArchitecture. The
// evaluator keeps its own copy of n.
//
// With Perspective, the net is the quantized PerspectiveNet of
// n.Perspective, whose value for the side to move (centipawns, negated
// for the other side's point of view) takes the tanh net's place.
func NewChessEval(n *Net) (*ChessEval, error) {
	l, err := newSparseLayer(n, "chess", NumChessInputs, 64, chessPSTEntry)
	if err != nil {
		return nil, err
	}
	return &ChessEval{sparseLayer: l, values: l.net.PieceValues(), terms: chessTermValues(l.net), nterms: l.net.TermCount()}, nil
}

// chessPSTEntry is the tables' channel entry of input i (see
// withBalanceChannel) with the chess tables t: input (side, pt, s) adds
// t[pt][s] for pov's own piece (side 0) and subtracts the value of the
// mirrored square for the opponent's (side 1), which sees the board from
// its side.
func chessPSTEntry(t []float64, i int) float64 {
	side, pt, s := i/384, i%384/64, i%64
	if side == 0 {
		return t[PSTIndex(pt, s)]
	}
	return -t[PSTIndex(pt, s^56)]
}

// Net returns the evaluator's copy of the net. It must not be modified.
func (e *ChessEval) Net() *Net { return e.net }

// PieceValues returns the piece values the evaluator counts material with
// (see Net.PieceValues).
func (e *ChessEval) PieceValues() [NumPieceValues]float64 { return e.values }

// Evaluate returns the value of p from pov's point of view in pawns,
// positive when p is good for pov (see the encoding above), computed from
// scratch. It does not allocate for nets whose layers after the inputs
// have at most 64 nodes.
func (e *ChessEval) Evaluate(p chess.Position, pov game.Player) float64 {
	var arr [2 * 64]float32
	var sums [66]int32
	buf, acc := e.scratch(&arr, &sums)
	e.refresh(acc, &p, pov)
	persp := 0
	if e.persp != nil {
		persp = e.persp.Evaluate(&p)
	}
	return e.value(acc, &p, pov, buf, persp)
}

// refresh sets acc to the first-layer sums (biases excluded) of p from
// pov's point of view, with the tables' channel if any.
func (e *ChessEval) refresh(acc []int32, p *chess.Position, pov game.Player) {
	clear(acc)
	stride, flip := e.stride, chessFlip(pov)
	for side, c := range [2]game.Player{pov & 1, pov&1 ^ 1} {
		for pt := chess.Pawn; pt <= chess.King; pt++ {
			base := side*384 + int(pt)*64
			for b := uint64(p.Pieces(c, pt)); b != 0; b &= b - 1 {
				off := (base + (bits.TrailingZeros64(b) ^ flip)) * stride
				addCols(acc, acc, e.cols[off:off+stride])
			}
		}
	}
}

// value finishes an evaluation of p for pov from its first-layer sums acc
// (and the tables' channels, acc[h1] and with TaperedTables acc[h1+1],
// with EvolvePST): material + ChessNetWeight*output [+ pst] [+ terms],
// using the first 2*e.width floats of buf as scratch. With Perspective,
// persp is the perspective net's value of p for its side to move, in
// centipawns, which takes the output's place (negated for the other side).
func (e *ChessEval) value(acc []int32, p *chess.Position, pov game.Player, buf []float32, persp int) float64 {
	m := chessMaterial(p, pov, &e.values)
	var v float64
	if e.persp != nil {
		v = m + perspectiveValue(persp, p.Side(), pov)
	} else {
		v = m + float64(ChessNetWeight*e.output(acc, m, buf))
	}
	switch e.stride - e.h1 {
	case 1:
		v += float64(float64(acc[e.h1]) * e.balanceUnit)
	case 2: // the tables tapered
		v += taper(float64(float64(acc[e.h1])*e.balanceUnit), float64(float64(acc[e.h1+1])*e.endgameUnit), chessPhase(p))
	}
	if e.terms != nil {
		v += chessTermsValue(p, pov, e.terms, e.nterms)
	}
	return v
}

// ChessAccumulator evaluates the positions along a search path
// incrementally, as NNUE engines do, exactly as DraughtsAccumulator does
// for draughts: one entry per ply holding the position (a pointer to it)
// and, for each point of view, the first layer's sums. Push and PushRef
// only record a position; Evaluate computes the sums of the current ply
// for the requested point of view, lazily, from the nearest ancestor that
// has them, first bringing the parent up to date (so that its other
// children start one move away). A step adds the columns of the inputs
// that appeared and subtracts those that went away, found on the squares
// whose content changed (chess.Position.Changed: two inputs for a quiet
// move, three for a capture, en passant or promotion, four for castling
// or a capturing promotion), or sums from scratch when that is cheaper.
// The results are bit-identical to ChessEval.Evaluate; the material is
// recounted from the position each time (ten popcounts), so it is
// identical too.
//
// A search that plays its moves on a chess.Game records the game's own
// positions with PushRef (chess.Game.Current): a pointer instead of a copy
// of 88 bytes a node, read just after Make wrote it, which stalls the
// copy's loads (store forwarding fails on the wide moves).
//
// A ChessAccumulator belongs to one search (one goroutine); many may share
// one ChessEval. It allocates its stack once, for 128 plies, and grows it
// only if a search goes deeper; Reset, Push, PushRef, Pop and Evaluate
// do not allocate otherwise.
//
// With a Perspective net, a PerspectiveAccumulator beside it keeps the
// net's sums on the same positions, and the stack's own sums hold only the
// tables' channels.
type ChessAccumulator struct {
	chessPath[int32]
	e     *ChessEval
	buf   []float32               // scratch for ChessEval.output
	persp *PerspectiveAccumulator // with Perspective, the net's sums; nil otherwise
}

// chessPath is the storage of a chess accumulator (ChessAccumulator,
// PerspectiveAccumulator): the stack of pointers to the positions, with
// sums of type A, and the copies that Reset and Push record.
type chessPath[A lane] struct {
	stack[*chess.Position, A]
	own copies[chess.Position]
}

// NewAccumulator returns an accumulator for searches with e. Call Reset
// before anything else.
func (e *ChessEval) NewAccumulator() *ChessAccumulator {
	a := &ChessAccumulator{chessPath: chessPath[int32]{stack: newStack[*chess.Position, int32](e.stride)}, e: e, buf: make([]float32, 2*e.width)}
	if e.persp != nil {
		a.persp = e.persp.NewAccumulator()
	}
	return a
}

// Eval returns the evaluation a sums for: a search of several threads
// makes each of them an accumulator of its own from it.
func (a *ChessAccumulator) Eval() *ChessEval { return a.e }

// Reset empties the stack and makes p its root, computing its sums for
// both points of view.
func (a *ChessAccumulator) Reset(p chess.Position) {
	a.root(p)
	if a.persp != nil {
		a.persp.Reset(p)
	}
	for pov := chess.White; pov <= chess.Black; pov++ {
		a.e.refresh(a.sums(0, pov), a.pos[0], pov)
	}
	a.done[0] = 3
}

// root empties the stack and makes a copy of p its root, with no sums.
func (c *chessPath[A]) root(p chess.Position) {
	c.top = 0
	c.pos[0] = c.own.keep(0, len(c.pos), p)
	c.done[0] = 0
}

// Push records a copy of p, the position after a move from the current one
// (or any position: updates are exact between any two), as the new current
// position. It computes nothing (see Evaluate).
func (c *chessPath[A]) Push(p chess.Position) {
	c.push(nil)
	c.pos[c.top] = c.own.keep(c.top, len(c.pos), p)
}

// PushRef is Push without the copy: it records p itself, which must not
// change until it is popped, as chess.Game.Current's positions do not
// while their move is on the board.
func (c *chessPath[A]) PushRef(p *chess.Position) { c.push(p) }

// Ply returns the number of positions pushed since the last Reset and not popped.
func (c *chessPath[A]) Ply() int { return c.top }

// Position returns the current position.
func (c *chessPath[A]) Position() chess.Position { return *c.pos[c.top] }

// Push records a copy of p as the new current position (see
// chessPath.Push).
func (a *ChessAccumulator) Push(p chess.Position) {
	a.chessPath.Push(p)
	if a.persp != nil {
		a.persp.PushRef(a.pos[a.top])
	}
}

// PushRef records p itself as the new current position (see
// chessPath.PushRef).
func (a *ChessAccumulator) PushRef(p *chess.Position) {
	a.push(p)
	if a.persp != nil {
		a.persp.PushRef(p)
	}
}

// Pop takes back the last Push or PushRef. It panics if there is none
// since the last Reset.
func (a *ChessAccumulator) Pop() {
	a.pop("ChessAccumulator")
	if a.persp != nil {
		a.persp.Pop()
	}
}

// Evaluate returns the value of the current position from pov's point of
// view in pawns, exactly as ChessEval.Evaluate would.
func (a *ChessAccumulator) Evaluate(pov game.Player) float64 {
	pov &= 1
	// A perspective net without tables leaves this stack no sums to keep:
	// finding a move's changes for it would be work for nothing.
	if a.done[a.top]&(1<<pov) == 0 && a.h1 > 0 {
		update(&a.stack, a, pov)
	}
	persp := 0
	if a.persp != nil {
		persp = a.persp.Evaluate()
	}
	return a.e.value(a.sums(a.top, pov), a.pos[a.top], pov, a.buf, persp)
}

// refresh sums *p from scratch for pov (for update).
func (a *ChessAccumulator) refresh(dst []int32, p **chess.Position, pov game.Player) {
	a.e.refresh(dst, *p, pov)
}

// step computes the sums of ply to from those of ply from for pov, and marks
// them done.
func (a *ChessAccumulator) step(from, to int, pov game.Player) {
	a.done[to] |= 1 << pov
	e := a.e
	width := a.h1 // the sums', the stride of e's columns
	dst, src := a.sums(to, pov), a.sums(from, pov)
	p0, p1 := a.pos[from], a.pos[to]
	var plusCols, minusCols [32]uint16
	np, nm := chessChanges(p0, p1, pov, &plusCols, &minusCols)
	if np+nm >= bits.OnesCount64(uint64(p1.Occupied())) {
		e.refresh(dst, p1, pov)
		return
	}
	applyColumns(kernels32(), dst, src, e.cols, width, plusCols[:np], minusCols[:nm])
}

// chessChanges writes the inputs (ChessInputIndex, from pov's point of
// view) that appear from p0 to p1 into plus and those that go away into
// minus, and returns how many of each: on each square whose content
// changed, the piece of p0 goes out and the piece of p1 comes in. Each
// (plane, square) change is one input in or out, so a sum over the inputs
// updated with them is exact for any pair of positions, not only a move
// apart (two squares for a quiet move, three for en passant, four for
// castling). np <= 32 and nm <= 32: they count pieces of p1 and of p0.
func chessChanges(p0, p1 *chess.Position, pov game.Player, plus, minus *[32]uint16) (np, nm int) {
	flip := chessFlip(pov)
	for b := uint64(p0.Changed(p1)); b != 0; b &= b - 1 {
		s := chess.Square(bits.TrailingZeros64(b))
		if pt, c := p0.PieceAt(s); pt != chess.NoPieceType {
			minus[nm] = uint16(int(c^pov)*384 + int(pt)*64 + (int(s) ^ flip))
			nm++
		}
		if pt, c := p1.PieceAt(s); pt != chess.NoPieceType {
			plus[np] = uint16(int(c^pov)*384 + int(pt)*64 + (int(s) ^ flip))
			np++
		}
	}
	return np, nm
}
