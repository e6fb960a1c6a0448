package search

import (
	"context"
	"fmt"
	"testing"

	"evolved/game/chess"
	"evolved/game/draughts"
)

// BenchmarkAlphaBeta reports nodes per second of a fixed-depth search from
// the draughts start position with the material evaluator. The table is
// cleared (untimed) before each search, so every iteration does the same
// work.
func BenchmarkAlphaBeta(b *testing.B) {
	for _, depth := range []int{4, 8} {
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			g := draughts.NewGame(draughts.Start(), draughts.DefaultRules())
			ab := NewAlphaBeta[dm, dg](material{}, Options{Depth: depth, CaptureExtension: true})
			ab.Search(context.Background(), g) // warm up buffers
			var nodes int64
			for b.Loop() {
				b.StopTimer()
				ab.Reset() // a per-game cost, not a per-search one
				b.StartTimer()
				nodes += ab.Search(context.Background(), g).Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// BenchmarkMCTS reports playouts per second from the start position.
func BenchmarkMCTS(b *testing.B) {
	g := draughts.NewGame(draughts.Start(), draughts.DefaultRules())
	tree := NewMCTS[dm, dg](MCTSOptions{Playouts: 1000}, nil, nil)
	rng := newTestRand()
	tree.Search(context.Background(), g, rng)
	for b.Loop() {
		tree.Search(context.Background(), g, rng)
	}
	b.ReportMetric(float64(1000*b.N)/b.Elapsed().Seconds(), "playouts/s")
}

// BenchmarkAlphaBetaChess reports the nodes a depth-8 search with every
// default technique needs from the start position and from Kiwipete,
// with the material evaluator of the tests, and its speed; the table is
// cleared (untimed) before each search.
func BenchmarkAlphaBetaChess(b *testing.B) {
	for _, c := range []struct{ name, fen string }{
		{"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
	} {
		b.Run(c.name, func(b *testing.B) {
			pos, err := chess.ParseFEN(c.fen)
			if err != nil {
				b.Fatal(err)
			}
			g := chess.NewGame(pos, chess.DefaultRules())
			ab := NewAlphaBeta[cm, cg](chessMaterial{}, Options{Depth: 8, Quiescence: true, TableBits: 18})
			ab.Search(context.Background(), g) // warm up buffers
			var nodes int64
			for b.Loop() {
				b.StopTimer()
				ab.Reset()
				b.StartTimer()
				nodes += ab.Search(context.Background(), g).Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// BenchmarkResetAndSearch is a distillation's search of one position:
// the table of 2^16 entries reset, then a search of about 1,500 nodes
// (draughts, the material evaluator, from the start), Reset timed with it.
func BenchmarkResetAndSearch(b *testing.B) {
	g := draughts.NewGame(draughts.Start(), draughts.DefaultRules())
	ab := NewAlphaBeta[dm, dg](material{}, Options{Depth: 30, CaptureExtension: true, TableBits: 16})
	ab.Limits(30, 1500, 0)
	ab.Search(context.Background(), g) // warm up buffers
	var nodes int64
	for b.Loop() {
		ab.Reset()
		nodes += ab.Search(context.Background(), g).Nodes
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}
