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
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"

	"evolved/cluster"
	"evolved/metrics"
	"evolved/progress"
	"evolved/storage"
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

	if stopped, err := d.catchUp(ctx, cfg); stopped || err != nil {
		return err
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
		// Stop the site and let its requests finish before Close closes
		// the database under them.
		defer d.serveSite(ctx, cancel)()
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

	err = d.evolveAll(ctx, cfg)
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

// catchUp applies the retention before evolving (a database from before
// retention existed, or a smaller keep since the last run) and warns of
// what will hold the run back. stopped reports a stop signal during it, a
// clean stop as one during a generation is.
func (d *Daemon) catchUp(ctx context.Context, cfg Config) (stopped bool, err error) {
	pruned, err := d.db.Prune(ctx, cfg.Jobs.Retention())
	if err != nil && ctx.Err() != nil {
		// Stopped before evolving (a large catch-up, or a signal just
		// after New).
		d.log.Info("stopped before the first generation")
		return true, nil
	}
	if err != nil {
		return false, err
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
	return false, nil
}

// evolveAll evolves every configured population, one goroutine each,
// until each reaches the target, ctx ends or one fails.
func (d *Daemon) evolveAll(ctx context.Context, cfg Config) error {
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
	return g.Wait()
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
