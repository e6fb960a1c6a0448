package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"time"

	"evolved/cluster"
	"evolved/games"
	"evolved/population"
	"evolved/positions"
	"evolved/progress"
	"evolved/search"
	"evolved/storage"
)

// The generation loop of one population: load or create its run, then
// generation after generation play it (population.Step, through the env),
// commit it in one transaction, log one line and start the rating that is
// due. Everything a generation does is in package population; this file
// is what the daemon does around it.

// evolution is one population's loop: what its generations share.
type evolution[M cluster.MoveCode, S search.Game[M]] struct {
	d    *Daemon
	kind games.Kind[M, S]
	env  env[M, S]
	pcfg population.Config
	log  *slog.Logger
	// live counts the games of a generation for the live line: the
	// tournament's from Step's progress, the ladder's and the baselines'
	// as they start (Step reports no progress for them), counted through
	// the arena.
	live *liveGames
	// since and played are this session's start and generations, for the
	// overall rate.
	since  time.Time
	played int
	// elite is the elite's size the selection's reliability follows (0
	// when no agent outlives its generation).
	elite       int
	reliability *population.Reliability
}

// evolve runs the population of kind under setup with the settings its
// run was started with (defining, and pcfg the GA's part of them) until
// the generation target or ctx's end, which ends it with a nil error.
func evolve[M cluster.MoveCode, S search.Game[M]](ctx context.Context, d *Daemon, kind games.Kind[M, S], setup games.Setup,
	defining any, pcfg population.Config) error {
	game := kind.Name
	live := &liveGames{line: d.line, key: game}
	e := &evolution[M, S]{d: d, kind: kind, env: newEnv(d, kind, setup, live), pcfg: pcfg, log: d.log.With("game", game),
		live: live, since: time.Now(), elite: pcfg.Elite}
	if pcfg.Optimizer.Mirrored() {
		e.elite = 0 // no agent outlives its generation
	}
	e.reliability = population.NewReliability(reliabilityWindow * e.elite)
	st, err := loadOrCreate(ctx, d, kind, defining, pcfg)
	if err != nil {
		return err
	}
	if pcfg.LearnEvery > 0 {
		store, err := d.openPositions(ctx, game, st.Generation-1)
		if err != nil {
			return err
		}
		defer store.Close()
		e.env.Positions = store
		e.log.Info("position store ready", "dir", positions.DirBeside(d.db.Path(), game), "positions", store.CommittedRecords(),
			"mb", round2(float64(store.Bytes())/(1<<20)))
	}
	e.log.Info("population ready", "generation", st.Generation, "seed", st.Seed)
	redoRating(ctx, d, kind, e.env.Game(0), st)
	if d.line != nil {
		defer d.line.Remove(game)
	}
	// The target goes into the database, for status and a web site in
	// another process; a clean stop takes it out.
	defer func() {
		if err := d.db.SetTarget(context.WithoutCancel(ctx), game, 0); err != nil {
			e.log.Warn("could not clear the generation target", "err", err)
		}
	}()
	recorded := -1
	for {
		target := d.config().Generations
		if target != recorded {
			if err := d.db.SetTarget(ctx, game, target); err != nil {
				return err
			}
			recorded = target
		}
		if target > 0 && st.Generation >= target {
			e.log.Info("generation target reached", "generations", st.Generation)
			return nil
		}
		if err := d.waitForDisk(ctx, game); err != nil {
			return nil // stopped while paused
		}
		next, report, took, err := e.step(ctx, st, target)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("daemon: %s generation %d: %w", game, st.Generation, err)
		}
		if err := e.commit(ctx, st, next, report, took); err != nil {
			return err
		}
		st = next
		e.played++
	}
}

// step plays generation st with the live line showing its games, and
// returns the next state, the report and how long it took.
func (e *evolution[M, S]) step(ctx context.Context, st *population.State, target int) (*population.State, *population.Report[M], time.Duration, error) {
	pcfg := e.pcfg
	pcfg.Tournament.Workers = e.d.workers()
	pcfg.Tournament.Slots = e.d.slots
	fitness := pcfg.FitnessGames(st.Generation, len(st.Agents))
	what := fmt.Sprintf("%s generation %d", e.kind.Name, st.Generation)
	var rep *progress.Reporter
	// The race is a budget and the title match is not played when the
	// champion ranks first: the line may jump. The data games of a run
	// that learns start through the env's arena too, so they count.
	total := fitness + pcfg.RacingGames + pcfg.ChallengeGames(st.Generation) + pcfg.MeasurementGames(st.Generation) + pcfg.DataGames()
	if e.d.line != nil {
		rep = progress.NewOnLine(e.d.line, e.kind.Name, what, total, "games")
		rep.UpdateNote(0, overallRate(e.played, time.Since(e.since), st.Generation, target))
	}
	e.live.reset(rep, fitness, !e.env.remote(), what)
	started := time.Now()
	next, report, err := population.Step(ctx, e.env, pcfg, st, fitnessObserver{e.d, e.live, rep})
	if rep != nil {
		if err == nil {
			rep.Update(total) // the last ladder or baseline game is done too
		}
		rep.Finish()
	}
	e.live.finish()
	return next, report, time.Since(started), err
}

// fitnessObserver shows a generation's fitness games on the live line and
// feeds the watchdog; the distillation's searches it hears through the
// env (env.Distill), which counts them wherever they run.
type fitnessObserver struct {
	d    *Daemon
	live *liveGames
	rep  *progress.Reporter // nil: no terminal
}

// Played records done fitness games.
func (o fitnessObserver) Played(done, _ int) {
	o.d.beat()
	o.live.progressed(done)
	if o.rep != nil {
		o.rep.Update(done)
	}
}

// Searched hears nothing: env.Distill shows the searches.
func (fitnessObserver) Searched(int, int) {}

// commit stores generation st's report and the next state in one
// transaction, logs the generation and starts its rating when one is due.
func (e *evolution[M, S]) commit(ctx context.Context, st, next *population.State, report *population.Report[M], took time.Duration) error {
	d, game := e.d, e.kind.Name
	record, err := toRecord(game, report, e.kind.MoveText)
	if err != nil {
		return fmt.Errorf("daemon: %s generation %d: %w", game, st.Generation, err)
	}
	// The generation is finished: commit it even if a stop signal
	// arrived meanwhile, so that finished work is not replayed.
	commitCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	committing := time.Now()
	// The store commits first: after a crash between the two it is a
	// generation ahead, and openPositions rewinds it.
	if err := e.storePositions(st.Generation, report); err != nil {
		cancel()
		return err
	}
	err = d.db.CommitGeneration(commitCtx, record, PopulationRows(next), d.config().Jobs.Retention())
	cancel()
	if err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	d.metrics.Checkpoint.WithLabelValues(game).Observe(time.Since(committing).Seconds())
	d.beat()
	secs := took.Seconds()
	d.metrics.Generation.WithLabelValues(game).Observe(secs)
	rate := float64(len(report.Results.Games)) / secs
	e.reliability.Observe(st.Generation, report.Agents, report.Scores, report.Ranking, e.elite)
	attrs := e.attrs(st, report, record, secs, rate)
	e.logEvents(st, report)
	if d.coord != nil {
		seen := d.coord.TakeWorkers()
		attrs = append(attrs, "workers", len(seen))
		if err := d.db.RecordWorkers(ctx, workerRows(seen)); err != nil {
			e.log.Warn("could not record the workers' games for status", "err", err)
		}
	}
	e.log.Info("generation committed", attrs...)
	if err := e.rate(st, report); err != nil {
		return err
	}
	d.status.Store(game, fmt.Sprintf("%s generation %d, %.1f games/s", game, st.Generation, rate))
	d.notifier.Notify("STATUS=" + d.statusLine())
	return nil
}

// attrs returns the attributes of generation st's log line; it reads
// the selection's reliability, which commit has told of the generation.
func (e *evolution[M, S]) attrs(st *population.State, report *population.Report[M], record storage.Generation, secs, rate float64) []any {
	pcfg := e.pcfg
	best := report.Results.Points[report.Ranking[0]]
	mean := 0.0
	for _, p := range report.Results.Points {
		mean += float64(p) / float64(len(report.Results.Points))
	}
	elo := report.Ratings[report.ChampionSlot]
	attrs := []any{"generation", st.Generation, "champion", report.Champion.ID, "best", best,
		"champion_elo", fmt.Sprintf("%+.0f±%.0f", elo.Elo, elo.HalfWidth), "mean", round2(mean)}
	if report.Ladder.Played {
		attrs = append(attrs, "ladder", round2(report.Ladder.Mean), "improved", report.Ladder.Improved)
	}
	attrs = append(attrs, "games", len(report.Results.Games), "draws", draws(record), "seconds", round2(secs), "games_per_s", round2(rate),
		"fitness_share", round2(report.Fitness.Seconds()/secs))
	if pcfg.Optimizer != population.SPSA { // which ranks nothing
		attrs = append(attrs, "sure", round2(report.Selection.Sure))
	}
	if pcfg.MutationHalfLife > 0 { // the step that breeds the next generation
		step, _ := strconv.ParseFloat(strconv.FormatFloat(pcfg.Steps().At(st.Generation).Net, 'g', 3, 64), 64) // three significant digits
		attrs = append(attrs, "mutation_scale", step)
	}
	if pcfg.RacingGames > 0 {
		attrs = append(attrs, "raced", report.Selection.RaceGames, "undecided", report.Selection.Undecided)
	}
	if c := report.Challenge; c.Played {
		title := "kept"
		if c.Replaced {
			title = "taken"
		}
		attrs = append(attrs, "challenger", c.ChallengerID, "challenge", fmt.Sprintf("%d-%d-%d", c.Wins, c.Draws, c.Losses), "title", title)
	}
	if r, n := e.reliability.Correlation(); n >= reliabilityMinPairs && !math.IsNaN(r) {
		attrs = append(attrs, "selection_r", round2(r))
	}
	for _, b := range report.Baselines {
		attrs = append(attrs, "vs_"+b.Opponent, fmt.Sprintf("%.0f%%", 100*b.Score))
	}
	if pcfg.CurriculumEvery > 0 {
		attrs = append(attrs, "nodes", max(st.Nodes, e.env.Setup.Nodes))
	}
	if c := report.Curriculum; c != nil {
		attrs = append(attrs, "curriculum", fmt.Sprintf("%.0f%% vs champion:%d", 100*c.Score, c.Opponent))
	}
	return attrs
}

// logEvents logs what generation st changed besides its members: a raised
// node budget, a distilled champion, a trained champion or, with
// learn_explore, each trained elite member (one line each, so the cost of
// training the elite shows).
func (e *evolution[M, S]) logEvents(st *population.State, report *population.Report[M]) {
	if c := report.Curriculum; c != nil && c.Raised {
		e.log.Info("no gain: the node budget rises", "generation", st.Generation, "against", c.Opponent,
			"elo", fmt.Sprintf("%+.0f±%.0f", c.Elo, c.HalfWidth), "nodes", c.Nodes, "next_nodes", c.Next)
	}
	if ds := report.Distill; ds != nil {
		e.log.Info("champion distilled", "generation", st.Generation, "champion", ds.Parent, "agent", ds.AgentID,
			"positions", ds.Positions, "searched", ds.Searched, "nodes", ds.Nodes, "error_before", fmt.Sprintf("%.3g", ds.Before), "error_after", fmt.Sprintf("%.3g", ds.After),
			"moved", distillMoved(st.Game, ds.Moved), "seconds", round2(ds.Took.Seconds()))
	}
	for rank, lr := range report.Learners { // with learn_explore: the elite's trainings, the champion's first
		e.log.Info("agent trained", "generation", st.Generation, "agent", lr.Parent, "rank", rank+1,
			"rate", strconv.FormatFloat(lr.Learner.Rate, 'g', 3, 64), "results", strconv.FormatFloat(lr.Learner.Results, 'g', 3, 64),
			"positions", lr.Positions, "held_out", lr.HeldOut, "loss_before", fmt.Sprintf("%.3g", lr.Loss[0]),
			"loss_after", fmt.Sprintf("%.3g", lr.Loss[len(lr.Loss)-1]), "held_out_before", fmt.Sprintf("%.3g", lr.HeldOutLoss[0]),
			"held_out_after", fmt.Sprintf("%.3g", lr.HeldOutLoss[len(lr.HeldOutLoss)-1]), "seconds", round2(lr.Took.Seconds()))
	}
	if lr := report.Learn; lr != nil && report.Learners == nil {
		e.log.Info("champion trained", "generation", st.Generation, "champion", lr.Parent, "positions", lr.Positions,
			"held_out", lr.HeldOut, "held_out_before", fmt.Sprintf("%.3g", lr.HeldOutLoss[0]),
			"held_out_after", fmt.Sprintf("%.3g", lr.HeldOutLoss[len(lr.HeldOutLoss)-1]), "seconds", round2(lr.Took.Seconds()))
	}
}

// rate starts the rating of generation st's champion when one is due,
// unless the run stops after this generation: a rating started then
// would hold up the exit (or be abandoned).
func (e *evolution[M, S]) rate(st *population.State, report *population.Report[M]) error {
	cfg := e.d.config()
	every := cfg.Jobs.RatingEvery
	if every <= 0 || st.Generation%every != 0 {
		return nil
	}
	if cfg.Generations > 0 && st.Generation+1 >= cfg.Generations {
		e.log.Info("rating skipped: the run stops after this generation (rate its champion with evolved rate)", "generation", st.Generation,
			"rate", rateCommand(cfg, e.kind.Name, st.Generation))
		return nil
	}
	champion, err := e.env.Game(0).Player(report.Champion.Net)
	if err != nil {
		return fmt.Errorf("daemon: %s generation %d: champion: %w", e.kind.Name, st.Generation, err)
	}
	startRating(e.d.ratingCtx, e.d, e.kind, st.Generation, report.Champion.ID, st.Seed, champion)
	return nil
}

// distillMoved says how far a distillation moved the evaluation (its root
// mean square change over the positions) in game's units: pawns in chess
// and xiangqi, the net's output in draughts.
func distillMoved(game string, moved float64) string {
	if game == games.DraughtsName {
		return fmt.Sprintf("%.3f of the net's output", moved)
	}
	return fmt.Sprintf("%.2f pawns", moved)
}

// round2 rounds to two decimals for logs.
func round2(x float64) float64 { return float64(int64(x*100+0.5*sign(x))) / 100 }

// sign returns -1 for a negative x, else 1.
func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}

// storePositions adds the generation's data games' positions to the run's
// position store and commits them, when the run learns.
func (e *evolution[M, S]) storePositions(generation int, report *population.Report[M]) error {
	store := e.env.Positions
	if store == nil {
		return nil
	}
	if _, err := store.Add(generation, report.Data); err != nil {
		return fmt.Errorf("daemon: %s generation %d: %w", e.kind.Name, generation, err)
	}
	if err := store.Commit(generation); err != nil {
		return fmt.Errorf("daemon: %s generation %d: %w", e.kind.Name, generation, err)
	}
	return nil
}
