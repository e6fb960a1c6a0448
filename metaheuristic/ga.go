package metaheuristic

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"evolved/game/chess"
)

// The genetic search's defaults.
const (
	// DefaultPopulation is the default number of individuals.
	DefaultPopulation = 20
	// DefaultKeep is the default share of the population kept each
	// iteration.
	DefaultKeep = 0.2
)

// GAConfig configures RunGA.
type GAConfig struct {
	Config
	// Population is P, the number of individuals. At least 2.
	Population int
	// Keep is the share of the population, best first by cost, that
	// survives an iteration and breeds the rest: round(Keep * Population),
	// at least 1 and at most Population-1. In (0, 1).
	Keep float64
}

// DefaultGAConfig returns the defaults: DefaultConfig, DefaultPopulation,
// DefaultKeep.
func DefaultGAConfig() GAConfig {
	return GAConfig{Config: DefaultConfig(), Population: DefaultPopulation, Keep: DefaultKeep}
}

// Validate checks c.
func (c *GAConfig) Validate() error { return c.Config.validateWith(c.validate) }

func (c *GAConfig) validate() error {
	switch {
	case c.Population < 2:
		return configError("Population", c.Population, "want at least 2")
	case !(c.Keep > 0 && c.Keep < 1):
		return configError("Keep", c.Keep, "want a share in (0, 1)")
	}
	return nil
}

// elite returns the number of individuals kept.
func (c *GAConfig) elite() int {
	return min(max(int(math.Round(c.Keep*float64(c.Population))), 1), c.Population-1)
}

// individual is a mapping from boards (the learner to move) to the move to
// play there, and the game that made it with its cost.
type individual struct {
	moves map[Board]moveKey
	order []Board // boards in the order they were learnt, for the table
	game  played  // the game the individual played; its visits are dropped
}

func newIndividual(size int) *individual {
	return &individual{moves: make(map[Board]moveKey, size), order: make([]Board, 0, size)}
}

// set maps b to k, replacing what b had.
func (ind *individual) set(b Board, k moveKey) {
	if _, ok := ind.moves[b]; !ok {
		ind.order = append(ind.order, b)
	}
	ind.moves[b] = k
}

// table returns ind as a table: each board with its move at value 1.
func (ind *individual) table() *Pheromones {
	t := NewPheromones()
	for _, b := range ind.order {
		t.set(b, ind.moves[b])
	}
	return t
}

// follower is the learner of one GA game: it plays the individual's move
// where it knows the board and the move is legal there, else a random legal
// move, which the individual learns.
type follower struct {
	unscripted
	ind *individual
	rng *rand.Rand
}

func (p *follower) move(_ *chess.Position, board *Board, legal []chess.Move, _ int) chess.Move {
	if k, ok := p.ind.moves[*board]; ok {
		if m, ok := findKey(legal, k); ok {
			return m
		}
	}
	m := legal[p.rng.IntN(len(legal))]
	p.ind.set(*board, keyOf(m))
	return m
}

// crossoverShare returns the probability that a child takes parent a's
// move where both parents know the board: a's cost weight over the sum of
// both, each weight being cost - low + 1 with low the lowest cost of the
// breeding individuals, so that every weight is at least 1 and the worst
// breeder still passes on moves.
func crossoverShare(costA, costB, low float64) float64 {
	wa, wb := costA-low+1, costB-low+1
	return wa / (wa + wb)
}

// crossover returns a child of a and b: a board both know gets a's move
// with probability crossoverShare (one draw per board where their moves
// differ), a board one of them knows gets its move. The child's boards
// come in a's order, then b's.
func crossover(a, b *individual, low float64, rng *rand.Rand) *individual {
	share := crossoverShare(a.game.cost, b.game.cost, low)
	child := newIndividual(len(a.order) + len(b.order))
	for _, board := range a.order {
		k := a.moves[board]
		if kb, ok := b.moves[board]; ok && kb != k && rng.Float64() >= share {
			k = kb
		}
		child.set(board, k)
	}
	for _, board := range b.order {
		if _, ok := a.moves[board]; !ok {
			child.set(board, b.moves[board])
		}
	}
	return child
}

// RunGA runs the genetic search over games. Iteration 0 plays Population
// games with random learner moves, each making an individual of the
// positions it met and the moves it played. Every later iteration keeps
// the best individuals (GAConfig.Keep) and replaces the others by children
// of two distinct parents a and b drawn uniformly from those kept. Where
// both parents know a board the child takes a's move with probability
// (cost_a - low + 1) / ((cost_a - low + 1) + (cost_b - low + 1)), low
// being the lowest cost of those kept (the shift makes every weight at
// least 1); a board only one parent knows keeps that parent's move. The
// child then plays a game that follows its mapping where the move is legal
// there and plays (and learns) random moves elsewhere; the game's cost is
// the child's. The global best individual is the one of highest cost ever
// seen (the first of equals); Result.Table holds it and Result.Best its
// game.
//
// When ctx is cancelled or a game fails, RunGA returns the error with the
// result of the iterations completed before; a cancelled ctx gives an error
// that wraps ctx.Err().
func RunGA(ctx context.Context, c GAConfig) (res Result, err error) {
	e, err := openEnv(GA, &c.Config, c.validate)
	if err != nil {
		return Result{Method: GA}, err
	}
	defer e.close(&err)
	tr := newTracker(e, GA, c.OnIteration)
	var global *individual
	finish := func() Result {
		tr.res.Table = NewPheromones()
		if global != nil {
			tr.res.Table = global.table()
		}
		return tr.res
	}
	keep := c.elite()
	var pop []*individual
	for k := range c.Iterations {
		began := time.Now()
		var (
			fresh []*individual
			games []played
			err   error
		)
		if k == 0 {
			fresh = make([]*individual, c.Population)
			games, err = e.batch(ctx, k, c.Population, func(i int) learner {
				fresh[i] = newIndividual(c.Turns)
				return &follower{ind: fresh[i], rng: e.rand(k, purposeLearner, i)}
			})
		} else {
			slices.SortStableFunc(pop, func(a, b *individual) int { return cmp.Compare(b.game.cost, a.game.cost) })
			pop = pop[:keep]
			low := pop[keep-1].game.cost
			fresh = make([]*individual, c.Population-keep)
			games, err = e.batch(ctx, k, len(fresh), func(i int) learner {
				rng := e.rand(k, purposeCrossover, i)
				a := rng.IntN(keep)
				b := a
				if keep > 1 {
					if b = rng.IntN(keep - 1); b >= a {
						b++
					}
				}
				fresh[i] = crossover(pop[a], pop[b], low, rng)
				return &follower{ind: fresh[i], rng: e.rand(k, purposeLearner, i)}
			})
		}
		if err != nil {
			return finish(), fmt.Errorf("metaheuristic: ga: %w", err)
		}
		for i, ind := range fresh {
			ind.game = games[i]
			ind.game.visits = nil
			if global == nil || ind.game.cost > global.game.cost {
				global = ind
			}
		}
		pop = append(pop, fresh...)
		tr.observe(k, games, 0, began)
	}
	return finish(), nil
}
