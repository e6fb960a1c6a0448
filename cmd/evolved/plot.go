package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/vg"

	"evolved/plot"
	"evolved/storage"
)

// plotCommand implements `evolved plot`.
func plotCommand(fs *flag.FlagSet) action {
	dbPath := dbFlag(fs, "the database `FILE`")
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
		db, g, err := openRun(ctx, "plot", *dbPath, *game)
		if err != nil {
			return err
		}
		defer db.Close()
		*game = g
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
		charts := append(plot.Learning(*game, c), plot.Ratings(ratings)...)
		if err := plot.WriteFile(outputGuard(*dbPath), *out, 18*vg.Centimeter, 8*vg.Centimeter, charts...); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s (%d generations)\n", *out, len(c.Generations))
		return nil
	}
}

// compareRuns draws the rating curves of the runs in paths, one series
// each, named by file, by generation and by hours of evolution.
func compareRuns(ctx context.Context, paths []string, game, out string, stdout io.Writer) error {
	guard := outputGuard(paths...)
	if err := guard.Check(out); err != nil {
		return fmt.Errorf("plot: -o: %w", err)
	}
	runs := make([]plot.Run, 0, len(paths))
	for _, path := range paths {
		path = strings.TrimSpace(path)
		if path == "" {
			return usagef("plot: --compare: an empty file name in the list")
		}
		g, ratings, err := readRatings(ctx, path, game)
		if err != nil {
			return err
		}
		game = g
		runs = append(runs, plot.Run{Name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), Ratings: ratings})
	}
	charts, err := plot.Compare(game, runs)
	if err != nil {
		return fmt.Errorf("plot: --compare: %w", err)
	}
	if err := plot.WriteFile(guard, out, 18*vg.Centimeter, 8*vg.Centimeter, charts...); err != nil {
		return err
	}
	n := 0
	for _, r := range runs {
		n += len(r.Ratings)
	}
	fmt.Fprintf(stdout, "wrote %s (%d runs, %d ratings)\n", out, len(paths), n)
	return nil
}

// readRatings reads the ratings of the run of game (or the only run) in
// the database at path; a run without a rating is an error.
func readRatings(ctx context.Context, path, game string) (string, []storage.Rating, error) {
	db, g, err := openRun(ctx, "plot", path, game)
	if err != nil {
		return "", nil, err
	}
	defer db.Close()
	ratings, err := db.Ratings(ctx, g)
	if err != nil {
		return "", nil, fmt.Errorf("plot: %w", err)
	}
	if len(ratings) == 0 {
		return "", nil, fmt.Errorf("plot: %s holds no rating of a %s champion (jobs.rating_every)", path, g)
	}
	return g, ratings, nil
}
