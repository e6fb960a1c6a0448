package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"evolved/agent"
	"evolved/distill"
	"evolved/game"
	"evolved/games"
	"evolved/nnet"
	"evolved/population"
	"evolved/progress"
	"evolved/search"
	"evolved/tournament"
)

// distillCommand sets up "evolved distill": an agent fitted to its own
// searches of the positions of games.
func distillCommand(fs *flag.FlagSet) action {
	agentPath := fs.String("agent", "", "the agent file `FILE` to distill (draughts, chess or xiangqi)")
	gamesPath := fs.String("games", "", "the games `FILE` (PDN, PGN) whose quiet positions it learns from (e.g. evolved match --pgn)")
	out := fs.String("o", "", "write the distilled agent to `FILE`")
	nodes := fs.Int64("nodes", population.DefaultDistillNodes, "each position's search: `N` nodes")
	steps := fs.Int("steps", 0, "`N` steps of the fit (default: 150 for chess and xiangqi, 10 passes over the positions for draughts)")
	rate := fs.Float64("rate", 0, "Adam's step `R` (default: 0.01 for chess and xiangqi, 0.001 for draughts)")
	results := fs.Float64("results", 0, "take the share `S` (0 to 1) of each position's target from its game's result, the rest from the search (default 0: the search alone)")
	lambda := fs.Float64("lambda", 0, "look ahead along each game as TD(`L`) does: 1-L of a position's target its own search, L the next quiet position's target, the result after the last (0 to 1; default 0: its own search alone)")
	workers := fs.Int("workers", 0, "search `N` positions at once (default: one a CPU; the result does not depend on it)")
	setHelp(fs, help{
		usage: []string{"--agent FILE --games FILE -o FILE [--nodes N] [--steps N] [--rate R] [--results S] [--lambda L] [--workers N]"},
		about: `Searches each quiet position of the games with the agent, N nodes a position,
and fits the agent's evaluation so that it predicts what its searches found: a
chess or xiangqi agent's piece values, piece-square tables and positional terms
(its net is kept), a draughts agent's whole net. This is the step a run with
distill_every makes every few generations.`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, stderr io.Writer) error {
		switch {
		case *agentPath == "" || *gamesPath == "" || *out == "":
			return usagef("distill: give --agent FILE, --games FILE and -o FILE")
		case *nodes < 1 || *nodes > population.MaxDistillNodes:
			return usagef("distill: --nodes must be 1 to %d, got %d", population.MaxDistillNodes, *nodes)
		case *steps < 0 || *steps > 100_000:
			return usagef("distill: --steps must be 1 to 100000 (0: the fit's default), got %d", *steps)
		case !(*rate >= 0 && *rate <= 1):
			return usagef("distill: --rate must be 0 to 1 (0: the fit's default), got %v", *rate)
		case !(*results >= 0 && *results <= 1):
			return usagef("distill: --results must be 0 to 1, got %v", *results)
		case !(*lambda >= 0 && *lambda <= 1):
			return usagef("distill: --lambda must be 0 to 1, got %v", *lambda)
		case *workers < 0:
			return usagef("distill: --workers must be 0 or more, got %d", *workers)
		}
		if err := checkOutput("distill", "-o", *out); err != nil {
			return err
		}
		f, err := readAgentFile(*agentPath)
		if err != nil {
			return fmt.Errorf("distill: %w", err)
		}
		var rep *progress.Reporter // made at the first search, when the positions are counted
		d := distillRun{agentPath: *agentPath, gamesPath: *gamesPath, out: *out, nodes: *nodes, file: f,
			opts: distill.Options{Steps: *steps, Rate: *rate, Results: *results, Lambda: *lambda, Workers: *workers, Progress: func(done, total int) {
				if rep == nil {
					rep = progress.New(stderr, "distill: searches", total, "positions", progress.IsTerminal(stderr))
				}
				rep.Update(done)
			}}}
		defer func() {
			if rep != nil {
				rep.Finish()
			}
		}()
		if _, err := games.Lookup(f.Game); err != nil {
			return fmt.Errorf("distill: %s: %w", *agentPath, err)
		}
		return games.Visit(f.Game, games.Funcs{
			Draughts: func(k games.DraughtsKind) error { return distillAgent(ctx, k, d, stdout, nil) },
			Chess:    func(k games.ChessKind) error { return distillAgent(ctx, k, d, stdout, chessPieceValues) },
			Xiangqi:  func(k games.XiangqiKind) error { return distillAgent(ctx, k, d, stdout, xiangqiPieceValues) },
		})
	}
}

// distillRun is what evolved distill was asked to do.
type distillRun struct {
	agentPath, gamesPath, out string
	nodes                     int64
	file                      agent.File
	opts                      distill.Options
}

// distillAgent distills d's agent, of game k, on d's games, writes the
// result and says what moved: with pieces, if not nil, what the net's
// piece values were and became.
func distillAgent[M comparable, S search.Game[M]](ctx context.Context, k games.Kind[M, S], d distillRun, stdout io.Writer,
	pieces func(before, after *nnet.Net) string) error {
	records, err := readRecords(k, d.gamesPath)
	if err != nil {
		return fmt.Errorf("distill: %w", err)
	}
	before := d.file.Net
	net, r, err := k.Distill(ctx, before, records, d.nodes, d.opts)
	if err != nil {
		return fmt.Errorf("distill: %s with %s: %w", d.agentPath, d.gamesPath, err)
	}
	d.file.Net = net
	var buf bytes.Buffer
	if err := agent.Write(&buf, d.file); err != nil {
		return fmt.Errorf("distill: %w", err)
	}
	if err := outputGuard().WriteFile(d.out, buf.Bytes()); err != nil {
		return fmt.Errorf("distill: %w", err)
	}
	unit := "pawns"
	if k.Name == games.DraughtsName {
		unit = "of the net's output"
	}
	fmt.Fprintf(stdout, "distilled %s into %s: %d positions of %d games, searches of %d nodes\n", d.agentPath, d.out, r.Positions, r.Games, d.nodes)
	fmt.Fprintf(stdout, "squared error of the win probabilities %.5f -> %.5f; the evaluation moved %.3f %s (root mean square)\n", r.Before, r.After, r.Moved, unit)
	if pieces != nil {
		fmt.Fprintln(stdout, pieces(before, net))
	}
	return nil
}

// chessPieceValues says what a chess net's piece values were and became.
func chessPieceValues(before, after *nnet.Net) string {
	return fmt.Sprintf("piece values P N B R Q: %s -> %s", values(before.PieceValues()), values(after.PieceValues()))
}

// xiangqiPieceValues says what a xiangqi net's piece values were and
// became.
func xiangqiPieceValues(before, after *nnet.Net) string {
	return fmt.Sprintf("piece values A E H R C P: %s -> %s", values(before.XiangqiPieceValues()), values(after.XiangqiPieceValues()))
}

// values formats piece values, two decimals each.
func values[A [nnet.NumPieceValues]float64 | [nnet.NumXiangqiPieceValues]float64](v A) string {
	s := ""
	for i := range len(v) {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%.2f", v[i])
	}
	return s
}

// readRecords reads the games of a record file of k's (PGN, PDN) as the
// tournament records distillation takes.
func readRecords[M comparable, S search.Game[M]](k games.Kind[M, S], path string) ([]tournament.Record[M], error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	recs, err := k.ReadRecords(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: no games", path)
	}
	out := make([]tournament.Record[M], len(recs))
	for i, g := range recs {
		out[i] = tournament.Record[M]{Start: g.Start, Moves: g.Moves, Outcome: game.Outcome{Result: g.Outcome}}
	}
	return out, nil
}
