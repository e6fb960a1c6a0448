package metaheuristic

import (
	"cmp"
	"context"
	"slices"
	"testing"
)

func TestTemperature(t *testing.T) {
	// The classic drop: T0 / N * 0.9 = 0.8 / 10 * 0.9 = 0.072 per step.
	c := SAConfig{Config: Config{Iterations: 10}, T0: 0.8}
	for _, tt := range []struct {
		k    int
		want float64
	}{
		{0, 0.8},
		{1, 0.8 - 0.072},     // 0.728
		{5, 0.8 - 5*0.072},   // 0.44
		{9, 0.8 - 9*0.072},   // 0.152, the last iteration
		{20, 0.8 - 20*0.072}, // -0.64: clamped to 0 below
	} {
		want := max(0, tt.want)
		if got := c.Temperature(tt.k); !near(got, want) {
			t.Errorf("Temperature(%d) = %v, want %v", tt.k, got, want)
		}
	}
	// An explicit drop: 0.8 - 2*0.3 = 0.2, then 0.8 - 3*0.3 < 0.
	c.Drop = 0.3
	if got := c.Temperature(2); !near(got, 0.2) {
		t.Errorf("Temperature(2) with drop 0.3 = %v, want 0.2", got)
	}
	if got := c.Temperature(3); got != 0 {
		t.Errorf("Temperature(3) with drop 0.3 = %v, want 0", got)
	}
}

func TestSAAtZeroReplaysTheSavedLine(t *testing.T) {
	// At temperature 0 the first game (random: nothing is saved yet) is
	// replayed move for move, the opponent's replies included, and the
	// opponent is never asked again.
	log := &opponentLog{seeds: map[uint64]int{}, asked: map[uint64]int{}}
	cfg := DefaultSAConfig()
	cfg.Opponent = log.factory()
	cfg.T0, cfg.Iterations, cfg.Turns = 0, 6, 8
	res, err := RunSA(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	for _, n := range log.asked {
		asked += n
	}
	if moves := len(res.Best.Moves); asked != moves/2 {
		t.Errorf("opponent asked %d times, want %d (the first game's replies only)", asked, moves/2)
	}
	for _, s := range res.Iterations {
		if s.BestCost != res.Best.Cost || s.Temperature != 0 || s.Games != 1 {
			t.Errorf("iteration %+v: want the first game's cost %v at temperature 0", s, res.Best.Cost)
		}
	}
	checkTableHoldsGame(t, res)
}

func TestSAImprovesAndIsReproducible(t *testing.T) {
	run := func(workers int) Result {
		cfg := DefaultSAConfig()
		cfg.Opponent = randomOpponent
		cfg.Iterations, cfg.Turns, cfg.Seed, cfg.Workers = 30, 10, 11, workers
		res, err := RunSA(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(1), run(2)
	sameResults(t, "sa", a, b)
	// The saved cost never falls and ends at the best game's.
	best := slices.MaxFunc(a.Iterations, func(x, y IterationStats) int { return cmp.Compare(x.BestCost, y.BestCost) })
	last := a.Iterations[len(a.Iterations)-1]
	if last.BestSoFar != best.BestCost || a.Best.Cost != best.BestCost {
		t.Errorf("best so far %v, best game %v, best iteration %v", last.BestSoFar, a.Best.Cost, best.BestCost)
	}
	for i := 1; i < len(a.Iterations); i++ {
		if a.Iterations[i].BestSoFar < a.Iterations[i-1].BestSoFar {
			t.Errorf("BestSoFar fell at iteration %d", i)
		}
		if a.Iterations[i].Temperature >= a.Iterations[i-1].Temperature {
			t.Errorf("temperature did not fall at iteration %d", i)
		}
	}
}
