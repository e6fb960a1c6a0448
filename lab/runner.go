package lab

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"evolved/storage"
)

// DefaultQueue is RunnerConfig.Queue's default: the runs that may wait
// behind the one that runs.
const DefaultQueue = 4

// ErrQueueFull is wrapped by Submit's error when RunnerConfig.Queue runs
// wait already.
var ErrQueueFull = errors.New("the lab's queue is full")

// ErrCanceled is the reason Cancel records when it is given none.
var ErrCanceled = errors.New("lab: the run was canceled")

// ErrClosed is the reason a Runner records for the runs its Close ends,
// and what Submit returns after Close, unless RunnerConfig.Shutdown names
// another.
var ErrClosed = errors.New("lab: the runner was closed")

// RunnerConfig is what a Runner needs: the database it stores its runs in
// and the bounds of its work.
type RunnerConfig struct {
	// Path is the lab database, opened (and created) on first use.
	Path string
	// Queue bounds the runs waiting behind the running one (DefaultQueue
	// when 0).
	Queue int
	// Shutdown is the reason recorded for the runs Close ends, and
	// Submit's error after Close (ErrClosed when nil). A queued run is
	// stored with it and " before it started".
	Shutdown error
	// Logger hears of runs that failed (discarded when nil).
	Logger *slog.Logger
}

// Runner runs stored runs of one lab database one at a time, in the order
// they were submitted, keeping each live run's progress and iterations in
// memory for a live view (the database lags by up to DefaultStoreEvery).
// It opens the database on first use and keeps it, with its writer lock,
// until Close. A Runner is safe for concurrent use.
type Runner struct {
	cfg  RunnerConfig
	wake chan struct{}
	// stopAll ends the loop's context: Close calls it with cfg.Shutdown.
	stopAll   context.CancelCauseFunc
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error // Close's error

	mu     sync.Mutex // protects following fields
	db     *storage.DB
	reader *storage.DB // read-only, while another process holds the writer
	queue  []*job
	jobs   map[int64]*job // queued and running
	closed bool
}

// job is a run the Runner queued or runs.
type job struct {
	id   int64
	plan Plan

	mu       sync.Mutex // protects following fields
	state    string     // storage.MetaQueued or MetaRunning while the Runner holds it
	progress Progress
	its      []storage.MetaIteration // every iteration so far; only appended to
	stop     context.CancelCauseFunc // set once it runs
	stopped  error                   // a stop asked for between leaving the queue and running
	done     chan struct{}           // closed when it has ended and is stored
}

// Job is a queued or running run as its Runner holds it.
type Job struct {
	ID       int64
	State    string // storage.MetaQueued or storage.MetaRunning
	Progress Progress
	// Iterations are the run's iterations so far, for its live curve
	// (Wins, Games and Seconds are not set). The slice shares memory with
	// the Runner, which only appends to it: read it, do not write it.
	Iterations []storage.MetaIteration
}

// NewRunner returns the runner of cfg.Path and starts its loop, which runs
// until Close (ctx ending does not stop it: ctx gives the loop its values
// only).
func NewRunner(ctx context.Context, cfg RunnerConfig) *Runner {
	if cfg.Queue <= 0 {
		cfg.Queue = DefaultQueue
	}
	if cfg.Shutdown == nil {
		cfg.Shutdown = ErrClosed
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	r := &Runner{cfg: cfg, jobs: map[int64]*job{}, wake: make(chan struct{}, 1)}
	runCtx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	r.stopAll = cancel
	r.wg.Go(func() { r.loop(runCtx) })
	return r
}

// Close stops the running run and every queued one, waits until they are
// stored (with RunnerConfig.Shutdown as the reason), and closes the
// database. Later calls return the first one's error.
func (r *Runner) Close() error {
	r.closeOnce.Do(func() {
		r.mu.Lock()
		r.closed = true
		r.mu.Unlock()
		r.stopAll(r.cfg.Shutdown)
		r.wg.Wait()
		r.mu.Lock()
		defer r.mu.Unlock()
		var errs []error
		for _, db := range []*storage.DB{r.db, r.reader} {
			if db != nil {
				errs = append(errs, db.Close())
			}
		}
		r.closeErr = errors.Join(errs...)
	})
	return r.closeErr
}

// writer returns the lab database for writing, opening (and creating) it
// on first use. Another process holding it is storage.ErrLocked.
func (r *Runner) writer(ctx context.Context) (*storage.DB, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.db != nil {
		return r.db, nil
	}
	db, err := storage.Open(ctx, r.cfg.Path, storage.Options{})
	if err != nil {
		return nil, err
	}
	// The Runner holds the only writer lock now: a run still queued or
	// running there was ended by a kill.
	if _, err := db.MarkInterruptedMetaRuns(ctx, "the process that ran it ended first"); err != nil {
		db.Close()
		return nil, err
	}
	if r.reader != nil {
		r.reader.Close()
		r.reader = nil
	}
	r.db = db
	return db, nil
}

// DB returns the lab database for reading: the Runner's writer when it
// has opened it (opening it when the file exists and no other process
// holds it), else the file opened read-only; nil, and no error, when the
// file does not exist yet. The Runner owns the database: do not close it,
// nor use it after Close.
func (r *Runner) DB(ctx context.Context) (*storage.DB, error) {
	r.mu.Lock()
	if r.db != nil || r.reader != nil {
		defer r.mu.Unlock()
		return cmp.Or(r.db, r.reader), nil
	}
	r.mu.Unlock()
	if _, err := os.Stat(r.cfg.Path); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	db, err := r.writer(ctx)
	if !errors.Is(err, storage.ErrLocked) {
		return db, err
	}
	ro, err := storage.Open(ctx, r.cfg.Path, storage.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.reader != nil || r.db != nil {
		ro.Close()
		return cmp.Or(r.db, r.reader), nil
	}
	r.reader = ro
	return ro, nil
}

// Submit stores plan as a queued run and queues it; it returns the run's
// id. Its errors: storage.ErrLocked when another process holds the
// database, ErrQueueFull, RunnerConfig.Shutdown after Close.
func (r *Runner) Submit(ctx context.Context, plan Plan) (int64, error) {
	db, err := r.writer(ctx)
	if err != nil {
		return 0, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return 0, r.cfg.Shutdown
	}
	if len(r.queue) >= r.cfg.Queue {
		return 0, fmt.Errorf("%w: %d runs wait already; stop one or wait", ErrQueueFull, len(r.queue))
	}
	id, err := plan.Create(ctx, db, storage.MetaQueued, time.Now())
	if err != nil {
		return 0, err
	}
	j := &job{id: id, plan: plan, state: storage.MetaQueued, done: make(chan struct{}),
		progress: Progress{Iterations: plan.Params.Iterations}}
	r.queue = append(r.queue, j)
	r.jobs[id] = j
	select {
	case r.wake <- struct{}{}:
	default:
	}
	return id, nil
}

// Job returns run id as the Runner holds it, and whether it does: once a
// run has ended, the database has all of it, and the Runner none.
func (r *Runner) Job(id int64) (Job, bool) {
	r.mu.Lock()
	j := r.jobs[id]
	r.mu.Unlock()
	if j == nil {
		return Job{}, false
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return Job{ID: j.id, State: j.state, Progress: j.progress, Iterations: j.its[:len(j.its):len(j.its)]}, true
}

// Cancel stops run id with why (ErrCanceled when nil) as its reason: a
// queued run at once (stored as stopped, with why and " before it
// started"), a running one once it has stored what it learnt, which
// Cancel waits for until ctx ends. It reports whether the run has ended;
// a run the Runner does not hold has.
func (r *Runner) Cancel(ctx context.Context, id int64, why error) (bool, error) {
	why = cmp.Or(why, ErrCanceled)
	r.mu.Lock()
	j := r.jobs[id]
	if j == nil {
		r.mu.Unlock()
		return true, nil
	}
	for i, q := range r.queue {
		if q == j {
			r.queue = append(r.queue[:i], r.queue[i+1:]...)
			delete(r.jobs, id)
			db := r.db
			r.mu.Unlock()
			err := db.SetMetaRunState(ctx, id, storage.MetaStopped, why.Error()+" before it started", 0)
			close(j.done)
			return true, err
		}
	}
	r.mu.Unlock()
	j.mu.Lock()
	if j.stop != nil {
		j.stop(why)
	} else {
		j.stopped = why // the loop has taken it and is about to run it
	}
	j.mu.Unlock()
	select {
	case <-j.done:
		return true, nil
	case <-ctx.Done():
		return false, nil
	}
}

// loop runs the queued runs one at a time until ctx ends, then records
// the runs still queued as stopped.
func (r *Runner) loop(ctx context.Context) {
	for {
		if ctx.Err() != nil {
			r.stopQueued(ctx)
			return
		}
		r.mu.Lock()
		var j *job
		if len(r.queue) > 0 {
			j = r.queue[0]
			r.queue = r.queue[1:]
		}
		db := r.db
		r.mu.Unlock()
		if j != nil {
			r.run(ctx, db, j)
			continue
		}
		select {
		case <-r.wake:
		case <-ctx.Done():
		}
	}
}

// stopQueued records the runs still queued as stopped by Close.
func (r *Runner) stopQueued(ctx context.Context) {
	r.mu.Lock()
	queued := r.queue
	r.queue = nil
	db := r.db
	for _, j := range queued {
		delete(r.jobs, j.id)
	}
	r.mu.Unlock()
	why := context.Cause(ctx).Error() + " before it started"
	for _, j := range queued {
		// The database is still open: Close waits for this loop.
		if err := db.SetMetaRunState(context.WithoutCancel(ctx), j.id, storage.MetaStopped, why, 0); err != nil {
			r.cfg.Logger.Warn("lab: record a queued run as stopped", "run", j.id, "err", err)
		}
		close(j.done)
	}
}

// run runs one job to its end.
func (r *Runner) run(ctx context.Context, db *storage.DB, j *job) {
	jobCtx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	j.mu.Lock()
	j.state, j.stop = storage.MetaRunning, stop
	if j.stopped != nil {
		stop(j.stopped)
	}
	j.mu.Unlock()
	_, err := j.plan.Run(jobCtx, db, j.id, func(p Progress) {
		j.mu.Lock()
		j.progress = p
		j.its = append(j.its, storage.MetaIteration{Iteration: p.Iteration, BestCost: p.BestCost, MeanCost: p.MeanCost})
		j.mu.Unlock()
	})
	if err != nil && !errors.Is(err, ErrStopped) {
		r.cfg.Logger.Warn("lab run failed", "run", j.id, "err", err)
	}
	// Plan.Run has stored the run's end, whatever it was: the database
	// answers from now on.
	r.mu.Lock()
	delete(r.jobs, j.id)
	r.mu.Unlock()
	close(j.done)
}
