package cluster

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"evolved/games"
	"evolved/nnet"
	"evolved/search"
	"evolved/tournament"
)

// MaxAttempts bounds how often a coordinator publishes one job: a game
// whose results were refused that often fails its generation, with the
// last reason.
const MaxAttempts = 20

// Coordinator publishes generations' games to the workers and collects
// their results. Its methods may be called from several goroutines (one
// per evolving game).
type Coordinator struct {
	js     jetstream.JetStream
	store  jetstream.ObjectStore
	limits Limits
	log    *slog.Logger
	// key salts the hash that picks the position of a search job checked
	// here (pick): random, so that no worker can compute it.
	key [32]byte

	mu      sync.Mutex
	stored  map[string]time.Time    // genomes put in the bucket, and when
	workers map[string]*WorkerGames // what each worker did since TakeWorkers
	epoch   int                     // how often the streams were recreated (recreate)
	warned  time.Time               // the last retry warning, shared so that many retries log once a minute
}

// NewCoordinator creates (or updates) the streams, the workers' consumer
// and the genome bucket on the NATS server nc is connected to.
func NewCoordinator(ctx context.Context, nc *nats.Conn, l Limits, log *slog.Logger) (*Coordinator, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	l = l.withDefaults()
	_, store, err := ensure(ctx, js, l)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	c := &Coordinator{js: js, store: store, limits: l, log: log, stored: map[string]time.Time{},
		workers: map[string]*WorkerGames{}}
	rand.Read(c.key[:]) // never fails: crypto/rand crashes the program rather than return an error
	return c, nil
}

// Generation is one generation's tournament for Play.
type Generation[M MoveCode, S search.Game[M]] struct {
	// Game names the game ("draughts"); Setup is its setup, which workers
	// bind the same game with (games.Kind.Bind); Arena is the coordinator's
	// own copy of that binding's arena, to check the games with.
	Game  string
	Setup games.Setup
	Arena tournament.Arena[M, S]
	// Player, with Replay > 0, makes the coordinator's own players of a
	// net (the binding's Player): one game in about Replay, drawn by the
	// hash of its job, is played again here and a result that differs
	// from it is refused. The rules' check cannot tell legal moves that
	// the agents would not have chosen; a replay can.
	Player func(*nnet.Net) (func() search.Player[M, S], error)
	Replay int
	// Nets holds the net of each slot of the schedule.
	Nets     []*nnet.Net
	Schedule []tournament.Pairing
	// First is the index in the generation of Schedule's first game: a
	// generation's games may be played in several calls (a race after its
	// tournament), each continuing the numbering.
	First      int
	RunSeed    uint64
	Generation int
	// Progress, if set, is called after each counted game.
	Progress func(done, total int)
	// Alive, if set, is called every few seconds while Play waits for
	// results: waiting for workers is not being stuck (a watchdog).
	Alive func()
}

// Play plays a generation's tournament on the workers and returns its
// games in schedule order: the games tournament.Run would play locally
// with the same nets, seed and generation. Results already in the results
// stream for these jobs (from a coordinator that stopped mid-generation)
// count; every result is checked, and a refused one is logged and its job
// published again. Cancelling ctx abandons the generation.
func Play[M MoveCode, S search.Game[M]](ctx context.Context, c *Coordinator, g Generation[M, S]) ([]tournament.GameResult[M], error) {
	setup, err := json.Marshal(g.Setup)
	if err != nil {
		return nil, fmt.Errorf("cluster: setup: %w", err)
	}
	hashes := make([]string, len(g.Nets))
	epoch := c.currentEpoch() // the streams' epoch the genomes are in
	for i, n := range g.Nets {
		if hashes[i], err = c.put(ctx, n, g.Alive); err != nil {
			return nil, err
		}
	}
	reply := resultSubject(g.Game, g.RunSeed, g.Generation)
	jobs := make([]Job, len(g.Schedule))
	for k, pr := range g.Schedule {
		if pr.First < 0 || pr.First >= len(g.Nets) || pr.Second < 0 || pr.Second >= len(g.Nets) {
			return nil, fmt.Errorf("cluster: game %d pairs slots %d and %d of %d nets", k+1, pr.First, pr.Second, len(g.Nets))
		}
		j := Job{Version: ProtocolVersion, Game: g.Game, Setup: setup, RunSeed: g.RunSeed, Generation: g.Generation,
			Index: g.First + k, First: pr.First, Second: pr.Second, OpeningIndex: pr.OpeningIndex,
			Genomes: [2]string{hashes[pr.First], hashes[pr.Second]}, Reply: reply}
		j.ID = jobID(g.Game, g.RunSeed, g.Generation, g.First+k) + "/" + j.digest()
		jobs[k] = j
	}
	done := 0
	b := batch[tournament.Record[M]]{game: g.Game, generation: g.Generation, one: "game", many: "games",
		reply: reply, jobs: jobs, nets: g.Nets, games: true, alive: g.Alive,
		check: func(k int, r *Result) (tournament.Record[M], error) { return checkResult(g.Arena, &jobs[k], r) },
		counted: func(int) {
			done++
			if g.Progress != nil {
				g.Progress(done, len(jobs))
			}
		},
	}
	if g.Replay > 0 && g.Player != nil {
		// The sampled games are played again here; one that differs from
		// its replay is refused.
		b.sampled = func(job *Job) bool { return sampled(job.ID, g.Replay) }
		b.verify = func(ctx context.Context, job *Job, rec tournament.Record[M]) error { return replay(ctx, g, job, rec) }
	}
	records, err := collect(ctx, c, epoch, b)
	if err != nil {
		return nil, err
	}
	games := make([]tournament.GameResult[M], len(records))
	for k, rec := range records {
		games[k] = tournament.GameResult[M]{Pairing: g.Schedule[k], Record: rec}
	}
	return games, nil
}

// checkResult returns the game r states for job, or why it is refused:
// another protocol version, a worker's error, or a record that is not the
// job's game played by the rules.
func checkResult[M MoveCode, S search.Game[M]](arena tournament.Arena[M, S], job *Job, r *Result) (tournament.Record[M], error) {
	switch {
	case r.Version != ProtocolVersion:
		return tournament.Record[M]{}, fmt.Errorf("%w: the result speaks version %d, this coordinator %d", ErrProtocol, r.Version, ProtocolVersion)
	case r.Error != "":
		return tournament.Record[M]{}, fmt.Errorf("the worker could not play it: %s", r.Error)
	}
	return record(arena, job.GameID(), r)
}

// sampled reports whether the job of ID id is one of the about 1 in n
// that the coordinator replays: by a hash of the ID, which a worker
// cannot know in advance without knowing n.
func sampled(id string, n int) bool {
	h := sha256.Sum256([]byte(id))
	return binary.BigEndian.Uint64(h[:8])%uint64(n) == 0
}

// replay plays job here with g's players and returns an error unless the
// game is rec, move for move.
func replay[M MoveCode, S search.Game[M]](ctx context.Context, g Generation[M, S], job *Job, rec tournament.Record[M]) error {
	var players [2]search.Player[M, S]
	for i, slot := range []int{job.First, job.Second} {
		p, err := g.Player(g.Nets[slot])
		if err != nil {
			return fmt.Errorf("replay: %w", err)
		}
		players[i] = p()
	}
	want, err := g.Arena.PlayScheduled(ctx, job.GameID(), players[0], players[1], tournament.Clock{})
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	for i := range min(len(want.Moves), len(rec.Moves)) {
		if want.Moves[i] != rec.Moves[i] {
			return fmt.Errorf("%w: replayed here, ply %d is %d, not the worker's %d", tournament.ErrForged, i+1, uint64(want.Moves[i]), uint64(rec.Moves[i]))
		}
	}
	if len(want.Moves) != len(rec.Moves) || want.Outcome != rec.Outcome {
		return fmt.Errorf("%w: replayed here, the game has %d plies and ends %v, not %d and %v",
			tournament.ErrForged, len(want.Moves), want.Outcome, len(rec.Moves), rec.Outcome)
	}
	return nil
}

// WorkerGames is what a coordinator saw of one worker over a while: the
// games of its that counted, the results of its that were refused (games
// and search jobs), and when the first and the last result came (a
// search job's among them). The daemon adds it to the database's records
// of the workers.
type WorkerGames struct {
	Name          string
	Games         int
	Refused       int
	First, Latest time.Time
}

// saw counts a result of worker: games counted (1 for a game, 0 for a
// search job) and results refused.
func (c *Coordinator) saw(worker string, games, refused int) {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	w, ok := c.workers[worker]
	if !ok {
		w = &WorkerGames{Name: worker, First: now}
		c.workers[worker] = w
	}
	w.Games += games
	w.Refused += refused
	w.Latest = now
}

// TakeWorkers returns what each worker did since the last call (games
// counted, results refused, first and latest result), by name, and starts
// counting afresh: the daemon adds it to the database's records.
func (c *Coordinator) TakeWorkers() []WorkerGames {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]WorkerGames, 0, len(c.workers))
	for _, w := range c.workers {
		out = append(out, *w)
	}
	clear(c.workers)
	slices.SortFunc(out, func(a, b WorkerGames) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// digest returns a short hash of what decides the job's game besides its
// place in the schedule, so that results of another run with the same
// seed (another setup, other nets) never count.
func (j *Job) digest() string {
	h := sha256.New()
	h.Write(j.Setup)
	h.Write([]byte(j.Genomes[0]))
	h.Write([]byte(j.Genomes[1]))
	h.Write([]byte(strconv.Itoa(j.OpeningIndex)))
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// publish sends job to the workers under a message ID that JetStream
// deduplicates: the same attempt published twice (by a coordinator that
// resumed) is queued once. copy > 0 publishes the copy-th straggler copy
// of the attempt, under an ID of its own, which is queued beside the first.
func (c *Coordinator) publish(ctx context.Context, job *Job, copy int, alive func()) error {
	data, err := job.MarshalBinary()
	if err != nil {
		return fmt.Errorf("cluster: job %s: %w", job.ID, err)
	}
	return c.retry(ctx, "publish job "+job.ID, alive, func() error {
		_, err := c.js.Publish(ctx, jobSubject(job.Game), data, jetstream.WithMsgID(msgID(job, copy)))
		return err
	})
}

// msgID is the message ID of a job's attempt, or of its copy-th straggler
// copy (copy > 0).
func msgID(job *Job, copy int) string {
	id := job.ID + "#" + strconv.Itoa(job.Attempt)
	if copy > 0 {
		id += "." + strconv.Itoa(copy)
	}
	return id
}

// publishAll publishes every job at once, without waiting for each
// acknowledgement in turn (a generation's hundreds of round trips), then
// publishes again, one by one and retrying, any the server did not take.
func (c *Coordinator) publishAll(ctx context.Context, jobs []Job, alive func()) error {
	futures := make([]jetstream.PubAckFuture, len(jobs))
	for k := range jobs {
		data, err := jobs[k].MarshalBinary()
		if err != nil {
			return fmt.Errorf("cluster: job %s: %w", jobs[k].ID, err)
		}
		futures[k], _ = c.js.PublishAsync(jobSubject(jobs[k].Game), data, jetstream.WithMsgID(msgID(&jobs[k], 0)))
	}
	for k, f := range futures {
		ok := false
		if f != nil {
			select {
			case <-f.Ok():
				ok = true
			case <-f.Err():
			case <-ctx.Done():
				return fmt.Errorf("cluster: publish jobs: %w", ctx.Err())
			}
		}
		if !ok {
			if err := c.publish(ctx, &jobs[k], 0, alive); err != nil {
				return err
			}
		}
	}
	return nil
}

// retry calls f until it succeeds or ctx is done, a second apart, calling
// alive (if set) each time, as waiting for the server is not being stuck;
// the NATS server may be away for a while (a restart), and the
// generation waits for it. A server that came back without its JetStream
// store (a new server, a lost volume) answers that no stream is there:
// the streams and the genome bucket are then created again (recreate).
// The failures are logged once a minute for the whole coordinator, not
// once a minute for each of a generation's hundreds of jobs.
func (c *Coordinator) retry(ctx context.Context, what string, alive func(), f func() error) error {
	var failed time.Time
	for {
		err := f()
		if err == nil {
			if !failed.IsZero() {
				c.log.Info("cluster: "+what+": done after all", "waited", time.Since(failed).Round(time.Second))
			}
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("cluster: %s: %w", what, ctx.Err())
		}
		if failed.IsZero() {
			failed = time.Now()
		}
		c.mu.Lock()
		warn := time.Since(c.warned) > time.Minute
		if warn {
			c.warned = time.Now()
		}
		c.mu.Unlock()
		if warn {
			c.log.Warn("cluster: "+what+" failed; retrying every second", "err", err)
		}
		if storeLost(err) {
			c.recreate(ctx)
		}
		if alive != nil {
			alive()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("cluster: %s: %w", what, ctx.Err())
		case <-time.After(time.Second):
		}
	}
}

// results returns the results published on subject, from the start of
// the subject, and the function that stops reading them.
func (c *Coordinator) results(ctx context.Context, subject string) (<-chan jetstream.Msg, func(), error) {
	cons, err := c.js.OrderedConsumer(ctx, ResultsStream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{subject}})
	if err != nil {
		return nil, nil, err
	}
	it, err := cons.Messages()
	if err != nil {
		return nil, nil, err
	}
	msgs := make(chan jetstream.Msg)
	quit := make(chan struct{}) // the reading has stopped: the reader must not block
	go func() {
		defer close(msgs)
		for {
			m, err := it.Next()
			if err != nil {
				return
			}
			select {
			case msgs <- m:
			case <-quit:
				return
			}
		}
	}()
	var once sync.Once
	return msgs, func() {
		once.Do(func() {
			close(quit)
			it.Stop()
		})
	}, nil
}

// storeLost reports whether err says that a stream or the genome bucket
// is not on the server: one that came back without its store.
func storeLost(err error) bool {
	return errors.Is(err, jetstream.ErrNoStreamResponse) || errors.Is(err, jetstream.ErrStreamNotFound) ||
		errors.Is(err, jetstream.ErrBucketNotFound) || errors.Is(err, nats.ErrNoResponders)
}

// recreate creates the streams, the workers' consumer and the genome
// bucket again, as NewCoordinator did, after the server lost them. The
// genomes must then be put again: the record of what was stored is
// cleared, and the epoch tells Play to put its genomes and publish its
// uncounted games again.
func (c *Coordinator) recreate(ctx context.Context) {
	_, store, err := ensure(ctx, c.js, c.limits)
	if err != nil {
		return // the server is not back yet: the next retry tries again
	}
	c.mu.Lock()
	c.store = store
	clear(c.stored)
	c.epoch++
	c.mu.Unlock()
	c.log.Warn("cluster: the NATS server had lost its JetStream store (a new server, or a lost volume): recreated the streams and the genome bucket")
}

// currentEpoch returns how often the streams were recreated.
func (c *Coordinator) currentEpoch() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.epoch
}

// put stores n in the genome bucket unless it is there and young enough
// to outlive the generation, and returns its hash.
func (c *Coordinator) put(ctx context.Context, n *nnet.Net, alive func()) (string, error) {
	h, data, err := GenomeHash(n)
	if err != nil {
		return "", err
	}
	fresh := c.limits.GenomeTTL / 2
	c.mu.Lock()
	when, ok := c.stored[h]
	c.mu.Unlock()
	if ok && time.Since(when) < fresh {
		return h, nil
	}
	err = c.retry(ctx, "store genome "+h, alive, func() error {
		c.mu.Lock()
		store := c.store
		c.mu.Unlock()
		info, err := store.GetInfo(ctx, h)
		if err == nil && time.Since(info.ModTime) < fresh {
			c.remember(h, info.ModTime)
			return nil
		}
		if err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
			return err
		}
		if _, err := store.PutBytes(ctx, h, data); err != nil {
			return err
		}
		c.remember(h, time.Now())
		return nil
	})
	return h, err
}

func (c *Coordinator) remember(h string, when time.Time) {
	c.mu.Lock()
	c.stored[h] = when
	c.mu.Unlock()
}
