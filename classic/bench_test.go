package classic

import (
	"context"
	"testing"

	"evolved/game/xiangqi"
)

// benchPositions are the positions the benchmarks run on.
func benchPositions(b *testing.B) []struct {
	name string
	pos  xiangqi.Position
} {
	mid, err := xiangqi.ParseFEN(middlegameFEN)
	if err != nil {
		b.Fatal(err)
	}
	return []struct {
		name string
		pos  xiangqi.Position
	}{{"start", xiangqi.Start()}, {"middlegame", mid}}
}

// BenchmarkEvaluate reports evaluations per second.
func BenchmarkEvaluate(b *testing.B) {
	for _, bp := range benchPositions(b) {
		b.Run(bp.name, func(b *testing.B) {
			p := bp.pos
			b.ReportAllocs()
			sum := 0
			for b.Loop() {
				sum += Evaluate(&p)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "evals/s")
			_ = sum
		})
	}
}

// BenchmarkSearch reports the classic player's nodes per second on one
// core, searching to the depth Depth gives for the position (3 from the
// start, 4 in the middlegame); the eager runs evaluate every leaf in full,
// without the lazy evaluation that skips the activity terms when the
// static part already decides (same tree, same result).
func BenchmarkSearch(b *testing.B) {
	for _, bp := range benchPositions(b) {
		for _, eager := range []bool{false, true} {
			name := bp.name
			if eager {
				name += "/eager"
			}
			b.Run(name, func(b *testing.B) {
				pl := New()
				pl.eager = eager
				p := bp.pos
				depth := Depth(p.Occupied(xiangqi.Red).Count() + p.Occupied(xiangqi.Black).Count())
				b.ReportAllocs()
				var nodes int64
				for b.Loop() {
					nodes += pl.Search(context.Background(), p, depth).Nodes
				}
				b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
				b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			})
		}
	}
}
