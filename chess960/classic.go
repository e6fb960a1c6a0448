package chess960

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Classic holds the parameters of the classic GA. DefaultClassic returns
// the student project's values.
type Classic struct {
	Population   int     // individuals per generation, and children bred per iteration
	Iterations   int     // generations bred after the initial population
	MutationRate float64 // probability that a child gets one swap mutation
	Elitism      float64 // share of the next generation taken from the best parents
	// StopAtOptimum ends the run at the first evaluation of fitness 0, the
	// proven optimum (no fitness is negative); the benchmark sets it.
	StopAtOptimum bool
}

// DefaultClassic returns the classic GA as the student project ran it:
// population 10, 50 iterations, mutation probability 0.1, elitism 0.5.
func DefaultClassic() Classic {
	return Classic{Population: 10, Iterations: 50, MutationRate: 0.1, Elitism: 0.5}
}

// ErrConfig means a GA parameter out of its range.
var ErrConfig = errors.New("chess960: invalid parameter")

// Validate checks the parameters' ranges.
func (c Classic) Validate() error {
	switch {
	case c.Population < 2:
		return fmt.Errorf("%w: population %d, want at least 2", ErrConfig, c.Population)
	case c.Iterations < 0:
		return fmt.Errorf("%w: iterations %d, want at least 0", ErrConfig, c.Iterations)
	case c.MutationRate < 0 || c.MutationRate > 1:
		return fmt.Errorf("%w: mutation rate %g, want 0..1", ErrConfig, c.MutationRate)
	case c.Elitism < 0 || c.Elitism > 1:
		return fmt.Errorf("%w: elitism %g, want 0..1", ErrConfig, c.Elitism)
	}
	return nil
}

// Generation is one population of a run, for observers: Iteration 0 is the
// initial population. Population is sorted by fitness, best first, and
// Fitness[i] is the fitness of Population[i]. Evaluations counts the
// fitness evaluations so far, the initial population's included. The slices
// belong to the run and are only valid during the observer's call.
type Generation struct {
	Iteration   int
	Population  []Arrangement
	Fitness     []int
	Evaluations int
}

// Best returns the generation's best arrangement and its fitness.
func (g Generation) Best() (Arrangement, int) { return g.Population[0], g.Fitness[0] }

// Mean returns the generation's mean fitness.
func (g Generation) Mean() float64 {
	sum := 0
	for _, f := range g.Fitness {
		sum += f
	}
	return float64(sum) / float64(len(g.Fitness))
}

// Result is the outcome of one search.
type Result struct {
	Best        Arrangement // the best arrangement evaluated
	Fitness     int         // its fitness
	Evaluations int         // fitness evaluations used
	// FoundAt is the number of the evaluation (from 1) that first met the
	// optimum, fitness 0; 0 if none did.
	FoundAt int
}

// counter counts fitness evaluations against a budget and remembers the
// best arrangement seen.
type counter struct {
	budget  int  // 0 for none
	stop    bool // the search ends at the optimum
	res     Result
	observe func(Evaluation) // sees every evaluation; nil for none
}

// Evaluation is one fitness evaluation of a search, for observers.
type Evaluation struct {
	N           int         // the evaluation's number, from 1
	Arrangement Arrangement // what was evaluated
	Fitness     int         // its fitness
	Best        int         // the best fitness evaluated so far, this one's included
}

// exhausted reports whether the search must end: the budget is spent, or
// the optimum is found and the search stops there.
func (c *counter) exhausted() bool {
	return c.budget > 0 && c.res.Evaluations >= c.budget || c.stop && c.res.FoundAt > 0
}

// eval returns a's fitness and counts one evaluation.
func (c *counter) eval(a Arrangement) int {
	f := a.Fitness()
	c.res.Evaluations++
	if c.res.Evaluations == 1 || f < c.res.Fitness {
		c.res.Best, c.res.Fitness = a, f
	}
	if f == 0 && c.res.FoundAt == 0 {
		c.res.FoundAt = c.res.Evaluations
	}
	if c.observe != nil {
		c.observe(Evaluation{N: c.res.Evaluations, Arrangement: a, Fitness: f, Best: c.res.Fitness})
	}
	return f
}

// individual is an arrangement with its fitness.
type individual struct {
	a Arrangement
	f int
}

// byFitness orders individuals best first; the sort is stable, so equal
// fitness keeps the earlier one first.
func byFitness(x, y individual) int { return x.f - y.f }

// Run runs the classic GA with the generator r and returns the best
// arrangement it evaluated. A budget > 0 stops the run as soon as that many
// fitness evaluations are spent, even in the middle of an iteration (the
// benchmark's 500); 0 runs all the iterations (10 + 50 x 10 = 510
// evaluations by default) unless StopAtOptimum ends it earlier. observe, if not nil, sees the initial population
// and each completed generation.
//
// One iteration: rank the population by fitness; breed Population children,
// each from one pair drawn roulette-style (every individual's fitness is
// multiplied by a fresh uniform random factor in [0,1) and the two smallest
// products pair, the better-ranked one as the first parent) by Crossover,
// then Mutate with probability MutationRate; the next generation is the best
// round(Elitism x Population) parents and the best of the children filling
// the rest.
func (c Classic) Run(r *rand.Rand, budget int, observe func(Generation)) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	n := c.Population
	ev := counter{budget: budget, stop: c.StopAtOptimum}
	pop := make([]individual, 0, n)
	for range n {
		if ev.exhausted() {
			break
		}
		a := Random(r)
		pop = append(pop, individual{a, ev.eval(a)})
	}
	slices.SortStableFunc(pop, byFitness)
	arr, fit := make([]Arrangement, n), make([]int, n)
	report := func(it int, pop []individual) {
		if observe == nil {
			return
		}
		for i, ind := range pop {
			arr[i], fit[i] = ind.a, ind.f
		}
		observe(Generation{Iteration: it, Population: arr[:len(pop)], Fitness: fit[:len(pop)], Evaluations: ev.res.Evaluations})
	}
	report(0, pop)
	elite := int(math.Round(c.Elitism * float64(n)))
	keys := make([]float64, n)
	children := make([]individual, 0, n)
	for it := 1; it <= c.Iterations && !ev.exhausted(); it++ {
		children = children[:0]
		for range n {
			if ev.exhausted() {
				break
			}
			i, j := c.pair(r, pop, keys)
			child := Crossover(r, pop[i].a, pop[j].a)
			if r.Float64() < c.MutationRate {
				child = Mutate(r, child)
			}
			children = append(children, individual{child, ev.eval(child)})
		}
		slices.SortStableFunc(children, byFitness)
		if len(children) < n-elite {
			break // the budget ran out mid-iteration: no complete generation
		}
		pop = append(pop[:elite], children[:n-elite]...)
		slices.SortStableFunc(pop, byFitness)
		report(it, pop)
	}
	return ev.res, nil
}

// pair draws the two parents of a child from the ranked population: the
// individuals with the two smallest products fitness x U[0,1), ties going to
// the better rank. It returns their indices, first parent first.
func (c Classic) pair(r *rand.Rand, pop []individual, keys []float64) (int, int) {
	for i, ind := range pop {
		keys[i] = float64(ind.f) * r.Float64()
	}
	first, second := -1, -1
	for i := range pop {
		switch {
		case first < 0 || keys[i] < keys[first]:
			first, second = i, first
		case second < 0 || keys[i] < keys[second]:
			second = i
		}
	}
	return first, second
}
