package metaheuristic

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkACOIteration measures ant colony iterations against a random
// opponent, which costs next to nothing, so that the learner's side of the
// work shows: the games' moves, table look-ups, draws and the update. One
// op is a run of 10 iterations of 32 ants playing up to 40 learner moves
// from the start position, from an empty table (about 12,000 positions at
// the end); games/s is the figure to compare.
func BenchmarkACOIteration(b *testing.B) {
	const iterations, ants = 10, 32
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			cfg := DefaultACOConfig()
			cfg.Opponent = randomOpponent
			cfg.Turns, cfg.Ants, cfg.Iterations, cfg.Workers, cfg.Tolerance = 40, ants, iterations, workers, 0.5
			b.ReportAllocs()
			for b.Loop() {
				if _, err := RunACO(context.Background(), cfg); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*iterations*ants)/b.Elapsed().Seconds(), "games/s")
		})
	}
}
