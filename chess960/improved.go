package chess960

import (
	"fmt"
	"math/rand/v2"
)

// Improved holds the parameters of the improved GA, a steady-state GA
// designed to reach the optimum within the classic GA's 500 evaluations in
// (nearly) every run. DefaultImproved returns the tuned values.
//
// What changes from the classic GA, and why:
//   - Tournament selection instead of the fitness x random-factor pairing,
//     whose pressure collapses once the population is similar.
//   - Steady state: each child replaces the worst individual if it is
//     better, so a good child breeds at once instead of after the iteration.
//   - No evaluation is spent twice: an arrangement already evaluated (kept
//     as a 960-bit set by Scharnagl number) is never evaluated again.
//   - Adaptive mutation: a child that repeats a known arrangement gets one
//     more swap mutation, again and again, so the mutation strength grows
//     exactly when the population has converged and stops finding anything
//     new; a child is drawn at random if that fails.
type Improved struct {
	Population   int     // individuals kept
	Tournament   int     // individuals drawn per tournament
	MutationRate float64 // probability of one swap mutation of a fresh child
	MaxRetries   int     // extra mutations tried on a child already evaluated
}

// DefaultImproved returns the improved GA's tuned parameters.
func DefaultImproved() Improved {
	return Improved{Population: 10, Tournament: 3, MutationRate: 0.5, MaxRetries: 20}
}

// Validate checks the parameters' ranges.
func (c Improved) Validate() error {
	switch {
	case c.Population < 2:
		return fmt.Errorf("%w: population %d, want at least 2", ErrConfig, c.Population)
	case c.Tournament < 1:
		return fmt.Errorf("%w: tournament %d, want at least 1", ErrConfig, c.Tournament)
	case c.MutationRate < 0 || c.MutationRate > 1:
		return fmt.Errorf("%w: mutation rate %g, want 0..1", ErrConfig, c.MutationRate)
	case c.MaxRetries < 0:
		return fmt.Errorf("%w: retries %d, want at least 0", ErrConfig, c.MaxRetries)
	}
	return nil
}

// Run runs the improved GA with the generator r until budget fitness
// evaluations are spent (it must be > 0), the optimum is found (fitness 0,
// the lower bound) or all 960 arrangements are known, and returns the best
// arrangement it evaluated.
func (c Improved) Run(r *rand.Rand, budget int) (Result, error) {
	return c.Trace(r, budget, nil)
}

// Trace is Run with an observer, which sees every fitness evaluation in
// order (a steady-state GA has no generations to show); nil observes
// nothing.
func (c Improved) Trace(r *rand.Rand, budget int, observe func(Evaluation)) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	if budget <= 0 {
		return Result{}, fmt.Errorf("%w: budget %d, want at least 1", ErrConfig, budget)
	}
	ev := counter{budget: budget, stop: true, observe: observe}
	var seen [960]bool
	known := 0
	evalNew := func(a Arrangement) int {
		seen[a.Number()] = true
		known++
		return ev.eval(a)
	}
	pop := make([]individual, 0, c.Population)
	for len(pop) < c.Population && !ev.exhausted() {
		a := Random(r)
		for tries := 0; seen[a.Number()] && tries < 100; tries++ {
			a = Random(r)
		}
		if seen[a.Number()] {
			a = c.unseen(r, &seen, known)
		}
		pop = append(pop, individual{a, evalNew(a)})
	}
	for !ev.exhausted() && known < 960 {
		first := c.tournament(r, pop, -1)
		second := c.tournament(r, pop, first)
		child := Crossover(r, pop[first].a, pop[second].a)
		if r.Float64() < c.MutationRate {
			child = Mutate(r, child)
		}
		for tries := 0; seen[child.Number()] && tries < c.MaxRetries; tries++ {
			child = Mutate(r, child)
		}
		if seen[child.Number()] {
			child = c.unseen(r, &seen, known)
		}
		f := evalNew(child)
		worst := 0
		for i := range pop {
			if pop[i].f >= pop[worst].f {
				worst = i
			}
		}
		if f < pop[worst].f {
			pop[worst] = individual{child, f}
		}
	}
	return ev.res, nil
}

// tournament returns the index of the best of Tournament individuals drawn
// at random with replacement, never the index not (unless the population
// has one member); -1 excludes nothing.
func (c Improved) tournament(r *rand.Rand, pop []individual, not int) int {
	best := -1
	for range c.Tournament {
		i := r.IntN(len(pop))
		if i == not && len(pop) > 1 {
			i = (i + 1 + r.IntN(len(pop)-1)) % len(pop)
		}
		if best < 0 || pop[i].f < pop[best].f {
			best = i
		}
	}
	return best
}

// unseen returns an arrangement drawn uniformly among those not yet seen;
// known < 960 of them are.
func (c Improved) unseen(r *rand.Rand, seen *[960]bool, known int) Arrangement {
	k := r.IntN(960 - known)
	for n, s := range seen {
		if s {
			continue
		}
		if k == 0 {
			a, _ := FromNumber(n)
			return a
		}
		k--
	}
	panic("chess960: no unseen arrangement left")
}
