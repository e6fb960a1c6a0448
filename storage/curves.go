package storage

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Curves are a run's learning curves, for plots.
type Curves struct {
	// Per played generation, in order.
	Generations []int
	Best, Mean  []float64
	// LadderGenerations are the generations that played the ladder
	// (population.Config.LadderDue), in order; LadderMean their means.
	LadderGenerations []int
	LadderMean        []float64
	// Baselines holds, per opponent, the champion's score fraction at each
	// generation that played it. Old champions ("champion:N") are gathered
	// under "champion of generation/2".
	Baselines map[string][]BaselinePoint
}

// BaselinePoint is a champion's score against one opponent, with the Elo
// difference it implies and the half-width of that difference's 95%
// interval (baselines.elo and elo_ci), and the number of games it was
// scored over (wins + draws + losses).
type BaselinePoint struct {
	Generation int
	Score      float64
	Elo, EloCI float64
	Games      int
}

// HalfAgoChampion is the name Curves gives the baseline "champion of half as
// many generations ago".
const HalfAgoChampion = "champion of generation/2"

// LoadCurves reads the learning curves of game's run.
func (d *DB) LoadCurves(ctx context.Context, game string) (Curves, error) {
	c := Curves{Baselines: map[string][]BaselinePoint{}}
	if _, err := d.LoadRun(ctx, game); err != nil {
		return c, err
	}
	rows, err := d.db.QueryContext(ctx, `SELECT generation, best_fitness, mean_fitness, ladder_mean
		FROM generations WHERE game = ? ORDER BY generation`, game)
	if err != nil {
		return c, fmt.Errorf("curves %s: %w", game, err)
	}
	for rows.Next() {
		var g int
		var best, mean float64
		var ladder sql.NullFloat64
		if err := rows.Scan(&g, &best, &mean, &ladder); err != nil {
			rows.Close()
			return c, fmt.Errorf("curves %s: %w", game, err)
		}
		c.Generations = append(c.Generations, g)
		c.Best, c.Mean = append(c.Best, best), append(c.Mean, mean)
		if ladder.Valid {
			c.LadderGenerations, c.LadderMean = append(c.LadderGenerations, g), append(c.LadderMean, ladder.Float64)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return c, fmt.Errorf("curves %s: %w", game, err)
	}
	rows, err = d.db.QueryContext(ctx, `SELECT generation, opponent, score, elo, elo_ci, wins + draws + losses FROM baselines
		WHERE game = ? ORDER BY generation, opponent`, game)
	if err != nil {
		return c, fmt.Errorf("curves %s: %w", game, err)
	}
	defer rows.Close()
	for rows.Next() {
		var p BaselinePoint
		var opp string
		if err := rows.Scan(&p.Generation, &opp, &p.Score, &p.Elo, &p.EloCI, &p.Games); err != nil {
			return c, fmt.Errorf("curves %s: %w", game, err)
		}
		if strings.HasPrefix(opp, "champion:") {
			opp = HalfAgoChampion
		}
		c.Baselines[opp] = append(c.Baselines[opp], p)
	}
	if err := rows.Err(); err != nil {
		return c, fmt.Errorf("curves %s: %w", game, err)
	}
	return c, nil
}

// FitnessSample is one generation's champion fitness, for sparklines.
type FitnessSample struct {
	Generation int
	Best       float64
}

// SampleFitness returns the champion's fitness at about points
// generations of game's run, spread evenly from the first to the latest:
// a few primary-key look-ups, however long the run.
func (d *DB) SampleFitness(ctx context.Context, game string, points int) ([]FitnessSample, error) {
	var n int
	if err := d.db.QueryRowContext(ctx, "SELECT coalesce(max(generation) + 1, 0) FROM generations WHERE game = ?", game).Scan(&n); err != nil {
		return nil, fmt.Errorf("sample fitness of %s: %w", game, err)
	}
	if n == 0 || points < 1 {
		return nil, nil
	}
	var out []FitnessSample
	last := -1
	for i := range points {
		g := 0
		if points > 1 {
			g = i * (n - 1) / (points - 1)
		}
		if g == last {
			continue
		}
		last = g
		s := FitnessSample{Generation: g}
		if err := d.db.QueryRowContext(ctx, "SELECT best_fitness FROM generations WHERE game = ? AND generation = ?", game, g).Scan(&s.Best); err != nil {
			return nil, fmt.Errorf("sample fitness of %s generation %d: %w", game, g, err)
		}
		out = append(out, s)
	}
	return out, nil
}
