package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg"

	"evolved/elo"
	"evolved/plot"
	"evolved/rating"
	"evolved/storage"
)

// plotCommand implements `evolved plot`.
func plotCommand(fs *flag.FlagSet) action {
	dbPath := new(string)
	dbVar(fs, dbPath, "the database `FILE`")
	game := fs.String("game", "", "the population's `GAME`: draughts, chess or xiangqi (default: the database's only run)")
	out := fs.String("o", "", "the picture to write (required): `FILE`.svg or FILE.png")
	compare := fs.String("compare", "", "instead, compare the rating curves of runs: `FILES`, database files separated by commas, one curve each (named by file)")
	setHelp(fs, help{
		usage: []string{"[--db FILE] [--game G] -o FILE.svg|png", "--compare A.db,B.db,... [--game G] -o FILE.svg|png"},
		about: `Draws a population's learning curves: best and mean fitness, the champion
ladder, the champion's scores against the baselines, by generation, and, when
the daemon rated champions (jobs.rating_every), their ratings on the game's
calibrated scale by generation and by hours of evolution. With --compare it
draws the ratings of several runs (one game, one scale) side by side.`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, _ io.Writer) error {
		if *out == "" {
			return usagef("plot: -o FILE.svg|png is required")
		}
		if ext := strings.ToLower(*out); !strings.HasSuffix(ext, ".svg") && !strings.HasSuffix(ext, ".png") {
			return usagef("plot: -o must end in .svg or .png, got %q", *out)
		}
		if *compare != "" {
			return compareRuns(ctx, strings.Split(*compare, ","), *game, *out, stdout)
		}
		if err := checkOutput("plot", "-o", *out, *dbPath); err != nil {
			return err
		}
		db, err := openReader(ctx, *dbPath)
		if err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		defer db.Close()
		if *game, err = gameOf(ctx, db, "plot", *game); err != nil {
			return err
		}
		c, err := db.LoadCurves(ctx, *game)
		if err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		if len(c.Generations) == 0 {
			return fmt.Errorf("plot: %s has no played generation yet", *game)
		}
		ratings, err := db.Ratings(ctx, *game)
		if err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		charts := append(learningCharts(*game, c), ratingCharts(ratings)...)
		if err := plot.WriteFile(outputGuard(*dbPath), *out, 18*vg.Centimeter, 8*vg.Centimeter, charts...); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s (%d generations)\n", *out, len(c.Generations))
		return nil
	}
}

// floats returns the generations as float64s, for a chart's x axis.
func floats(gens []int) []float64 {
	out := make([]float64, len(gens))
	for i, g := range gens {
		out[i] = float64(g)
	}
	return out
}

// learningCharts turns a run's curves into three panels.
func learningCharts(game string, c storage.Curves) []plot.Chart {
	gens, ladderGens := floats(c.Generations), floats(c.LadderGenerations)
	fitness := plot.Chart{
		Title: game + ": tournament fitness (win +2, draw 0, loss -1)", XLabel: "generation", YLabel: "points",
		Series:   []plot.Series{{Name: "best", X: gens, Y: c.Best}, {Name: "mean", X: gens, Y: c.Mean}},
		IntegerX: true,
	}
	ladder := plot.Chart{
		Title: "champion against the previous champions (mean of 1/0/-1 per game)", XLabel: "generation", YLabel: "ladder mean",
		YMin: -1, YMax: 1, IntegerX: true,
		Series: []plot.Series{{Name: "ladder", X: ladderGens, Y: c.LadderMean}, {Name: "10-point mean", X: ladderGens, Y: movingMean(c.LadderMean, 10)}},
	}
	baselines := plot.Chart{Title: "champion's score against the baselines, with 95% intervals", XLabel: "generation",
		YLabel: "score (%)", YMin: 0, YMax: 100, IntegerX: true}
	names := make([]string, 0, len(c.Baselines))
	for name := range c.Baselines {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		var s plot.Series
		s.Name = name
		for _, p := range c.Baselines[name] {
			s.X = append(s.X, float64(p.Generation))
			s.Y = append(s.Y, 100*p.Score)
			// The interval of the Elo difference, as a score: the expected
			// score at each of its ends.
			s.Low = append(s.Low, 100*elo.Expected(p.Elo-p.EloCI))
			s.High = append(s.High, 100*elo.Expected(p.Elo+p.EloCI))
		}
		baselines.Series = append(baselines.Series, s)
	}
	charts := []plot.Chart{fitness, ladder}
	if len(baselines.Series) > 0 {
		charts = append(charts, baselines)
	}
	return charts
}

// ratingCharts draws the champions' ratings with their 95% intervals as
// bands, one series per scale and time control: against the generation,
// and against the hours of evolution that made each champion. It returns
// no chart when nothing was rated.
func ratingCharts(ratings []storage.Rating) []plot.Chart {
	if len(ratings) == 0 {
		return nil
	}
	byGen := plot.Chart{Title: "champion's rating, with 95% intervals", XLabel: "generation", YLabel: "Elo", IntegerX: true}
	byHour := plot.Chart{Title: "champion's rating against the hours of evolution that made it", XLabel: "hours of evolution", YLabel: "Elo"}
	index := map[string]int{}
	for _, r := range ratings {
		name := r.Scale
		if r.TC != rating.Untimed {
			name += " at " + r.TC
		}
		i, ok := index[name]
		if !ok {
			i = len(byGen.Series)
			index[name] = i
			byGen.Series = append(byGen.Series, plot.Series{Name: name, Band: true})
			byHour.Series = append(byHour.Series, plot.Series{Name: name, Band: true})
		}
		for _, ch := range []*plot.Chart{&byGen, &byHour} {
			s := &ch.Series[i]
			x := float64(r.Generation)
			if ch == &byHour {
				x = r.Hours
			}
			s.X, s.Y = append(s.X, x), append(s.Y, r.Elo)
			s.Low, s.High = append(s.Low, r.Elo-r.CI), append(s.High, r.Elo+r.CI)
		}
	}
	return []plot.Chart{byGen, byHour}
}

// compareRuns draws the rating curves of the runs in paths, one series
// each, named by file, by generation and by hours of evolution.
func compareRuns(ctx context.Context, paths []string, game, out string, stdout io.Writer) error {
	guard := outputGuard(paths...)
	if err := guard.Check(out); err != nil {
		return fmt.Errorf("plot: -o: %w", err)
	}
	var all []storage.Rating
	scales := map[string]bool{}
	for _, path := range paths {
		path = strings.TrimSpace(path)
		if path == "" {
			return usagef("plot: --compare: an empty file name in the list")
		}
		db, err := openReader(ctx, path)
		if err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		g, err := gameOf(ctx, db, "plot", game)
		if err == nil {
			var ratings []storage.Rating
			if ratings, err = db.Ratings(ctx, g); err == nil && len(ratings) == 0 {
				err = fmt.Errorf("plot: %s holds no rating of a %s champion (jobs.rating_every)", path, g)
			}
			name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
			for _, r := range ratings {
				scale := r.Scale
				if r.TC != rating.Untimed {
					scale += " at " + r.TC
				}
				scales[scale] = true
				r.Scale, r.TC = name, rating.Untimed // one series per run
				all = append(all, r)
			}
			game = g
		}
		db.Close()
		if err != nil {
			return err
		}
	}
	if len(scales) > 1 {
		return fmt.Errorf("plot: --compare: the runs are rated on different scales (%s); compare runs rated alike", strings.Join(slices.Sorted(maps.Keys(scales)), ", "))
	}
	charts := ratingCharts(all)
	charts[0].Title = game + ": champions' ratings, with 95% intervals (" + slices.Collect(maps.Keys(scales))[0] + ")"
	if err := plot.WriteFile(guard, out, 18*vg.Centimeter, 8*vg.Centimeter, charts...); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%d runs, %d ratings)\n", out, len(paths), len(all))
	return nil
}

// movingMean returns the mean of the last n values at each point.
func movingMean(v []float64, n int) []float64 {
	out := make([]float64, len(v))
	sum := 0.0
	for i, x := range v {
		sum += x
		if i >= n {
			sum -= v[i-n]
		}
		out[i] = sum / float64(min(i+1, n))
	}
	return out
}
