package xiangqi

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkPerft reports perft nodes per second with bulk counting at the
// last ply, from the start position at depth 4.
func BenchmarkPerft(b *testing.B) {
	p := Start()
	b.ReportAllocs()
	var nodes uint64
	for b.Loop() {
		nodes += Perft(p, 4)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPerftVsFairyStockfish runs perft 5 from the start position
// here and "go perft 5" in Fairy-Stockfish, in the same run, and reports
// both speeds and their ratio (ours/Fairy-Stockfish). Fairy-Stockfish's
// time runs from sending the command to reading its node count, so it
// includes the pipe's latency, negligible against a run of seconds; its
// start-up is not timed. It is skipped when there is no binary.
func BenchmarkPerftVsFairyStockfish(b *testing.B) {
	path := findFairy()
	if path == "" {
		b.Skip("no Fairy-Stockfish binary; apt-get install fairy-stockfish")
	}
	e, err := startFairy(path)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		if err := e.Close(); err != nil {
			b.Errorf("closing Fairy-Stockfish: %v", err)
		}
	}()
	const depth = 5
	var ours, theirs time.Duration
	var nodes uint64
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		n := Perft(Start(), depth)
		ours += time.Since(t0)
		t0 = time.Now()
		_, fsNodes, err := e.Perft(context.Background(), StartFEN, depth)
		theirs += time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		if n != fsNodes {
			b.Fatalf("perft(%d) = %d here, %d in Fairy-Stockfish", depth, n, fsNodes)
		}
		nodes += n
	}
	oursNPS := float64(nodes) / ours.Seconds()
	theirsNPS := float64(nodes) / theirs.Seconds()
	b.ReportMetric(oursNPS, "nodes/s")
	b.ReportMetric(theirsNPS, "fsf-nodes/s")
	b.ReportMetric(oursNPS/theirsNPS, "ratio")
}

// BenchmarkLegalMoves measures move generation alone from the start.
func BenchmarkLegalMoves(b *testing.B) {
	p := Start()
	buf := make([]Move, 0, MaxMoves)
	b.ReportAllocs()
	for b.Loop() {
		buf = p.LegalMoves(buf)
	}
}

// BenchmarkGameMake measures Game.Make and Unmake, the history push and
// pop that search does at every node, over the start position's moves.
func BenchmarkGameMake(b *testing.B) {
	g := NewGame(Start(), DefaultRules())
	moves := g.LegalMoves(nil)
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range moves {
			g.Make(m)
			g.Unmake()
		}
	}
	b.ReportMetric(float64(b.N*len(moves))/b.Elapsed().Seconds(), "makes/s")
}

// BenchmarkLegalCaptures measures the quiescence search's move generation
// over the positions of random games: LegalCaptures, and LegalMoves with
// the captures filtered out of it (what it replaced).
func BenchmarkLegalCaptures(b *testing.B) {
	rng := rand.New(rand.NewPCG(13, 14))
	var positions []Position
	for range 20 {
		p := Start()
		for range 100 {
			positions = append(positions, p)
			moves := p.LegalMoves(nil)
			if len(moves) == 0 {
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
		}
	}
	buf := make([]Move, 0, MaxMoves)
	b.Run("captures", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			buf = positions[i%len(positions)].LegalCaptures(buf)
			i++
		}
	})
	b.Run("filtered", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			all := positions[i%len(positions)].LegalMoves(buf)
			n := 0
			for _, m := range all {
				if m.IsCapture() {
					all[n] = m
					n++
				}
			}
			buf = all[:n]
			i++
		}
	})
}
