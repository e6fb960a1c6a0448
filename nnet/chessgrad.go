package nnet

import (
	"fmt"
	"math/bits"

	"evolved/game"
	"evolved/game/chess"
)

// ChessLinearGradient appends to idx and grad the partial derivatives of
// ChessEval.Evaluate(p, pov) with respect to n's linear weights, the
// weights the value is a sum of products in: the piece values
// (EvolvePieceValues), the piece-square tables (EvolvePST, both phases'
// with TaperedTables) and the positional terms (EvolveTerms, both phases'
// with TaperedTerms). idx
// holds indexes into Weights, grad the derivatives in pawns per unit of
// weight; an index may appear more than once (a table entry that both
// sides' pieces use), and the derivative is the sum of its entries. The
// net's hidden layers and output are not linear and have none; with
// PieceDiff the output node also sees the material, and that part of a
// piece value's derivative is left out. n must be a chess net; otherwise
// the error wraps ErrArchitecture.
//
// A table entry enters the evaluation through a fixed-point column (see
// withBalanceChannel), so the evaluation moves by the derivative times a
// change only up to that column's rounding, a few millionths of a pawn.
func (n *Net) ChessLinearGradient(idx []int32, grad []float64, p *chess.Position, pov game.Player) ([]int32, []float64, error) {
	if n.sizes[0] != NumChessInputs {
		return idx, grad, fmt.Errorf("chess linear gradient: %w: a net of %d inputs, want %d", ErrArchitecture, n.sizes[0], NumChessInputs)
	}
	us := pov & 1
	if n.flags&EvolvePieceValues != 0 {
		for pt := chess.Pawn; pt <= chess.Queen; pt++ {
			d := bits.OnesCount64(uint64(p.Pieces(us, pt))) - bits.OnesCount64(uint64(p.Pieces(us^1, pt)))
			if d != 0 {
				idx = append(idx, int32(n.PieceValueIndex(int(pt))))
				grad = append(grad, float64(d))
			}
		}
	}
	if n.flags&EvolvePST != 0 {
		end := len(n.w) - len(n.pieceValues()) - len(n.terms())
		base := end - n.pstWeights()
		mg, eg := 1.0, 0.0
		if n.flags&TaperedTables != 0 {
			phase := float64(chessPhase(p))
			mg, eg = phase/24, (24-phase)/24
		}
		for _, c := range [2]game.Player{game.First, game.Second} {
			sign, flip := -1.0, 0
			if c == us {
				sign = 1
			}
			if c == game.Second {
				flip = 56
			}
			for pt := chess.Pawn; pt <= chess.King; pt++ {
				for b := uint64(p.Pieces(c, pt)); b != 0; b &= b - 1 {
					i := base + PSTIndex(int(pt), bits.TrailingZeros64(b)^flip)
					if mg != 0 {
						idx = append(idx, int32(i))
						grad = append(grad, sign*mg)
					}
					if eg != 0 {
						idx = append(idx, int32(i+NumPSTValues))
						grad = append(grad, sign*eg)
					}
				}
			}
		}
	}
	if n.flags&EvolveTerms != 0 {
		k := n.TermCount()
		base := len(n.w) - len(n.pieceValues()) - n.termWeights()
		f := chessTermFeatures(p, pov, k)
		units := ChessTermUnits()
		mg, eg := 1.0, 0.0
		if n.flags&TaperedTerms != 0 {
			phase := float64(chessPhase(p))
			mg, eg = phase/24, (24-phase)/24
		}
		for j := range k {
			if f[j] == 0 {
				continue
			}
			d := float64(f[j]) * units[j]
			idx = append(idx, int32(base+j))
			grad = append(grad, d*mg)
			if eg != 0 {
				idx = append(idx, int32(base+k+j))
				grad = append(grad, d*eg)
			}
		}
	}
	return idx, grad, nil
}
