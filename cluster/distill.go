package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"

	"evolved/games"
	"evolved/nnet"
)

// ErrForgedValues is wrapped by the errors about a search job's result
// whose values are not the searches': too few or too many, not finite, or
// one that differs from the same search here.
var ErrForgedValues = errors.New("cluster: not the values of the job's searches")

// Searches is a distillation's searches for Search: the positions of a
// generation's games, each searched with one net under a node budget.
type Searches struct {
	// Game names the game ("chess"); Positions are FENs of its positions.
	Game      string
	Positions []string
	// Net searches each position under Nodes nodes.
	Net   *nnet.Net
	Nodes int64
	// Scorer makes the coordinator's own search (games.Kind.Scorer), the
	// one the workers run: one position of every result, drawn by a hash
	// of its job that workers cannot compute, is searched again here, and
	// a result whose value of it differs is refused.
	Scorer func(net *nnet.Net, nodes int64) (games.FENScorer, error)
	// RunSeed and Generation name the generation, and with it the jobs'
	// IDs and their results' subject: the same generation's searches are
	// the same jobs, so a coordinator that resumes counts the results
	// already there.
	RunSeed    uint64
	Generation int
	// Progress, if set, is called after each job counted, with the
	// positions searched and their total.
	Progress func(done, total int)
	// Alive, if set, is called every few seconds while Search waits for
	// results (see Generation.Alive).
	Alive func()
}

// Search searches a distillation's positions on the workers, SearchBatch
// positions a job, and returns their values in order: what s.Scorer's
// search gives each here, bit for bit. A result counts only in this
// protocol version, with one finite value a position, and once one of its
// values searched again here is the same; a refused result is logged with
// its worker's name and its job published again. The jobs' delivery,
// resumption and stragglers are the games' (collect). Cancelling ctx
// abandons the searches.
func Search(ctx context.Context, c *Coordinator, s Searches) ([]float64, error) {
	switch {
	case s.Scorer == nil:
		return nil, fmt.Errorf("cluster: searches of generation %d: no search to check the workers' values with", s.Generation)
	case s.Nodes <= 0:
		return nil, fmt.Errorf("cluster: searches of generation %d: a budget of %d nodes, want more than 0", s.Generation, s.Nodes)
	case len(s.Positions) == 0:
		return nil, nil
	}
	// One search made now checks that the net can search, and is the
	// first of those that check the workers' values.
	first, err := s.Scorer(s.Net, s.Nodes)
	if err != nil {
		return nil, fmt.Errorf("cluster: searches of generation %d: %w", s.Generation, err)
	}
	scorers := make(chan games.FENScorer, runtime.GOMAXPROCS(0)) // idle searches, one for each check at once
	scorers <- first
	epoch := c.currentEpoch() // the streams' epoch the genome is in
	hash, err := c.put(ctx, s.Net, s.Alive)
	if err != nil {
		return nil, err
	}
	reply := searchSubject(s.Game, s.RunSeed, s.Generation)
	jobs := make([]Job, 0, (len(s.Positions)+SearchBatch-1)/SearchBatch)
	for lo := 0; lo < len(s.Positions); lo += SearchBatch {
		j := Job{Version: ProtocolVersion, Kind: SearchJob, Game: s.Game, RunSeed: s.RunSeed, Generation: s.Generation,
			Positions: s.Positions[lo:min(lo+SearchBatch, len(s.Positions))], Nodes: s.Nodes, Genome: hash, Reply: reply}
		j.ID = searchJobID(s.Game, s.RunSeed, s.Generation, len(jobs)) + "/" + j.searchDigest()
		jobs = append(jobs, j)
	}
	done := 0
	values, err := collect(ctx, c, epoch, batch[[]float64]{game: s.Game, generation: s.Generation, one: "search job", many: "search jobs",
		reply: reply, jobs: jobs, nets: []*nnet.Net{s.Net}, alive: s.Alive,
		check:   func(k int, r *Result) ([]float64, error) { return checkValues(&jobs[k], r) },
		sampled: func(*Job) bool { return true },
		verify: func(ctx context.Context, job *Job, values []float64) error {
			var score games.FENScorer
			select {
			case score = <-scorers:
			default:
				var err error
				if score, err = s.Scorer(s.Net, s.Nodes); err != nil {
					return err
				}
			}
			defer func() {
				select {
				case scorers <- score:
				default: // never: no more checks run at once than it holds
				}
			}()
			return searchAgain(ctx, score, job, c.pick(job.ID, len(job.Positions)), values)
		},
		counted: func(k int) {
			done += len(jobs[k].Positions)
			if s.Progress != nil {
				s.Progress(done, len(s.Positions))
			}
		},
	})
	if err != nil {
		return nil, err // it names the generation and, refused, the search job
	}
	out := make([]float64, 0, len(s.Positions))
	for _, v := range values {
		out = append(out, v...)
	}
	return out, nil
}

// checkValues returns the values r states for the search job job, or why
// they are refused: another protocol version, a worker's error, not one
// finite value a position.
func checkValues(job *Job, r *Result) ([]float64, error) {
	switch {
	case r.Version != ProtocolVersion:
		return nil, fmt.Errorf("%w: the result speaks version %d, this coordinator %d", ErrProtocol, r.Version, ProtocolVersion)
	case r.Error != "":
		return nil, fmt.Errorf("the worker could not search them: %s", r.Error)
	case len(r.Values) != len(job.Positions):
		return nil, fmt.Errorf("%w: %d values for %d positions", ErrForgedValues, len(r.Values), len(job.Positions))
	}
	for i, v := range r.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: position %d's value is %v", ErrForgedValues, i+1, v)
		}
	}
	return r.Values, nil
}

// searchAgain searches position i of job with score and returns an error
// unless values holds the same value for it, to the bit.
func searchAgain(ctx context.Context, score games.FENScorer, job *Job, i int, values []float64) error {
	want, err := score(ctx, job.Positions[i])
	if err != nil {
		return fmt.Errorf("search again: %w", err)
	}
	if math.Float64bits(want) != math.Float64bits(values[i]) {
		return fmt.Errorf("%w: position %d (%s) searched here is worth %v, not the worker's %v", ErrForgedValues, i+1, job.Positions[i], want, values[i])
	}
	return nil
}

// pick returns which of the n positions of the search job of ID id the
// coordinator searches again: by a hash of the ID salted with the
// coordinator's key, so that a worker, which knows the ID, cannot tell
// which of its values will be checked (an unsalted hash would let it lie
// about all the others).
func (c *Coordinator) pick(id string, n int) int {
	h := sha256.New()
	h.Write(c.key[:])
	h.Write([]byte(id))
	return int(binary.BigEndian.Uint64(h.Sum(nil)[:8]) % uint64(n))
}

// searchDigest returns a short hash of what decides a search job's
// values: the net, the budget and the positions, so that results of
// other searches in a generation of the same seed never count.
func (j *Job) searchDigest() string {
	h := sha256.New()
	h.Write([]byte(j.Genome))
	h.Write([]byte(strconv.FormatInt(j.Nodes, 10)))
	for _, p := range j.Positions {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// searchJob searches the positions of a search job with net, as
// games.Kind.Scorer searches them (the search the coordinator's
// distillation would run), and returns the result. scorers, if not nil,
// keeps the search it makes for later jobs of the same goroutine.
func searchJob(ctx context.Context, job *Job, net *nnet.Net, scorers *playerCache) (*Result, error) {
	info, err := games.Lookup(job.Game)
	if err == nil && info.Scorer == nil {
		err = errors.New("the game has no distillation")
	}
	if err != nil {
		return nil, fmt.Errorf("%w: job %s: %w", ErrProtocol, job.ID, err)
	}
	key := "search\x00" + job.Game + "\x00" + job.Genome + "\x00" + strconv.FormatInt(job.Nodes, 10)
	score, ok := scorers.get(key).(games.FENScorer)
	if !ok {
		if score, err = info.Scorer(net, job.Nodes); err != nil {
			return nil, fmt.Errorf("job %s: %w", job.ID, err)
		}
		scorers.put(key, score)
	}
	values := make([]float64, len(job.Positions))
	for i, fen := range job.Positions {
		if values[i], err = score(ctx, fen); err != nil {
			return nil, fmt.Errorf("job %s: position %d: %w", job.ID, i+1, err)
		}
	}
	return &Result{Version: ProtocolVersion, ID: job.ID, Attempt: job.Attempt, Values: values}, nil
}
