package nnet

import "evolved/game/xiangqi"

// Xiangqi piece-square tables (EvolvePST on a xiangqi net).

// NumXiangqiPSTValues is the number of piece-square values of EvolvePST on
// a xiangqi net: one per piece type (general .. soldier) and point.
const NumXiangqiPSTValues = 7 * xiangqi.Squares

// XiangqiPSTIndex returns the index, within a xiangqi net's piece-square
// tables, of piece type pt (xiangqi.General = 0 .. xiangqi.Soldier = 6) on
// point s as its own side sees it (a1 = 0 .. i10 = 89 for Red, mirrored
// vertically for Black, as in the net's encoding): pt*90 + s.
func XiangqiPSTIndex(pt xiangqi.PieceType, s xiangqi.Square) int {
	return int(pt)*xiangqi.Squares + int(s)
}

// xiangqiHome is a point each piece type starts on, as Red sees it: e1,
// d1, c1, b1, a1, b3, a4.
var xiangqiHome = [7]xiangqi.Square{4, 3, 2, 1, 0, 19, 27}

// ClassicXiangqiPST returns the tables xiangqi nets with EvolvePST start
// from, indexed by XiangqiPSTIndex, in pawns: what the classic program's
// evaluation gives a piece for its point (xiangqi.ClassicPositionValue:
// ElephantEye's position tables and the bonus for crossing the river),
// on the evaluation's own scale, where a pawn is 100 strength units
// weighed xiangqi.ClassicWeightStrength each, less the value of the
// piece's start point (its home), so that a piece at home is worth its
// piece value alone. A chariot on e9, the best point of its table, is worth 0.26
// pawns more than at home, a soldier next to the enemy palace 0.60 more.
func ClassicXiangqiPST() [NumXiangqiPSTValues]float64 {
	const pawn = 100 * xiangqi.ClassicWeightStrength
	var t [NumXiangqiPSTValues]float64
	for pt := range xiangqi.PieceType(7) {
		home := xiangqi.ClassicPositionValue(pt, xiangqi.Red, xiangqiHome[pt])
		for s := range xiangqi.Square(xiangqi.Squares) {
			t[XiangqiPSTIndex(pt, s)] = float64(xiangqi.ClassicPositionValue(pt, xiangqi.Red, s)-home) / pawn
		}
	}
	return t
}

// XiangqiPST returns a copy of the piece-square tables of a xiangqi net
// with EvolvePST, indexed by XiangqiPSTIndex, in pawns; ok is false for a
// net without them.
func (n *Net) XiangqiPST() (t [NumXiangqiPSTValues]float64, ok bool) {
	if !n.isXiangqi() {
		return t, false
	}
	v := n.pst()
	if v == nil {
		return t, false
	}
	return [NumXiangqiPSTValues]float64(v), true
}

// pstCount returns the number of piece-square values EvolvePST adds to a
// net with the given number of inputs: NumPSTValues for a chess net,
// NumXiangqiPSTValues for a xiangqi net, 0 (refused by layout) otherwise.
func pstCount(inputs int) int {
	switch inputs {
	case NumChessInputs:
		return NumPSTValues
	case NumXiangqiInputs:
		return NumXiangqiPSTValues
	}
	return 0
}

// defaultPST returns the tables EvolvePST starts from on a net with the
// given number of inputs: ClassicPST or ClassicXiangqiPST.
func defaultPST(inputs int) []float64 {
	if inputs == NumXiangqiInputs {
		t := ClassicXiangqiPST()
		return t[:]
	}
	t := ClassicPST()
	return t[:]
}
