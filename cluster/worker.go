package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"evolved/nnet"
	"evolved/progress"
)

// Worker plays jobs from the workers' consumer: games, data games, and
// the distillation's search jobs.
type Worker struct {
	// Name names the worker in results and the coordinator's logs.
	Name string
	// Concurrency is the number of jobs played at once; default 1.
	Concurrency int
	// Log receives one line per refused job and per connection problem.
	Log *slog.Logger
	// Wait is how long to wait between looks for a coordinator's streams
	// when there are none yet; default 2 s.
	Wait time.Duration
	// Played, if set, is called after each job played and acknowledged.
	Played func(job *Job)
}

// Run plays jobs until ctx is cancelled, then returns nil once the games
// in progress have been handed back (a game cut short is never reported:
// JetStream gives its job to another worker).
func (w *Worker) Run(ctx context.Context, nc *nats.Conn) error {
	// A result the server has not confirmed within publishTimeout counts
	// as lost: its job goes back to the queue.
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncTimeout(publishTimeout))
	if err != nil {
		return fmt.Errorf("worker: %w", err)
	}
	for {
		cons, store, err := w.attach(ctx, js)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if again, err := w.serve(ctx, js, cons, store); !again || ctx.Err() != nil {
			return err
		}
		// The consumer is gone (the server came back without its store):
		// attach again, to the one the coordinator creates anew.
		w.Log.Warn("worker: the job queue was recreated on the server; attaching to the new one")
	}
}

// serve plays the jobs of cons until ctx is cancelled or the consumer
// disappears from the server or is created anew there (again true): the
// server lost its store, and the jobs now come through another consumer.
func (w *Worker) serve(ctx context.Context, js jetstream.JetStream, cons jetstream.Consumer, store jetstream.ObjectStore) (again bool, err error) {
	info := cons.CachedInfo()
	beat := info.Config.AckWait / 3
	if beat <= 0 {
		beat = 10 * time.Second
	}
	n := max(1, w.Concurrency)
	// Jobs are fetched ahead, two per game in play, so that a game never
	// waits for a round trip to the server; a job waiting in the buffer
	// counts against its ack wait, which is long beside a game.
	it, err := cons.Messages(jetstream.PullMaxMessages(2 * n))
	if err != nil {
		return false, fmt.Errorf("worker: %w", err)
	}
	var gone atomic.Bool // the consumer was replaced
	// replaced reports whether the consumer is no longer the one attached
	// to: gone, or created again since.
	replaced := func() bool {
		now, err := js.Consumer(ctx, JobsStream, WorkersConsumer)
		if err != nil {
			return errors.Is(err, jetstream.ErrConsumerNotFound) || errors.Is(err, jetstream.ErrStreamNotFound)
		}
		return !now.CachedInfo().Created.Equal(info.Created)
	}
	// After a reconnect the server may be a new one without the queue;
	// the iterator then waits for jobs that never come (its pull request
	// outlives the old consumer), so a goroutine that hears nothing for
	// recheckWait asks, once a reconnect, whether the consumer is still
	// the one attached to.
	reconnects := js.Conn().Stats().Reconnects
	stop := context.AfterFunc(ctx, it.Stop)
	defer stop()
	cache := newNetCache(store, 64)
	// Results are published without waiting for the server's word, so
	// that the next game starts at once; one goroutine takes the words in
	// order and acknowledges each job once its result is stored.
	// A stopping worker waits settleWait in all for the words still due.
	published := make(chan publishedResult, 4*n)
	acked := make(chan struct{})
	settling, giveUp := context.WithCancel(context.WithoutCancel(ctx))
	defer giveUp()
	stopSettling := context.AfterFunc(ctx, func() { time.AfterFunc(settleWait, giveUp) })
	defer stopSettling()
	go func() {
		defer close(acked)
		for p := range published {
			w.settle(ctx, settling.Done(), p)
		}
	}()
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			players := newPlayerCache(32) // this goroutine's: players and searches are not shared
			seen := reconnects
			for {
				m, err := it.Next(jetstream.NextMaxWait(recheckWait))
				if errors.Is(err, jetstream.ErrMsgIteratorClosed) || ctx.Err() != nil {
					return
				}
				if errors.Is(err, nats.ErrTimeout) { // no job for a while: an idle queue, or a lost one
					if now := js.Conn().Stats().Reconnects; now != seen {
						if replaced() {
							gone.Store(true)
							it.Stop()
							return
						}
						seen = now // the same queue: the server kept its store
					}
					continue
				}
				if err != nil { // the server away, say: the iterator carries on when it is back
					if replaced() { // unless it came back without the queue
						gone.Store(true)
						it.Stop()
						return
					}
					w.Log.Warn("worker: waiting for jobs", "err", err)
					select {
					case <-ctx.Done():
						return
					case <-time.After(time.Second):
					}
					continue
				}
				w.handle(ctx, js, m, cache, players, beat, published)
			}
		})
	}
	wg.Wait()
	close(published)
	<-acked
	it.Stop()
	return gone.Load(), nil
}

// publishedResult is a job whose result is on its way to the server.
type publishedResult struct {
	job    Job
	msg    jetstream.Msg
	stored jetstream.PubAckFuture
}

// settle waits for the server's word on p's result and then acknowledges
// the job, or, if the result was not stored, hands the job back to be
// played again. A stopping worker gives up when giveUp closes; the job then
// comes back after its ack wait, and a result stored meanwhile makes the
// new one a duplicate, which JetStream drops.
func (w *Worker) settle(ctx context.Context, giveUp <-chan struct{}, p publishedResult) {
	select {
	case <-p.stored.Ok():
		// A lost acknowledgement only replays the job, whose result
		// JetStream then drops as a duplicate.
		if err := p.msg.Ack(); err != nil {
			w.Log.Warn("worker: acknowledging a job", "job", p.job.ID, "err", err)
			return
		}
		if w.Played != nil {
			w.Played(&p.job)
		}
	case err := <-p.stored.Err():
		if ctx.Err() == nil { // stopping cuts a publish short: no news
			w.Log.Warn("worker: could not publish a result; the job will be played again", "job", p.job.ID, "err", err)
		}
		p.msg.Nak()
	case <-giveUp:
	}
}

// recheckWait is how long a worker's goroutine waits for a job, after
// its connection came back, before it asks the server whether the job
// queue it attached to still exists.
const recheckWait = 2 * time.Second

// settleWait is how long a stopping worker waits for the server's word on
// the results it has published; publishTimeout how long a running one
// waits for each (what a synchronous publish waited by default).
const (
	settleWait     = 3 * time.Second
	publishTimeout = 5 * time.Second
)

// attach waits for the streams a coordinator creates and returns the
// workers' consumer and the genome bucket.
func (w *Worker) attach(ctx context.Context, js jetstream.JetStream) (jetstream.Consumer, jetstream.ObjectStore, error) {
	wait := w.Wait
	if wait <= 0 {
		wait = 2 * time.Second
	}
	logged := false
	for {
		cons, err := js.Consumer(ctx, JobsStream, WorkersConsumer)
		if err == nil {
			store, err := js.ObjectStore(ctx, GenomeBucket)
			if err == nil {
				return cons, store, nil
			}
		}
		if !logged {
			w.Log.Info("worker: waiting for a coordinator to create the job streams", "err", err)
			logged = true
		}
		select {
		case <-ctx.Done():
			return nil, nil, fmt.Errorf("worker: %w", ctx.Err())
		case <-time.After(wait):
		}
	}
}

// handle plays one job message (a game, a data game, or a search job's
// searches) and publishes its result, then acknowledges it.
func (w *Worker) handle(ctx context.Context, js jetstream.JetStream, m jetstream.Msg, cache *netCache, players *playerCache, beat time.Duration,
	published chan<- publishedResult) {
	var job Job
	if err := job.UnmarshalBinary(m.Data()); err != nil {
		w.Log.Error("worker: dropped a malformed job", "job", job.ID, "err", err)
		m.Term()
		return
	}
	if err := job.check(); err != nil {
		// Another version's job: leave it to a worker that speaks it.
		w.Log.Error("worker: refused a job; upgrade the worker or the coordinator so that both speak one version", "job", job.ID, "err", err)
		m.NakWithDelay(10 * time.Second)
		return
	}
	// Tell JetStream the job is in hand while it is played.
	playing, done := context.WithCancel(ctx)
	defer done()
	stopBeat := progress.Every(playing, beat, func(time.Duration) { m.InProgress() })
	defer stopBeat()
	var res *Result
	nets, err := w.nets(playing, &job, cache)
	if err != nil {
		// The store is out of reach (the server restarting, say), or the
		// nets are gone: leave the job to a moment later.
		if ctx.Err() == nil {
			w.Log.Warn("worker: could not fetch a job's nets; it goes back to the queue", "job", job.ID, "err", err)
		}
		m.NakWithDelay(2 * time.Second)
		return
	}
	if job.Kind == SearchJob {
		res, err = searchJob(playing, &job, nets[0], players)
	} else {
		res, err = playJob(playing, &job, nets, players)
	}
	if ctx.Err() != nil {
		m.Nak() // stopping: let another worker play it now
		return
	}
	if err != nil {
		res = &Result{Version: ProtocolVersion, ID: job.ID, Attempt: job.Attempt, Error: err.Error()}
		w.Log.Warn("worker: could not play a job", "job", job.ID, "err", err)
	}
	res.Worker = w.Name
	data, err := res.MarshalBinary()
	var stored jetstream.PubAckFuture
	if err == nil {
		stored, err = js.PublishAsync(job.Reply, data, jetstream.WithMsgID(msgID(&job, 0))) // one result per attempt
	}
	if err != nil {
		if ctx.Err() == nil {
			w.Log.Warn("worker: could not publish a result; the job will be played again", "job", job.ID, "err", err)
		}
		m.Nak()
		return
	}
	published <- publishedResult{job: job, msg: m, stored: stored}
}

// nets fetches the nets of the job's two players, or of a search job
// the one that searches (the first; the second is nil).
func (w *Worker) nets(ctx context.Context, job *Job, cache *netCache) ([2]*nnet.Net, error) {
	var nets [2]*nnet.Net
	hashes := job.Genomes[:]
	if job.Kind == SearchJob {
		hashes = []string{job.Genome}
	}
	for i, h := range hashes {
		n, err := cache.get(ctx, h)
		if err != nil {
			return nets, fmt.Errorf("job %s: %w", job.ID, err)
		}
		nets[i] = n
	}
	return nets, nil
}

// netCache holds the nets a worker fetched, by hash, the latest few.
type netCache struct {
	store jetstream.ObjectStore
	size  int
	mu    sync.Mutex
	nets  map[string]*nnet.Net
	order []string // oldest first
}

func newNetCache(store jetstream.ObjectStore, size int) *netCache {
	return &netCache{store: store, size: size, nets: map[string]*nnet.Net{}}
}

// get returns the net of hash h, fetched from the bucket and checked
// against its hash if it is not cached.
func (c *netCache) get(ctx context.Context, h string) (*nnet.Net, error) {
	c.mu.Lock()
	n, ok := c.nets[h]
	c.mu.Unlock()
	if ok {
		return n, nil
	}
	data, err := c.store.GetBytes(ctx, h)
	if err != nil {
		return nil, fmt.Errorf("genome %s: %w", h, err)
	}
	n = new(nnet.Net)
	if err := n.UnmarshalBinary(data); err != nil {
		return nil, fmt.Errorf("genome %s: %w", h, err)
	}
	if got, _, err := GenomeHash(n); err != nil || got != h {
		return nil, fmt.Errorf("genome %s: the stored net hashes to %s", h, got)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.nets[h]; !ok {
		c.nets[h] = n
		c.order = append(c.order, h)
		if len(c.order) > c.size {
			delete(c.nets, c.order[0])
			c.order = c.order[1:]
		}
	}
	return n, nil
}
