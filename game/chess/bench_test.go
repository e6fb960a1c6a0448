package chess

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkPerft reports perft nodes per second with bulk counting at the
// last ply, from the start position (depth 5) and Kiwipete (depth 4).
func BenchmarkPerft(b *testing.B) {
	for _, bc := range []struct {
		name  string
		fen   string
		depth int
	}{
		{"start/depth=5", StartFEN, 5},
		{"kiwipete/depth=4", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := mustFEN(b, bc.fen)
			b.ReportAllocs()
			var nodes uint64
			for b.Loop() {
				nodes += Perft(p, bc.depth)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// BenchmarkPerftVsStockfish runs perft 6 from the start position here and
// "go perft 6" in Stockfish, in the same run, and reports both speeds and
// their ratio (ours/Stockfish). Stockfish's time is measured from sending
// the command to reading its node count, so it includes the pipe's latency,
// which is negligible against a run of about a second. It is skipped when
// there is no Stockfish binary.
func BenchmarkPerftVsStockfish(b *testing.B) {
	path := findStockfish()
	if path == "" {
		b.Skip("no Stockfish binary; apt-get install stockfish")
	}
	e, err := startStockfish(path)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		if err := e.Close(); err != nil {
			b.Errorf("closing Stockfish: %v", err)
		}
	}()
	const depth = 6
	var ours, theirs time.Duration
	var nodes uint64
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		n := Perft(Start(), depth)
		ours += time.Since(t0)
		t0 = time.Now()
		_, sfNodes, err := e.Perft(context.Background(), StartFEN, depth)
		theirs += time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		if n != sfNodes {
			b.Fatal(fmt.Sprintf("perft(%d) = %d here, %d in Stockfish", depth, n, sfNodes))
		}
		nodes += n
	}
	oursNPS := float64(nodes) / ours.Seconds()
	theirsNPS := float64(nodes) / theirs.Seconds()
	b.ReportMetric(oursNPS, "nodes/s")
	b.ReportMetric(theirsNPS, "sf-nodes/s")
	b.ReportMetric(oursNPS/theirsNPS, "ratio")
}

// BenchmarkLegalMoves measures move generation alone in Kiwipete.
func BenchmarkLegalMoves(b *testing.B) {
	p := mustFEN(b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	buf := make([]Move, 0, MaxMoves)
	b.ReportAllocs()
	for b.Loop() {
		buf = p.LegalMoves(buf)
	}
}

// BenchmarkLegalNoisyMoves measures the quiescence search's move
// generation in Kiwipete: LegalNoisyMoves, and LegalMoves with the noisy
// moves filtered out of it (what it replaced).
func BenchmarkLegalNoisyMoves(b *testing.B) {
	p := mustFEN(b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	buf := make([]Move, 0, MaxMoves)
	b.Run("noisy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = p.LegalNoisyMoves(buf)
		}
	})
	b.Run("filtered", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			all := p.LegalMoves(buf)
			n := 0
			for _, m := range all {
				if p.isNoisy(m) {
					all[n] = m
					n++
				}
			}
			buf = all[:n]
		}
	})
}

// BenchmarkPlay measures Play over Kiwipete's 48 moves.
func BenchmarkPlay(b *testing.B) {
	p := mustFEN(b, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	moves := p.LegalMoves(nil)
	var sink uint64
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range moves {
			c := p.Play(m)
			sink += c.hash
		}
	}
	_ = sink
}

// BenchmarkGameMake measures Game.Make and Unmake, the history push and pop
// that search does at every node, over the moves of Kiwipete.
func BenchmarkGameMake(b *testing.B) {
	p, err := ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	if err != nil {
		b.Fatal(err)
	}
	g := NewGame(p, DefaultRules())
	moves := g.LegalMoves(nil)
	for b.Loop() {
		for _, m := range moves {
			g.Make(m)
			g.Unmake()
		}
	}
	b.ReportMetric(float64(b.N*len(moves))/b.Elapsed().Seconds(), "makes/s")
}
