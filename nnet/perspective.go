package nnet

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"evolved/game"
	"evolved/game/chess"
	"evolved/game/xiangqi"
)

// The perspective net (NNUE-style, efficiently updatable) for chess.
//
// Features. Each point of view (pov, White or Black) sees the board as the
// 768 one-hot features of the chess encoding (see ChessInputIndex): feature
// side*384 + pt*64 + s is on when square s, as pov sees it (a1 = 0 .. h8 =
// 63, mirrored vertically for Black: s^56), holds a piece of type pt
// (chess.Pawn = 0 .. chess.King = 5) of side (0 = pov's own, 1 = the
// opponent's). At most 32 are on, at most one per square.
//
// Layers. One feature transformer, shared by both points of view, maps the
// features to Hidden sums: acc_pov[h] = FeatureBias[h] + the sum of
// FeatureWeights[f*Hidden+h] over the features f that are on for pov.
// The output is
//
//	out = OutputBias + sum_h OutputWeights[h]*crelu(acc_stm[h])
//	                 + sum_h OutputWeights[Hidden+h]*crelu(acc_other[h])
//
// where stm is the side to move, other the side not to move and crelu(x) =
// min(max(x, 0), 1), the clipped ReLU. The value of the position for the
// side to move is out*PerspectiveScale centipawns. A position and its
// colour-flipped mirror image have the same features for the opposite
// points of view, and thus the same value for their sides to move, for
// any weights.
//
// Quantization (PerspectiveNet.Quantize). The float32 masters become
// integers, each rounded to the nearest (half away from zero):
//
//	feature weights and biases   int16, times PerspectiveQA (255)
//	accumulators                 int16, in the same unit: crelu clips to [0, QA]
//	output weights               int16, times PerspectiveQB (1024)
//	output bias                  int32, times QA*QB
//
// and the integer value is (OutputBias + the two dot products of the
// clipped accumulators with the output weights), an int32 in units of
// 1/(QA*QB), times PerspectiveScale, divided by QA*QB in int64 and
// rounded to the nearest (half away from zero): centipawns for the side
// to move. Quantize refuses weights for which an accumulator or the output
// sum could overflow (see ErrPerspectiveOverflow): a sum's bias plus the 32
// largest of its per-square weight magnitudes (the largest of the twelve
// pieces' on each square) must stay within 32767 units of 1/QA, about 128
// in float, and QA times the output weights' magnitudes plus the output
// bias within 2^31-1 units of 1/(QA*QB), so that every int16 and int32 sum
// is exact, whatever the path that led to it (an update may wrap on the
// way, as castling adds two rows before it subtracts two: the arithmetic is
// modulo 2^16, and the result lies in range). The float and the integer
// values of a position differ by the rounding of the weights, within the
// net's QuantizationTolerance (TestPerspectiveQuantization: 10,000
// positions of random games).

// DefaultPerspectiveHidden is the default width of a perspective net's
// feature transformer: 256 sums from each point of view.
const DefaultPerspectiveHidden = 256

// MaxPerspectiveHidden is the widest feature transformer a perspective net
// may have: it bounds the scratch space of an evaluation from scratch.
const MaxPerspectiveHidden = 1024

// PerspectiveQA is the scale of the quantized feature weights, biases and
// accumulators: a float of 1, where the clipped ReLU saturates, is QA.
const PerspectiveQA = 255

// PerspectiveQB is the scale of the quantized output weights. It is larger
// than the 64 that nets with int8 output weights use: the output weights
// are int16 here, and at 64 the rounding of output weights of
// RandomPerspective's scale (about ±0.04, ±3 in units of 1/64) moves a
// value by up to 13 cp instead of 3 (TestPerspectiveQuantization logs
// both).
const PerspectiveQB = 1024

// PerspectiveScale is the number of centipawns an output of 1 is worth.
const PerspectiveScale = 400

// perspectiveSigmas is how many standard deviations of the weights'
// rounding QuantizationTolerance allows.
const perspectiveSigmas = 4

// perspectivePieces is the most pieces a chess position holds (chess
// refuses a sixteenth pawn or promoted piece for a side), and thus the
// most features on from one point of view.
const perspectivePieces = 32

// ErrPerspectiveOverflow reports perspective weights whose quantized form
// could overflow: an int16 accumulator (the bias plus the 32 largest
// per-square maxima of the feature weights' magnitudes beyond 32767, all in
// units of 1/QA), an int16 output weight (beyond 32767/QB), or the int32
// output sum (the output bias plus QA times the sum of the output weights'
// magnitudes beyond 2^31-1, in units of 1/(QA*QB)).
var ErrPerspectiveOverflow = errors.New("nnet: perspective weights overflow")

// PerspectiveNet holds the float32 master weights of a perspective net for
// chess, xiangqi or draughts (see the description above and, for
// draughts, perspective_draughts.go): evolution and training change them,
// games use their quantized form (Quantize).
type PerspectiveNet struct {
	// Inputs is the number of features a side: NumChessInputs for chess,
	// NumXiangqiInputs for xiangqi (whose features are those of its
	// encoding, side*630 + pt*90 + point, ranks mirrored for Black),
	// NumDraughtsPerspectiveInputs for draughts (side*64 + kind*32 +
	// square, the board turned for White; see draughtsFeatures).
	Inputs int
	// Hidden is the width of the feature transformer, 1 to
	// MaxPerspectiveHidden (DefaultPerspectiveHidden by default).
	Hidden int
	// FeatureWeights holds Inputs rows of Hidden weights: the
	// weight from feature f into sum h is FeatureWeights[f*Hidden+h].
	FeatureWeights []float32
	// FeatureBias holds the Hidden biases of the sums.
	FeatureBias []float32
	// OutputWeights holds 2*Hidden weights: those of the side to move's
	// clipped sums, then those of the other side's.
	OutputWeights []float32
	// OutputBias is the output's bias.
	OutputBias float32
}

// PerspectiveFeatureLimit is the magnitude to which a genome's feature
// weights and biases are clamped when they become a PerspectiveNet
// (Net.Perspective): 33 of them (32 features and the bias) times QA stay
// within an int16 (33*988 = 32604), so no genome's sums can overflow.
const PerspectiveFeatureLimit = 3.875

// PerspectiveOutputLimit is the magnitude to which a genome's output
// weights and bias are clamped when they become a PerspectiveNet: QA*QB
// times the bias and the 2*MaxPerspectiveHidden weights at this limit
// stay within an int32, so no genome's output can overflow.
const PerspectiveOutputLimit = 4

// Perspective returns the float32 masters of a Perspective net (see the
// flag): row h of its first layer is the column of sum h (FeatureWeights[f*N+h]
// is the weight from input f into node h), then the biases, the 2N output
// weights and the output bias, each rounded to float32 and clamped to
// ±PerspectiveFeatureLimit (the first layer) or ±PerspectiveOutputLimit
// (the output), within which Quantize never refuses. The error wraps
// ErrArchitecture for a net without the flag.
func (n *Net) Perspective() (*PerspectiveNet, error) {
	if n.flags&Perspective == 0 {
		return nil, fmt.Errorf("perspective of a net with flags %v: %w: not a perspective net", n.flags, ErrArchitecture)
	}
	h, inputs := n.sizes[1], n.sizes[0]
	p, err := newPerspectiveNet(inputs, h)
	if err != nil {
		return nil, err
	}
	feature := func(w float64) float32 {
		return float32(min(max(w, -PerspectiveFeatureLimit), PerspectiveFeatureLimit))
	}
	output := func(w float64) float32 { return float32(min(max(w, -PerspectiveOutputLimit), PerspectiveOutputLimit)) }
	for i := range h {
		for f, w := range n.w[n.WeightIndex(1, i, 0):][:inputs] {
			p.FeatureWeights[f*h+i] = feature(w)
		}
		p.FeatureBias[i] = feature(n.w[n.BiasIndex(1, i)])
	}
	for i, w := range n.w[n.WeightIndex(2, 0, 0):][:2*h] {
		p.OutputWeights[i] = output(w)
	}
	p.OutputBias = output(n.w[n.BiasIndex(2, 0)])
	return p, nil
}

// quantizedPerspective returns the int16 form of a Perspective net's
// masters (Perspective, then Quantize).
func (n *Net) quantizedPerspective() (*QuantizedPerspective, error) {
	p, err := n.Perspective()
	if err != nil {
		return nil, err
	}
	return p.Quantize()
}

// NewPerspectiveNet returns a perspective net of the given width with
// every weight 0. The width must be 1 to MaxPerspectiveHidden; otherwise
// the error wraps ErrArchitecture.
func NewPerspectiveNet(hidden int) (*PerspectiveNet, error) {
	return newPerspectiveNet(NumChessInputs, hidden)
}

// newPerspectiveNet is NewPerspectiveNet for the game of inputs features a
// side (NumChessInputs, NumXiangqiInputs or NumDraughtsPerspectiveInputs).
func newPerspectiveNet(inputs, hidden int) (*PerspectiveNet, error) {
	if hidden < 1 || hidden > MaxPerspectiveHidden {
		return nil, fmt.Errorf("new perspective net: %w: hidden %d, want 1 to %d", ErrArchitecture, hidden, MaxPerspectiveHidden)
	}
	if perspectiveSquares(inputs) == 0 {
		return nil, fmt.Errorf("new perspective net: %w: %d inputs, want %d (chess), %d (xiangqi) or %d (draughts)",
			ErrArchitecture, inputs, NumChessInputs, NumXiangqiInputs, NumDraughtsPerspectiveInputs)
	}
	return &PerspectiveNet{
		Inputs:         inputs,
		Hidden:         hidden,
		FeatureWeights: make([]float32, inputs*hidden),
		FeatureBias:    make([]float32, hidden),
		OutputWeights:  make([]float32, 2*hidden),
	}, nil
}

// RandomPerspective returns a perspective net of the given width (see
// NewPerspectiveNet) with the weights a linear layer starts from (the
// usual uniform initialisation): the feature weights and biases uniform in
// ±1/sqrt(NumChessInputs), the output weights and bias in ±1/sqrt(2*hidden).
func RandomPerspective(hidden int, rng *rand.Rand) (*PerspectiveNet, error) {
	n, err := NewPerspectiveNet(hidden)
	if err != nil {
		return nil, fmt.Errorf("random perspective net: %w", err)
	}
	uniform := func(w []float32, bound float64) {
		for i := range w {
			w[i] = float32((2*rng.Float64() - 1) * bound)
		}
	}
	in, out := 1/math.Sqrt(NumChessInputs), 1/math.Sqrt(float64(2*hidden))
	uniform(n.FeatureWeights, in)
	uniform(n.FeatureBias, in)
	uniform(n.OutputWeights, out)
	n.OutputBias = float32((2*rng.Float64() - 1) * out)
	return n, nil
}

// QuantizationTolerance returns how far, in the units of the net's value
// (centipawns for chess and xiangqi, ten-thousandths of an output for
// draughts: see perspectiveScale), the integer value of a position
// (Quantize, then QuantizedPerspective.Evaluate) may lie from the float
// one (Evaluate): half a unit for the final rounding plus
// perspectiveSigmas (4) times a bound on the standard deviation of what
// the rounding of the weights adds. Each weight is off by a uniform error of
// at most half a unit (variance 1/12 unit²), independently; a sum adds at
// most 33 of them (32 features and the bias), which the clipped ReLU passes
// on at most unchanged; the two points of view may share a feature's error
// (hence |o_h| + |o_N+h| below); an output weight's error is multiplied by
// a clipped sum of at most 1. In float units, the variance is thus at most
//
//	sum_h (|o_h| + |o_N+h|)² * 33/(12*QA²) + 2N/(12*QB²)
//
// times the scale² in units². The bound assumes every sum
// unclipped and every clipped sum at 1, so the differences measured are
// well inside it: for RandomPerspective(256) the tolerance is about 13 cp
// and the largest difference on 10,000 positions 3.4 cp, the mean 0.6.
func (n *PerspectiveNet) QuantizationTolerance() float64 {
	h := n.Hidden
	v := float64(2*h) / (12 * PerspectiveQB * PerspectiveQB)
	for i := range h {
		o := math.Abs(float64(n.OutputWeights[i])) + math.Abs(float64(n.OutputWeights[h+i]))
		v += o * o * (perspectivePieces + 1) / (12 * PerspectiveQA * PerspectiveQA)
	}
	return 0.5 + perspectiveSigmas*float64(perspectiveScale(n.Inputs))*math.Sqrt(v)
}

// check returns an error wrapping ErrArchitecture if n's slices do not
// have the lengths its width gives or a weight is not finite.
func (n *PerspectiveNet) check() error {
	h := n.Hidden
	if h < 1 || h > MaxPerspectiveHidden || perspectiveSquares(n.Inputs) == 0 || len(n.FeatureWeights) != n.Inputs*h ||
		len(n.FeatureBias) != h || len(n.OutputWeights) != 2*h {
		return fmt.Errorf("%w: perspective net of width %d with %d feature weights, %d biases, %d output weights",
			ErrArchitecture, h, len(n.FeatureWeights), len(n.FeatureBias), len(n.OutputWeights))
	}
	for _, s := range [][]float32{n.FeatureWeights, n.FeatureBias, n.OutputWeights, {n.OutputBias}} {
		for i, w := range s {
			if math.IsNaN(float64(w)) || math.IsInf(float64(w), 0) {
				return fmt.Errorf("%w: perspective weight %d is %v", ErrArchitecture, i, w)
			}
		}
	}
	return nil
}

// perspectiveSquares returns the squares (points) of the game of inputs
// features a side, each feature plane covering them once: 64 for chess,
// 90 for xiangqi, 32 for draughts, 0 for any other count.
func perspectiveSquares(inputs int) int {
	switch inputs {
	case NumChessInputs:
		return 64
	case NumXiangqiInputs:
		return xiangqi.Squares
	case NumDraughtsPerspectiveInputs:
		return 32
	}
	return 0
}

// perspectiveScale returns what an output of 1 is worth in the units of
// the value of the game of inputs features a side: PerspectiveScale
// centipawns for chess and xiangqi, DraughtsPerspectiveScale
// ten-thousandths of the Blondie net's full output for draughts.
func perspectiveScale(inputs int) int64 {
	if inputs == NumDraughtsPerspectiveInputs {
		return DraughtsPerspectiveScale
	}
	return PerspectiveScale
}

// chessFeatures writes the features that are on in p from pov's point of
// view into f, by side (pov's own first), piece type and square, and
// returns how many there are.
func chessFeatures(p *chess.Position, pov game.Player, f *[perspectivePieces]uint16) int {
	k, flip := 0, chessFlip(pov)
	for side, c := range [2]game.Player{pov & 1, pov&1 ^ 1} {
		for pt := chess.Pawn; pt <= chess.King; pt++ {
			base := side*384 + int(pt)*64
			for b := uint64(p.Pieces(c, pt)); b != 0; b &= b - 1 {
				f[k] = uint16(base + (bits.TrailingZeros64(b) ^ flip))
				k++
			}
		}
	}
	return k
}

// Evaluate returns the value of the chess position p for its side to
// move in centipawns, computed from the float32 masters of a chess net in
// float64 (the sums in chessFeatures' order): the definition the quantized
// net approximates. It allocates; a search uses a QuantizedPerspective.
func (n *PerspectiveNet) Evaluate(p *chess.Position) float64 {
	return n.evaluate(p.Side(), func(pov game.Player, f *[perspectivePieces]uint16) int { return chessFeatures(p, pov, f) })
}

// EvaluateXiangqi is Evaluate for the xiangqi position p and a xiangqi
// net (the features in point order).
func (n *PerspectiveNet) EvaluateXiangqi(p *xiangqi.Position) float64 {
	return n.evaluate(p.Side(), func(pov game.Player, f *[perspectivePieces]uint16) int { return xiangqiFeatures(p, pov, f) })
}

// evaluate is Evaluate with the side to move and the features of each
// point of view.
func (n *PerspectiveNet) evaluate(side game.Player, features func(pov game.Player, f *[perspectivePieces]uint16) int) float64 {
	h := n.Hidden
	acc := make([]float64, h)
	out := float64(n.OutputBias)
	var f [perspectivePieces]uint16
	for k, pov := range [2]game.Player{side, side ^ 1} {
		for i, b := range n.FeatureBias {
			acc[i] = float64(b)
		}
		for _, feat := range f[:features(pov, &f)] {
			for i, w := range n.FeatureWeights[int(feat)*h : int(feat)*h+h] {
				acc[i] += float64(w)
			}
		}
		for i, a := range acc {
			out += float64(n.OutputWeights[k*h+i]) * min(max(a, 0), 1)
		}
	}
	return out * float64(perspectiveScale(n.Inputs))
}

// xiangqiFeatures writes the features that are on in p from pov's point of
// view into f, in point order, and returns how many there are.
func xiangqiFeatures(p *xiangqi.Position, pov game.Player, f *[perspectivePieces]uint16) int {
	k := 0
	for s := range xiangqi.Squares {
		if pt, c := p.PieceAt(xiangqi.Square(s)); pt != xiangqi.NoPieceType {
			f[k] = uint16(xiangqiInput(pt, c, s, pov))
			k++
		}
	}
	return k
}

// QuantizedPerspective is the integer form of a PerspectiveNet (see the
// description above), which games use: built once, immutable, shared by
// any number of goroutines, each search with its own
// PerspectiveAccumulator.
type QuantizedPerspective struct {
	inputs   int // features a side: NumChessInputs, NumXiangqiInputs or NumDraughtsPerspectiveInputs
	hidden   int
	qb       int
	scale    int64   // an output of 1 in the value's units (perspectiveScale)
	features []int16 // features[f*hidden+h]: FeatureWeights times QA
	bias     []int16 // FeatureBias times QA
	output   []int16 // OutputWeights times qb
	swapped  []int16 // output with its halves swapped: the other side's weights first (valuePair)
	outBias  int32   // OutputBias times QA*qb
}

// Quantize returns the integer form of n with the scales PerspectiveQA
// and PerspectiveQB. The error wraps ErrArchitecture for a net whose
// shapes do not match its width or with a weight that is not finite, and
// ErrPerspectiveOverflow for weights that could overflow.
func (n *PerspectiveNet) Quantize() (*QuantizedPerspective, error) {
	return n.quantize(PerspectiveQB)
}

// quantize is Quantize with the output weights' scale qb.
func (n *PerspectiveNet) quantize(qb int) (*QuantizedPerspective, error) {
	if err := n.check(); err != nil {
		return nil, fmt.Errorf("quantize perspective net: %w", err)
	}
	h := n.Hidden
	q := &QuantizedPerspective{inputs: n.Inputs, hidden: h, qb: qb, scale: perspectiveScale(n.Inputs), features: make([]int16, len(n.FeatureWeights)),
		bias: make([]int16, h), output: make([]int16, 2*h)}
	round := func(w float32, scale float64) float64 { return math.Round(float64(w) * scale) }
	// Each sum's bound: its bias and the 32 largest of the per-square
	// maxima (a square holds one piece at most), in units of 1/QA.
	squares := perspectiveSquares(n.Inputs)
	squareMax := make([]float64, squares)
	for i := range h {
		for s := range squareMax {
			squareMax[s] = 0
			for plane := range n.Inputs / squares {
				squareMax[s] = max(squareMax[s], math.Abs(round(n.FeatureWeights[(plane*squares+s)*h+i], PerspectiveQA)))
			}
		}
		slices.Sort(squareMax)
		bound := math.Abs(round(n.FeatureBias[i], PerspectiveQA))
		for _, m := range squareMax[squares-perspectivePieces:] {
			bound += m
		}
		if bound > math.MaxInt16 {
			return nil, fmt.Errorf("quantize perspective net: %w: sum %d reaches %.0f/%d, beyond %d",
				ErrPerspectiveOverflow, i, bound, PerspectiveQA, math.MaxInt16)
		}
	}
	for i, w := range n.FeatureWeights {
		q.features[i] = int16(round(w, PerspectiveQA))
	}
	for i, w := range n.FeatureBias {
		q.bias[i] = int16(round(w, PerspectiveQA))
	}
	bound := math.Abs(round(n.OutputBias, float64(PerspectiveQA*qb)))
	for i, w := range n.OutputWeights {
		if r := round(w, float64(qb)); math.Abs(r) > math.MaxInt16 {
			return nil, fmt.Errorf("quantize perspective net: %w: output weight %d is %.0f/%d, beyond %d",
				ErrPerspectiveOverflow, i, r, qb, math.MaxInt16)
		}
		bound += PerspectiveQA * math.Abs(round(w, float64(qb)))
	}
	if bound > math.MaxInt32 {
		return nil, fmt.Errorf("quantize perspective net: %w: the output reaches %.0f/%d, beyond %d",
			ErrPerspectiveOverflow, bound, PerspectiveQA*qb, math.MaxInt32)
	}
	for i, w := range n.OutputWeights {
		q.output[i] = int16(round(w, float64(qb)))
	}
	q.swapped = append(slices.Clone(q.output[h:]), q.output[:h]...)
	q.outBias = int32(round(n.OutputBias, float64(PerspectiveQA*qb)))
	return q, nil
}

// Hidden returns the width of the feature transformer.
func (q *QuantizedPerspective) Hidden() int { return q.hidden }

// Evaluate returns the value of p for its side to move in centipawns,
// computed from scratch; a PerspectiveAccumulator gives the same value
// incrementally. It does not allocate.
func (q *QuantizedPerspective) Evaluate(p *chess.Position) int {
	var us, them [MaxPerspectiveHidden]int16
	q.refresh(us[:q.hidden], p, p.Side())
	q.refresh(them[:q.hidden], p, p.Side()^1)
	return q.value(us[:q.hidden], them[:q.hidden])
}

// EvaluateXiangqi is Evaluate for the xiangqi position p and a xiangqi
// net. It does not allocate.
func (q *QuantizedPerspective) EvaluateXiangqi(p *xiangqi.Position) int {
	var us, them [MaxPerspectiveHidden]int16
	var b xiangqiBoard
	b.read(p)
	q.refreshBoard(us[:q.hidden], &b, p.Side())
	q.refreshBoard(them[:q.hidden], &b, p.Side()^1)
	return q.value(us[:q.hidden], them[:q.hidden])
}

// refreshBoard sets acc to the sums of the xiangqi board b from pov's
// point of view.
func (q *QuantizedPerspective) refreshBoard(acc []int16, b *xiangqiBoard, pov game.Player) {
	h := q.hidden
	copy(acc, q.bias)
	for w, x := range b.cells {
		for x != 0 {
			shift := bits.TrailingZeros64(x) &^ 7 // the lowest occupied point's byte
			feat := xiangqiCellInput(uint8(x>>shift), w*8+shift>>3, pov)
			add16(acc, acc, q.features[feat*h:feat*h+h])
			x &^= 0xff << shift
		}
	}
}

// refresh sets acc to the sums of p from pov's point of view.
func (q *QuantizedPerspective) refresh(acc []int16, p *chess.Position, pov game.Player) {
	var f [perspectivePieces]uint16
	h := q.hidden
	copy(acc, q.bias)
	for _, feat := range f[:chessFeatures(p, pov, &f)] {
		add16(acc, acc, q.features[int(feat)*h:int(feat)*h+h])
	}
}

// value returns the value of the sums us (the side to move's; in
// draughts, the point of view's) and them (the other side's): centipawns
// for chess and xiangqi, ten-thousandths of an output for draughts.
func (q *QuantizedPerspective) value(us, them []int16) int {
	h := q.hidden
	return q.rounded(q.outBias + creluDot16(us, q.output[:h], PerspectiveQA) + creluDot16(them, q.output[h:], PerspectiveQA))
}

// valuePair is value for the sums of both points of view as a stack keeps
// a ply's, pair (the first point of view's, then the second's), and pov,
// whose sums are us: one dot product over both. The int32 sum is the same
// in any order, so the value is value's, bit for bit.
func (q *QuantizedPerspective) valuePair(pair []int16, pov game.Player) int {
	w := q.output
	if pov != 0 {
		w = q.swapped
	}
	return q.rounded(q.outBias + creluDot16(pair, w, PerspectiveQA))
}

// rounded returns the output sum s (in units of 1/(QA*QB)) in the value's
// units, rounded to the nearest, half away from zero.
func (q *QuantizedPerspective) rounded(s int32) int {
	v, d := int64(s)*q.scale, int64(PerspectiveQA*q.qb)
	if v < 0 {
		return -int((-v + d/2) / d)
	}
	return int((v + d/2) / d)
}

// PerspectiveAccumulator evaluates the positions along a search path
// incrementally, as ChessAccumulator does for the narrow chess nets: one
// entry per ply holding the position (a pointer to it) and, for each point
// of view, its Hidden int16 sums. Push and PushRef (on make) only record a
// position, Pop (on unmake) forgets it, and Evaluate computes the sums of
// the current ply lazily, for both points of view, from the nearest
// ancestor that has them (first bringing the parent up to date, so that its
// other children start one move away): it adds the feature rows that
// appeared and subtracts those that went away (two for a quiet move, three
// for a capture, en passant or a promotion, four for castling or a
// capturing promotion), or sums from scratch when that is cheaper. The
// int16 arithmetic wraps, and Quantize has bounded every sum a position
// can have, so the sums are exact along any path: the values are those of
// QuantizedPerspective.Evaluate, bit for bit.
//
// A PerspectiveAccumulator belongs to one search (one goroutine); many may
// share one QuantizedPerspective. It allocates its stack once, for 128
// plies, and grows it only if a search goes deeper; Reset, Push, PushRef,
// Pop and Evaluate do not allocate otherwise.
type PerspectiveAccumulator struct {
	chessPath[int16]
	q *QuantizedPerspective
}

// NewAccumulator returns an accumulator for searches with q. Call Reset
// before anything else.
func (q *QuantizedPerspective) NewAccumulator() *PerspectiveAccumulator {
	return &PerspectiveAccumulator{chessPath: chessPath[int16]{stack: newStack[*chess.Position, int16](q.hidden)}, q: q}
}

// Reset empties the stack and makes p its root, computing its sums for
// both points of view: a search evaluates few of the inner nodes, and the
// leaves below them step from the nearest ancestor that has sums.
func (a *PerspectiveAccumulator) Reset(p chess.Position) {
	a.root(p)
	for pov := chess.White; pov <= chess.Black; pov++ {
		a.q.refresh(a.sums(0, pov), a.pos[0], pov)
	}
	a.done[0] = 3
}

// Pop takes back the last Push or PushRef. It panics if there is none
// since the last Reset.
func (a *PerspectiveAccumulator) Pop() { a.pop("PerspectiveAccumulator") }

// Evaluate returns the value of the current position for its side to move
// in centipawns, exactly as QuantizedPerspective.Evaluate would.
func (a *PerspectiveAccumulator) Evaluate() int {
	for pov := chess.White; pov <= chess.Black; pov++ {
		if a.done[a.top]&(1<<pov) == 0 {
			update(&a.stack, a, pov)
		}
	}
	us := a.pos[a.top].Side()
	return a.q.value(a.sums(a.top, us), a.sums(a.top, us^1))
}

// refresh sums *p from scratch for pov (for update).
func (a *PerspectiveAccumulator) refresh(dst []int16, p **chess.Position, pov game.Player) {
	a.q.refresh(dst, *p, pov)
}

// step computes the sums of ply to from those of ply from for both points
// of view, whatever pov, and marks them done: Evaluate computes both, so a
// ply has the sums of both or of neither (but for the current ply inside
// Evaluate, computed from scratch for one, then the other, when no ancestor
// has sums), and the changes are found once for both.
func (a *PerspectiveAccumulator) step(from, to int, _ game.Player) {
	a.done[to] = 3
	p1 := a.pos[to]
	var plus, minus [2][32]uint16
	np, nm := chessChanges(a.pos[from], p1, chess.White, &plus[0], &minus[0])
	if np+nm >= bits.OnesCount64(uint64(p1.Occupied())) {
		for pov := chess.White; pov <= chess.Black; pov++ {
			a.q.refresh(a.sums(to, pov), p1, pov)
		}
		return
	}
	stepViews(&a.stack, a.q.features, from, to, &plus, &minus, np, nm, otherView)
}

// stepViews sets both points of view's int16 sums of ply to from those of
// ply from: the features that changed, found from the first point of view
// (plus[0][:np] came, minus[0][:nm] went), are the second's through
// other, which it writes into plus[1] and minus[1].
func stepViews[P any](s *stack[P, int16], features []int16, from, to int, plus, minus *[2][32]uint16, np, nm int, other func(uint16) uint16) {
	for i := range np {
		plus[1][i] = other(plus[0][i])
	}
	for i := range nm {
		minus[1][i] = other(minus[0][i])
	}
	for pov := range game.Player(2) {
		applyColumns(kernels16(), s.sums(to, pov), s.sums(from, pov), features, s.h1, plus[pov][:np], minus[pov][:nm])
	}
}

// perspectiveValue returns the perspective net's value persp, in
// centipawns for side (the side to move), from pov's point of view in
// pawns.
func perspectiveValue(persp int, side, pov game.Player) float64 {
	if pov&1 != side {
		persp = -persp
	}
	return float64(persp) / 100
}

// otherView returns the feature that the feature f of one point of view is
// for the other: the same piece, of the other side, on the square mirrored
// vertically.
func otherView(f uint16) uint16 {
	if f < 384 {
		return f ^ 56 + 384
	}
	return f ^ 56 - 384
}
