package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"evolved/chess960"
	"evolved/plot"
)

// chess960Modes lists the modes of `evolved chess960`, in the order its
// help shows them.
func chess960Modes() []mode {
	return []mode{
		{name: "ga", summary: "run the classic genetic algorithm once, printing every iteration", setup: chess960GA},
		{name: "enumerate", summary: "list all 960 arrangements with their fitness, and check the count", setup: chess960Enumerate},
		{name: "bench", summary: "success rates of the classic GA, the improved GA and random search", setup: chess960Bench},
	}
}

// chess960Command implements `evolved chess960 ga|enumerate|bench [flags]`.
// The mode comes first and has its own flags, so the command parses the
// arguments left after its (empty) top-level flag set itself.
func chess960Command(fs *flag.FlagSet) action {
	var modes, names []string
	for _, m := range chess960Modes() {
		modes = append(modes, fmt.Sprintf("  %-10s %s", m.name, m.summary))
		names = append(names, m.name)
	}
	setHelp(fs, help{
		usage: []string{strings.Join(names, "|") + " [flags]"},
		about: `Searches the 960 Chess960 back ranks for the one closest to classical chess
(fitness: sum of the pieces' file distances to RNBQKBNR; lower is better).

` + strings.Join(modes, "\n") + `

Run 'evolved chess960 MODE -h' for a mode's flags.`,
	})
	return func(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer) error {
		args := fs.Args()
		if len(args) == 0 {
			return usagef("chess960: no mode given (ga, enumerate or bench)")
		}
		i := slices.IndexFunc(chess960Modes(), func(m mode) bool { return m.name == args[0] })
		if i < 0 {
			return usagef("chess960: unknown mode %q (want ga, enumerate or bench)", args[0])
		}
		setup := chess960Modes()[i].setup
		sub := flag.NewFlagSet("evolved chess960 "+args[0], flag.ContinueOnError)
		sub.SetOutput(fs.Output())
		exec := setup(sub)
		if err := sub.Parse(args[1:]); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return err
			}
			return usagef("%v", err)
		}
		if sub.NArg() > 0 {
			return usagef("chess960 %s: unexpected argument %q", args[0], sub.Arg(0))
		}
		return exec(ctx, stdin, stdout, stderr)
	}
}

// checkPlotPath rejects a --plot file that is neither SVG nor PNG, or that
// would write over a database (outputGuard), before
// any work is done.
func checkPlotPath(mode, path string) error {
	if path == "" {
		return nil
	}
	if ext := strings.ToLower(path); !strings.HasSuffix(ext, ".svg") && !strings.HasSuffix(ext, ".png") {
		return usagef("chess960 %s: --plot must end in .svg or .png, got %q", mode, path)
	}
	return checkOutput("chess960 "+mode, "--plot", path)
}

// classicFlags registers the classic GA's population, mutation and elitism
// flags on fs and returns the parameters they set.
func classicFlags(fs *flag.FlagSet) *chess960.Classic {
	c := chess960.DefaultClassic()
	fs.IntVar(&c.Population, "population", c.Population, "classic GA: `N` individuals per generation (and children per iteration)")
	fs.Float64Var(&c.MutationRate, "mutation", c.MutationRate, "classic GA: probability `P` of a swap mutation per child")
	fs.Float64Var(&c.Elitism, "elitism", c.Elitism, "classic GA: share `E` of the next generation taken from the best parents")
	return &c
}

// chess960GA implements `evolved chess960 ga`.
func chess960GA(fs *flag.FlagSet) action {
	c := classicFlags(fs)
	fs.IntVar(&c.Iterations, "iterations", c.Iterations, "classic GA: `N` generations bred after the initial population")
	seedFlag := fs.Uint64("seed", 1, "the run's seed `S` (the run equals run 0 of 'evolved chess960 bench --seed S', without its stop at the optimum)")
	plotPath := fs.String("plot", "", "also draw every individual's fitness per iteration to `FILE`.svg or FILE.png")
	setHelp(fs, help{
		usage: []string{"[--seed S] [--population N] [--iterations N] [--mutation P] [--elitism E] [--plot FILE.svg]"},
		about: `Runs the classic GA once and prints, per iteration, the best and mean fitness
and the best arrangement.`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, _ io.Writer) error {
		if err := c.Validate(); err != nil {
			return usagef("chess960 ga: %v", err)
		}
		if err := checkPlotPath("ga", *plotPath); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "classic GA: population %d, %d iterations, mutation %g, elitism %g, seed %d\n",
			c.Population, c.Iterations, c.MutationRate, c.Elitism, *seedFlag)
		var dots, best, mean plot.Series
		dots.Name, best.Name, mean.Name = "individuals", "best", "mean"
		res, err := c.Run(chess960.Rand(*seedFlag, chess960.ClassicGA, 0), 0, func(g chess960.Generation) {
			a, f := g.Best()
			fmt.Fprintf(stdout, "iteration %3d  best %2d  mean %5.2f  %s  %s\n", g.Iteration, f, g.Mean(), a.Glyphs(), a)
			x := float64(g.Iteration)
			for _, fi := range g.Fitness {
				// A NaN between points draws each as a lone dot.
				dots.X = append(dots.X, x, math.NaN())
				dots.Y = append(dots.Y, float64(fi), math.NaN())
			}
			best.X, best.Y = append(best.X, x), append(best.Y, float64(f))
			mean.X, mean.Y = append(mean.X, x), append(mean.Y, g.Mean())
		})
		if err != nil {
			return fmt.Errorf("chess960 ga: %w", err)
		}
		found := "the optimum was not reached"
		if res.FoundAt > 0 {
			found = fmt.Sprintf("the optimum first evaluated at evaluation %d", res.FoundAt)
		}
		fmt.Fprintf(stdout, "best %s %s fitness %d after %d evaluations; %s\n", res.Best.Glyphs(), res.Best, res.Fitness, res.Evaluations, found)
		if *plotPath == "" {
			return nil
		}
		chart := plot.Chart{
			Title:  fmt.Sprintf("Classic GA (seed %d): fitness of every individual per iteration", *seedFlag),
			XLabel: "iteration", YLabel: "fitness (0 = RNBQKBNR)",
			Series: []plot.Series{dots, best, mean}, IntegerX: true,
		}
		if err := plot.WriteFile(outputGuard(), *plotPath, 18*vg.Centimeter, 9*vg.Centimeter, chart); err != nil {
			return fmt.Errorf("chess960 ga: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s\n", *plotPath)
		return nil
	}
}

// chess960Enumerate implements `evolved chess960 enumerate`.
func chess960Enumerate(fs *flag.FlagSet) action {
	plotPath := fs.String("plot", "", "also draw the histogram of fitness to `FILE`.svg or FILE.png")
	setHelp(fs, help{
		usage: []string{"[--plot FILE.svg]"},
		about: `Prints all 960 arrangements, one line each: NUMBER ARRANGEMENT FITNESS, by
Scharnagl number; then the optimum, the fitness distribution and the checks of
the count against the rules and of the numbering against the chess engine.`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, _ io.Writer) error {
		if err := checkPlotPath("enumerate", *plotPath); err != nil {
			return err
		}
		all := chess960.All()
		count := map[int]int{}
		bestN, sum, worst := 0, 0, 0
		for n, a := range all {
			f := a.Fitness()
			fmt.Fprintf(stdout, "%d %s %d\n", n, a, f)
			count[f]++
			sum += f
			worst = max(worst, f)
			if f < all[bestN].Fitness() {
				bestN = n
			}
		}
		best := all[bestN]
		fmt.Fprintf(stdout, "\noptimum: %d %s %s fitness %d, %d arrangement(s) with it\n", bestN, best, best.Glyphs(), best.Fitness(), count[best.Fitness()])
		fmt.Fprintf(stdout, "mean fitness %.2f, worst %d\n", float64(sum)/960, worst)
		fmt.Fprint(stdout, "distribution (fitness:arrangements):")
		var hist plot.Series
		hist.Name = "arrangements"
		for f := 0; f <= worst; f++ {
			if count[f] == 0 {
				continue
			}
			fmt.Fprintf(stdout, " %d:%d", f, count[f])
			// One bar outline per fitness value (all are even), gaps between.
			x, y := float64(f), float64(count[f])
			hist.X = append(hist.X, x-0.8, x-0.8, x+0.8, x+0.8, math.NaN())
			hist.Y = append(hist.Y, 0, y, y, 0, math.NaN())
		}
		fmt.Fprintln(stdout)
		c := chess960.Count()
		fmt.Fprintf(stdout, "check: brute force %d of %d orderings of the pieces valid, %d distinct; construction 4 x 4 x 6 x 10 = %d, %d distinct and valid\n",
			c.ValidPermutations, c.Permutations, c.Distinct, c.Constructed, c.ConstructedValid)
		if c.Distinct != 960 || c.ConstructedValid != 960 || len(all) != 960 {
			return fmt.Errorf("chess960 enumerate: the counts disagree with 960")
		}
		if err := chess960.CheckEngine(); err != nil {
			return fmt.Errorf("chess960 enumerate: %w", err)
		}
		fmt.Fprintln(stdout, "check: Scharnagl numbers 0..959 match the back ranks of game/chess Chess960(n) (518 = RNBQKBNR)")
		if *plotPath == "" {
			return nil
		}
		chart := plot.Chart{
			Title:  "The 960 Chess960 arrangements by fitness (distance from RNBQKBNR)",
			XLabel: "fitness", YLabel: "arrangements", Series: []plot.Series{hist}, IntegerX: true,
		}
		if err := plot.WriteFile(outputGuard(), *plotPath, 18*vg.Centimeter, 9*vg.Centimeter, chart); err != nil {
			return fmt.Errorf("chess960 enumerate: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s\n", *plotPath)
		return nil
	}
}

// chess960Bench implements `evolved chess960 bench`.
func chess960Bench(fs *flag.FlagSet) action {
	b := chess960.DefaultBench()
	b.Workers = runtime.NumCPU()
	c := classicFlags(fs)
	fs.IntVar(&b.Runs, "runs", b.Runs, "`N` runs per method")
	fs.IntVar(&b.Budget, "budget", b.Budget, "`E` fitness evaluations per run")
	fs.Uint64Var(&b.Seed, "seed", b.Seed, "the benchmark's seed `S`; each run has its own stream derived from it")
	fs.IntVar(&b.Workers, "workers", b.Workers, "`W` runs in parallel (the results do not depend on it)")
	fs.IntVar(&b.Improved.Population, "improved-population", b.Improved.Population, "improved GA: `N` individuals kept")
	fs.IntVar(&b.Improved.Tournament, "tournament", b.Improved.Tournament, "improved GA: tournament size `K`")
	fs.Float64Var(&b.Improved.MutationRate, "improved-mutation", b.Improved.MutationRate, "improved GA: probability `P` of a swap mutation per child")
	fs.IntVar(&b.Improved.MaxRetries, "retries", b.Improved.MaxRetries, "improved GA: `N` extra mutations of a child already evaluated")
	plotPath := fs.String("plot", "", "also draw the share of runs at the optimum per evaluation to `FILE`.svg or FILE.png")
	setHelp(fs, help{
		usage: []string{"[--runs N] [--budget E] [--seed S] [--workers W] [--plot FILE.svg]"},
		about: `Measures the classic GA, the improved GA and random search: the share of runs
that evaluate the optimum within the budget (95% Wilson interval), the mean
evaluations to it, and the distribution of the final fitness. The last line is
  result runs=N classic=P improved=Q random=R
with the success rates in percent.`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, _ io.Writer) error {
		b.Classic = *c
		if b.Runs < 1 || b.Budget < 1 || b.Workers < 1 {
			return usagef("chess960 bench: --runs, --budget and --workers must be at least 1")
		}
		if err := b.Classic.Validate(); err != nil {
			return usagef("chess960 bench: %v", err)
		}
		if err := b.Improved.Validate(); err != nil {
			return usagef("chess960 bench: %v", err)
		}
		if err := checkPlotPath("bench", *plotPath); err != nil {
			return err
		}
		start := time.Now()
		sums, err := b.Run(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "chess960 bench: %d runs per method, budget %d evaluations, seed %d, %d workers\n", b.Runs, b.Budget, b.Seed, b.Workers)
		fmt.Fprintf(stdout, "%-9s %8s  %-20s %s\n", "method", "success", "95% interval", "mean evaluations to the optimum")
		rate := map[chess960.Method]float64{}
		var curves []plot.Series
		for _, s := range sums {
			low, high := s.Interval()
			rate[s.Method] = 100 * s.Rate()
			fmt.Fprintf(stdout, "%-9s %7.2f%%  [%6.2f%%, %6.2f%%]   %.1f\n", s.Method, 100*s.Rate(), 100*low, 100*high, s.MeanFoundAt())
			curves = append(curves, successCurve(s, b.Budget))
		}
		fmt.Fprintln(stdout, "final fitness (fitness:runs):")
		for _, s := range sums {
			fitness, runs := s.FinalFitness()
			fmt.Fprintf(stdout, "%-9s", s.Method)
			for i := range fitness {
				fmt.Fprintf(stdout, " %d:%d", fitness[i], runs[i])
			}
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "seconds=%.2f\n", time.Since(start).Seconds())
		if *plotPath != "" {
			chart := plot.Chart{
				Title:  fmt.Sprintf("Runs that have evaluated RNBQKBNR, by evaluations spent (%d runs each)", b.Runs),
				XLabel: "fitness evaluations", YLabel: "runs at the optimum (%)", YMin: 0, YMax: 100,
				Series: curves, IntegerX: true,
			}
			if err := plot.WriteFile(outputGuard(), *plotPath, 18*vg.Centimeter, 9*vg.Centimeter, chart); err != nil {
				return fmt.Errorf("chess960 bench: %w", err)
			}
			fmt.Fprintf(stdout, "wrote %s\n", *plotPath)
		}
		fmt.Fprintf(stdout, "result runs=%d classic=%.2f improved=%.2f random=%.2f\n",
			b.Runs, rate[chess960.ClassicGA], rate[chess960.ImprovedGA], rate[chess960.RandomSearch])
		return nil
	}
}

// successCurve returns the percentage of a method's runs that have found the
// optimum after each number of evaluations, 1..budget.
func successCurve(s chess960.Summary, budget int) plot.Series {
	found := make([]int, budget+1)
	for _, r := range s.Results {
		if r.FoundAt > 0 {
			found[r.FoundAt]++
		}
	}
	c := plot.Series{Name: string(s.Method)}
	total := 0
	for e := 1; e <= budget; e++ {
		total += found[e]
		c.X = append(c.X, float64(e))
		c.Y = append(c.Y, 100*float64(total)/float64(len(s.Results)))
	}
	return c
}
