// Package daemon runs evolved's main job: one goroutine per population
// evolving generation after generation, each generation committed to the
// database in one transaction, with a shared budget of games played at
// once, systemd notification and watchdog, SIGHUP reloads, periodic jobs
// (backups, pruning, baseline evaluations) and one log line per generation.
//
// Cancelling the context given to Run (SIGINT, SIGTERM) abandons the
// generations in flight: nothing partial is committed, and the next start
// resumes from the last committed generation exactly as if the daemon had
// never stopped.
package daemon

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"

	"evolved/cluster"
	"evolved/games"
	"evolved/metrics"
	"evolved/nnet"
	"evolved/population"
	"evolved/progress"
	"evolved/search"
	"evolved/storage"
	"evolved/tournament"
	"evolved/web"
)

// maxSlots bounds the shared game budget; the budget's size is changed at
// run time by holding back the units above the configured worker count.
const maxSlots = 1024

// reliabilityWindow is how many generations' elites the logged
// selection_r correlates (population.Reliability), and
// reliabilityMinPairs the pairs it needs before it is logged: ten
// generations of an elite of 5.
const (
	reliabilityWindow   = 100
	reliabilityMinPairs = 50
)

// Daemon is a running evolved daemon. Create it with New, run it with Run.
type Daemon struct {
	db         *storage.DB
	log        *slog.Logger
	level      *slog.LevelVar
	configPath string
	overrides  map[string]string // flag values, re-applied over the file on reload
	line       *progress.Line    // the terminal's live line; nil: none
	notifier   Notifier

	mu       sync.Mutex // protects cfg and held
	cfg      Config
	slots    *semaphore.Weighted
	held     int // units of slots held back: maxSlots - workers
	lastBeat atomic.Int64
	status   sync.Map // game -> status text for systemd

	// ratingCtx is the context of background ratings: Run's caller's, so
	// that a stop signal stops them, while the end of the evolution at
	// its target leaves finishRatings to settle each; ratings counts them
	// and busy maps a game to its *ratingState.
	ratingCtx    context.Context
	ratings      sync.WaitGroup
	busy         sync.Map
	ratingFinish time.Duration // ratingFinish unless a test sets it

	// With [cluster] nats set, the tournaments are played by workers:
	// coord publishes them through nc, to natsServer when embedded.
	nc         *nats.Conn
	natsServer *cluster.Server
	coord      *cluster.Coordinator

	// With [http] listen set, site serves the web pages on httpLn, which
	// New opens so that a port in use fails the start. metrics are the
	// daemon's own figures on the site's /metrics.
	site    *web.Server
	httpLn  net.Listener
	metrics *metrics.Daemon
}

// ratingFinish is the most a run that reached its generation target waits
// for a rating still running, and only for one whose pace says it ends
// within that time: every other is stopped at once, since a chess rating
// at 10+0.1 takes half an hour that a finished `run --generations N` must
// not sit through, and a rating is a measurement, not part of the run.
const ratingFinish = 10 * time.Second

// Causes of a rating's stop besides a stop signal, which the rating's log
// line names.
var (
	errTargetReached = errors.New("the run reached its generation target")
	errRunFailed     = errors.New("the run stopped on an error")
	errFinishTooLong = errors.New("the run reached its generation target and the rating outlasted the wait for it")
)

// finishRatings settles the ratings still running when Run ends, end being
// why: a stop signal has already stopped them through ratingCtx; at the
// generation target, a rating that at its pace ends within ratingFinish is
// waited for, at most that long, and every other is stopped at once (so is
// every rating when the run failed). Each rating logs one line saying
// which, and a stopped one stores nothing. finishRatings returns once
// every rating has returned, then releases ratingCtx with stop.
func (d *Daemon) finishRatings(stop context.CancelCauseFunc, end error) {
	waiting := false
	d.busy.Range(func(_, v any) bool {
		job := v.(*ratingState).job.Load()
		if job == nil {
			return true
		}
		done, elapsed := int(job.done.Load()), time.Since(job.start)
		if errors.Is(end, errTargetReached) && nearlyDone(done, job.total, elapsed, d.ratingFinish) {
			job.log.Info("finishing the rating: the run reached its generation target and the rating's pace says it ends within the wait",
				"games", fmt.Sprintf("%d/%d", done, job.total), "seconds", round2(elapsed.Seconds()), "wait", d.ratingFinish.String())
			waiting = true
		} else {
			job.cancel(end)
		}
		return true
	})
	done := make(chan struct{})
	go func() {
		d.ratings.Wait()
		close(done)
	}()
	if waiting {
		timer := time.NewTimer(d.ratingFinish)
		select {
		case <-done:
		case <-timer.C:
			d.busy.Range(func(_, v any) bool {
				if job := v.(*ratingState).job.Load(); job != nil {
					job.cancel(errFinishTooLong)
				}
				return true
			})
		}
		timer.Stop()
	}
	<-done
	stop(end)
}

// nearlyDone reports whether a rating that has played done of its total
// games in elapsed ends within wait at that pace. With no game played it
// has no pace, and is not nearly done.
func nearlyDone(done, total int, elapsed, wait time.Duration) bool {
	if done <= 0 {
		return false
	}
	if done >= total {
		return true
	}
	return float64(elapsed)*float64(total-done)/float64(done) <= float64(wait)
}

// ratingState is where a game's ratings stand: the one running, and the
// time before which the next may not start (jobs.rating_share).
type ratingState struct {
	job       atomic.Pointer[ratingJob] // nil: none running
	notBefore atomic.Int64              // Unix nanoseconds
}

// ratingJob is a rating under way, as finishRatings needs it.
type ratingJob struct {
	log    *slog.Logger // names the game and the generation
	start  time.Time
	total  int          // the games it plays
	done   atomic.Int64 // the games played so far
	cancel context.CancelCauseFunc
}

// rating returns where game's ratings stand.
func (d *Daemon) rating(game string) *ratingState {
	v, _ := d.busy.LoadOrStore(game, new(ratingState))
	return v.(*ratingState)
}

// Options are New's inputs besides the configuration.
type Options struct {
	// ConfigPath is the file SIGHUP reloads ("" for none).
	ConfigPath string
	// Overrides are the flag values given on the command line, by config
	// key; a reload re-applies them over the file and the environment.
	Overrides map[string]string
	// Logger and Level are the daemon's logger and its adjustable level.
	Logger *slog.Logger
	Level  *slog.LevelVar
	// Line, if set, is the terminal's live line: each population draws its
	// generation's progress on it. Logger should write through it, so that
	// a log line erases the live line and the live line is redrawn below.
	Line *progress.Line
	// Notifier talks to systemd; nil means SystemdNotifier().
	Notifier Notifier
	// LookupEnv finds the cluster's credentials; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Version is the build, for the web site's footer.
	Version string
}

// New opens the database and prepares the daemon. The caller must Close it.
func New(ctx context.Context, cfg Config, opts Options) (*Daemon, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	// A database in a directory that does not exist is a mistyped path
	// more often than a wish: refuse it rather than start a new run at
	// generation 0 somewhere else.
	if dir := filepath.Dir(cfg.DB); dir != "." {
		if info, err := os.Stat(dir); err != nil {
			return nil, &ConfigError{Key: "db", Value: strconv.Quote(cfg.DB),
				Msg: fmt.Sprintf("its directory %s does not exist (create it first if a new run belongs there)", dir)}
		} else if !info.IsDir() {
			return nil, &ConfigError{Key: "db", Value: strconv.Quote(cfg.DB), Msg: fmt.Sprintf("%s is not a directory", dir)}
		}
	}
	if cfg.HTTP.Listen != "" {
		// Refuse an unguarded site before the database is created.
		if err := web.CheckListen(cfg.HTTP.Listen, siteToken(cfg, opts)); err != nil {
			return nil, fmt.Errorf("daemon: http.listen: %w", err)
		}
	}
	db, err := storage.Open(ctx, cfg.DB, storage.Options{})
	if err != nil {
		return nil, err
	}
	d := &Daemon{
		db: db, log: opts.Logger, level: opts.Level, configPath: opts.ConfigPath, overrides: opts.Overrides,
		line: opts.Line, notifier: opts.Notifier, cfg: cfg,
		slots: semaphore.NewWeighted(maxSlots), ratingFinish: ratingFinish,
	}
	if d.notifier == nil {
		d.notifier = SystemdNotifier()
	}
	d.held = maxSlots - d.workers()
	if err := d.slots.Acquire(ctx, int64(d.held)); err != nil {
		db.Close()
		return nil, err
	}
	d.metrics = metrics.NewDaemon()
	if cfg.Cluster.NATS != "" {
		if err := d.startCluster(ctx, cfg, opts.LookupEnv); err != nil {
			d.Close()
			return nil, err
		}
	}
	if cfg.HTTP.Listen != "" {
		if err := d.startSite(ctx, cfg, opts); err != nil {
			d.Close()
			return nil, err
		}
	}
	return d, nil
}

// startSite opens the web site's socket and prepares the site over the
// daemon's database (a read-only connection of its own).
func (d *Daemon) startSite(ctx context.Context, cfg Config, opts Options) error {
	token := siteToken(cfg, opts)
	ln, err := web.Listen(cfg.HTTP.Listen, token)
	if err != nil {
		return fmt.Errorf("daemon: http.listen: %w", err)
	}
	site, err := web.New(ctx, web.Options{DB: cfg.DB, Token: token, Logger: d.log, Version: opts.Version,
		Collectors: d.metrics.Collectors(), Targets: d.targets,
		LabDB: cmp.Or(cfg.HTTP.LabDB, web.DefaultLabDB(cfg.DB)), AllowLabOnLoopback: cfg.HTTP.AllowLabOnLoopback,
		LabEngines: web.FindLabEngines()})
	if err != nil {
		ln.Close()
		return fmt.Errorf("daemon: %w", err)
	}
	d.site, d.httpLn = site, ln
	return nil
}

// siteToken is the web site's access token: the configuration's, or else
// $EVOLVED_HTTP_TOKEN's.
func siteToken(cfg Config, opts Options) string {
	if cfg.HTTP.Token != "" {
		return cfg.HTTP.Token
	}
	lookup := opts.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	token, _ := lookup(web.TokenEnv)
	return token
}

// targets returns the generation target of each game the daemon evolves,
// for the site's ETA.
func (d *Daemon) targets() map[string]int {
	cfg := d.config()
	out := map[string]int{}
	for _, g := range cfg.Games {
		out[g] = cfg.Generations
	}
	return out
}

// startCluster connects to the NATS server of cfg.Cluster, first
// starting it beside the database when it is embedded, and prepares the
// coordinator.
func (d *Daemon) startCluster(ctx context.Context, cfg Config, lookup func(string) (string, bool)) error {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	cc := cfg.Cluster
	conn := cluster.ConnectOptions{URL: cc.NATS, Name: "evolved coordinator", TLSCA: cc.TLSCA, TLSCert: cc.TLSCert, TLSKey: cc.TLSKey, Log: d.log}.FromEnvironment(lookup)
	if cc.NATS == "embedded" {
		dir := cc.StoreDir
		if dir == "" {
			dir = cfg.DB + ".nats"
		}
		s, err := cluster.StartServer(cluster.ServerOptions{Listen: cc.Listen, StoreDir: dir, Token: conn.Token, User: conn.User, Password: conn.Password,
			TLSCert: cc.ServerCert, TLSKey: cc.ServerKey})
		if err != nil {
			return fmt.Errorf("daemon: %w", err)
		}
		d.natsServer = s
		conn.URL = s.URL()
		if conn.TLSCA == "" {
			conn.TLSCA = cc.ServerCert // a self-signed certificate is its own authority
		}
		d.log.Info("embedded NATS server started: add workers with evolved worker --nats URL", "url", s.URL(), "store", dir)
	}
	nc, err := cluster.Connect(ctx, conn)
	if err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	d.nc = nc
	coord, err := cluster.NewCoordinator(ctx, nc, cluster.Limits{AckWait: time.Duration(cc.AckWait) * time.Second}, d.log)
	if err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	d.coord = coord
	return nil
}

// Close closes the NATS connection and the embedded server, if any, and
// the database.
func (d *Daemon) Close() error {
	if d.site != nil {
		d.site.Close()
	}
	if d.httpLn != nil {
		d.httpLn.Close()
	}
	if d.nc != nil {
		d.nc.Close()
	}
	if d.natsServer != nil {
		d.natsServer.Close()
	}
	return d.db.Close()
}

// config returns the current configuration.
func (d *Daemon) config() Config {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cfg
}

// workers returns the configured worker count, resolving 0 to the CPUs.
func (d *Daemon) workers() int {
	w := d.config().Workers
	if w <= 0 {
		w = runtime.NumCPU()
	}
	return min(w, maxSlots)
}

// beat records that the daemon made progress, for the watchdog.
func (d *Daemon) beat() { d.lastBeat.Store(time.Now().UnixNano()) }

// Run evolves every configured population until the generation target is
// reached or ctx is cancelled; both end with a nil error. It returns an
// error only for a failure that stops a population (a database error, a
// run whose stored configuration conflicts with this one).
func (d *Daemon) Run(ctx context.Context) error {
	cfg := d.config()
	d.beat()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)

	// Catch up with the retention before evolving: a database from before
	// retention existed, or a smaller keep since the last run.
	pruned, err := d.db.Prune(ctx, cfg.Jobs.Retention())
	if err != nil && ctx.Err() != nil {
		// Stopped before evolving (a large catch-up, or a signal just
		// after New): a clean stop, as one during a generation is.
		d.log.Info("stopped before the first generation")
		return nil
	}
	if err != nil {
		return err
	}
	if pruned != (storage.Pruned{}) {
		d.log.Info("retention applied", "games_deleted", pruned.Games, "genomes_dropped", pruned.Genomes,
			"prune_keep", cfg.Jobs.PruneKeep, "genome_keep", cfg.Jobs.GenomeKeep)
	}
	if on, err := d.db.AutoVacuum(ctx); err == nil && !on {
		d.log.Warn("the database cannot shrink: turning on incremental vacuum needs free disk space as large as the database; its free pages are still reused",
			"db", cfg.DB)
	}
	if cfg.Jobs.RatingEvery > 0 && d.workers() == 1 {
		d.log.Warn("ratings share the only worker with the evolution: while a rating runs, each of its games holds it and the evolution waits; give workers = 2 or more, or jobs.rating_every = 0",
			"rating_every", cfg.Jobs.RatingEvery)
	}
	jobs, err := d.startJobs(cfg.Jobs)
	if err != nil {
		return err
	}
	defer func() { <-jobs.Stop().Done() }()

	// Ratings still running when the populations stop are settled by
	// finishRatings: stopped at once, as a stop signal stops them, unless
	// the target was reached and they are nearly done.
	ratingCtx, stopRatings := context.WithCancelCause(ctx)
	d.ratingCtx = ratingCtx
	end := errRunFailed // until the populations are known to have reached their target
	defer func() { d.finishRatings(stopRatings, end) }()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go d.watchdog(ctx)
	if d.site != nil {
		ln := d.httpLn
		d.httpLn = nil // Serve closes it
		served := make(chan struct{})
		go func() {
			defer close(served)
			if err := d.site.Serve(ctx, ln); err != nil {
				d.log.Error("the web site stopped; the evolution goes on", "err", err)
			}
		}()
		// Stop the site and let its requests finish before Close closes
		// the database under them.
		defer func() {
			cancel()
			<-served
		}()
		d.log.Info("web site serving", "url", "http://"+ln.Addr().String()+"/")
	}
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				jobs = d.reload(ctx, jobs)
			}
		}
	}()

	g, gctx := errgroup.WithContext(ctx)
	for _, name := range cfg.Games {
		g.Go(func() error {
			run, err := newGameRun(name)
			if err != nil {
				return err
			}
			return run.evolve(gctx, d)
		})
	}
	d.notifier.Notify("READY=1\nSTATUS=evolving " + fmt.Sprint(cfg.Games))
	d.log.Info("evolving", "games", cfg.Games, "db", cfg.DB, "workers", d.workers(), "generations", cfg.Generations)
	err = g.Wait()
	switch {
	case ctx.Err() != nil:
		end = context.Cause(ctx) // the stop has reached the ratings already
	case err == nil:
		end = errTargetReached
	}
	d.notifier.Notify("STOPPING=1")
	if err != nil && ctx.Err() == nil {
		return err
	}
	if ctx.Err() != nil {
		d.log.Info("stopped; the generations in flight were abandoned and will be replayed on the next start")
	}
	return nil
}

// evolve runs one population: load or create its run, then play, commit
// and log generation after generation.
func evolve[M comparable, S search.Game[M]](ctx context.Context, d *Daemon, kind games.Kind[M, S], species population.Species[M, S],
	defining any, pcfg population.Config) error {
	game := kind.Name
	log := d.log.With("game", game)
	st, err := loadOrCreate(ctx, d, game, species, defining, pcfg)
	if err != nil {
		return err
	}
	log.Info("population ready", "generation", st.Generation, "seed", st.Seed)
	redoRating(ctx, d, kind, species, st)
	// The live line counts every game of a generation: the tournament's
	// from Step's progress, the ladder's and the baselines' as they start
	// (Step reports no progress for them), counted through the arena.
	live := liveGames{line: d.line, key: game}
	var instrument func(sp population.Species[M, S]) population.Species[M, S]
	instrument = func(sp population.Species[M, S]) population.Species[M, S] {
		sp.Player = countNodes(sp.Player, d.metrics.Nodes.WithLabelValues(game))
		sp.Arena = countStarts(sp.Arena, func() {
			d.beat()
			live.started()
		})
		// A distillation at a large distill_nodes searches for minutes
		// between games: it feeds the watchdog and shows on the line.
		sp.DistillProgress = func(done, total int) {
			d.beat()
			live.distilling(done, total)
		}
		if at := sp.AtNodes; at != nil { // the curriculum's budgets are counted too
			sp.AtNodes = func(nodes int64) population.Species[M, S] { return instrument(at(nodes)) }
		}
		return sp
	}
	species = instrument(species)
	if d.line != nil {
		defer d.line.Remove(game)
	}
	since, played := time.Now(), 0 // this session's generations, for the overall rate
	elite := pcfg.Elite
	if pcfg.Optimizer.Mirrored() {
		elite = 0 // no agent outlives its generation
	}
	reliability := population.NewReliability(reliabilityWindow * elite)
	// last reports whether generation is the last the run plays: a
	// rating started then would hold up the exit (or be abandoned).
	last := func(generation int) bool {
		target := d.config().Generations
		return target > 0 && generation+1 >= target
	}
	// The target goes into the database, for status and a web site in
	// another process; a clean stop takes it out.
	recorded := -1
	defer func() {
		if err := d.db.SetTarget(context.WithoutCancel(ctx), game, 0); err != nil {
			log.Warn("could not clear the generation target", "err", err)
		}
	}()
	for {
		target := d.config().Generations
		if target != recorded {
			if err := d.db.SetTarget(ctx, game, target); err != nil {
				return err
			}
			recorded = target
		}
		if target > 0 && st.Generation >= target {
			log.Info("generation target reached", "generations", st.Generation)
			return nil
		}
		if err := d.waitForDisk(ctx, game); err != nil {
			return nil // stopped while paused
		}
		pcfg.Tournament.Workers = d.workers()
		pcfg.Tournament.Slots = d.slots
		games := pcfg.FitnessGames(st.Generation, len(st.Agents))
		var rep *progress.Reporter
		// The race is a budget and the title match is not played when the
		// champion ranks first: the line may jump.
		total := games + pcfg.RacingGames + pcfg.ChallengeGames(st.Generation) + pcfg.MeasurementGames(st.Generation)
		if d.line != nil {
			rep = progress.NewOnLine(d.line, game, fmt.Sprintf("%s generation %d", game, st.Generation), total, "games")
			rep.UpdateNote(0, overallRate(played, time.Since(since), st.Generation, target))
		}
		live.reset(rep, games, species.Tournament == nil, fmt.Sprintf("%s generation %d", game, st.Generation))
		started := time.Now()
		next, report, err := population.Step(ctx, species, pcfg, st, func(done, total int) {
			d.beat()
			live.progressed(done)
			if rep != nil {
				rep.Update(done)
			}
		})
		if rep != nil {
			if err == nil {
				rep.Update(total) // the last ladder or baseline game is done too
			}
			rep.Finish()
		}
		live.finish()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("daemon: %s generation %d: %w", game, st.Generation, err)
		}
		record, err := toRecord(game, report, kind.MoveText)
		if err != nil {
			return fmt.Errorf("daemon: %s generation %d: %w", game, st.Generation, err)
		}
		// The generation is finished: commit it even if a stop signal
		// arrived meanwhile, so that finished work is not replayed.
		commitCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		committing := time.Now()
		err = d.db.CommitGeneration(commitCtx, record, PopulationRows(next), d.config().Jobs.Retention())
		cancel()
		if err != nil {
			return fmt.Errorf("daemon: %w", err)
		}
		d.metrics.Checkpoint.WithLabelValues(game).Observe(time.Since(committing).Seconds())
		d.beat()
		secs := time.Since(started).Seconds()
		d.metrics.Generation.WithLabelValues(game).Observe(secs)
		best := report.Results.Points[report.Ranking[0]]
		mean := 0.0
		for _, p := range report.Results.Points {
			mean += float64(p) / float64(len(report.Results.Points))
		}
		rate := float64(len(report.Results.Games)) / secs
		elo := report.Ratings[report.ChampionSlot]
		attrs := []any{"generation", st.Generation, "champion", report.Champion.ID, "best", best,
			"champion_elo", fmt.Sprintf("%+.0f±%.0f", elo.Elo, elo.HalfWidth),
			"mean", round2(mean)}
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
		reliability.Observe(st.Generation, report.Agents, report.Scores, report.Ranking, elite)
		if r, n := reliability.Correlation(); n >= reliabilityMinPairs && !math.IsNaN(r) {
			attrs = append(attrs, "selection_r", round2(r))
		}
		for _, b := range report.Baselines {
			attrs = append(attrs, "vs_"+b.Opponent, fmt.Sprintf("%.0f%%", 100*b.Score))
		}
		if pcfg.CurriculumEvery > 0 {
			attrs = append(attrs, "nodes", max(st.Nodes, species.Nodes))
		}
		if c := report.Curriculum; c != nil {
			attrs = append(attrs, "curriculum", fmt.Sprintf("%.0f%% vs champion:%d", 100*c.Score, c.Opponent))
			if c.Raised {
				log.Info("no gain: the node budget rises", "generation", st.Generation, "against", c.Opponent,
					"elo", fmt.Sprintf("%+.0f±%.0f", c.Elo, c.HalfWidth), "nodes", c.Nodes, "next_nodes", c.Next)
			}
		}
		if ds := report.Distill; ds != nil {
			log.Info("champion distilled", "generation", st.Generation, "champion", ds.Parent, "agent", ds.AgentID,
				"positions", ds.Positions, "nodes", ds.Nodes, "error_before", fmt.Sprintf("%.3g", ds.Before), "error_after", fmt.Sprintf("%.3g", ds.After),
				"moved", distillMoved(st.Game, ds.Moved), "seconds", round2(ds.Took.Seconds()))
		}
		if d.coord != nil {
			seen := d.coord.TakeWorkers()
			attrs = append(attrs, "workers", len(seen))
			if err := d.db.RecordWorkers(ctx, workerRows(seen)); err != nil {
				log.Warn("could not record the workers' games for status", "err", err)
			}
		}
		log.Info("generation committed", attrs...)
		if every := d.config().Jobs.RatingEvery; every > 0 && st.Generation%every == 0 {
			if last(st.Generation) {
				log.Info("rating skipped: the run stops after this generation (rate its champion with evolved rate)", "generation", st.Generation,
					"rate", rateCommand(d.config(), game, st.Generation))
			} else {
				champion, err := species.Player(report.Champion.Net)
				if err != nil {
					return fmt.Errorf("daemon: %s generation %d: champion: %w", game, st.Generation, err)
				}
				startRating(d.ratingCtx, d, kind, st.Generation, report.Champion.ID, st.Seed, champion)
			}
		}
		d.status.Store(game, fmt.Sprintf("%s generation %d, %.1f games/s", game, st.Generation, rate))
		d.notifier.Notify("STATUS=" + d.statusLine())
		st = next
		played++
	}
}

// liveGames counts the games a generation starts, and reports those past
// the tournament's (the ladder's and the baselines') on the live line.
type liveGames struct {
	line  *progress.Line // the terminal's live line; nil: none
	key   string         // the game's place on it
	mu    sync.Mutex
	rep   *progress.Reporter
	games int    // the tournament's games
	done  int    // the fitness games done (the tournament's and the race's), by Step's progress
	n     int    // games started this generation
	here  bool   // whether the tournament's games start here (not on workers)
	what  string // the generation, as the line names it
	// dist shows the generation's distillation, from its first search
	// on; the generation's line takes its place again when it is done.
	dist *progress.Reporter
}

// progressed records Step's count of the fitness games done.
func (l *liveGames) progressed(done int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done = max(l.done, done)
}

// reset starts a generation, named what, whose tournament plays games,
// here or on workers; rep may be nil.
func (l *liveGames) reset(rep *progress.Reporter, games int, here bool, what string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.rep, l.games, l.done, l.n, l.here, l.what, l.dist = rep, games, 0, 0, here, what, nil
}

// distilling shows that the generation's distillation has searched done
// of its total positions, on the line in the generation's place.
func (l *liveGames) distilling(done, total int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.line == nil {
		return
	}
	if l.dist == nil {
		l.dist = progress.NewOnLine(l.line, l.key, l.what+": distilling the champion", total, "positions")
	}
	l.dist.Update(done)
}

// finish ends the generation's distillation on the line, if it had one.
func (l *liveGames) finish() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dist != nil {
		l.dist.Finish()
		l.dist = nil
	}
}

// started records that a game started. Once the tournament's games are all
// started, the tournament reports itself finished before the ladder
// begins, so each later start stands for the previous game being done.
func (l *liveGames) started() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	switch {
	case l.rep == nil:
	case l.here && l.n > l.games+1:
		l.rep.Update(l.n - 1)
	case !l.here && l.n > 1: // only the ladder and baselines start here
		l.rep.Update(max(l.games, l.done) + l.n - 1)
	}
}

// countStarts returns a with NewGame and Start wrapped to call started for
// every game, which every tournament, ladder and baseline game begins with.
func countStarts[M comparable, S search.Game[M]](a tournament.Arena[M, S], started func()) tournament.Arena[M, S] {
	newGame := a.NewGame
	a.NewGame = func() S {
		started()
		return newGame()
	}
	if start := a.Start; start != nil {
		a.Start = func(rng *rand.Rand) S {
			started()
			return start(rng)
		}
	}
	return a
}

// overallRate is the live line's note: the population's generations per
// hour over this session (played generations in elapsed), and with a
// target the generations left and when they should be done; "" before the
// first generation is done.
func overallRate(played int, elapsed time.Duration, generation, target int) string {
	if played == 0 || elapsed <= 0 {
		return "" // no generation finished yet: no rate
	}
	perHour := float64(played) / elapsed.Hours()
	s := fmt.Sprintf("%.1f gens/hour", perHour)
	if eta, ok := progress.Remaining(generation, target, perHour); ok && eta.Left > 0 {
		s += fmt.Sprintf(", %d to go, target in %s", eta.Left, progress.Round(eta.Duration()))
	}
	return s
}

// statusLine joins the populations' status texts.
func (d *Daemon) statusLine() string {
	var parts []string
	d.status.Range(func(_, v any) bool { parts = append(parts, v.(string)); return true })
	slices.Sort(parts)
	s := ""
	for i, p := range parts {
		if i > 0 {
			s += "; "
		}
		s += p
	}
	return s
}

// runSettings returns the settings that define game's run (the game's
// section of the configuration, C). A new run takes want. An existing run
// keeps the settings it was started with, read over C's zero value, so that
// a key a later version added has its zero value, the behaviour from before
// it existed, and a changed default never alters a run in progress. A key
// the configuration file sets to another value than the run's is refused,
// with the keys named: continuing a run with other settings would make a
// run that no seed reproduces. The exceptions are changingKeys, the
// curriculum's and the distillation's: set to other values, they hold from
// the run's next generation on, recorded with it
// (storage.DB.ChangeRunSettings), so that a run which has stopped climbing
// can be asked harder questions, or start distilling, without starting
// over, and its history still says how each generation was played.
func runSettings[C any](ctx context.Context, d *Daemon, game string, want C) (C, error) {
	run, err := d.db.LoadRun(ctx, game)
	if errors.Is(err, storage.ErrNoRun) {
		return want, nil
	}
	if err != nil {
		return want, err
	}
	var stored C
	if err := json.Unmarshal([]byte(run.Config), &stored); err != nil {
		return want, fmt.Errorf("daemon: %s run in %s: stored settings %s: %w", game, d.db.Path(), run.Config, err)
	}
	for _, c := range []any{&stored, &want} {
		if c, ok := c.(interface{ canonical() }); ok {
			c.canonical()
		}
	}
	have, err := definingJSON(stored)
	if err != nil {
		return want, err
	}
	wanted, err := definingJSON(want)
	if err != nil {
		return want, err
	}
	// The keys of a group change together: one of them set to another
	// value brings the others' configured values (or defaults) with it,
	// so that curriculum_every = 0 alone turns the curriculum off.
	diff := diffKeys(have, wanted)
	changes := map[string]bool{}
	for _, group := range changingKeys {
		if slices.ContainsFunc(diff, func(k string) bool {
			return slices.Contains(group, k) && d.config().Defined(game+"."+k)
		}) {
			for _, k := range group {
				changes[k] = true
			}
		}
	}
	var set, changing, kept []string
	for _, k := range diff {
		switch {
		case changes[k]:
			changing = append(changing, k)
		case !d.config().Defined(game + "." + k):
			kept = append(kept, k)
		default:
			set = append(set, k)
		}
	}
	if len(set) > 0 {
		return want, fmt.Errorf("%w: %s in %s was started with %s; the configuration sets %s to other values. Restore those settings, or use another database (of a run's settings only %s may change as it goes on)",
			ErrRunMismatch, game, d.db.Path(), have, strings.Join(qualify(game, set), ", "), strings.Join(qualify(game, slices.Concat(changingKeys...)), ", "))
	}
	if len(kept) > 0 {
		d.log.Info("the run keeps the settings it was started with", "game", game, "keys", strings.Join(qualify(game, kept), ","))
	}
	if len(changing) > 0 {
		return changeSettings(ctx, d, game, stored, have, wanted, changing)
	}
	return stored, nil
}

// changingKeys are the keys of a game section that may change in a run, in
// groups that change together (runSettings): the curriculum's, which
// decide only from when on the node budget rises, and the
// distillation's, which decide only how the coming generations' last
// newcomer is made. Each is a number the stored settings omit when it is
// 0.
var changingKeys = [][]string{
	{"curriculum_every", "curriculum_games", "curriculum_step"},
	{"distill_every", "distill_nodes"},
}

// changeSettings gives the run's stored settings (have, read into stored)
// the values wanted has for keys, checks the result as a configuration
// would be checked, and records it as the run's settings from its next
// generation on.
func changeSettings[C any](ctx context.Context, d *Daemon, game string, stored C, have, wanted string, keys []string) (C, error) {
	var from, to map[string]json.RawMessage
	if err := json.Unmarshal([]byte(have), &from); err != nil {
		return stored, fmt.Errorf("daemon: %s run: stored settings: %w", game, err)
	}
	if err := json.Unmarshal([]byte(wanted), &to); err != nil {
		return stored, fmt.Errorf("daemon: %s run: configured settings: %w", game, err)
	}
	merged := maps.Clone(from)
	var changes []storage.SettingChange
	var said []string
	for _, k := range keys {
		if v, ok := to[k]; ok {
			merged[k] = v
		} else {
			delete(merged, k)
		}
		old, now := cmp.Or(string(from[k]), "0"), cmp.Or(string(to[k]), "0")
		changes = append(changes, storage.SettingChange{Key: k, Old: old, New: now})
		said = append(said, fmt.Sprintf("%s.%s %s -> %s", game, k, old, now))
	}
	b, err := json.Marshal(merged)
	if err != nil {
		return stored, fmt.Errorf("daemon: %s run: %w", game, err)
	}
	var next C
	if err := json.Unmarshal(b, &next); err != nil {
		return stored, fmt.Errorf("daemon: %s run: changed settings: %w", game, err)
	}
	switch v := any(next).(type) {
	case interface{ validate() error }:
		err = v.validate()
	case interface{ validate(func(string) bool) error }:
		err = v.validate(d.config().Defined)
	default:
		err = fmt.Errorf("daemon: %T has no check", next)
	}
	if err != nil {
		return stored, fmt.Errorf("daemon: %s in %s: the run's settings with the configured %s: %w", game, d.db.Path(), strings.Join(qualify(game, keys), ", "), err)
	}
	config, err := definingJSON(next)
	if err != nil {
		return stored, err
	}
	generation, err := d.db.ChangeRunSettings(ctx, game, config, changes, time.Now())
	if err != nil {
		return stored, err
	}
	d.log.Info("the run's settings change", "game", game, "from_generation", generation, "changes", strings.Join(said, ", "))
	return next, nil
}

// qualify returns game.key for every key.
func qualify(game string, keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = game + "." + k
	}
	return out
}

// loadOrCreate resumes game's run from the database, or starts it with the
// settings defining (runSettings has chosen them for an existing run).
func loadOrCreate[M comparable, S search.Game[M]](ctx context.Context, d *Daemon, game string, species population.Species[M, S], defining any, pcfg population.Config) (*population.State, error) {
	want, err := definingJSON(defining)
	if err != nil {
		return nil, err
	}
	run, err := d.db.LoadRun(ctx, game)
	switch {
	case errors.Is(err, storage.ErrNoRun):
		seed := uint64(d.config().Seed)
		st, err := population.New(game, species.Inputs, pcfg, seed)
		if err != nil {
			return nil, fmt.Errorf("daemon: new %s run: %w", game, err)
		}
		run := storage.Run{Game: game, Seed: seed, Config: want, CreatedAt: time.Now(), Steps: pcfg.Steps()}
		if err := d.db.CreateRun(ctx, run, PopulationRows(st)); err != nil {
			return nil, err
		}
		d.log.Info("new run", "game", game, "seed", seed)
		st.ChampionNet = d.db.ChampionNet(game) // champions' nets live in the database, not in memory
		return st, nil
	case err != nil:
		return nil, err
	}
	if s := uint64(d.config().Seed); s != run.Seed {
		d.log.Warn("the configured seed applies to new runs only; this run keeps its own", "game", game, "run_seed", run.Seed, "configured_seed", s)
	}
	// A run started before lineage storage learns its steps now; the
	// genomes it breeds from here on can then be rebuilt.
	if err := d.db.RecordSteps(ctx, game, pcfg.Steps()); err != nil {
		return nil, err
	}
	p, err := d.db.LoadPopulation(ctx, game)
	if err != nil {
		return nil, err
	}
	return PopulationState(p, d.db.ChampionNet(game)), nil
}

// round2 rounds to two decimals for logs.
// distillMoved says how far a distillation moved the evaluation (its root
// mean square change over the positions) in game's units: pawns in chess
// and xiangqi, the net's output in draughts.
func distillMoved(game string, moved float64) string {
	if game == games.DraughtsName {
		return fmt.Sprintf("%.3f of the net's output", moved)
	}
	return fmt.Sprintf("%.2f pawns", moved)
}

func round2(x float64) float64 { return float64(int64(x*100+0.5*sign(x))) / 100 }

func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}

// definingJSON returns the stored form of the settings that define a run.
func definingJSON(defining any) (string, error) {
	b, err := json.Marshal(defining)
	if err != nil {
		return "", fmt.Errorf("daemon: run config: %w", err)
	}
	return string(b), nil
}

// diffKeys lists the top-level keys whose values differ between two JSON objects.
func diffKeys(a, b string) []string {
	var ma, mb map[string]json.RawMessage
	json.Unmarshal([]byte(a), &ma)
	json.Unmarshal([]byte(b), &mb)
	var out []string
	for k := range maps.Keys(ma) {
		if string(ma[k]) != string(mb[k]) {
			out = append(out, k)
		}
	}
	for k := range maps.Keys(mb) {
		if _, ok := ma[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// ErrRunMismatch means the database holds a run of the game with other
// defining settings than the configuration asks for.
var ErrRunMismatch = errors.New("daemon: the configuration differs from the stored run")

// countNodes returns newPlayer with every player it makes counting the
// nodes of its searches on nodes, for the nodes-per-second metric.
func countNodes[M comparable, S search.Game[M]](newPlayer func(*nnet.Net) (func() search.Player[M, S], error),
	nodes prometheus.Counter) func(*nnet.Net) (func() search.Player[M, S], error) {
	return func(net *nnet.Net) (func() search.Player[M, S], error) {
		mk, err := newPlayer(net)
		if err != nil {
			return nil, err
		}
		return func() search.Player[M, S] { return nodeCounter[M, S]{mk(), nodes} }, nil
	}
}

// nodeCounter is a player that adds its searches' nodes to a counter.
type nodeCounter[M comparable, S search.Game[M]] struct {
	search.Player[M, S]
	nodes prometheus.Counter
}

// Move searches and counts the nodes.
func (n nodeCounter[M, S]) Move(ctx context.Context, s S) (search.Result[M], error) {
	r, err := n.Player.Move(ctx, s)
	n.nodes.Add(float64(r.Nodes))
	return r, err
}
