package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"evolved/game/chess"
	"evolved/game/draughts"
	"evolved/game/xiangqi"
)

// perftTree is what perft needs of a game: counting leaves to a depth from
// the position the command line gave, and the same split by root move.
type perftTree interface {
	perft(depth int) uint64
	divide(depth int) []divideLine
}

// divideLine is one root move of a divided perft.
type divideLine struct {
	move  string
	nodes uint64
}

// newPerftTree sets up perft for the named game from fen ("" for the start).
func newPerftTree(gameName, fen string) (perftTree, error) {
	switch gameName {
	case "draughts":
		pos := draughts.Start()
		if fen != "" {
			var err error
			if pos, err = draughts.ParseFEN(fen); err != nil {
				return nil, err
			}
		}
		return draughtsPerft{pos}, nil
	case "chess":
		pos := chess.Start()
		if fen != "" {
			var err error
			if pos, err = chess.ParseFEN(fen); err != nil {
				return nil, err
			}
		}
		return chessPerft{pos}, nil
	case "xiangqi":
		pos := xiangqi.Start()
		if fen != "" {
			var err error
			if pos, err = xiangqi.ParseFEN(fen); err != nil {
				return nil, err
			}
		}
		return xiangqiPerft{pos}, nil
	}
	return nil, usagef("perft: unknown game %q (known: draughts, chess, xiangqi)", gameName)
}

type xiangqiPerft struct{ pos xiangqi.Position }

func (x xiangqiPerft) perft(depth int) uint64 { return xiangqi.Perft(x.pos, depth) }

func (x xiangqiPerft) divide(depth int) []divideLine {
	var out []divideLine
	for _, e := range xiangqi.Divide(x.pos, depth) {
		out = append(out, divideLine{move: x.pos.FormatUCI(e.Move), nodes: e.Nodes})
	}
	return out
}

type chessPerft struct{ pos chess.Position }

func (c chessPerft) perft(depth int) uint64 { return chess.Perft(c.pos, depth) }

func (c chessPerft) divide(depth int) []divideLine {
	var out []divideLine
	for _, e := range chess.Divide(c.pos, depth) {
		// UCI notation, Chess960 castling as king takes rook when the
		// position is a Chess960 one, as Stockfish's divide prints it.
		out = append(out, divideLine{move: c.pos.FormatUCI(e.Move, !c.pos.ClassicalCastling()), nodes: e.Nodes})
	}
	return out
}

type draughtsPerft struct{ pos draughts.Position }

func (d draughtsPerft) perft(depth int) uint64 { return draughts.Perft(d.pos, depth) }

func (d draughtsPerft) divide(depth int) []divideLine {
	var out []divideLine
	for _, e := range draughts.Divide(d.pos, depth) {
		out = append(out, divideLine{move: d.pos.FormatMove(e.Move), nodes: e.Nodes})
	}
	return out
}

// perftCommand implements `evolved perft`.
func perftCommand(fs *flag.FlagSet) func(context.Context, io.Writer) error {
	gameName := fs.String("game", "draughts", "the `GAME`: draughts, chess or xiangqi")
	fen := fs.String("fen", "", "start from this position `F` (the game's FEN) instead of the start position")
	depth := fs.Int("depth", 0, "count to depth `N` in plies (required, 1..30)")
	divide := fs.Bool("divide", false, "also print the node count below each root move at the last depth")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: evolved perft --game draughts|chess|xiangqi [--fen F] --depth N [--divide]")
		fmt.Fprintln(fs.Output(), "\nFor chess the FEN may be a Chess960 one (X-FEN or Shredder-FEN castling).")
		fmt.Fprintln(fs.Output(), "\nPrints one line per depth 1..N: depth=D nodes=N seconds=S nps=R.")
		fmt.Fprintln(fs.Output(), "The last ply is bulk-counted (its moves are counted, not played).")
		fmt.Fprintln(fs.Output(), "\nFlags:")
		fs.PrintDefaults()
	}
	return func(ctx context.Context, stdout io.Writer) error {
		if *depth < 1 || *depth > 30 {
			return usagef("perft: --depth must be between 1 and 30, got %d", *depth)
		}
		tree, err := newPerftTree(strings.ToLower(*gameName), *fen)
		if err != nil {
			return fmt.Errorf("perft: %w", err)
		}
		for d := 1; d <= *depth; d++ {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("perft: interrupted before depth %d: %w", d, err)
			}
			start := time.Now()
			var nodes uint64
			if *divide && d == *depth {
				for _, l := range tree.divide(d) {
					fmt.Fprintf(stdout, "%s: %d\n", l.move, l.nodes)
					nodes += l.nodes
				}
			} else {
				nodes = tree.perft(d)
			}
			secs := time.Since(start).Seconds()
			fmt.Fprintf(stdout, "depth=%d nodes=%d seconds=%.3f nps=%.0f\n", d, nodes, secs, float64(nodes)/max(secs, 1e-9))
		}
		return nil
	}
}
