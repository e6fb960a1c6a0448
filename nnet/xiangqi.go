package nnet

// NumXiangqiInputs is the number of inputs of a xiangqi net: 7 piece types
// x 2 sides x 90 points.
const NumXiangqiInputs = 7 * 2 * 90

// NumXiangqiPieceValues is the number of evolvable xiangqi piece values:
// advisor, elephant, horse, chariot, cannon and soldier, in the order of
// xiangqi.PieceType (the general is not counted).
const NumXiangqiPieceValues = 6

// ClassicXiangqiPieceValues returns the classic xiangqi piece values, by
// xiangqi.PieceType minus one (advisor .. soldier): advisor 1.1, elephant
// 1.1, horse 3, chariot 6, cannon 5, soldier 0.7, the classic program's
// strengths (110, 110, 300, 600, 500, 70) in units of 100, called pawns
// here as in chess. Xiangqi nets start from them (EvolvePieceValues) or
// keep them (without it).
func ClassicXiangqiPieceValues() [NumXiangqiPieceValues]float64 {
	return [NumXiangqiPieceValues]float64{1.1, 1.1, 3, 6, 5, 0.7}
}
