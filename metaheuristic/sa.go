package metaheuristic

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"evolved/game/chess"
)

// DefaultT0 is the default start temperature of simulated annealing.
const DefaultT0 = 0.8

// SAConfig configures RunSA.
type SAConfig struct {
	Config
	// T0 is the temperature of iteration 0: the probability that the
	// learner leaves its saved move for a random one at each turn. In
	// [0, 1].
	T0 float64
	// Drop is the temperature lost per iteration; 0 means the classic
	// project's T0 / Iterations * 0.9, which ends the run near T0 / 10.
	// At least 0.
	Drop float64
}

// DefaultSAConfig returns the defaults: DefaultConfig, DefaultT0 and the
// classic drop.
func DefaultSAConfig() SAConfig {
	return SAConfig{Config: DefaultConfig(), T0: DefaultT0}
}

// Validate checks c.
func (c *SAConfig) Validate() error { return c.Config.validateWith(c.validate) }

func (c *SAConfig) validate() error {
	switch {
	case !(c.T0 >= 0 && c.T0 <= 1):
		return configError("T0", c.T0, "want a probability, 0..1")
	case !(c.Drop >= 0) || math.IsInf(c.Drop, 0):
		return configError("Drop", c.Drop, "want 0 (the classic T0/Iterations*0.9) or more")
	}
	return nil
}

// Temperature returns the temperature of iteration k (from 0):
// T0 - k * Drop, and never below 0.
func (c *SAConfig) Temperature(k int) float64 {
	drop := c.Drop
	if drop == 0 && c.Iterations > 0 {
		drop = c.T0 / float64(c.Iterations) * 0.9
	}
	return max(0, c.T0-float64(k)*drop)
}

// annealer is the learner of one SA game: it replays the saved line.
type annealer struct {
	saved  []chess.Move // the saved line's moves after the opening
	temp   float64
	rng    *rand.Rand
	onLine bool // every move so far is the saved line's
}

// move plays the saved line's learner move of this turn when it is legal,
// except with probability temp, and a uniformly random legal move
// otherwise. Off the line the saved move of the same turn is still tried
// (by its squares and promotion), as the classic project replays its
// sequence of moves.
func (a *annealer) move(_ *chess.Position, _ *Board, legal []chess.Move, turn int) chess.Move {
	ply := 2 * turn
	var (
		saved chess.Move
		ok    bool
	)
	if ply < len(a.saved) {
		saved, ok = findKey(legal, keyOf(a.saved[ply]))
	}
	m := saved
	if u := a.rng.Float64(); !ok || u < a.temp {
		m = legal[a.rng.IntN(len(legal))]
	}
	if a.onLine && (ply >= len(a.saved) || m != a.saved[ply]) {
		a.onLine = false
	}
	return m
}

// reply gives the saved reply while the game is on the saved line.
func (a *annealer) reply(ply int) (chess.Move, bool) {
	if a.onLine && ply < len(a.saved) {
		return a.saved[ply], true
	}
	return chess.NoMove, false
}

// RunSA runs simulated annealing. Each iteration plays one game that
// replays the saved line at the iteration's temperature T: at each learner
// turn the saved learner move of that turn is played if it is legal (by
// its squares and promotion, also once the game has left the line), except
// with probability T, and a uniformly random legal move otherwise. While
// the game is still on the line the opponent's saved replies are played
// without asking it; once it has left the line the opponent answers. A
// game of strictly higher cost than the saved one replaces it (the first
// game always does: nothing is saved before it). Result.Best is the saved line; Result.Table holds its
// learner moves, one per board at value 1 (a board met twice keeps the
// later move). Workers does not matter: the games are played one after
// another.
//
// When ctx is cancelled or a game fails, RunSA returns the error with the
// result of the iterations completed before; a cancelled ctx gives an error
// that wraps ctx.Err().
func RunSA(ctx context.Context, c SAConfig) (res Result, err error) {
	c.Workers = 1
	e, err := openEnv(SA, &c.Config, c.validate)
	if err != nil {
		return Result{Method: SA}, err
	}
	defer e.close(&err)
	tr := newTracker(e, SA, c.OnIteration)
	var saved played
	have := false
	finish := func() Result {
		tr.res.Table = NewPheromones()
		for _, v := range saved.visits {
			tr.res.Table.set(v.board, keyOf(v.move))
		}
		return tr.res
	}
	for k := range c.Iterations {
		began := time.Now()
		temp := c.Temperature(k)
		games, err := e.batch(ctx, k, 1, func(i int) learner {
			return &annealer{saved: saved.plies, temp: temp, rng: e.rand(k, purposeLearner, i), onLine: true}
		})
		if err != nil {
			return finish(), fmt.Errorf("metaheuristic: sa: %w", err)
		}
		if !have || games[0].cost > saved.cost {
			saved, have = games[0], true
		}
		tr.observe(k, games, temp, began)
	}
	return finish(), nil
}
