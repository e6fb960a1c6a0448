package metaheuristic

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

func TestCrossoverShare(t *testing.T) {
	tests := []struct {
		a, b, low, want float64
	}{
		// Weights cost - low + 1: 3 - (-1) + 1 = 5 and -1 - (-1) + 1 = 1.
		{3, -1, -1, 5.0 / 6},
		{-1, 3, -1, 1.0 / 6},
		// Equal costs share evenly, whatever the shift.
		{7, 7, 2, 0.5},
		// A mate (1010) against the worst breeder (-5): 1016 to 1.
		{1010, -5, -5, 1016.0 / 1017},
		// Both above the lowest breeder (0): 3 and 2.
		{2, 1, 0, 3.0 / 5},
	}
	for _, tt := range tests {
		if got := crossoverShare(tt.a, tt.b, tt.low); !near(got, tt.want) {
			t.Errorf("crossoverShare(%v, %v, %v) = %v, want %v", tt.a, tt.b, tt.low, got, tt.want)
		}
	}
}

func TestCrossover(t *testing.T) {
	board := func(i int) Board {
		var b Board
		for j := range b {
			b[j] = '#'
		}
		b[i] = 'K'
		return b
	}
	a, b := newIndividual(4), newIndividual(4)
	a.game.cost, b.game.cost = 3, -1
	a.set(board(0), 10) // only a
	a.set(board(1), 11) // both, different moves
	a.set(board(2), 12) // both, the same move
	b.set(board(3), 23) // only b
	b.set(board(1), 21)
	b.set(board(2), 12)
	const n = 60000
	fromA := 0
	rng := rand.New(rand.NewPCG(3, 4))
	for range n {
		c := crossover(a, b, -1, rng)
		if len(c.order) != 4 || c.order[0] != board(0) || c.order[1] != board(1) || c.order[2] != board(2) || c.order[3] != board(3) {
			t.Fatalf("child's boards in the wrong order")
		}
		if c.moves[board(0)] != 10 || c.moves[board(2)] != 12 || c.moves[board(3)] != 23 {
			t.Fatalf("child %v: boards one parent knows, or both with one move, not copied", c.moves)
		}
		if c.moves[board(1)] == 11 {
			fromA++
		}
	}
	// a's share is 5/6 (see TestCrossoverShare).
	if f := float64(fromA) / n; math.Abs(f-5.0/6) > 0.01 {
		t.Errorf("the child took a's move %.4f of the time, want 5/6", f)
	}
}

func TestElite(t *testing.T) {
	tests := []struct {
		pop  int
		keep float64
		want int
	}{
		{20, 0.2, 4},
		{10, 0.25, 3}, // 2.5 rounds half away from zero
		{2, 0.2, 1},   // at least one
		{3, 0.9, 2},   // at most all but one, so that one child is bred
	}
	for _, tt := range tests {
		c := GAConfig{Population: tt.pop, Keep: tt.keep}
		if got := c.elite(); got != tt.want {
			t.Errorf("elite of %d keeping %v = %d, want %d", tt.pop, tt.keep, got, tt.want)
		}
	}
}

func TestGAWorkersIdentical(t *testing.T) {
	var runs [2]Result
	for w := range runs {
		cfg := DefaultGAConfig()
		cfg.Opponent = randomOpponent
		cfg.Iterations, cfg.Population, cfg.Turns, cfg.Workers, cfg.Seed = 5, 10, 12, w+1, 3
		res, err := RunGA(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		runs[w] = res
	}
	sameResults(t, "ga", runs[0], runs[1])
	r := runs[0]
	if r.Iterations[0].Games != 10 || r.Iterations[1].Games != 8 {
		t.Errorf("games per iteration %d, %d; want the population, then all but the 2 kept", r.Iterations[0].Games, r.Iterations[1].Games)
	}
	// The table is the global individual, whose game is the best game:
	// replaying the table against the same opponent seed would need the
	// seed; instead check that every learner move of the best game is in
	// the table with value 1.
	checkTableHoldsGame(t, r)
}

// checkTableHoldsGame checks that each learner position of the best game
// is in the table with the move played there at value 1.
func checkTableHoldsGame(t *testing.T, r Result) {
	t.Helper()
	b := r.Best
	p := b.Start
	for i, m := range b.Moves {
		if i >= b.Opening && (i-b.Opening)%2 == 0 {
			found := false
			for _, mv := range r.Table.Values(&p) {
				found = found || mv.Move == m && mv.Value == 1
			}
			if !found {
				t.Errorf("move %d, %s, of the best game is not in the table with value 1", i, p.FormatUCI(m, false))
			}
		}
		p = p.Play(m)
	}
}

func TestGAValidate(t *testing.T) {
	for _, c := range []GAConfig{{Population: 1, Keep: 0.5}, {Population: 5, Keep: 0}, {Population: 5, Keep: 1}} {
		c.Config = DefaultConfig()
		c.Opponent = randomOpponent
		if err := c.Validate(); err == nil {
			t.Errorf("%+v validated", c)
		}
	}
}
