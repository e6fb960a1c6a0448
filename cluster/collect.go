package cluster

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"evolved/nnet"
)

// batch is a set of jobs for collect, and what their kind (games,
// searches) brings to the loop they share: how a result is checked, how a
// sample of them is checked again here, what counting one means.
type batch[T any] struct {
	// game and generation name the jobs in the logs; one and many say
	// what a job is ("game", "games").
	game       string
	generation int
	one, many  string
	// reply is the subject the jobs' results come on.
	reply string
	jobs  []Job
	// nets are the nets the jobs name, put into the genome bucket again
	// when the streams are recreated.
	nets []*nnet.Net
	// check returns what r states for job k, or why it is refused. It
	// runs in the loop that reads results, so it must be quick.
	check func(k int, r *Result) (T, error)
	// verify, if set, checks again the results of the jobs sampled picks
	// (a game replayed, a position searched again) and returns why it
	// refuses what a result states; it runs beside the loop, as many at
	// once as the machine has CPUs, so that the results of many workers
	// never wait for one check at a time.
	verify  func(ctx context.Context, job *Job, v T) error
	sampled func(job *Job) bool
	// counted, if set, is called in the loop after job k's result counts.
	counted func(k int)
	// games says that a counted result is a game in the workers' counts
	// (TakeWorkers); a refused one counts as refused either way.
	games bool
	// alive, if set, is called every few seconds while collect waits.
	alive func()
}

// collect publishes b's jobs and returns what the first result of each
// that passes b's checks states, in the jobs' order. It reads the results
// from the start of their subject, so results already there (from a
// coordinator that stopped halfway) count; a refused result is logged with
// its worker's name and its job published again, at most MaxAttempts
// times; the jobs still out when none has come back for an ack wait are
// published again (stragglers); when the streams are recreated (a server
// back without its store), the nets are put and the jobs not yet counted
// published again into the new ones. epoch is the streams' epoch in which
// the caller put b's nets. Cancelling ctx abandons the jobs.
func collect[T any](ctx context.Context, c *Coordinator, epoch int, b batch[T]) ([]T, error) {
	jobs := b.jobs
	index := make(map[string]int, len(jobs))
	for k := range jobs {
		index[jobs[k].ID] = k
	}
	// Read the results before publishing, from the start of the subject.
	var msgs <-chan jetstream.Msg
	var unsubscribe func()
	if err := c.retry(ctx, "subscribe to the results", b.alive, func() error {
		var err error
		msgs, unsubscribe, err = c.results(ctx, b.reply)
		return err
	}); err != nil {
		return nil, fmt.Errorf("cluster: results of generation %d: %w", b.generation, err)
	}
	defer func() { unsubscribe() }()
	putNets := func() error {
		for _, n := range b.nets {
			if _, err := c.put(ctx, n, b.alive); err != nil {
				return err
			}
		}
		return nil
	}
	if e := c.currentEpoch(); e != epoch { // the streams were lost and made again: put the genomes there
		epoch = e
		if err := putNets(); err != nil {
			return nil, err
		}
	}
	if err := c.publishAll(ctx, jobs, b.alive); err != nil {
		return nil, err
	}
	out := make([]T, len(jobs))
	counted := make([]bool, len(jobs))
	done := 0
	tick := time.NewTicker(min(5*time.Second, c.limits.AckWait/2))
	defer tick.Stop()
	last, quiet := time.Now(), time.Minute // the last counted result; how long before saying so
	var straggled time.Time                // when stragglers were last published again
	copies := make([]int, len(jobs))       // copies of each job published for stragglers
	countKey := strings.ReplaceAll(b.many, " ", "_")
	// accept counts what r states for job k (v), or refuses it for err,
	// publishing the job again; the error it returns ends the jobs.
	accept := func(k int, r *Result, v T, err error) error {
		if err != nil {
			c.saw(r.Worker, 0, 1)
			c.log.Warn("refused a result", "game", b.game, "generation", b.generation, "index", k, "worker", r.Worker, "attempt", r.Attempt, "err", err)
			if r.Attempt != jobs[k].Attempt {
				return nil // refused already: its job is out again
			}
			if jobs[k].Attempt+1 >= MaxAttempts {
				return fmt.Errorf("cluster: generation %d: %s %d refused %d times; the last: %w", b.generation, b.one, k+1, MaxAttempts, err)
			}
			jobs[k].Attempt++
			return c.publish(ctx, &jobs[k], 0, b.alive)
		}
		if b.games {
			c.saw(r.Worker, 1, 0)
		} else {
			c.saw(r.Worker, 0, 0)
		}
		out[k] = v
		counted[k] = true
		done++
		last, quiet = time.Now(), time.Minute
		if b.counted != nil {
			b.counted(k)
		}
		return nil
	}
	// A sampled result's verdict comes back on verified.
	type verdict struct {
		k   int
		r   Result
		v   T
		err error
	}
	verified := make(chan verdict, len(jobs)) // room for every job: a check never waits to report
	verifying := make([]bool, len(jobs))
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	verifyCtx, stopVerifying := context.WithCancel(ctx)
	var checks sync.WaitGroup
	defer func() { stopVerifying(); checks.Wait() }()
	for done < len(jobs) {
		var m jetstream.Msg
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("cluster: generation %d: %w", b.generation, ctx.Err())
		case v := <-verified:
			verifying[v.k] = false
			if ctx.Err() != nil { // the check was cut short, not refused
				return nil, fmt.Errorf("cluster: generation %d: %w", b.generation, ctx.Err())
			}
			if !counted[v.k] {
				if err := accept(v.k, &v.r, v.v, v.err); err != nil {
					return nil, err
				}
			}
			continue
		case <-tick.C:
			if b.alive != nil {
				b.alive()
			}
			// The server came back without its store, and the streams
			// were recreated: the genomes and the jobs still out are
			// gone with the old ones, so put and publish them again.
			if e := c.currentEpoch(); e != epoch {
				epoch = e
				// The results too are read again from the new stream's
				// start: its sequence numbers start again at 1.
				unsubscribe()
				var err error
				if msgs, unsubscribe, err = c.results(ctx, b.reply); err != nil {
					return nil, fmt.Errorf("cluster: results of generation %d: %w", b.generation, err)
				}
				if err := putNets(); err != nil {
					return nil, err
				}
				n := 0
				for k := range jobs {
					if !counted[k] {
						if err := c.publish(ctx, &jobs[k], copies[k], b.alive); err != nil {
							return nil, err
						}
						n++
					}
				}
				c.log.Info("cluster: published the "+b.many+" not yet counted again, into the recreated streams", "game", b.game, "generation", b.generation, countKey, n)
				continue
			}
			// Stragglers: workers are there (results came back) but none
			// for an ack wait, so the jobs still out are held by workers
			// that are slow or gone while they still say they are at
			// work. Publish them again for the idle workers; whichever
			// result comes first counts (they are the same job).
			if done > 0 && time.Since(last) > c.limits.AckWait && time.Since(straggled) > c.limits.AckWait {
				straggled = time.Now()
				n := 0
				for k := range jobs {
					if !counted[k] {
						copies[k]++
						if err := c.publish(ctx, &jobs[k], copies[k], b.alive); err != nil {
							return nil, err
						}
						n++
					}
				}
				c.log.Info("cluster: published the straggling "+b.many+" again", "game", b.game, "generation", b.generation, countKey, n)
			}
			if time.Since(last) > quiet {
				c.log.Warn("cluster: waiting for workers: no "+b.one+" came back for a while; are workers of this protocol version running and connected to this NATS server? (a worker of version 3 drops these jobs as malformed)",
					"game", b.game, "generation", b.generation, "done", done, "total", len(jobs), "since", time.Since(last).Round(time.Second), "version", ProtocolVersion)
				quiet += time.Minute
			}
			continue
		case m = <-msgs:
			if m == nil {
				// The subscription ended (its stream went away): read the
				// results again from the start, once the server answers;
				// those counted already are skipped.
				c.log.Warn("cluster: the results subscription ended; subscribing again", "game", b.game, "generation", b.generation, "done", done, "total", len(jobs))
				unsubscribe()
				err := c.retry(ctx, "subscribe to the results", b.alive, func() error {
					var err error
					msgs, unsubscribe, err = c.results(ctx, b.reply)
					return err
				})
				if err != nil {
					return nil, err
				}
				continue
			}
		}
		var r Result
		if err := r.UnmarshalBinary(m.Data()); err != nil {
			c.log.Warn("refused a malformed result", "generation", b.generation, "worker", r.Worker, "err", err)
			continue
		}
		k, ok := index[r.ID]
		if !ok || counted[k] || verifying[k] {
			continue // another run's, or a job already counted (redelivered) or being checked
		}
		v, err := b.check(k, &r)
		if err == nil && b.verify != nil && b.sampled(&jobs[k]) {
			verifying[k] = true
			job := jobs[k] // the loop may publish it again meanwhile; the check reads its own copy
			checks.Go(func() {
				slots <- struct{}{}
				defer func() { <-slots }()
				verified <- verdict{k: k, r: r, v: v, err: b.verify(verifyCtx, &job, v)}
			})
			continue
		}
		if err := accept(k, &r, v, err); err != nil {
			return nil, err
		}
	}
	return out, nil
}
