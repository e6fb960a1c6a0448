package metaheuristic_test

import (
	"bytes"
	"context"
	"fmt"

	"evolved/game/chess"
	"evolved/metaheuristic"
	"evolved/tournament"
)

// Example learns the mate in 2 of k7/8/2K5/8/8/8/8/7R with the ant
// colony, stores the table, reads it back and plays it greedily, as the
// CLI does for a run, its storage and a later match.
func Example() {
	cfg := metaheuristic.DefaultACOConfig()
	cfg.Start = metaheuristic.Start{FEN: "k7/8/2K5/8/8/8/8/7R w - - 0 1"}
	cfg.Opponent = materialOpponent // depth-1 material alpha-beta
	cfg.Turns, cfg.Ants, cfg.Iterations = 2, 16, 10
	cfg.Tolerance = metaheuristic.DefaultTolerance
	cfg.Weights, _ = metaheuristic.ParseWeights("p=0,n=0,b=0,r=0,q=0") // only mate counts
	cfg.OnIteration = func(s metaheuristic.IterationStats) {
		if s.Iteration%3 == 0 {
			fmt.Printf("iteration %d: %d mates in %d games, best %g\n", s.Iteration, s.Wins, s.Games, s.BestSoFar)
		}
	}
	res, err := metaheuristic.RunACO(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("best game:", res.Best.FEN(), res.Best.UCI(), res.Best.Cost, res.Best.Outcome)

	var file bytes.Buffer // a file or a database blob
	if err := res.Table.Write(&file); err != nil {
		fmt.Println(err)
		return
	}
	table, err := metaheuristic.ReadPheromones(&file)
	if err != nil {
		fmt.Println(err)
		return
	}
	g := chess.NewGame(res.Best.Start, chess.DefaultRules())
	moves, outcome, err := tournament.Play(context.Background(), g, table.Player(), materialOpponent(), [2]uint64{1, 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("greedy:", len(moves), "plies,", outcome)
	// Output:
	// iteration 0: 0 mates in 16 games, best 0
	// iteration 3: 0 mates in 16 games, best 0
	// iteration 6: 1 mates in 16 games, best 1000
	// iteration 9: 16 mates in 16 games, best 1000
	// best game: k7/8/2K5/8/8/8/8/7R w - - 0 1 [c6c7 a8a7 h1a1] 1000 first wins (checkmate)
	// greedy: 3 plies, first wins (checkmate)
}
