package player

import (
	"evolved/game"
	"evolved/game/chess"
	"evolved/nnet"
)

// ChessPST evaluates a chess position as ChessMaterial does plus the
// piece-square tables of Tomasz Michniewski's "Simplified Evaluation
// Function" (chessprogramming.org/Simplified_Evaluation_Function; the king's
// middle-game table throughout), from the side to move's point of view, in
// centipawns. It is the textbook next step after material, a fixed
// reference for what evolved evaluations should beat at the same search
// (spec pst:D).
type ChessPST struct{}

// pstSquare returns square s as side c sees it: mirrored for Black.
func pstSquare(c game.Player, s chess.Square) int {
	if c == chess.Black {
		return int(s) ^ 56
	}
	return int(s)
}

// pstScore returns the piece-square sum of p for side c, in centipawns.
func pstScore(p *chess.Position, c game.Player) int {
	score := 0
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		for b := p.Pieces(c, pt); b != 0; b &= b - 1 {
			score += nnet.ClassicPSTCentipawns(int(pt), pstSquare(c, b.First()))
		}
	}
	return score
}

// Evaluate returns ChessMaterial's value plus the piece-square balance,
// for the side to move.
func (ChessPST) Evaluate(g *chess.Game) int {
	p := g.Position()
	us := p.Side()
	return ChessMaterial{}.Evaluate(g) + pstScore(&p, us) - pstScore(&p, us.Other())
}
