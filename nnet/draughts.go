package nnet

import (
	"fmt"
	"math"
	"math/bits"

	"evolved/game"
	"evolved/game/draughts"
)

// The draughts input encoding, after Blondie24.
//
// The net sees the board from one player's point of view (pov). Square s
// (1..32 in standard notation, index s-1 in the bitboards) holds the value
// +1 for a man of pov, +K for a king of pov, -1 and -K for the opponent's
// man and king, 0 when empty. For Black's pov the board is taken as it is;
// for White's it is first rotated 180 degrees, square s -> 33-s (bit i ->
// bit 31-i), so that the net always sees its own men start on the top rows
// (1..12) and move down the board towards higher squares, as Black's do.
// Light squares are always 0.
//
// The 91 inputs are the sums of those values over every k x k sub-square of
// the 8x8 board, for k = 3, 4, 5, 6, 7, 8 (36+25+16+9+4+1 = 91 sub-squares),
// in that order of k, and for each k by the sub-square's top-left corner in
// row-major order (top row first, from file a to file h), rows and files
// being those of the rotated board for White's pov. A square lies in
// between 6 sub-squares (the double corners, squares 4 and 29) and 55 (the
// central squares 15 and 18); all 91 sums contain 854 (sub-square, square)
// pairs.

// NumDraughtsInputs is the number of inputs of a draughts net.
const NumDraughtsInputs = 91

// draughtsRegions[i] is the set of squares (bit n-1 for square n) of the
// i-th sub-square of the encoding. It is built once and never written.
var draughtsRegions = func() (r [NumDraughtsInputs]uint32) {
	i := 0
	for k := 3; k <= 8; k++ {
		for top := 0; top+k <= 8; top++ {
			for left := 0; left+k <= 8; left++ {
				for s := range 32 {
					row, file := squareRowFile(s)
					if row >= top && row < top+k && file >= left && file < left+k {
						r[i] |= 1 << s
					}
				}
				i++
			}
		}
	}
	return r
}()

// squareRowFile returns the row (0 = top, Black's back rank) and the file
// (0 = a, 7 = h) of square index s (0..31). Even rows hold their squares on
// files b, d, f, h, odd rows on a, c, e, g (see game/draughts/bitboard.go).
func squareRowFile(s int) (row, file int) {
	row = s >> 2
	return row, 2*(s&3) + (row&1 ^ 1)
}

// draughtsView returns pov's own pieces, the opponent's pieces and the
// kings, as bitboards of the board pov sees: rotated 180 degrees (bit i ->
// bit 31-i) for White.
func draughtsView(p *draughts.Position, pov game.Player) (own, opp, kings uint32) {
	if pov == draughts.Black {
		return p.Black, p.White, p.Kings
	}
	return bits.Reverse32(p.White), bits.Reverse32(p.Black), bits.Reverse32(p.Kings)
}

// DraughtsSquares returns the 32 square values of p from pov's point of
// view, with king value king, indexed by square of the board pov sees (see
// the encoding above): x[s-1] is square s of the rotated board for White.
func DraughtsSquares(p draughts.Position, pov game.Player, king float64) [32]float64 {
	var x [32]float64
	own, opp, kings := draughtsView(&p, pov)
	for s := range 32 {
		bit := uint32(1) << s
		v := 1.0
		if kings&bit != 0 {
			v = king
		}
		switch {
		case own&bit != 0:
			x[s] = v
		case opp&bit != 0:
			x[s] = -v
		}
	}
	return x
}

// DraughtsInputs appends the 91 inputs of p from pov's point of view, with
// king value king, to dst and returns the extended slice. It is the plain
// definition of the encoding; evaluators use the folded form.
func DraughtsInputs(dst []float64, p draughts.Position, pov game.Player, king float64) []float64 {
	x := DraughtsSquares(p, pov, king)
	for _, region := range draughtsRegions {
		sum := 0.0
		for r := region; r != 0; r &= r - 1 {
			sum += x[bits.TrailingZeros32(r)]
		}
		dst = append(dst, sum)
	}
	return dst
}

// DraughtsPieceDiff returns the piece differential of p from pov's point of
// view: pov's men minus the opponent's, plus king times pov's kings minus
// the opponent's. It is the value PieceDiff feeds to the output node.
func DraughtsPieceDiff(p draughts.Position, pov game.Player, king float64) float64 {
	return pieceDiff(boardOf(&p), pov, king)
}

// pieceDiff is DraughtsPieceDiff on a board, computed as
// float64(menDiff) + float64(king*float64(kingDiff)) in every path.
func pieceDiff(b draughtsBoard, pov game.Player, king float64) float64 {
	own, opp := b.black, b.white
	if pov != draughts.Black {
		own, opp = opp, own
	}
	men := bits.OnesCount32(own&^b.kings) - bits.OnesCount32(opp&^b.kings)
	kings := bits.OnesCount32(own&b.kings) - bits.OnesCount32(opp&b.kings)
	return float64(men) + float64(king*float64(kings))
}

// draughtsBoard is what an evaluation reads of a draughts position: the
// pieces of each colour and the kings. Accumulators keep one per ply, copied
// field by field: copying whole positions just written by a move (with the
// side to move and the hash) cost the processor's store forwarding more
// than the copy itself.
type draughtsBoard struct{ black, white, kings uint32 }

// boardOf returns p's board.
func boardOf(p *draughts.Position) draughtsBoard {
	return draughtsBoard{black: p.Black, white: p.White, kings: p.Kings}
}

// DraughtsEval evaluates draughts positions with one net. It is built once
// per net, holds the first layer folded into a 32-square map, and is
// immutable: any number of goroutines may share it. Evaluate works from
// scratch; a DraughtsAccumulator (one per search) evaluates incrementally
// and gives bit-identical values.
//
// The folding: input i is the sum of x[s] over the squares s of region i,
// so the first layer's pre-activation W1*inputs + b1 equals M*x + b1 with
// M[h][s] = sum of W1[h][i] over the regions i containing s. With x[s] one
// of 0, ±1 and ±K, M*x is a signed sum of the columns M[.][s] (men) and
// K*M[.][s] (kings) over the occupied squares.
//
// Those columns are stored as int32 multiples of a unit per node h, the
// columnUnit of max(1, K) times the sum over s of |M[h][s]|, which bounds
// |M*x| for every position. The sums an accumulator holds are then exact
// int32 arithmetic, whatever the order of the additions and subtractions
// (wrapping on the way included): an accumulator updated along any
// sequence of moves holds exactly the sums a from-scratch evaluation
// computes, and both give the same bits. The rest of the net runs in
// float32 (see head). Against the plain float64 computation
// (DraughtsInputs and Net.Forward) a column is off by at most 2^-30 of its
// node's bound and an output by about 1e-6; the tests check whole
// evaluations against it.
//
// With a Perspective net (draughts.perspective = true) the evaluator holds
// the quantized perspective net instead (see perspective_draughts.go), and
// no head or columns: the value is the perspective net's alone.
type DraughtsEval struct {
	net *Net
	head
	cols  []int32 // cols[(kind*32+s)*h1+h], kind 0 = man, 1 = king, multiples of unit[h]
	king  float64
	persp *QuantizedPerspective // with Perspective, the net in int16; nil otherwise
}

// NewDraughtsEval builds the evaluator of n, which must have
// NumDraughtsInputs inputs and one output, or be a Perspective net of
// NumDraughtsPerspectiveInputs; otherwise the error wraps
// ErrArchitecture. The evaluator keeps its own copy of what it needs, so
// later changes to n (there are none in this package) would not affect it.
func NewDraughtsEval(n *Net) (*DraughtsEval, error) {
	if n.flags&Perspective != 0 {
		return newDraughtsPerspectiveEval(n)
	}
	if n.sizes[0] != NumDraughtsInputs || n.sizes[len(n.sizes)-1] != 1 {
		return nil, fmt.Errorf("new draughts evaluator: %w: sizes %v, want %d inputs and 1 output",
			ErrArchitecture, n.sizes, NumDraughtsInputs)
	}
	if err := n.validate(); err != nil {
		return nil, fmt.Errorf("new draughts evaluator: %w", err)
	}
	n = n.Clone()
	h1 := n.sizes[1]
	e := &DraughtsEval{net: n, head: newHead(n), cols: make([]int32, 2*32*h1), king: n.king}
	var m [32]float64 // M[h][s] for one h, summed over the regions in input order
	for h := range h1 {
		row := n.w[n.WeightIndex(1, h, 0):][:NumDraughtsInputs]
		total := 0.0
		for s := range 32 {
			sum := 0.0
			for i, region := range draughtsRegions {
				if region&(1<<s) != 0 {
					sum += clampWeight(row[i])
				}
			}
			m[s] = sum
			total += math.Abs(sum)
		}
		scale, unit := columnUnit(max(1, n.king) * total)
		e.unit[h] = unit
		for s, v := range m {
			e.cols[(0*32+s)*h1+h] = quantize(v, scale)
			e.cols[(1*32+s)*h1+h] = quantize(float64(v*n.king), scale)
		}
	}
	return e, nil
}

// newDraughtsPerspectiveEval is NewDraughtsEval for a Perspective net.
func newDraughtsPerspectiveEval(n *Net) (*DraughtsEval, error) {
	if n.sizes[0] != NumDraughtsPerspectiveInputs {
		return nil, fmt.Errorf("new draughts evaluator: %w: sizes %v with flags %v, want %d inputs",
			ErrArchitecture, n.sizes, n.flags, NumDraughtsPerspectiveInputs)
	}
	if err := n.validate(); err != nil {
		return nil, fmt.Errorf("new draughts evaluator: %w", err)
	}
	n = n.Clone()
	q, err := n.quantizedPerspective()
	if err != nil {
		return nil, fmt.Errorf("new draughts evaluator: %w", err)
	}
	return &DraughtsEval{net: n, king: n.king, persp: q}, nil
}

// Net returns the evaluator's copy of the net. It must not be modified.
func (e *DraughtsEval) Net() *Net { return e.net }

// Evaluate returns the value of p from pov's point of view, in (-1, 1)
// ([-1, 1] for a perspective net), positive when p is good for pov,
// computed from scratch. It does not allocate for nets whose layers after
// the inputs have at most 64 nodes, nor for perspective nets.
func (e *DraughtsEval) Evaluate(p draughts.Position, pov game.Player) float64 {
	if e.persp != nil {
		return draughtsPerspectiveValue(e.persp.EvaluateDraughts(&p, pov))
	}
	var arr [2 * 64]float32
	var sums [64]int32
	buf, acc := arr[:], sums[:]
	if 2*e.width > len(buf) {
		buf, acc = make([]float32, 2*e.width), make([]int32, e.h1)
	}
	acc = acc[:e.h1]
	b := boardOf(&p)
	e.refresh(acc, &b, pov)
	return e.output(acc, pieceDiff(b, pov, e.king), buf)
}

// refresh sets acc to the first-layer sums (biases excluded) of the board
// p from pov's point of view.
func (e *DraughtsEval) refresh(acc []int32, p *draughtsBoard, pov game.Player) {
	clear(acc)
	h1 := e.h1
	own, opp, flip := p.black, p.white, 0
	if pov != draughts.Black {
		own, opp, flip = opp, own, 31 // White sees square s as 31-s = s^31
	}
	for b := own; b != 0; b &= b - 1 {
		s := bits.TrailingZeros32(b)
		off := (int(p.kings>>s&1)*32 + (s ^ flip)) * h1
		addCols(acc, acc, e.cols[off:off+h1])
	}
	for b := opp; b != 0; b &= b - 1 {
		s := bits.TrailingZeros32(b)
		off := (int(p.kings>>s&1)*32 + (s ^ flip)) * h1
		subCols(acc, acc, e.cols[off:off+h1])
	}
}
