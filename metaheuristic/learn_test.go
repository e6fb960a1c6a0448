package metaheuristic_test

import (
	"context"
	"testing"

	"evolved/game"
	"evolved/game/chess"
	"evolved/metaheuristic"
	"evolved/player"
	"evolved/search"
	"evolved/tournament"
)

// mateIn2FEN is White to mate in two: 1. Kb6 Kb8 2. Rh8# or 1. Kc7 Ka7
// 2. Ra1#, among others.
const mateIn2FEN = "k7/8/2K5/8/8/8/8/7R w - - 0 1"

// mates reports whether the side to move in p mates in at most n moves
// against any defence, by the rules' own legal moves.
func mates(p chess.Position, n int) bool {
	if n == 0 {
		return false
	}
	for _, m := range p.LegalMoves(nil) {
		q := p.Play(m)
		replies := q.LegalMoves(nil)
		if len(replies) == 0 {
			if q.InCheck() {
				return true
			}
			continue // stalemate
		}
		all := true
		for _, r := range replies {
			if !mates(q.Play(r), n-1) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// materialOpponent is a material-only alpha-beta searching one ply (and
// captures): it defends as well as material can see.
func materialOpponent() search.Player[chess.Move, *chess.Game] {
	ab := search.NewAlphaBeta[chess.Move, *chess.Game](player.ChessMaterial{},
		search.Options{Depth: 1, Quiescence: true, TableBits: 10})
	return search.Searcher[chess.Move, *chess.Game]{AlphaBeta: ab}
}

func TestMateIn2Position(t *testing.T) {
	p, err := chess.ParseFEN(mateIn2FEN)
	if err != nil {
		t.Fatal(err)
	}
	if mates(p, 1) || !mates(p, 2) {
		t.Fatalf("%s: mate in 1 %v, in 2 %v; want a mate in exactly 2", mateIn2FEN, mates(p, 1), mates(p, 2))
	}
}

func TestACOLearnsMateIn2(t *testing.T) {
	cfg := metaheuristic.DefaultACOConfig()
	cfg.Start = metaheuristic.Start{FEN: mateIn2FEN}
	cfg.Opponent = materialOpponent
	cfg.Turns, cfg.Ants, cfg.Iterations = 2, 16, 30
	cfg.Tolerance = metaheuristic.DefaultTolerance
	// Only the king counts. With the material weights every game that
	// keeps the rook scores +7, every move played gains value, and the
	// tolerance variant locks onto the first lines reinforced before a mate
	// is found (1 seed in 16 finds it in 40 iterations; with these weights
	// 15 in 16 do, seed 0 at iteration 6).
	w, err := metaheuristic.ParseWeights("p=0,n=0,b=0,r=0,q=0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Weights = w
	firstMate := -1
	cfg.OnIteration = func(s metaheuristic.IterationStats) {
		if s.Wins > 0 && firstMate < 0 {
			firstMate = s.Iteration
		}
	}
	res, err := metaheuristic.RunACO(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if firstMate < 0 || res.Best.Outcome.Reason != game.Checkmate {
		t.Fatalf("no mate in %d iterations; best %v %v", cfg.Iterations, res.Best.UCI(), res.Best.Outcome)
	}
	t.Logf("first mate at iteration %d: %v; last iteration %d wins of %d", firstMate, res.Best.UCI(),
		res.Iterations[len(res.Iterations)-1].Wins, cfg.Ants)

	// The greedy player then mates, whatever its seed.
	start, _ := chess.ParseFEN(mateIn2FEN)
	mated := 0
	const games = 10
	for i := range games {
		g := chess.NewGame(start, chess.DefaultRules())
		moves, o, err := tournament.Play(context.Background(), g, res.Table.Player(), materialOpponent(), [2]uint64{uint64(i), uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		if o.Reason == game.Checkmate && o.Result == game.FirstWins && len(moves) <= 3 {
			mated++
		}
	}
	if mated < games*8/10 {
		t.Errorf("the greedy player mated in 2 in %d of %d games", mated, games)
	}
}
