package metaheuristic

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"evolved/game/chess"
)

// The ant colony's defaults.
const (
	// DefaultAnts is the default number of ants (games) per iteration.
	DefaultAnts = 10
	// DefaultDissipation is the default share of its value a visited
	// position's moves lose at the end of an iteration.
	DefaultDissipation = 0.1
	// DefaultTolerance is a tolerance factor for the tolerance variant,
	// for a CLI flag that turns the variant on; the variant is off by
	// default (ACOConfig.Tolerance 0).
	DefaultTolerance = 0.1
)

// ACOConfig configures RunACO.
type ACOConfig struct {
	Config
	// Ants is C, the number of games played per iteration, at once up to
	// Workers. At least 1.
	Ants int
	// Dissipation is the share of its value every move of a position
	// visited in an iteration loses at the iteration's end: v *= 1 -
	// Dissipation. In [0, 1].
	Dissipation float64
	// Tolerance, in (0, 1], turns on the tolerance variant: the weight of
	// every move but the best is multiplied by it before moves are drawn
	// (see the package documentation). 0 or 1 is the plain method.
	Tolerance float64
	// Pheromones, if set, is the table to start from (a stored run's, to
	// learn on); it is copied, not changed. Nil starts from an empty table.
	Pheromones *Pheromones
}

// DefaultACOConfig returns the defaults: DefaultConfig, DefaultAnts ants,
// DefaultDissipation, the tolerance variant off.
func DefaultACOConfig() ACOConfig {
	return ACOConfig{Config: DefaultConfig(), Ants: DefaultAnts, Dissipation: DefaultDissipation}
}

// Validate checks c.
func (c *ACOConfig) Validate() error { return c.Config.validateWith(c.validate) }

// validate checks the fields of ACO.
func (c *ACOConfig) validate() error {
	switch {
	case c.Ants < 1:
		return configError("Ants", c.Ants, "want at least 1")
	case !(c.Dissipation >= 0 && c.Dissipation <= 1):
		return configError("Dissipation", c.Dissipation, "want 0..1")
	case !(c.Tolerance >= 0 && c.Tolerance <= 1):
		return configError("Tolerance", c.Tolerance, "want 0 (off) or a factor in (0, 1]")
	}
	return nil
}

// RunACO runs the ant colony: in each iteration Ants games, each ant
// drawing the learner's moves from the table in adventurous mode, then the
// table's update in ant order and the dissipation (see the package
// documentation). Result.Table is the table, which the caller owns.
//
// When ctx is cancelled or a game fails, RunACO returns the error with the
// result of the iterations completed before; a cancelled ctx gives an error
// that wraps ctx.Err(). The iteration that was running when it stopped
// leaves no trace in the table.
func RunACO(ctx context.Context, c ACOConfig) (res Result, err error) {
	e, err := openEnv(ACO, &c.Config, c.validate)
	if err != nil {
		return Result{Method: ACO}, err
	}
	defer e.close(&err)
	table := NewPheromones()
	if c.Pheromones != nil {
		table = c.Pheromones.Clone()
	}
	tr := newTracker(e, ACO, c.OnIteration)
	tr.res.Table = table
	for k := range c.Iterations {
		began := time.Now()
		ants := make([]*ant, c.Ants)
		games, err := e.batch(ctx, k, c.Ants, func(i int) learner {
			ants[i] = &ant{table: table, tolerance: c.Tolerance, rng: e.rand(k, purposeLearner, i), missing: make([][]moveKey, 0, c.Turns)}
			return ants[i]
		})
		if err != nil {
			return tr.res, fmt.Errorf("metaheuristic: aco: %w", err)
		}
		table.reinforce(games, ants, c.Dissipation)
		tr.observe(k, games, 0, began)
	}
	return tr.res, nil
}

// ant is the learner of one ACO game: it draws its moves from the table,
// which does not change during the game. A position the table lacks has
// every move at InitialPheromone; it enters the table at the update.
type ant struct {
	unscripted
	table     *Pheromones
	tolerance float64
	rng       *rand.Rand
	values    []float64
	// missing holds, per learner turn, nil when the table held the position
	// with every legal move, else the position's legal moves in canonical
	// order for the update to add, so that the update, which runs on one
	// goroutine, generates no moves.
	missing [][]moveKey
}

func (a *ant) move(_ *chess.Position, board *Board, legal []chess.Move, _ int) chess.Move {
	e := a.table.lookup(*board)
	a.values = a.values[:0]
	complete := e != nil
	for _, m := range legal {
		v, ok := e.get(keyOf(m))
		complete = complete && ok
		a.values = append(a.values, v)
	}
	var keys []moveKey
	if !complete {
		keys = legalKeys(legal)
	}
	a.missing = append(a.missing, keys)
	weights(a.values, a.tolerance)
	return legal[pick(a.rng, a.values)]
}

// weights turns the values of a position's moves into the weights of the
// adventurous draw, in place: w = v + |min V|, so that the probability of a
// move is (v + |min V|) / (sum V + n |min V|), as in the classic project.
// With a tolerance x in (0, 1) every weight but those of the moves of
// highest value is then multiplied by x. When every value is the same
// every weight is 1: the draw is uniform, which the formula leaves
// undefined when that value is 0 or negative (the sum is 0).
func weights(values []float64, tolerance float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		lo, hi = min(lo, v), max(hi, v)
	}
	if lo == hi {
		for i := range values {
			values[i] = 1
		}
		return
	}
	shift := math.Abs(lo)
	for i, v := range values {
		w := v + shift
		if tolerance > 0 && v < hi {
			w *= tolerance
		}
		values[i] = w
	}
}

// pick draws an index with probability proportional to its weight; when no
// weight is positive and finite in sum (it cannot happen with finite
// values that are not all equal, but a guard costs nothing), uniformly.
func pick(rng *rand.Rand, w []float64) int {
	total := 0.0
	for _, x := range w {
		total += x
	}
	if !(total > 0) || math.IsInf(total, 0) {
		return rng.IntN(len(w))
	}
	u := rng.Float64() * total
	last := 0
	for i, x := range w {
		if x > 0 {
			if u < x {
				return i
			}
			u -= x
			last = i
		}
	}
	return last // rounding left u at or above the last weight
}

// reinforce applies an iteration's games to t, in game order: every
// learner move of a game of m learner moves gets (i/m) * cost added to its
// value, i being the move's number from 1, so that the moves closest to
// the game's end, which decided it most directly, learn the most. Then
// every position visited by any of the games loses the share dissipation
// of every move's value. ants are the games' learners, whose notes give
// the positions and moves the table lacks.
func (t *Pheromones) reinforce(games []played, ants []*ant, dissipation float64) {
	var visited []bool // by entry index
	var order []int
	for g := range games {
		p := &games[g]
		m := float64(len(p.visits))
		for i := range p.visits {
			v := &p.visits[i]
			e := t.lookup(v.board)
			if keys := ants[g].missing[i]; keys != nil {
				e = t.merge(v.board, keys)
			}
			e.slots[e.find(keyOf(v.move))].value += float64(i+1) / m * p.cost
			idx := t.index[v.board]
			for len(visited) <= idx {
				visited = append(visited, false)
			}
			if !visited[idx] {
				visited[idx] = true
				order = append(order, idx)
			}
		}
	}
	keep := 1 - dissipation
	for _, idx := range order {
		for j := range t.entries[idx].slots {
			t.entries[idx].slots[j].value *= keep
		}
	}
}
