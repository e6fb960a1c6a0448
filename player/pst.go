package player

import (
	"evolved/game"
	"evolved/game/chess"
)

// ChessPST evaluates a chess position as ChessMaterial does plus the
// piece-square tables of Tomasz Michniewski's "Simplified Evaluation
// Function" (chessprogramming.org/Simplified_Evaluation_Function; the king's
// middle-game table throughout), from the side to move's point of view, in
// centipawns. It is the textbook next step after material, a fixed
// reference for what evolved evaluations should beat at the same search
// (spec pst:D).
type ChessPST struct{}

// pstTables are Michniewski's tables by piece type, as printed: White's
// view, rank 8 first, file a first.
var pstTables = [6][64]int8{
	chess.Pawn: {
		0, 0, 0, 0, 0, 0, 0, 0,
		50, 50, 50, 50, 50, 50, 50, 50,
		10, 10, 20, 30, 30, 20, 10, 10,
		5, 5, 10, 25, 25, 10, 5, 5,
		0, 0, 0, 20, 20, 0, 0, 0,
		5, -5, -10, 0, 0, -10, -5, 5,
		5, 10, 10, -20, -20, 10, 10, 5,
		0, 0, 0, 0, 0, 0, 0, 0,
	},
	chess.Knight: {
		-50, -40, -30, -30, -30, -30, -40, -50,
		-40, -20, 0, 0, 0, 0, -20, -40,
		-30, 0, 10, 15, 15, 10, 0, -30,
		-30, 5, 15, 20, 20, 15, 5, -30,
		-30, 0, 15, 20, 20, 15, 0, -30,
		-30, 5, 10, 15, 15, 10, 5, -30,
		-40, -20, 0, 5, 5, 0, -20, -40,
		-50, -40, -30, -30, -30, -30, -40, -50,
	},
	chess.Bishop: {
		-20, -10, -10, -10, -10, -10, -10, -20,
		-10, 0, 0, 0, 0, 0, 0, -10,
		-10, 0, 5, 10, 10, 5, 0, -10,
		-10, 5, 5, 10, 10, 5, 5, -10,
		-10, 0, 10, 10, 10, 10, 0, -10,
		-10, 10, 10, 10, 10, 10, 10, -10,
		-10, 5, 0, 0, 0, 0, 5, -10,
		-20, -10, -10, -10, -10, -10, -10, -20,
	},
	chess.Rook: {
		0, 0, 0, 0, 0, 0, 0, 0,
		5, 10, 10, 10, 10, 10, 10, 5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		0, 0, 0, 5, 5, 0, 0, 0,
	},
	chess.Queen: {
		-20, -10, -10, -5, -5, -10, -10, -20,
		-10, 0, 0, 0, 0, 0, 0, -10,
		-10, 0, 5, 5, 5, 5, 0, -10,
		-5, 0, 5, 5, 5, 5, 0, -5,
		0, 0, 5, 5, 5, 5, 0, -5,
		-10, 5, 5, 5, 5, 5, 0, -10,
		-10, 0, 5, 0, 0, 0, 0, -10,
		-20, -10, -10, -5, -5, -10, -10, -20,
	},
	chess.King: {
		-30, -40, -40, -50, -50, -40, -40, -30,
		-30, -40, -40, -50, -50, -40, -40, -30,
		-30, -40, -40, -50, -50, -40, -40, -30,
		-30, -40, -40, -50, -50, -40, -40, -30,
		-20, -30, -30, -40, -40, -30, -30, -20,
		-10, -20, -20, -20, -20, -20, -20, -10,
		20, 20, 0, 0, 0, 0, 20, 20,
		20, 30, 10, 0, 0, 10, 30, 20,
	},
}

// pstIndex returns the index into a printed table of square s for side c:
// White's a1 is the last row's first entry; Black's squares are mirrored.
func pstIndex(c game.Player, s chess.Square) int {
	r, f := s.Rank(), s.File()
	if c == chess.Black {
		r = 7 - r
	}
	return (7-r)*8 + f
}

// PSTScore returns the piece-square sum of p for side c, in centipawns.
func PSTScore(p *chess.Position, c game.Player) int {
	score := 0
	for pt := chess.Pawn; pt <= chess.King; pt++ {
		for b := p.Pieces(c, pt); b != 0; b &= b - 1 {
			score += int(pstTables[pt][pstIndex(c, b.First())])
		}
	}
	return score
}

// Evaluate returns ChessMaterial's value plus the piece-square balance,
// for the side to move.
func (ChessPST) Evaluate(g *chess.Game) int {
	p := g.Position()
	us := p.Side()
	return ChessMaterial{}.Evaluate(g) + PSTScore(&p, us) - PSTScore(&p, us.Other())
}
