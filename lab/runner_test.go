package lab_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"evolved/lab"
	"evolved/player"
	"evolved/storage"
)

// plan returns a plan of s within lim for a Runner's test.
func plan(t *testing.T, s lab.Settings) lab.Plan {
	t.Helper()
	p, err := lab.NewPlan(s, nil, player.ParseChess, lab.Limits{MaxWorkers: 1})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// longPlan is a run that lasts until it is stopped.
func longPlan(t *testing.T) lab.Plan {
	s := lab.DefaultSettings()
	s.Method, s.Opponent, s.Iterations, s.Turns = "sa", "material:1", 100_000, 10
	return plan(t, s)
}

// waitJob polls run id of r until done says so (a minute at most: the
// machine may be loaded); a run r no longer holds is passed as ok false.
func waitJob(t *testing.T, r *lab.Runner, id int64, done func(j lab.Job, ok bool) bool) lab.Job {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		j, ok := r.Job(id)
		if done(j, ok) {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %d: still %+v (held: %v) after a minute", id, j, ok)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stored reads run id from the database at path once r is closed.
func stored(t *testing.T, path string, id int64) (storage.MetaRun, []storage.MetaIteration) {
	t.Helper()
	db, err := storage.Open(context.Background(), path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m, its, err := db.LoadMetaRun(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return m, its
}

// TestRunnerRunsToItsEnd submits a small run and follows it to its end:
// live while it runs, then stored as finished, and no longer held.
func TestRunnerRunsToItsEnd(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lab.db")
	r := lab.NewRunner(ctx, lab.RunnerConfig{Path: path})
	defer r.Close()
	if db, err := r.DB(ctx); db != nil || err != nil {
		t.Fatalf("DB before the first run = %v, %v; want nil, nil", db, err)
	}
	s := lab.DefaultSettings()
	s.Method, s.Opponent, s.Iterations, s.Ants, s.Turns, s.Seed = "aco", "material:1", 3, 4, 5, 7
	id, err := r.Submit(ctx, plan(t, s))
	if err != nil || id != 1 {
		t.Fatalf("Submit = %d, %v; want 1, nil", id, err)
	}
	var last lab.Job
	waitJob(t, r, id, func(j lab.Job, ok bool) bool {
		if ok {
			if j.ID != id || j.State != storage.MetaQueued && j.State != storage.MetaRunning || j.Progress.Iterations != 3 ||
				len(j.Iterations) != j.Progress.Iteration {
				t.Fatalf("live run %+v", j)
			}
			last = j
		}
		return !ok
	})
	for i, it := range last.Iterations {
		if it.Iteration != i+1 {
			t.Errorf("live iteration %d is numbered %d", i, it.Iteration)
		}
	}
	if ended, err := r.Cancel(ctx, id, nil); !ended || err != nil {
		t.Errorf("Cancel of an ended run = %v, %v; want true, nil", ended, err)
	}
	db, err := r.DB(ctx)
	if err != nil || db == nil {
		t.Fatalf("DB = %v, %v", db, err)
	}
	m, its, err := db.LoadMetaRun(ctx, id)
	if err != nil || m.State != storage.MetaFinished || m.Iterations != 3 || len(its) != 3 || its[2].Games != 4 ||
		m.BestPGN == "" || m.Learned == "" || m.Failure != "" {
		t.Errorf("stored run %+v, iterations %+v, %v", m, its, err)
	}
}

// TestRunnerQueuesAndCancels runs one run at a time: the others wait,
// queued, up to RunnerConfig.Queue; a queued run stops at once, a running
// one once it has stored what it learnt; Close stops the running run and
// every queued one with RunnerConfig.Shutdown as the reason.
func TestRunnerQueuesAndCancels(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lab.db")
	shutdown := errors.New("the test shut down")
	r := lab.NewRunner(ctx, lab.RunnerConfig{Path: path, Queue: 2, Shutdown: shutdown})
	defer r.Close()
	long := longPlan(t)
	submit := func() int64 {
		t.Helper()
		id, err := r.Submit(ctx, long)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	a := submit()
	// Once a runs, the queue holds the two that wait behind it.
	waitJob(t, r, a, func(j lab.Job, _ bool) bool { return j.State == storage.MetaRunning && j.Progress.Iteration > 0 })
	b, c := submit(), submit()
	_, err := r.Submit(ctx, long)
	if !errors.Is(err, lab.ErrQueueFull) || err.Error() != "the lab's queue is full: 2 runs wait already; stop one or wait" {
		t.Fatalf("a fourth run: %v, want ErrQueueFull", err)
	}
	if j, ok := r.Job(b); !ok || j.State != storage.MetaQueued || j.Progress.Iteration != 0 || j.Progress.Iterations != 100_000 {
		t.Fatalf("second run %+v, %v; want queued", j, ok)
	}

	why := errors.New("stopped by the test")
	if ended, err := r.Cancel(ctx, b, why); !ended || err != nil {
		t.Fatalf("Cancel of the queued run = %v, %v", ended, err)
	}
	if _, ok := r.Job(b); ok {
		t.Errorf("the canceled queued run is still held")
	}
	wait, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if ended, err := r.Cancel(wait, a, why); !ended || err != nil {
		t.Fatalf("Cancel of the running run = %v, %v", ended, err)
	}
	waitJob(t, r, c, func(j lab.Job, _ bool) bool { return j.State == storage.MetaRunning && j.Progress.Iteration > 0 })
	d := submit()
	if err := r.Close(); err != nil { // c runs, d waits
		t.Fatal(err)
	}
	if _, err := r.Submit(ctx, long); !errors.Is(err, shutdown) {
		t.Errorf("Submit after Close: %v, want %v", err, shutdown)
	}

	for _, want := range []struct {
		id      int64
		failure string
		learnt  bool
	}{
		{a, "stopped by the test", true},
		{b, "stopped by the test before it started", false},
		{c, "the test shut down", true},
		{d, "the test shut down before it started", false},
	} {
		m, its := stored(t, path, want.id)
		if m.State != storage.MetaStopped || m.Failure != want.failure || (len(its) > 0) != want.learnt || (m.Learned != "") != want.learnt {
			t.Errorf("run %d: stored as %s, %q, %d iterations, learnt %v; want stopped, %q, learnt %v",
				want.id, m.State, m.Failure, len(its), m.Learned != "", want.failure, want.learnt)
		}
	}
}

// TestRunnerCancelWaitsForCtx checks that Cancel of a running run answers
// false once its context ends, and that the run still ends stopped.
func TestRunnerCancelWaitsForCtx(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lab.db")
	r := lab.NewRunner(ctx, lab.RunnerConfig{Path: path})
	defer r.Close()
	id, err := r.Submit(ctx, longPlan(t))
	if err != nil {
		t.Fatal(err)
	}
	waitJob(t, r, id, func(j lab.Job, _ bool) bool { return j.State == storage.MetaRunning })
	ended, cancel := context.WithCancel(ctx)
	cancel()
	if done, err := r.Cancel(ended, id, nil); done || err != nil {
		t.Errorf("Cancel with an ended context = %v, %v; want false, nil", done, err)
	}
	waitJob(t, r, id, func(_ lab.Job, ok bool) bool { return !ok })
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if m, _ := stored(t, path, id); m.State != storage.MetaStopped || m.Failure != lab.ErrCanceled.Error() {
		t.Errorf("stored as %s, %q; want stopped, %q", m.State, m.Failure, lab.ErrCanceled)
	}
}

// TestRunnerSharesTheDatabase checks the Runner beside another process's
// writer: it reads the database read-only and refuses to start a run
// with storage.ErrLocked; once the writer is gone it takes the database
// and marks the runs the writer left queued as stopped.
func TestRunnerSharesTheDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lab.db")
	other, err := storage.Open(ctx, path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	left, err := longPlan(t).Create(ctx, other, storage.MetaQueued, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	r := lab.NewRunner(ctx, lab.RunnerConfig{Path: path})
	defer r.Close()
	db, err := r.DB(ctx)
	if err != nil || db == nil {
		t.Fatalf("DB beside a writer = %v, %v", db, err)
	}
	if m, _, err := db.LoadMetaRun(ctx, left); err != nil || m.State != storage.MetaQueued {
		t.Fatalf("the writer's run read as %+v, %v; want queued", m, err)
	}
	if _, err := r.Submit(ctx, longPlan(t)); !errors.Is(err, storage.ErrLocked) {
		t.Fatalf("Submit beside a writer: %v, want storage.ErrLocked", err)
	}
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
	s := lab.DefaultSettings()
	s.Method, s.Opponent, s.Iterations = "sa", "random", 2
	id, err := r.Submit(ctx, plan(t, s))
	if err != nil || id != left+1 {
		t.Fatalf("Submit = %d, %v; want %d", id, err, left+1)
	}
	waitJob(t, r, id, func(_ lab.Job, ok bool) bool { return !ok })
	if db, err = r.DB(ctx); err != nil {
		t.Fatal(err)
	}
	m, _, err := db.LoadMetaRun(ctx, left)
	if err != nil || m.State != storage.MetaStopped || m.Failure != "the process that ran it ended first" {
		t.Errorf("the run the writer left: %+v, %v; want stopped, ended first", m, err)
	}
	if m, _, err := db.LoadMetaRun(ctx, id); err != nil || m.State != storage.MetaFinished {
		t.Errorf("the Runner's run: %+v, %v; want finished", m, err)
	}
}
