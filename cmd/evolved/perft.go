package main

import (
	"context"
	"evolved/games"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// perftCommand implements `evolved perft`.
func perftCommand(fs *flag.FlagSet) action {
	gameName := fs.String("game", "draughts", "the `GAME`: draughts, chess or xiangqi")
	fen := fs.String("fen", "", "start from this position `F` (the game's FEN) instead of the start position")
	depth := fs.Int("depth", 0, "count to depth `N` in plies (required, 1..30)")
	divide := fs.Bool("divide", false, "also print the node count below each root move at the last depth")
	setHelp(fs, help{
		usage: []string{"--game draughts|chess|xiangqi [--fen F] --depth N [--divide]"},
		about: `For chess the FEN may be a Chess960 one (X-FEN or Shredder-FEN castling).

Prints one line per depth 1..N: depth=D nodes=N seconds=S nps=R.
The last ply is bulk-counted (its moves are counted, not played).`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, _ io.Writer) error {
		if *depth < 1 || *depth > 30 {
			return usagef("perft: --depth must be between 1 and 30, got %d", *depth)
		}
		g, err := games.Lookup(strings.ToLower(*gameName))
		if err != nil {
			return usagef("perft: %v", err)
		}
		if _, err := g.Perft(*fen, 0); err != nil {
			return usagef("perft: --fen: %v", err)
		}
		for d := 1; d <= *depth; d++ {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("perft: interrupted before depth %d: %w", d, err)
			}
			start := time.Now()
			var nodes uint64
			if *divide && d == *depth {
				lines, _ := g.Divide(*fen, d) // the position was read above
				for _, l := range lines {
					fmt.Fprintf(stdout, "%s: %d\n", l.Move, l.Nodes)
					nodes += l.Nodes
				}
			} else {
				nodes, _ = g.Perft(*fen, d)
			}
			secs := time.Since(start).Seconds()
			fmt.Fprintf(stdout, "depth=%d nodes=%d seconds=%.3f nps=%.0f\n", d, nodes, secs, float64(nodes)/max(secs, 1e-9))
		}
		return nil
	}
}
