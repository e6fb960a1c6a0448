package storage

import (
	"context"
	"fmt"
	"strings"
)

// Curves are a run's learning curves, for plots.
type Curves struct {
	// Per played generation, in order.
	Generations []int
	Best, Mean  []float64
	LadderMean  []float64
	// Baselines holds, per opponent, the champion's score fraction at each
	// generation that played it. Old champions ("champion:N") are gathered
	// under "champion of generation/2".
	Baselines map[string][]BaselinePoint
}

// BaselinePoint is a champion's score against one opponent, with the Elo
// difference it implies and the half-width of that difference's 95%
// interval (baselines.elo and elo_ci).
type BaselinePoint struct {
	Generation int
	Score      float64
	Elo, EloCI float64
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
		var best, mean, ladder float64
		if err := rows.Scan(&g, &best, &mean, &ladder); err != nil {
			rows.Close()
			return c, fmt.Errorf("curves %s: %w", game, err)
		}
		c.Generations = append(c.Generations, g)
		c.Best, c.Mean, c.LadderMean = append(c.Best, best), append(c.Mean, mean), append(c.LadderMean, ladder)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return c, fmt.Errorf("curves %s: %w", game, err)
	}
	rows, err = d.db.QueryContext(ctx, `SELECT generation, opponent, score, elo, elo_ci FROM baselines
		WHERE game = ? ORDER BY generation, opponent`, game)
	if err != nil {
		return c, fmt.Errorf("curves %s: %w", game, err)
	}
	defer rows.Close()
	for rows.Next() {
		var p BaselinePoint
		var opp string
		if err := rows.Scan(&p.Generation, &opp, &p.Score, &p.Elo, &p.EloCI); err != nil {
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
