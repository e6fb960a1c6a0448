package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"evolved/games"
	"evolved/lab"
	"evolved/metaheuristic"
	"evolved/plot"
	"evolved/progress"
	"evolved/storage"
)

// metaSettings are the flags of `evolved meta`: a lab run's settings and
// what the command does with them.
type metaSettings struct {
	lab.Settings
	db, out  string
	list     bool
	show     int64
	plotFile string
	set      map[string]bool // the flags given
}

// metaCommand implements `evolved meta`.
func metaCommand(fs *flag.FlagSet) action {
	s := metaSettings{Settings: lab.DefaultSettings()}
	fs.StringVar(&s.Method, "method", "", "the `METHOD`: aco (ant colony), ga (genetic search over games) or sa (simulated annealing)")
	fs.StringVar(&s.Opponent, "opponent", "", "the opponent, a chess player `SPEC` (listed below): material:2, uci:/usr/games/stockfish:Skill Level=0:depth=1, ...")
	fs.StringVar(&s.From, "from", "", "`MOVES` played from the start before the learner's first move, in UCI or SAN, move numbers allowed (\"e2e4 e7e5\", \"1. e4 e5 2. Nf3\")")
	fs.StringVar(&s.FEN, "fen", "", "the start position `F` (default: the standard one); --from moves follow it")
	fs.IntVar(&s.Turns, "turns", s.Turns, "at most `T` learner moves per game")
	fs.IntVar(&s.Iterations, "iterations", s.Iterations, "run `N` iterations")
	fs.IntVar(&s.Ants, "ants", s.Ants, "aco: `N` games (ants) per iteration")
	fs.Float64Var(&s.Dissipation, "dissipation", s.Dissipation, "aco: `SHARE` of its value a visited position's moves lose per iteration")
	fs.Float64Var(&s.Tolerance, "tolerance", 0, "aco: the tolerance variant, `FACTOR` in (0,1] on every move's weight but the best's (0: off)")
	fs.IntVar(&s.Population, "population", s.Population, "ga: `N` individuals")
	fs.Float64Var(&s.Keep, "keep", s.Keep, "ga: `SHARE` of the population kept each iteration")
	fs.Float64Var(&s.T0, "t0", s.T0, "sa: start temperature `T0`")
	fs.Float64Var(&s.Drop, "drop", 0, "sa: temperature drop `D` per iteration (0: t0/iterations*0.9)")
	fs.StringVar(&s.Weights, "weights", "", "piece `WEIGHTS` of the cost, e.g. p=1,n=5,b=5,r=7,q=10,k=1000 (the default)")
	fs.Uint64Var(&s.Seed, "seed", 1, "seed `S` of every random choice of the run")
	dbVar(fs, &s.db, "the database `FILE` the run is stored in")
	fs.StringVar(&s.out, "o", "", "also write the learned table to pheromone `FILE`")
	fs.IntVar(&s.Workers, "workers", 0, "play `W` games at once (default: the number of CPUs; results do not depend on it)")
	fs.BoolVar(&s.Memo, "memo", false, "ask the opponent once per position and reuse its answer (fewer engine calls; a randomised engine then answers consistently)")
	fs.BoolVar(&s.list, "list", false, "list the stored runs")
	fs.Int64Var(&s.show, "show", 0, "show stored run `RUN`: settings, result, best line")
	fs.StringVar(&s.plotFile, "plot", "", "with --show: draw the run's best and mean cost per iteration to `FILE`.svg or FILE.png")
	setHelp(fs, help{
		usage: []string{"--method aco|ga|sa --opponent SPEC [--from \"e2e4 e7e5 ...\" | --fen F] [--turns T] [--iterations N]", "--list [--db FILE]", "--show RUN [--db FILE] [--plot FILE.svg]"},
		about: `The chess lab: an ant colony, a genetic search over games or simulated annealing
learns to play from a start position against an opponent. Every run is stored in
the database; its learned table plays as the SPEC meta:RUN (or meta:RUN@FILE.db),
and -o FILE writes it as a pheromone file, which plays as pheromones:FILE.`,
		players: []string{games.ChessName},
	})
	return func(ctx context.Context, _ io.Reader, stdout, stderr io.Writer) error {
		s.set = map[string]bool{}
		fs.Visit(func(f *flag.Flag) { s.set[f.Name] = true })
		switch {
		case s.list:
			return metaList(ctx, s, stdout)
		case s.show != 0:
			return metaShow(ctx, s, stdout)
		case s.plotFile != "":
			return usagef("meta: --plot goes with --show RUN")
		}
		return metaRun(ctx, s, stdout, stderr)
	}
}

// metaRun runs a method, storing the run as it goes.
func metaRun(ctx context.Context, s metaSettings, stdout, stderr io.Writer) error {
	plan, err := lab.NewPlan(s.Settings, s.set, lab.Parser(chessParser(ctx)), lab.Limits{})
	if err != nil {
		return usagef("meta: --%v", err)
	}
	if err := checkOutput("meta", "-o", s.out, s.db); err != nil {
		return err
	}
	db, err := storage.Open(ctx, s.db, storage.Options{})
	if errors.Is(err, storage.ErrLocked) {
		// The usual writer is a daemon evolving in the same database;
		// the lab's runs do not need to live beside its populations.
		return fmt.Errorf("meta: %w; store this run in another database with --db FILE (it then plays as meta:RUN@FILE)", err)
	}
	if err != nil {
		return fmt.Errorf("meta: %w", err)
	}
	defer db.Close()
	// This process holds the only writer lock: a run still marked queued
	// or running was ended by a kill.
	if _, err := db.MarkInterruptedMetaRuns(ctx, "its process ended before the run did"); err != nil {
		return fmt.Errorf("meta: %w", err)
	}
	began := time.Now()
	id, err := plan.Create(ctx, db, storage.MetaRunning, began)
	if err != nil {
		return fmt.Errorf("meta: %w", err)
	}
	fmt.Fprintf(stdout, "meta run %d: %s against %s from %s, %d iterations of at most %d turns, seed %d\n",
		id, plan.Method, s.Opponent, plan.Start, s.Iterations, s.Turns, s.Seed)

	rep := progress.New(stderr, "meta "+string(plan.Method), s.Iterations, "iterations", progress.IsTerminal(stderr))
	res, err := plan.Run(ctx, db, id, func(p lab.Progress) {
		rep.UpdateNote(p.Iteration, fmt.Sprintf("best cost %s, %.0f games/s", formatCost(p.BestCost), p.GamesPerSecond))
	})
	rep.Finish()
	if errors.Is(err, lab.ErrStopped) {
		fmt.Fprintf(stdout, "meta run %d stopped after %d iterations; what it learnt is stored\n", id, len(res.Iterations))
		if ctx.Err() != nil {
			return nil // interrupted by a signal: the run is stored as stopped
		}
	}
	if err != nil {
		return fmt.Errorf("meta: %w", err)
	}
	elapsed := time.Since(began)
	if s.out != "" {
		var table bytes.Buffer
		if err := res.Table.Write(&table); err != nil {
			return fmt.Errorf("meta: write the learned table: %w", err)
		}
		if err := outputGuard(s.db).WriteFile(s.out, table.Bytes()); err != nil {
			return fmt.Errorf("meta: %w", err)
		}
	}
	wins, total := 0, 0
	for _, it := range res.Iterations {
		wins, total = wins+it.Wins, total+it.Games
	}
	fmt.Fprintf(stdout, "best cost %s in %.1f s (%d iterations, %d games, %d won by the learner, %d positions learnt)\n",
		formatCost(res.Best.Cost), elapsed.Seconds(), len(res.Iterations), total, wins, res.Table.Len())
	if line := res.Best.UCI(); len(line) > 0 {
		fmt.Fprintf(stdout, "best line: %s\n", strings.Join(line[res.Best.Opening:], " "))
	}
	fmt.Fprintf(stdout, "stored as run %d in %s; play it as %s\n", id, s.db, metaSpec(id, s.db))
	return nil
}

// metaSpec returns the player SPEC of stored run id: meta:RUN reads the
// default database (see player's meta: parser), so a run stored anywhere
// else must name its file, meta:RUN@FILE.
func metaSpec(id int64, db string) string {
	if db == storage.DefaultPath() {
		return fmt.Sprintf("meta:%d", id)
	}
	return fmt.Sprintf("meta:%d@%s", id, db)
}

// formatCost writes a cost without needless decimals.
func formatCost(c float64) string { return strconv.FormatFloat(c, 'f', -1, 64) }

// metaList prints the stored runs.
func metaList(ctx context.Context, s metaSettings, stdout io.Writer) error {
	db, err := openReader(ctx, s.db)
	if err != nil {
		return fmt.Errorf("meta: %w", err)
	}
	defer db.Close()
	runs, err := db.MetaRuns(ctx)
	if err != nil {
		return fmt.Errorf("meta: %w", err)
	}
	if len(runs) == 0 {
		fmt.Fprintf(stdout, "no meta runs in %s\n", s.db)
		return nil
	}
	fmt.Fprintf(stdout, "%4s  %-6s %-40s %10s %10s %9s  %s\n", "run", "method", "opponent", "iterations", "best cost", "seconds", "state")
	for _, r := range runs {
		state := r.State
		if r.Failure != "" {
			state += ": " + r.Failure
		}
		fmt.Fprintf(stdout, "%4d  %-6s %-40s %10d %10s %9.1f  %s\n", r.ID, r.Method, r.Opponent, r.Iterations, formatCost(r.BestCost), r.Seconds, state)
	}
	return nil
}

// metaShow prints one stored run, and plots it with --plot.
func metaShow(ctx context.Context, s metaSettings, stdout io.Writer) error {
	if err := checkOutput("meta", "--plot", s.plotFile, s.db); err != nil {
		return err
	}
	db, err := openReader(ctx, s.db)
	if err != nil {
		return fmt.Errorf("meta: %w", err)
	}
	defer db.Close()
	r, its, err := db.LoadMetaRun(ctx, s.show)
	if err != nil {
		return fmt.Errorf("meta: %w", err)
	}
	fmt.Fprintf(stdout, "run %d: %s against %s\nstart: %s\nsettings: %s\n", r.ID, r.Method, r.Opponent, r.Start, r.Params)
	state := fmt.Sprintf("finished %s after %.1f s", r.Finished.Format(time.RFC3339), r.Seconds)
	if r.State != storage.MetaFinished {
		state = r.State
		if r.Failure != "" {
			state += " (" + r.Failure + ")"
		}
	}
	wins, games := 0, 0
	for _, it := range its {
		wins, games = wins+it.Wins, games+it.Games
	}
	fmt.Fprintf(stdout, "%s; %d iterations, %d games, %d won by the learner; best cost %s\n", state, r.Iterations, games, wins, formatCost(r.BestCost))
	if r.Learned != "" {
		table, err := metaheuristic.ReadPheromones(strings.NewReader(r.Learned))
		if err != nil {
			return fmt.Errorf("meta: run %d's table: %w", r.ID, err)
		}
		fmt.Fprintf(stdout, "learned table: %d positions\n", table.Len())
	}
	if r.BestPGN != "" {
		fmt.Fprintf(stdout, "\nbest line:\n%s", r.BestPGN)
	}
	if s.plotFile != "" {
		if len(its) == 0 {
			return fmt.Errorf("meta: run %d has no iteration to plot", r.ID)
		}
		chart := plot.LabRun(r, its)
		if err := plot.WriteFile(outputGuard(s.db), s.plotFile, 18*vg.Centimeter, 8*vg.Centimeter, chart); err != nil {
			return fmt.Errorf("meta: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s\n", s.plotFile)
	}
	return nil
}
