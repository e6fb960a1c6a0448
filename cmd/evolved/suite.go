package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"evolved/game/chess"
	"evolved/games"
	"evolved/player"
	"evolved/progress"
	"evolved/tournament"
)

// maxSuiteDepth bounds --depth, and is the depth a search may reach under
// --movetime or --nodes: deeper than any search reaches in seconds, within
// the search's ply limit.
const maxSuiteDepth = 64

// suiteSettings are the flags of `evolved suite`.
type suiteSettings struct {
	player      string
	epd         string
	movetime    time.Duration
	nodes       int64
	depth       int
	concurrency int
	json        bool
}

// suiteCommand implements `evolved suite`.
func suiteCommand(fs *flag.FlagSet) action {
	var s suiteSettings
	fs.StringVar(&s.player, "player", "", "the chess player `SPEC` (listed below)")
	fs.StringVar(&s.epd, "epd", "", "the test suite `FILE`: EPD, one position a line with bm and/or am moves and an id (docs/suites/wac.epd)")
	fs.DurationVar(&s.movetime, "movetime", 0, "search each position for `T` (1s, 100ms), as deep as that allows")
	fs.Int64Var(&s.nodes, "nodes", 0, "search each position for about `N` nodes, as deep as that allows")
	fs.IntVar(&s.depth, "depth", 0, fmt.Sprintf("search each position to depth `D` (1 to %d)", maxSuiteDepth))
	fs.IntVar(&s.concurrency, "concurrency", 1, "search `C` positions at once, each with its own player")
	fs.BoolVar(&s.json, "json", false, "print the results as JSON instead of the table")
	setHelp(fs, help{
		usage: []string{"--player SPEC --epd FILE [--movetime T | --nodes N | --depth D] [--concurrency C] [--json]"},
		about: `Runs a chess player over a test suite of positions and counts the positions it
solves: its move is one of the position's bm moves and none of its am moves. Each
position is searched afresh (the player's NewGame: the search's table, killers and
history cleared), an engine started and made ready before its clock starts.

Without a limit the player searches as its SPEC says (material:4 to depth 4, a UCI
engine 100 ms); with one, the limit replaces the SPEC's depth. A player that takes
no limit (mcts:N, meta:RUN) must run without one.

Each position's line gives its id,
solved or failed (- without bm or am), the move played, the depth completed and
the nodes as the player reports them, the search time and the expected moves;
with --depth the nodes are those that search needed to complete that depth. The
last line is
  result solved=N total=M positions=P nodes=X time=T
(total: the positions with bm or am; time: the seconds of search, summed).`,
		players: []string{games.ChessName},
	})
	return func(ctx context.Context, _ io.Reader, stdout, stderr io.Writer) error {
		limits := 0
		for _, set := range []bool{s.movetime != 0, s.nodes != 0, s.depth != 0} {
			if set {
				limits++
			}
		}
		switch {
		case s.player == "" || s.epd == "":
			return usagef("suite: --player and --epd are required")
		case limits > 1:
			return usagef("suite: give one limit: --movetime, --nodes or --depth")
		case s.movetime < 0:
			return usagef("suite: --movetime must be positive, got %v", s.movetime)
		case s.nodes < 0:
			return usagef("suite: --nodes must be positive, got %d", s.nodes)
		case s.depth < 0 || s.depth > maxSuiteDepth:
			return usagef("suite: --depth must be between 1 and %d, got %d", maxSuiteDepth, s.depth)
		case s.concurrency < 1:
			return usagef("suite: --concurrency must be at least 1, got %d", s.concurrency)
		}
		return runSuite(ctx, s, stdout, stderr)
	}
}

// suiteLimiter is a player whose search limits can be set: the alpha-beta
// searchers (search.Searcher).
type suiteLimiter interface {
	Limits(depth int, nodes int64, t time.Duration)
}

// suiteEngineLimiter is the UCI player, whose limit replaces its spec's.
type suiteEngineLimiter interface {
	EngineLimits(depth int, nodes int64, movetime time.Duration)
}

// limitText describes the limit of s, for the header.
func (s suiteSettings) limitText() string {
	switch {
	case s.movetime > 0:
		return "movetime " + s.movetime.String()
	case s.nodes > 0:
		return fmt.Sprintf("%d nodes", s.nodes)
	case s.depth > 0:
		return fmt.Sprintf("depth %d", s.depth)
	}
	return "the player's own limit"
}

// limit sets the limit of s on p, or fails for a player that takes none.
func (s suiteSettings) limit(p player.ChessPlayer, name string) error {
	if s.movetime == 0 && s.nodes == 0 && s.depth == 0 {
		return nil
	}
	switch l := p.(type) {
	case suiteLimiter:
		depth := s.depth
		if depth == 0 {
			depth = maxSuiteDepth // the time or node limit stops it
		}
		l.Limits(depth, s.nodes, s.movetime)
		return nil
	case suiteEngineLimiter:
		l.EngineLimits(s.depth, s.nodes, s.movetime)
		return nil
	}
	return usagef("suite: player %s takes no search limit: run it without --movetime, --nodes and --depth", name)
}

// suiteResult is one position's outcome.
type suiteResult struct {
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

// suiteReport is what --json prints.
type suiteReport struct {
	Player    string        `json:"player"`
	EPD       string        `json:"epd"`
	Limit     string        `json:"limit"`
	Positions []suiteResult `json:"positions"`
	Solved    int           `json:"solved"`
	Total     int           `json:"total"`
	Nodes     int64         `json:"nodes"`
	Time      float64       `json:"seconds"`
}

// runSuite reads the suite, searches its positions with C players and
// prints the results in the file's order as they come in.
func runSuite(ctx context.Context, s suiteSettings, stdout, stderr io.Writer) error {
	spec, err := chessKind(ctx).Parse(s.player)
	if err != nil {
		return &usageError{msg: "suite: --player: " + err.Error()}
	}
	// One player first, so that a limit the player cannot take is refused
	// before the file is read. An engine starts on first use.
	players := []player.ChessPlayer{spec.New()}
	defer func() {
		for _, p := range players {
			if c, ok := p.(io.Closer); ok {
				c.Close()
			}
		}
	}()
	if err := s.limit(players[0], spec.Name); err != nil {
		return err
	}
	f, err := os.Open(s.epd)
	if err != nil {
		return fmt.Errorf("suite: %w", err)
	}
	recs, err := chess.ReadEPD(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("suite: %s: %w", s.epd, err)
	}
	if len(recs) == 0 {
		return fmt.Errorf("suite: %s holds no position", s.epd)
	}
	workers := min(s.concurrency, len(recs))
	for len(players) < workers {
		p := spec.New()
		players = append(players, p)
		if err := s.limit(p, spec.Name); err != nil {
			return err
		}
	}

	report := suiteReport{Player: spec.Name, EPD: s.epd, Limit: s.limitText(), Positions: make([]suiteResult, len(recs))}
	if !s.json {
		fmt.Fprintf(stdout, "suite %s: %d positions, player %s, %s, concurrency %d\n", s.epd, len(recs), spec.Name, report.Limit, workers)
		fmt.Fprintf(stdout, "%-10s %-6s %-8s %5s %12s %8s  %s\n", "id", "result", "move", "depth", "nodes", "time", "expected")
	}
	rep := progress.New(stderr, "suite", len(recs), "positions", progress.IsTerminal(stderr))
	var (
		mu      sync.Mutex
		done    = make([]bool, len(recs))
		next    int // the first position not printed yet
		count   int
		solved  int
		started = time.Now()
	)
	jobs := make(chan int)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		defer close(jobs)
		for i := range recs {
			select {
			case jobs <- i:
			case <-gctx.Done():
				return nil
			}
		}
		return nil
	})
	for _, p := range players {
		g.Go(func() error {
			for i := range jobs {
				r, err := solvePosition(gctx, p, recs[i], i)
				if err == nil {
					err = gctx.Err() // a search cut short by a stop counts for nothing
				}
				if err != nil {
					return err
				}
				mu.Lock()
				report.Positions[i], done[i] = r, true
				count++
				if r.Solved {
					solved++
				}
				for ; next < len(recs) && done[next]; next++ {
					if !s.json {
						rep.Clear()
						printSuiteLine(stdout, report.Positions[next])
					}
				}
				rep.UpdateNote(count, fmt.Sprintf("solved %d", solved))
				mu.Unlock()
			}
			return nil
		})
	}
	err = g.Wait()
	rep.Finish()
	if err == nil {
		err = ctx.Err() // stopped (Ctrl-C): the counts are incomplete
	}
	if err != nil {
		return fmt.Errorf("suite: %w", err)
	}
	for _, r := range report.Positions {
		if r.Scored {
			report.Total++
		}
		if r.Solved {
			report.Solved++
		}
		report.Nodes += r.Nodes
		report.Time += r.Time
	}
	if s.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(report)
	}
	percent := 0.0
	if report.Total > 0 {
		percent = 100 * float64(report.Solved) / float64(report.Total)
	}
	fmt.Fprintf(stdout, "%s: solved %d of %d (%.1f%%), %d nodes, %.1f s of search, %.1f s wall\n",
		spec.Name, report.Solved, report.Total, percent, report.Nodes, report.Time, time.Since(started).Seconds())
	fmt.Fprintf(stdout, "result solved=%d total=%d positions=%d nodes=%d time=%.3f\n",
		report.Solved, report.Total, len(recs), report.Nodes, report.Time)
	return nil
}

// solvePosition searches one position afresh with p: a new game (seeded
// by the position's index, for players that draw random numbers), the
// engine made ready, then the timed move.
func solvePosition(ctx context.Context, p player.ChessPlayer, rec chess.EPD, index int) (suiteResult, error) {
	pos := rec.Position
	r := suiteResult{ID: rec.ID, FEN: pos.FEN(), Scored: len(rec.BestMoves) > 0 || len(rec.AvoidMoves) > 0}
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

// printSuiteLine writes one position's line of the table.
func printSuiteLine(w io.Writer, r suiteResult) {
	result := "-"
	switch {
	case r.Solved:
		result = "solved"
	case r.Scored:
		result = "failed"
	}
	var expected []string
	if len(r.Best) > 0 {
		expected = append(expected, "bm "+strings.Join(r.Best, " "))
	}
	if len(r.Avoid) > 0 {
		expected = append(expected, "am "+strings.Join(r.Avoid, " "))
	}
	line := fmt.Sprintf("%-10s %-6s %-8s %5d %12d %7.3fs  %s", r.ID, result, r.Move, r.Depth, r.Nodes, r.Time, strings.Join(expected, "; "))
	fmt.Fprintln(w, strings.TrimRight(line, " "))
}
