package chess960

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"evolved/seed"
)

// Method names one of the benchmarked searches.
type Method string

// The benchmarked searches.
const (
	ClassicGA    Method = "classic"  // Classic.Run with DefaultClassic
	ImprovedGA   Method = "improved" // Improved.Run with DefaultImproved
	RandomSearch Method = "random"   // RandomRun: uniform draws with replacement
)

// Methods returns the benchmarked searches in report order.
func Methods() []Method { return []Method{ClassicGA, ImprovedGA, RandomSearch} }

// Rand returns the generator of run number run of method m under the seed
// s. Each (s, m, run) has its own stream, so a benchmark's results do not
// depend on how its runs are spread over workers, and `evolved chess960 ga
// --seed S` replays run 0 of the classic GA.
func Rand(s uint64, m Method, run int) *rand.Rand {
	return seed.Rand(s, "chess960", 0, seed.Purpose("chess960-"+string(m)), run)
}

// RandomRun is random search: up to budget arrangements drawn uniformly (by
// Scharnagl number) with replacement, until the optimum; the best one kept.
func RandomRun(r *rand.Rand, budget int) Result {
	ev := counter{budget: budget, stop: true}
	for !ev.exhausted() {
		a, _ := FromNumber(r.IntN(960))
		ev.eval(a)
	}
	return ev.res
}

// Bench measures the searches over many seeded runs under one budget of
// fitness evaluations.
type Bench struct {
	Runs     int    // runs per method
	Budget   int    // fitness evaluations per run; the classic GA's is 500
	Seed     uint64 // the benchmark's seed; run i of method m uses Rand(Seed, m, i)
	Workers  int    // runs in parallel; the results do not depend on it
	Classic  Classic
	Improved Improved
}

// DefaultBench returns 10,000 runs of each method with 500 evaluations, seed
// 1, one worker, and the default parameters.
func DefaultBench() Bench {
	return Bench{Runs: 10000, Budget: 500, Seed: 1, Workers: 1, Classic: DefaultClassic(), Improved: DefaultImproved()}
}

// Summary is one method's benchmark result.
type Summary struct {
	Method    Method
	Results   []Result // by run number
	Successes int      // runs that evaluated the optimum within the budget
}

// Rate returns the success rate, 0..1.
func (s Summary) Rate() float64 { return float64(s.Successes) / float64(len(s.Results)) }

// Interval returns the 95% Wilson score interval of the success rate.
func (s Summary) Interval() (low, high float64) {
	return Wilson(s.Successes, len(s.Results), 1.959963984540054)
}

// MeanFoundAt returns the mean number of evaluations to the optimum over the
// successful runs, or NaN if none succeeded.
func (s Summary) MeanFoundAt() float64 {
	sum := 0
	for _, r := range s.Results {
		sum += r.FoundAt
	}
	if s.Successes == 0 {
		return math.NaN()
	}
	return float64(sum) / float64(s.Successes)
}

// FinalFitness returns the distribution of the runs' best fitness: the
// fitness values in increasing order and how many runs ended at each.
func (s Summary) FinalFitness() (fitness, runs []int) {
	count := map[int]int{}
	for _, r := range s.Results {
		count[r.Fitness]++
	}
	for f := range count {
		fitness = append(fitness, f)
	}
	slices.Sort(fitness)
	for _, f := range fitness {
		runs = append(runs, count[f])
	}
	return fitness, runs
}

// Wilson returns the Wilson score interval for k successes in n trials at
// the normal quantile z (1.96 for 95%).
func Wilson(k, n int, z float64) (low, high float64) {
	if n == 0 {
		return 0, 1
	}
	p, nf := float64(k)/float64(n), float64(n)
	d := 1 + z*z/nf
	centre := (p + z*z/(2*nf)) / d
	half := z / d * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return max(0, centre-half), min(1, centre+half)
}

// Run runs every method b.Runs times on b.Workers goroutines and returns
// the summaries in the order of Methods. It stops early with ctx's error if
// ctx is cancelled.
func (b Bench) Run(ctx context.Context) ([]Summary, error) {
	if b.Runs < 1 || b.Budget < 1 {
		return nil, fmt.Errorf("%w: runs %d and budget %d, want at least 1", ErrConfig, b.Runs, b.Budget)
	}
	if err := b.Classic.Validate(); err != nil {
		return nil, err
	}
	if err := b.Improved.Validate(); err != nil {
		return nil, err
	}
	// The classic GA stops at the budget, not at its iteration count, and
	// every method at the optimum: later evaluations change nothing measured.
	classic := b.Classic
	classic.Iterations = b.Budget
	classic.StopAtOptimum = true
	methods := Methods()
	sums := make([]Summary, len(methods))
	for i, m := range methods {
		sums[i] = Summary{Method: m, Results: make([]Result, b.Runs)}
	}
	var next atomic.Int64
	jobs := int64(len(methods) * b.Runs)
	g, ctx := errgroup.WithContext(ctx)
	for range max(1, b.Workers) {
		g.Go(func() error {
			for {
				j := next.Add(1) - 1
				if j >= jobs {
					return nil
				}
				if j%1024 == 0 && ctx.Err() != nil {
					return fmt.Errorf("chess960: bench: %w", ctx.Err())
				}
				mi, run := int(j)/b.Runs, int(j)%b.Runs
				r := Rand(b.Seed, methods[mi], run)
				var res Result
				var err error
				switch methods[mi] {
				case ClassicGA:
					res, err = classic.Run(r, b.Budget, nil)
				case ImprovedGA:
					res, err = b.Improved.Run(r, b.Budget)
				case RandomSearch:
					res = RandomRun(r, b.Budget)
				}
				if err != nil {
					return fmt.Errorf("chess960: bench %s run %d: %w", methods[mi], run, err)
				}
				sums[mi].Results[run] = res
			}
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for i := range sums {
		for _, r := range sums[i].Results {
			if r.FoundAt > 0 {
				sums[i].Successes++
			}
		}
	}
	return sums, nil
}
