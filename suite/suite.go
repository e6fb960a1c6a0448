// Package suite runs a chess player over a test suite of positions (EPD,
// each with the moves that solve it, bm, or that fail it, am) and counts
// the positions it solves: `evolved suite`. Each position is searched
// afresh, positions are shared out between players made from one spec,
// and the results come back in the suite's order whatever the number of
// players; a search a stop cuts short counts for nothing.
package suite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"evolved/game/chess"
	"evolved/player"
	"evolved/tournament"
)

// MaxDepth bounds a depth limit, and is the depth a search may reach
// under a time or node limit: deeper than any search reaches in seconds,
// within the search's ply limit.
const MaxDepth = 64

// ErrNoLimit means a limit was given to a player that takes none (mcts:N,
// meta:RUN): it searches as its spec says or not at all.
var ErrNoLimit = errors.New("suite: the player takes no search limit")

// Limit is how long each position is searched: one of a time, a number of
// nodes and a depth, or none (the zero Limit), which leaves the player's
// spec its own.
type Limit struct {
	Movetime time.Duration
	Nodes    int64
	Depth    int
}

// String describes l, for the header and the report.
func (l Limit) String() string {
	switch {
	case l.Movetime > 0:
		return "movetime " + l.Movetime.String()
	case l.Nodes > 0:
		return fmt.Sprintf("%d nodes", l.Nodes)
	case l.Depth > 0:
		return fmt.Sprintf("depth %d", l.Depth)
	}
	return "the player's own limit"
}

// limiter is a player whose search limits can be set: the alpha-beta
// searchers (search.Searcher).
type limiter interface {
	Limits(depth int, nodes int64, t time.Duration)
}

// engineLimiter is the UCI player, whose limit replaces its spec's.
type engineLimiter interface {
	EngineLimits(depth int, nodes int64, movetime time.Duration)
}

// Apply sets l on p: a searcher searches to l.Depth, or to MaxDepth until
// the time or the nodes run out; an engine takes l as given. It returns
// ErrNoLimit for a player that takes no limit, and does nothing for the
// zero Limit.
func (l Limit) Apply(p player.ChessPlayer) error {
	if l == (Limit{}) {
		return nil
	}
	switch p := p.(type) {
	case limiter:
		depth := l.Depth
		if depth == 0 {
			depth = MaxDepth // the time or node limit stops it
		}
		p.Limits(depth, l.Nodes, l.Movetime)
		return nil
	case engineLimiter:
		p.EngineLimits(l.Depth, l.Nodes, l.Movetime)
		return nil
	}
	return ErrNoLimit
}

// Result is one position's outcome.
type Result struct {
	ID     string   `json:"id"`
	FEN    string   `json:"fen"`
	Scored bool     `json:"scored"` // the position has bm or am
	Solved bool     `json:"solved"`
	Move   string   `json:"move"`
	Best   []string `json:"bm,omitempty"`
	Avoid  []string `json:"am,omitempty"`
	Depth  int      `json:"depth"`
	Nodes  int64    `json:"nodes"`
	Time   float64  `json:"seconds"`
}

// Report is a whole run: the results in the suite's order and their sums.
type Report struct {
	Player    string   `json:"player"`
	EPD       string   `json:"epd"`
	Limit     string   `json:"limit"`
	Positions []Result `json:"positions"`
	// Solved counts the solved positions of the Total that have bm or
	// am; Nodes and Time (seconds of search) sum every position's.
	Solved int     `json:"solved"`
	Total  int     `json:"total"`
	Nodes  int64   `json:"nodes"`
	Time   float64 `json:"seconds"`
}

// ReadFile reads the suite in the EPD file at path; a file without a
// position is an error.
func ReadFile(path string) ([]chess.EPD, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	recs, err := chess.ReadEPD(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s holds no position", path)
	}
	return recs, nil
}

// Runner searches positions with players made from one spec under one
// limit. It is not safe for concurrent use; Close releases its players
// (engines).
type Runner struct {
	spec    player.ChessSpec
	limit   Limit
	players []player.ChessPlayer
}

// NewRunner returns a runner of spec's players under limit, with one
// player made: a limit the player cannot take is refused (ErrNoLimit)
// before any position is read. An engine starts on first use.
func NewRunner(spec player.ChessSpec, limit Limit) (*Runner, error) {
	r := &Runner{spec: spec, limit: limit, players: []player.ChessPlayer{spec.New()}}
	if err := limit.Apply(r.players[0]); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Players makes r's players n, when it has fewer, each under r's limit,
// and returns how many it has.
func (r *Runner) Players(n int) (int, error) {
	for len(r.players) < n {
		p := r.spec.New()
		r.players = append(r.players, p)
		if err := r.limit.Apply(p); err != nil {
			return len(r.players), err
		}
	}
	return len(r.players), nil
}

// Close closes the players that hold something (an engine's process).
func (r *Runner) Close() {
	for _, p := range r.players {
		if c, ok := p.(io.Closer); ok {
			c.Close()
		}
	}
}

// Hooks are told of a run's progress, one call at a time.
type Hooks struct {
	// Result, when set, is given each position's result in the suite's
	// order, as soon as it and every position before it are done.
	Result func(Result)
	// Done, when set, is told after each position how many are done and
	// how many of them solved.
	Done func(done, solved int)
}

// Run searches positions, the suite read from the file epd, with all of
// r's players at once and returns the report. A failed search, or a stop
// (ctx), fails the run: a search cut short counts for nothing.
func (r *Runner) Run(ctx context.Context, epd string, positions []chess.EPD, h Hooks) (Report, error) {
	rep := Report{Player: r.spec.Name, EPD: epd, Limit: r.limit.String(), Positions: make([]Result, len(positions))}
	var (
		mu           sync.Mutex
		done         = make([]bool, len(positions))
		next         int // the first position not handed to h.Result yet
		count, found int
	)
	finished := func(i int, res Result) {
		mu.Lock()
		defer mu.Unlock()
		rep.Positions[i], done[i] = res, true
		count++
		if res.Solved {
			found++
		}
		for ; next < len(positions) && done[next]; next++ {
			if h.Result != nil {
				h.Result(rep.Positions[next])
			}
		}
		if h.Done != nil {
			h.Done(count, found)
		}
	}
	jobs := make(chan int)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		defer close(jobs)
		for i := range positions {
			select {
			case jobs <- i:
			case <-gctx.Done():
				return nil
			}
		}
		return nil
	})
	for _, p := range r.players {
		g.Go(func() error {
			for i := range jobs {
				res, err := Solve(gctx, p, positions[i], i)
				if err == nil {
					err = gctx.Err() // a search cut short by a stop counts for nothing
				}
				if err != nil {
					return err
				}
				finished(i, res)
			}
			return nil
		})
	}
	err := g.Wait()
	if err == nil {
		err = ctx.Err() // stopped: the counts are incomplete
	}
	if err != nil {
		return rep, err
	}
	rep.sum()
	return rep, nil
}

// sum adds up the positions' results.
func (rep *Report) sum() {
	for _, r := range rep.Positions {
		if r.Scored {
			rep.Total++
		}
		if r.Solved {
			rep.Solved++
		}
		rep.Nodes += r.Nodes
		rep.Time += r.Time
	}
}

// Solve searches one position afresh with p: a new game (seeded by the
// position's index, for players that draw random numbers), the engine
// made ready, then the timed move, which must be legal.
func Solve(ctx context.Context, p player.ChessPlayer, rec chess.EPD, index int) (Result, error) {
	pos := rec.Position
	r := Result{ID: rec.ID, FEN: pos.FEN(), Scored: len(rec.BestMoves) > 0 || len(rec.AvoidMoves) > 0}
	if r.ID == "" {
		r.ID = fmt.Sprintf("#%d", index+1)
	}
	for _, m := range rec.BestMoves {
		r.Best = append(r.Best, pos.FormatSAN(m))
	}
	for _, m := range rec.AvoidMoves {
		r.Avoid = append(r.Avoid, pos.FormatSAN(m))
	}
	if len(pos.LegalMoves(nil)) == 0 {
		return r, fmt.Errorf("position %s (%s) has no legal move", r.ID, r.FEN)
	}
	g := chess.NewGame(pos, chess.Rules{FiftyMoveRule: true, Chess960: !pos.ClassicalCastling()})
	p.NewGame(uint64(index) + 1)
	if pr, ok := p.(tournament.Preparer[*chess.Game]); ok {
		if err := pr.Prepare(ctx, g); err != nil {
			return r, fmt.Errorf("position %s: %w", r.ID, err)
		}
	}
	start := time.Now()
	res, err := p.Move(ctx, g)
	r.Time = time.Since(start).Seconds()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return r, err
		}
		return r, fmt.Errorf("position %s: %w", r.ID, err)
	}
	legal := false
	for _, m := range pos.LegalMoves(nil) {
		legal = legal || m == res.Move
	}
	if !legal {
		return r, fmt.Errorf("position %s (%s): the player chose an illegal move %v", r.ID, r.FEN, res.Move)
	}
	r.Move = pos.FormatSAN(res.Move)
	r.Solved = rec.Solved(res.Move)
	r.Depth, r.Nodes = res.Depth, res.Nodes
	return r, nil
}
