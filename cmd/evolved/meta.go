package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"evolved/game/chess"
	"evolved/metaheuristic"
	"evolved/plot"
	"evolved/progress"
	"evolved/storage"
)

// metaSettings are the flags of `evolved meta`.
type metaSettings struct {
	method, opponent  string
	from, fen         string
	turns, iterations int
	ants, population  int
	keep              float64
	dissipation, tol  float64
	t0, drop          float64
	weights           string
	seed              uint64
	db, out           string
	workers           int
	memo              bool
	list              bool
	show              int64
	plotFile          string
	set               map[string]bool // the flags given
	storeEvery        time.Duration   // how often iterations are written while running
}

// metaParams is what a stored run records of its settings.
type metaParams struct {
	Method      string   `json:"method"`
	Opponent    string   `json:"opponent"`
	FEN         string   `json:"fen,omitempty"`
	From        []string `json:"from,omitempty"`
	Turns       int      `json:"turns"`
	Iterations  int      `json:"iterations"`
	Ants        int      `json:"ants,omitempty"`
	Dissipation float64  `json:"dissipation,omitempty"`
	Tolerance   float64  `json:"tolerance,omitempty"`
	Population  int      `json:"population,omitempty"`
	Keep        float64  `json:"keep,omitempty"`
	T0          float64  `json:"t0,omitempty"`
	Drop        float64  `json:"drop,omitempty"`
	Weights     string   `json:"weights"`
	Seed        uint64   `json:"seed"`
	Memo        bool     `json:"memo_opponent"`
}

// metaCommand implements `evolved meta`.
func metaCommand(fs *flag.FlagSet) action {
	s := metaSettings{storeEvery: 2 * time.Second}
	fs.StringVar(&s.method, "method", "", "the `METHOD`: aco (ant colony), ga (genetic search over games) or sa (simulated annealing)")
	fs.StringVar(&s.opponent, "opponent", "", "the opponent (`SPEC` as in match: material:2, uci:/usr/games/stockfish:Skill Level=0:depth=1, ...)")
	fs.StringVar(&s.from, "from", "", "`MOVES` played from the start before the learner's first move, in UCI (\"e2e4 e7e5\")")
	fs.StringVar(&s.fen, "fen", "", "the start position `F` (default: the standard one); --from moves follow it")
	fs.IntVar(&s.turns, "turns", metaheuristic.DefaultTurns, "at most `T` learner moves per game")
	fs.IntVar(&s.iterations, "iterations", metaheuristic.DefaultIterations, "run `N` iterations")
	fs.IntVar(&s.ants, "ants", metaheuristic.DefaultAnts, "aco: `N` games (ants) per iteration")
	fs.Float64Var(&s.dissipation, "dissipation", metaheuristic.DefaultDissipation, "aco: `SHARE` of its value a visited position's moves lose per iteration")
	fs.Float64Var(&s.tol, "tolerance", 0, "aco: the tolerance variant, `FACTOR` in (0,1] on every move's weight but the best's (0: off)")
	fs.IntVar(&s.population, "population", metaheuristic.DefaultPopulation, "ga: `N` individuals")
	fs.Float64Var(&s.keep, "keep", metaheuristic.DefaultKeep, "ga: `SHARE` of the population kept each iteration")
	fs.Float64Var(&s.t0, "t0", metaheuristic.DefaultT0, "sa: start temperature `T0`")
	fs.Float64Var(&s.drop, "drop", 0, "sa: temperature drop `D` per iteration (0: t0/iterations*0.9)")
	fs.StringVar(&s.weights, "weights", "", "piece `WEIGHTS` of the cost, e.g. p=1,n=5,b=5,r=7,q=10,k=1000 (the default)")
	fs.Uint64Var(&s.seed, "seed", 1, "seed `S` of every random choice of the run")
	fs.StringVar(&s.db, "db", defaultDB(), "the database `FILE` the run is stored in")
	fs.StringVar(&s.out, "o", "", "also write the learned table to pheromone `FILE`")
	fs.IntVar(&s.workers, "workers", 0, "play `W` games at once (default: the number of CPUs; results do not depend on it)")
	fs.BoolVar(&s.memo, "memo", false, "ask the opponent once per position and reuse its answer (fewer engine calls; a randomised engine then answers consistently)")
	fs.BoolVar(&s.list, "list", false, "list the stored runs")
	fs.Int64Var(&s.show, "show", 0, "show stored run `RUN`: settings, result, best line")
	fs.StringVar(&s.plotFile, "plot", "", "with --show: draw the run's best and mean cost per iteration to `FILE`.svg or FILE.png")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: evolved meta --method aco|ga|sa --opponent SPEC [--from \"e2e4 e7e5 ...\" | --fen F] [--turns T] [--iterations N] [...]")
		fmt.Fprintln(fs.Output(), "       evolved meta --list [--db FILE]")
		fmt.Fprintln(fs.Output(), "       evolved meta --show RUN [--db FILE] [--plot FILE.svg]")
		fmt.Fprintln(fs.Output(), "\nThe chess lab: an ant colony, a genetic search over games or simulated annealing")
		fmt.Fprintln(fs.Output(), "learns to play from a start position against an opponent. Every run is stored in")
		fmt.Fprintln(fs.Output(), "the database; its learned table plays as the SPEC meta:RUN (or meta:RUN@FILE.db),")
		fmt.Fprintln(fs.Output(), "and -o FILE writes it as a pheromone file, which plays as pheromones:FILE.")
		fmt.Fprintln(fs.Output(), "\nFlags:")
		fs.PrintDefaults()
	}
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

// metaConfigs checks the settings and builds the method's configuration.
func metaConfigs(ctx context.Context, s metaSettings) (metaheuristic.Method, any, metaParams, error) {
	method, err := metaheuristic.ParseMethod(s.method)
	if err != nil {
		return "", nil, metaParams{}, usagef("meta: --method: %v", err)
	}
	if s.opponent == "" {
		return "", nil, metaParams{}, usagef("meta: --opponent is required")
	}
	own := map[metaheuristic.Method][]string{
		metaheuristic.ACO: {"ants", "dissipation", "tolerance"},
		metaheuristic.GA:  {"population", "keep"},
		metaheuristic.SA:  {"t0", "drop"},
	}
	for m, names := range own {
		for _, name := range names {
			if m != method && s.set[name] {
				return "", nil, metaParams{}, usagef("meta: --%s is for --method %s, not %s", name, m, method)
			}
		}
	}
	opp, err := chessParser(ctx)(s.opponent)
	if err != nil {
		return "", nil, metaParams{}, &usageError{msg: "meta: --opponent: " + err.Error()}
	}
	var weights metaheuristic.Weights
	if s.weights != "" {
		if weights, err = metaheuristic.ParseWeights(s.weights); err != nil {
			return "", nil, metaParams{}, &usageError{msg: "meta: --weights: " + err.Error()}
		}
	}
	base := metaheuristic.DefaultConfig()
	base.Start = metaheuristic.Start{FEN: s.fen, Moves: strings.Fields(s.from)}
	base.Opponent = metaheuristic.Opponent(opp.New)
	base.Turns, base.Iterations, base.Seed, base.Workers, base.MemoOpponent = s.turns, s.iterations, s.seed, s.workers, s.memo
	if s.weights != "" {
		base.Weights = weights
	}
	weightsUsed := base.Weights
	if weightsUsed == (metaheuristic.Weights{}) {
		weightsUsed = metaheuristic.DefaultWeights()
	}
	params := metaParams{Method: string(method), Opponent: s.opponent, FEN: s.fen, From: base.Start.Moves, Turns: s.turns,
		Iterations: s.iterations, Weights: weightsUsed.String(), Seed: s.seed, Memo: s.memo}
	var cfg any
	switch method {
	case metaheuristic.ACO:
		c := metaheuristic.DefaultACOConfig()
		c.Config, c.Ants, c.Dissipation, c.Tolerance = base, s.ants, s.dissipation, s.tol
		err, cfg = c.Validate(), c
		params.Ants, params.Dissipation, params.Tolerance = s.ants, s.dissipation, s.tol
	case metaheuristic.GA:
		c := metaheuristic.DefaultGAConfig()
		c.Config, c.Population, c.Keep = base, s.population, s.keep
		err, cfg = c.Validate(), c
		params.Population, params.Keep = s.population, s.keep
	case metaheuristic.SA:
		c := metaheuristic.DefaultSAConfig()
		c.Config, c.T0, c.Drop = base, s.t0, s.drop
		err, cfg = c.Validate(), c
		params.T0, params.Drop = s.t0, c.Temperature(0)-c.Temperature(1)
	}
	if err != nil {
		return "", nil, metaParams{}, &usageError{msg: "meta: " + err.Error()}
	}
	return method, cfg, params, nil
}

// metaRun runs a method, storing the run as it goes.
func metaRun(ctx context.Context, s metaSettings, stdout, stderr io.Writer) error {
	method, cfg, params, err := metaConfigs(ctx, s)
	if err != nil {
		return err
	}
	startPos, err := metaheuristic.Start{FEN: params.FEN, Moves: params.From}.Position()
	if err != nil {
		return &usageError{msg: "meta: " + err.Error()}
	}
	start := startPos.FEN()
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
	paramsJSON, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("meta: %w", err)
	}
	began := time.Now()
	id, err := db.CreateMetaRun(ctx, storage.MetaRun{Method: string(method), Opponent: s.opponent, Start: start,
		Params: string(paramsJSON), Seed: s.seed, Created: began})
	if err != nil {
		return fmt.Errorf("meta: %w", err)
	}
	fmt.Fprintf(stdout, "meta run %d: %s against %s from %s, %d iterations of at most %d turns, seed %d\n",
		id, method, s.opponent, start, s.iterations, s.turns, s.seed)

	rep := progress.New(stderr, "meta "+string(method), s.iterations, "iterations", progress.IsTerminal(stderr))
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var pending []storage.MetaIteration
	var storeErr error
	lastStore, games, best := began, 0, 0.0
	onIteration := func(it metaheuristic.IterationStats) {
		games += it.Games
		best = it.BestSoFar
		elapsed := time.Since(began)
		pending = append(pending, storage.MetaIteration{Iteration: it.Iteration + 1, BestCost: it.BestSoFar,
			MeanCost: it.MeanCost, Wins: it.Wins, Games: it.Games, Seconds: elapsed.Seconds()})
		rep.UpdateNote(it.Iteration+1, fmt.Sprintf("best cost %s, %.0f games/s", formatCost(best), float64(games)/max(elapsed.Seconds(), 1e-9)))
		if time.Since(lastStore) >= s.storeEvery && storeErr == nil {
			storeErr = db.AddMetaIterations(ctx, id, pending, best, "", "")
			pending, lastStore = pending[:0], time.Now()
			if storeErr != nil {
				cancel()
			}
		}
	}
	var res metaheuristic.Result
	var runErr error
	switch c := cfg.(type) {
	case metaheuristic.ACOConfig:
		c.OnIteration = onIteration
		res, runErr = metaheuristic.RunACO(runCtx, c)
	case metaheuristic.GAConfig:
		c.OnIteration = onIteration
		res, runErr = metaheuristic.RunGA(runCtx, c)
	case metaheuristic.SAConfig:
		c.OnIteration = onIteration
		res, runErr = metaheuristic.RunSA(runCtx, c)
	}
	rep.Finish()
	if storeErr != nil {
		return fmt.Errorf("meta: %w", storeErr)
	}
	// Whatever happened, keep what was learnt: the iterations, the best
	// line and the table.
	var table bytes.Buffer
	if res.Table != nil {
		if err := res.Table.Write(&table); err != nil {
			return fmt.Errorf("meta: write the learned table: %w", err)
		}
	}
	pgn, err := metaBestPGN(res, id, s.opponent)
	if err != nil {
		return fmt.Errorf("meta: %w", err)
	}
	if err := db.AddMetaIterations(context.WithoutCancel(ctx), id, pending, best, pgn, table.String()); err != nil {
		return fmt.Errorf("meta: %w", err)
	}
	elapsed := time.Since(began)
	if runErr != nil {
		if errors.Is(runErr, context.Canceled) {
			fmt.Fprintf(stdout, "meta run %d stopped after %d iterations; what it learnt is stored\n", id, len(res.Iterations))
			if ctx.Err() != nil {
				return nil // interrupted by a signal: the run is stored as stopped
			}
		}
		return fmt.Errorf("meta run %d: %w", id, runErr)
	}
	if err := db.FinishMetaRun(ctx, id, elapsed.Seconds(), time.Now()); err != nil {
		return fmt.Errorf("meta: %w", err)
	}
	if s.out != "" {
		if err := os.WriteFile(s.out, table.Bytes(), 0o644); err != nil {
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

// metaBestPGN writes the run's best game as PGN, or "" when there is none.
func metaBestPGN(res metaheuristic.Result, id int64, opponent string) (string, error) {
	if len(res.Best.Moves) == 0 {
		return "", nil
	}
	g := res.Best.PGN()
	learner := fmt.Sprintf("meta:%d (%s)", id, res.Method)
	white, black := learner, opponent
	if res.Best.Learner == chess.Black {
		white, black = black, white
	}
	g.SetTag("Event", fmt.Sprintf("evolved meta run %d, best game (cost %s)", id, formatCost(res.Best.Cost)))
	g.SetTag("White", white)
	g.SetTag("Black", black)
	var b bytes.Buffer
	if err := chess.WritePGN(&b, g); err != nil {
		return "", fmt.Errorf("write the best line: %w", err)
	}
	return b.String(), nil
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
		state := "finished"
		if r.Finished.IsZero() {
			state = "stopped (or running)"
		}
		fmt.Fprintf(stdout, "%4d  %-6s %-40s %10d %10s %9.1f  %s\n", r.ID, r.Method, r.Opponent, r.Iterations, formatCost(r.BestCost), r.Seconds, state)
	}
	return nil
}

// metaShow prints one stored run, and plots it with --plot.
func metaShow(ctx context.Context, s metaSettings, stdout io.Writer) error {
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
	if r.Finished.IsZero() {
		state = "not finished (stopped, or still running)"
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
		chart := metaChart(r, its)
		if err := plot.WriteFile(s.plotFile, 18*vg.Centimeter, 8*vg.Centimeter, chart); err != nil {
			return fmt.Errorf("meta: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s\n", s.plotFile)
	}
	return nil
}

// metaChart draws the best cost so far and the iterations' mean cost. A
// long run is drawn in at most 500 bins (the mean of each bin's iteration
// means, the best at its end), so that the picture stays small.
func metaChart(r storage.MetaRun, its []storage.MetaIteration) plot.Chart {
	bin := (len(its) + 499) / 500
	var x, best, mean []float64
	for i := 0; i < len(its); i += bin {
		j := min(i+bin, len(its))
		sum := 0.0
		for _, it := range its[i:j] {
			sum += it.MeanCost
		}
		last := its[j-1]
		x, best, mean = append(x, float64(last.Iteration)), append(best, last.BestCost), append(mean, sum/float64(j-i))
	}
	meanName := "iteration mean"
	if bin > 1 {
		meanName = fmt.Sprintf("mean of %d iterations", bin)
	}
	return plot.Chart{
		Title:  fmt.Sprintf("meta run %d: %s against %s", r.ID, r.Method, r.Opponent),
		XLabel: "iteration", YLabel: "cost (learner's material balance)",
		Series:   []plot.Series{{Name: "best so far", X: x, Y: best}, {Name: meanName, X: x, Y: mean}},
		IntegerX: true,
	}
}
