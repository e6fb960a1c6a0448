package climb

import (
	"context"
	"fmt"

	"evolved/search"
	"evolved/tournament"
)

// Climb is how a climb's matches are played: every champion against one
// opponent, in one arena, over the same seeded openings. The players
// come from the caller, which knows where champions are stored.
type Climb[M comparable, S search.Game[M]] struct {
	// Arena is where every match is played.
	Arena tournament.Arena[M, S]
	// Opponent makes the players of the one opponent.
	Opponent func() search.Player[M, S]
	// Champion returns the maker of the players of a generation's
	// champion; its error is returned as it is.
	Champion func(generation int) (func() search.Player[M, S], error)
	// Budget, if not nil, returns the node budget a generation's champion
	// played under, which its point then shows (Point.Nodes).
	Budget func(generation int) (int64, error)
	// Hours is the run's time of evolution by generation (Hours).
	Hours map[int]float64
	// Match is each match's games, concurrency, seed and clock; its
	// Progress is Play's own.
	Match tournament.MatchOptions
	// Progress, if not nil, is called after each finished game with the
	// games done over all the matches and the generation playing.
	Progress func(done, generation int)
	// Measured, if not nil, is called with each point once it is measured,
	// before the next match starts.
	Measured func(Point)
}

// Play plays the champion of each generation of gens against the
// opponent, in order, and returns their points. The matches are
// tournament.Match's, so a point does not depend on the concurrency.
func (c Climb[M, S]) Play(ctx context.Context, gens []int) ([]Point, error) {
	var points []Point
	for i, g := range gens {
		champion, err := c.Champion(g)
		if err != nil {
			return points, err
		}
		opts, base := c.Match, i*c.Match.Games
		opts.Progress = nil
		if c.Progress != nil {
			opts.Progress = func(done, _ int) { c.Progress(base+done, g) }
		}
		res, err := tournament.Match(ctx, c.Arena, champion, c.Opponent, opts)
		if err != nil {
			return points, fmt.Errorf("climb: generation %d: %w", g, err)
		}
		p := NewPoint(g, c.Hours[g], res.Wins, res.Draws, res.Losses)
		if c.Budget != nil {
			if p.Nodes, err = c.Budget(g); err != nil {
				return points, fmt.Errorf("climb: %w", err)
			}
		}
		points = append(points, p)
		if c.Measured != nil {
			c.Measured(p)
		}
	}
	return points, nil
}
