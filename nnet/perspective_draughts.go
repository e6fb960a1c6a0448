package nnet

import (
	"math/bits"

	"evolved/game"
	"evolved/game/draughts"
)

// The perspective net for draughts (issue 61): the chess net's design
// (PerspectiveNet, QuantizedPerspective) over a draughts encoding, as an
// option beside the Blondie net.
//
// Features. Each point of view (pov, Black or White) sees the board as the
// Blondie encoding turns it (see draughts.go): as it is for Black, rotated
// 180 degrees for White (square index s -> s^31), so that pov's men always
// start on the top rows. Feature side*64 + kind*32 + s is on when square
// index s (0..31, square s+1 of the board pov sees) holds a piece of side
// (0 = pov's own, 1 = the opponent's) and kind (0 = man, 1 = king): own
// men 0-31, own kings 32-63, opponent's men 64-95, opponent's kings
// 96-127. At most 24 are on, one per square at most. The other point of
// view sees feature f as f^95 (draughtsOtherView): the other side, the
// square turned.
//
// Value. The output is the chess net's, with pov's sums first:
//
//	out = OutputBias + sum_h OutputWeights[h]*crelu(acc_pov[h])
//	                 + sum_h OutputWeights[Hidden+h]*crelu(acc_other[h])
//
// and the value of the position for pov is out in the Blondie net's
// units (its full output 1, which the search scores 10,000: player.NetScale),
// quantized to DraughtsPerspectiveScale units of an output and clamped to
// ±1 (draughtsPerspectiveValue), as a tanh output never passes it. A
// search asks for the side to move's value, so that pov's sums are the
// side to move's, as in chess; the Blondie net, too, values a position
// for a point of view and not for a side to move. A position and its
// colour-flipped mirror image (the board turned, the colours swapped)
// have the same features for the opposite points of view, and thus the
// same value for them, for any weights.
//
// Quantization is the chess net's (QA = 255, QB = 1024, int16 sums and
// output weights, an int32 output), and so is its bound: a sum's bias and
// the largest of the four planes' weight magnitudes on each of the 32
// squares must stay within an int16, which the genome's clamps
// (PerspectiveFeatureLimit) guarantee.

// NumDraughtsPerspectiveInputs is the number of features a side of a
// draughts perspective net: own men, own kings, the opponent's men and
// kings, on 32 squares each.
const NumDraughtsPerspectiveInputs = 128

// DefaultDraughtsPerspectiveHidden is the default width of a draughts
// perspective net: 128 sums from each point of view, as many as it has
// features. At 128 a node of make, evaluate and unmake costs half the
// Blondie net's (BenchmarkPerspectiveDraughts, by CPU time on a loaded
// machine: 98 ns against 197-202), at 256 1.2 times 128's (118-120 ns);
// and 128 sums are 16,769 weights to 256's 33,537, for a mutation that
// moves every weight at random (chess's wide net, 197,000 weights, loses
// to its narrow one when evolved by mutation alone: docs/performance.md).
const DefaultDraughtsPerspectiveHidden = 128

// DraughtsPerspectiveScale is the number of units of a draughts
// perspective net's integer value an output of 1 is worth: its value is
// in ten-thousandths of the Blondie net's full output, the unit a search
// scores a net's value in (player.NetScale).
const DraughtsPerspectiveScale = 10000

// GenomeInputs returns the number of inputs of a genome with flags of the
// game whose tanh nets take narrow inputs: narrow, but for a draughts
// perspective net (NumDraughtsInputs and Perspective), whose features are
// NumDraughtsPerspectiveInputs; chess and xiangqi perspective nets keep
// their encodings' inputs.
func GenomeInputs(narrow int, flags Flags) int {
	if narrow == NumDraughtsInputs && flags&Perspective != 0 {
		return NumDraughtsPerspectiveInputs
	}
	return narrow
}

// draughtsFeatures writes the features that are on in b from pov's point
// of view into f, pov's pieces first, each side's by square, and returns
// how many there are.
func draughtsFeatures(b *draughtsBoard, pov game.Player, f *[perspectivePieces]uint16) int {
	own, opp, flip := b.black, b.white, 0
	if pov != draughts.Black {
		own, opp, flip = opp, own, 31
	}
	k := 0
	for side, pieces := range [2]uint32{own, opp} {
		for x := pieces; x != 0; x &= x - 1 {
			s := bits.TrailingZeros32(x)
			f[k] = uint16(side*64 + int(b.kings>>s&1)*32 + (s ^ flip))
			k++
		}
	}
	return k
}

// draughtsOtherView returns the feature that the feature f of one point of
// view is for the other: the same piece, of the other side (bit 6), on the
// square turned 180 degrees (the low five bits).
func draughtsOtherView(f uint16) uint16 { return f ^ 95 }

// EvaluateDraughts returns the value of the draughts position p for pov,
// in DraughtsPerspectiveScale units of an output and not clamped, computed
// from the float32 masters of a draughts net in float64 (the sums in
// draughtsFeatures' order): the definition the quantized net
// approximates. It allocates; a search uses a DraughtsAccumulator.
func (n *PerspectiveNet) EvaluateDraughts(p *draughts.Position, pov game.Player) float64 {
	b := boardOf(p)
	return n.evaluate(pov&1, func(v game.Player, f *[perspectivePieces]uint16) int { return draughtsFeatures(&b, v, f) })
}

// EvaluateDraughts returns the value of the draughts position p for pov,
// in DraughtsPerspectiveScale units of an output and not clamped, computed
// from scratch with a draughts net; a DraughtsAccumulator gives the same
// sums incrementally. It does not allocate.
func (q *QuantizedPerspective) EvaluateDraughts(p *draughts.Position, pov game.Player) int {
	var us, them [MaxPerspectiveHidden]int16
	b := boardOf(p)
	pov &= 1
	q.refreshDraughts(us[:q.hidden], &b, pov)
	q.refreshDraughts(them[:q.hidden], &b, pov^1)
	return q.value(us[:q.hidden], them[:q.hidden])
}

// refreshDraughts sets acc to the sums of the draughts board b from pov's
// point of view.
func (q *QuantizedPerspective) refreshDraughts(acc []int16, b *draughtsBoard, pov game.Player) {
	var f [perspectivePieces]uint16
	h := q.hidden
	copy(acc, q.bias)
	for _, feat := range f[:draughtsFeatures(b, pov, &f)] {
		add16(acc, acc, q.features[int(feat)*h:int(feat)*h+h])
	}
}

// draughtsPerspectiveValue returns a draughts perspective net's integer
// value v (DraughtsPerspectiveScale units of an output) as the Blondie
// net's evaluators return theirs: a float64, here clamped to [-1, 1].
func draughtsPerspectiveValue(v int) float64 {
	return float64(min(max(v, -DraughtsPerspectiveScale), DraughtsPerspectiveScale)) * (1.0 / DraughtsPerspectiveScale)
}

// draughtsChanges writes the features, from Black's point of view, that
// are on in b1 and not in b0 into plus and those on in b0 and not in b1
// into minus, and returns how many of each: two for a quiet move, one more
// for each piece a jump captures, a promotion changing a man's feature
// into a king's. It visits only the squares whose content changed (two or
// three for a move), each at most one feature in and one out, so any two
// boards differ by at most 24 of each.
func draughtsChanges(b0, b1 *draughtsBoard, plus, minus *[32]uint16) (np, nm int) {
	for x := (b0.black ^ b1.black) | (b0.white ^ b1.white) | (b0.kings ^ b1.kings); x != 0; x &= x - 1 {
		s := bits.TrailingZeros32(x)
		if (b0.black|b0.white)>>s&1 != 0 {
			minus[nm] = uint16(int(b0.white>>s&1)*64 + int(b0.kings>>s&1)*32 + s)
			nm++
		}
		if (b1.black|b1.white)>>s&1 != 0 {
			plus[np] = uint16(int(b1.white>>s&1)*64 + int(b1.kings>>s&1)*32 + s)
			np++
		}
	}
	return np, nm
}

// draughtsPerspective is the perspective net's part of a
// DraughtsAccumulator: per ply of the accumulator's stack, both points of
// view's int16 sums, computed for both at once from the plies' boards,
// which the accumulator's stack keeps.
type draughtsPerspective struct {
	stack[struct{}, int16]
	a *DraughtsAccumulator
	q *QuantizedPerspective
}

// reset makes the accumulator's root board its root, with its sums for
// both points of view.
func (p *draughtsPerspective) reset() {
	p.top = 0
	for pov := draughts.Black; pov <= draughts.White; pov++ {
		p.q.refreshDraughts(p.sums(0, pov), &p.a.pos[0], pov)
	}
	p.done[0] = 3
}

// evaluate returns the value of the current ply for pov (0 or 1), as
// draughtsPerspectiveValue gives it, computing its sums first.
func (p *draughtsPerspective) evaluate(pov game.Player) float64 {
	for v := draughts.Black; v <= draughts.White; v++ { // a step computes both, a refresh one
		if p.done[p.top]&(1<<v) == 0 {
			update(&p.stack, p, v)
		}
	}
	return draughtsPerspectiveValue(p.q.valuePair(p.pair(p.top), pov))
}

// refresh sums the current ply from scratch for pov (for update, which
// calls it only for the current ply, and only before any Reset).
func (p *draughtsPerspective) refresh(dst []int16, _ *struct{}, pov game.Player) {
	p.q.refreshDraughts(dst, &p.a.pos[p.top], pov)
}

// step computes the sums of ply to from those of ply from for both points
// of view, as PerspectiveAccumulator.step does for chess: the features
// that changed are found once, from Black's point of view, and turned for
// White's (draughtsOtherView); when as many changed as the board has
// pieces, it sums from scratch. A move adds one row and subtracts one or
// more (the first pair in one pass), and the rows are called directly
// rather than through stepViews' lists, which cost a quarter of a draughts
// node (BenchmarkPerspectiveDraughts).
func (p *draughtsPerspective) step(from, to int, _ game.Player) {
	p.done[to] = 3
	b1 := &p.a.pos[to]
	var plus, minus [32]uint16
	np, nm := draughtsChanges(&p.a.pos[from], b1, &plus, &minus)
	if np == 0 || nm == 0 || np+nm >= bits.OnesCount32(b1.black|b1.white) {
		for pov := draughts.Black; pov <= draughts.White; pov++ {
			p.q.refreshDraughts(p.sums(to, pov), b1, pov)
		}
		return
	}
	h, w := p.h1, p.q.features
	for pov := range game.Player(2) {
		other := uint16(pov) * 95 // draughtsOtherView for White
		row := func(f uint16) []int16 { f ^= other; return w[int(f)*h : int(f)*h+h] }
		dst := p.sums(to, pov)
		addSub16(dst, p.sums(from, pov), row(plus[0]), row(minus[0]))
		for _, f := range plus[1:np] {
			add16(dst, dst, row(f))
		}
		for _, f := range minus[1:nm] {
			sub16(dst, dst, row(f))
		}
	}
}
