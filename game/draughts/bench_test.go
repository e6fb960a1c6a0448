package draughts

import (
	"fmt"
	"testing"
)

// BenchmarkPerft reports perft nodes per second from the start position with
// bulk counting at the last ply. The README's figure is depth 11.
func BenchmarkPerft(b *testing.B) {
	for _, depth := range []int{9, 11} {
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			var nodes uint64
			for b.Loop() {
				nodes += Perft(Start(), depth)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
