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
	"evolved/game/chess"
	"evolved/games"
	"evolved/population"
	"evolved/progress"
	"evolved/tournament"
)

// distillCommand sets up "evolved distill": a chess agent's linear
// weights fitted to its own searches of the positions of games.
func distillCommand(fs *flag.FlagSet) action {
	agentPath := fs.String("agent", "", "the chess agent file `FILE` to distill")
	gamesPath := fs.String("games", "", "the games `PGN` whose quiet positions it learns from (e.g. evolved match --pgn)")
	out := fs.String("o", "", "write the distilled agent to `FILE`")
	nodes := fs.Int64("nodes", population.DefaultDistillNodes, "each position's search: `N` nodes")
	steps := fs.Int("steps", 150, "`N` steps of the fit")
	workers := fs.Int("workers", 0, "search `N` positions at once (default: one a CPU; the result does not depend on it)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: evolved distill --agent FILE --games PGN -o FILE [--nodes N] [--steps N] [--workers N]")
		fmt.Fprintln(fs.Output(), "\nSearches each quiet position of the games with the agent, N nodes a position,")
		fmt.Fprintln(fs.Output(), "and fits the agent's piece values, piece-square tables and positional terms so")
		fmt.Fprintln(fs.Output(), "that its evaluation predicts what its searches found; its net is kept. This is")
		fmt.Fprintln(fs.Output(), "the step a run with distill_every makes every few generations. Chess agents only.")
		fmt.Fprintln(fs.Output(), "\nFlags:")
		fs.PrintDefaults()
	}
	return func(ctx context.Context, _ io.Reader, stdout, stderr io.Writer) error {
		switch {
		case *agentPath == "" || *gamesPath == "" || *out == "":
			return usagef("distill: give --agent FILE, --games PGN and -o FILE")
		case *nodes < 1 || *nodes > population.MaxDistillNodes:
			return usagef("distill: --nodes must be 1 to %d, got %d", population.MaxDistillNodes, *nodes)
		case *steps < 1 || *steps > 100_000:
			return usagef("distill: --steps must be 1 to 100000, got %d", *steps)
		case *workers < 0:
			return usagef("distill: --workers must be 0 or more, got %d", *workers)
		}
		f, err := readAgentFile(*agentPath)
		if err != nil {
			return fmt.Errorf("distill: %w", err)
		}
		if f.Game != games.ChessName {
			return fmt.Errorf("distill: %s is a %s agent; only chess agents distill", *agentPath, f.Game)
		}
		records, err := readChessGames(*gamesPath)
		if err != nil {
			return fmt.Errorf("distill: %w", err)
		}
		var rep *progress.Reporter // made at the first search, when the positions are counted
		opts := distill.Options{Steps: *steps, Workers: *workers, Progress: func(done, total int) {
			if rep == nil {
				rep = progress.New(stderr, "distill: searches", total, "positions", progress.IsTerminal(stderr))
			}
			rep.Update(done)
		}}
		net, r, err := games.ChessDistill(ctx, f.Net, records, *nodes, opts)
		if rep != nil {
			rep.Finish()
		}
		if err != nil {
			return fmt.Errorf("distill: %s with %s: %w", *agentPath, *gamesPath, err)
		}
		before := f.Net.PieceValues()
		f.Net = net
		var buf bytes.Buffer
		if err := agent.Write(&buf, f); err != nil {
			return fmt.Errorf("distill: %w", err)
		}
		if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("distill: %w", err)
		}
		after := net.PieceValues()
		fmt.Fprintf(stdout, "distilled %s into %s: %d positions of %d games, searches of %d nodes\n", *agentPath, *out, r.Positions, r.Games, *nodes)
		fmt.Fprintf(stdout, "squared error of the win probabilities %.5f -> %.5f; the evaluation moved %.2f pawns (root mean square)\n", r.Before, r.After, r.Moved)
		fmt.Fprintf(stdout, "piece values P N B R Q: %.2f %.2f %.2f %.2f %.2f -> %.2f %.2f %.2f %.2f %.2f\n",
			before[0], before[1], before[2], before[3], before[4], after[0], after[1], after[2], after[3], after[4])
		return nil
	}
}

// readChessGames reads the games of a PGN file as the tournament records
// distillation takes.
func readChessGames(path string) ([]tournament.Record[chess.Move], error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	pgn, err := chess.ReadPGN(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(pgn) == 0 {
		return nil, fmt.Errorf("%s: no games", path)
	}
	out := make([]tournament.Record[chess.Move], len(pgn))
	for i, g := range pgn {
		out[i].Moves = g.Moves
		if g.Start != chess.Start() {
			out[i].Start = g.Start.FEN()
		}
	}
	return out, nil
}
