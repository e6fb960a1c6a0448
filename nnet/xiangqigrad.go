package nnet

import (
	"fmt"

	"evolved/game"
	"evolved/game/xiangqi"
)

// XiangqiLinearGradient is ChessLinearGradient for xiangqi: it appends to
// idx and grad the partial derivatives of XiangqiEval.Evaluate(p, pov)
// with respect to n's piece values (EvolvePieceValues), piece-square
// tables (EvolvePST) and positional terms (EvolveTerms), as indexes into
// Weights and pawns per unit of weight, an index possibly more than once
// (the sum is the derivative). The hidden layers and the output have none;
// with PieceDiff the output's share of a piece value's derivative is left
// out, and a table entry moves the value through a fixed-point column, up
// to its rounding. n must be a xiangqi net; otherwise the error wraps
// ErrArchitecture.
func (n *Net) XiangqiLinearGradient(idx []int32, grad []float64, p *xiangqi.Position, pov game.Player) ([]int32, []float64, error) {
	if !n.isXiangqi() {
		return idx, grad, fmt.Errorf("xiangqi linear gradient: %w: a net of %d inputs, want %d", ErrArchitecture, n.sizes[0], NumXiangqiInputs)
	}
	us := pov & 1
	var count [2][xiangqi.Soldier + 1]int
	pstBase := -1
	if n.flags&EvolvePST != 0 {
		pstBase = len(n.w) - len(n.pieceValues()) - len(n.terms()) - NumXiangqiPSTValues
	}
	for s := range xiangqi.Squares {
		pt, c := p.PieceAt(xiangqi.Square(s))
		if pt == xiangqi.NoPieceType {
			continue
		}
		count[c&1][pt]++
		if pstBase < 0 {
			continue
		}
		own, sign := s, -1.0 // the point as the piece's side sees it
		if c&1 == game.Second {
			own = s + 81 - 18*(s/xiangqi.Files)
		}
		if c&1 == us {
			sign = 1
		}
		idx = append(idx, int32(pstBase+XiangqiPSTIndex(pt, xiangqi.Square(own))))
		grad = append(grad, sign)
	}
	if n.flags&EvolvePieceValues != 0 {
		for pt := xiangqi.Advisor; pt <= xiangqi.Soldier; pt++ {
			if d := count[us][pt] - count[us^1][pt]; d != 0 {
				idx = append(idx, int32(n.PieceValueIndex(int(pt)-1)))
				grad = append(grad, float64(d))
			}
		}
	}
	if n.flags&EvolveTerms != 0 {
		k := n.TermCount()
		base := len(n.w) - len(n.pieceValues()) - k
		f := xiangqiTermFeatures(p, pov, k > NumBasicXiangqiTerms)
		units := XiangqiTermUnits()
		for j := range k {
			if f[j] != 0 {
				idx = append(idx, int32(base+j))
				grad = append(grad, float64(f[j])*units[j])
			}
		}
	}
	return idx, grad, nil
}
