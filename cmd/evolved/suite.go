package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"evolved/games"
	"evolved/progress"
	"evolved/suite"
)

// suiteSettings are the flags of `evolved suite`.
type suiteSettings struct {
	player      string
	epd         string
	limit       suite.Limit
	concurrency int
	json        bool
}

// suiteCommand implements `evolved suite`.
func suiteCommand(fs *flag.FlagSet) action {
	var s suiteSettings
	fs.StringVar(&s.player, "player", "", "the chess player `SPEC` (listed below)")
	fs.StringVar(&s.epd, "epd", "", "the test suite `FILE`: EPD, one position a line with bm and/or am moves and an id (docs/suites/wac.epd)")
	fs.DurationVar(&s.limit.Movetime, "movetime", 0, "search each position for `T` (1s, 100ms), as deep as that allows")
	fs.Int64Var(&s.limit.Nodes, "nodes", 0, "search each position for about `N` nodes, as deep as that allows")
	fs.IntVar(&s.limit.Depth, "depth", 0, fmt.Sprintf("search each position to depth `D` (1 to %d)", suite.MaxDepth))
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
		for _, set := range []bool{s.limit.Movetime != 0, s.limit.Nodes != 0, s.limit.Depth != 0} {
			if set {
				limits++
			}
		}
		switch {
		case s.player == "" || s.epd == "":
			return usagef("suite: --player and --epd are required")
		case limits > 1:
			return usagef("suite: give one limit: --movetime, --nodes or --depth")
		case s.limit.Movetime < 0:
			return usagef("suite: --movetime must be positive, got %v", s.limit.Movetime)
		case s.limit.Nodes < 0:
			return usagef("suite: --nodes must be positive, got %d", s.limit.Nodes)
		case s.limit.Depth < 0 || s.limit.Depth > suite.MaxDepth:
			return usagef("suite: --depth must be between 1 and %d, got %d", suite.MaxDepth, s.limit.Depth)
		case s.concurrency < 1:
			return usagef("suite: --concurrency must be at least 1, got %d", s.concurrency)
		}
		return runSuite(ctx, s, stdout, stderr)
	}
}

// runSuite reads the suite, searches its positions with C players and
// prints the results in the file's order as they come in.
func runSuite(ctx context.Context, s suiteSettings, stdout, stderr io.Writer) error {
	spec, err := chessKind(ctx).Parse(s.player)
	if err != nil {
		return &usageError{msg: "suite: --player: " + err.Error()}
	}
	// One player first, so that a limit the player cannot take is refused
	// before the file is read.
	r, err := suite.NewRunner(spec, s.limit)
	if err != nil {
		return suiteError(err, spec.Name)
	}
	defer r.Close()
	recs, err := suite.ReadFile(s.epd)
	if err != nil {
		return fmt.Errorf("suite: %w", err)
	}
	workers, err := r.Players(min(s.concurrency, len(recs)))
	if err != nil {
		return suiteError(err, spec.Name)
	}
	if !s.json {
		suite.WriteHeader(stdout, s.epd, len(recs), spec.Name, s.limit, workers)
	}
	rep := progress.New(stderr, "suite", len(recs), "positions", progress.IsTerminal(stderr))
	started := time.Now()
	report, err := r.Run(ctx, s.epd, recs, suite.Hooks{
		Result: func(res suite.Result) {
			if !s.json {
				rep.Clear()
				suite.WriteLine(stdout, res)
			}
		},
		Done: func(done, solved int) { rep.UpdateNote(done, fmt.Sprintf("solved %d", solved)) },
	})
	rep.Finish()
	if err != nil {
		return fmt.Errorf("suite: %w", err)
	}
	if s.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(report)
	}
	suite.WriteSummary(stdout, report, time.Since(started))
	return nil
}

// suiteError is err as the command says it: a limit that the player name
// cannot take is a usage error.
func suiteError(err error, name string) error {
	if errors.Is(err, suite.ErrNoLimit) {
		return usagef("suite: player %s takes no search limit: run it without --movetime, --nodes and --depth", name)
	}
	return fmt.Errorf("suite: %w", err)
}
