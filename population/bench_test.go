package population_test

import (
	"context"
	"fmt"
	"testing"

	"evolved/games"
	"evolved/nnet"
	"evolved/population"
	"evolved/tournament"
)

// BenchmarkGeneration reports generations per hour of the draughts
// population at depth 4 (the daemon's default), tournament and champion
// ladder included, baselines off, for both formats and 1 and 2 workers.
// Each iteration plays the next generation of one run, so later iterations
// play evolved (longer, more drawn) games rather than generation 0's.
func BenchmarkGeneration(b *testing.B) {
	species := population.LocalEnv(games.Draughts(), games.Setup{Depth: 4})
	for _, format := range []tournament.Format{tournament.Blondie, tournament.RoundRobin} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("format=%s/workers=%d", format, workers), func(b *testing.B) {
				cfg := population.DefaultConfig()
				cfg.Tournament = tournament.Config{Format: format, Workers: workers}
				cfg.BaselineEvery = 0
				st, err := population.New("draughts", nnet.NumDraughtsInputs, cfg, 1)
				if err != nil {
					b.Fatal(err)
				}
				games := 0
				for b.Loop() {
					var rep *population.Report[dm]
					if st, rep, err = population.Step(context.Background(), species, cfg, st, nil); err != nil {
						b.Fatal(err)
					}
					games += len(rep.Results.Games)
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Hours(), "gens/hour")
				b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
			})
		}
	}
}
