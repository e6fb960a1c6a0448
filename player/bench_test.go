package player

import (
	"context"
	"math/rand/v2"
	"testing"

	"evolved/game/draughts"
	"evolved/nnet"
	"evolved/search"
	"evolved/tournament"
)

// randomNet returns a seeded random Blondie net, 91-40-10-1 with the piece
// differential.
func randomNet(tb testing.TB, seed uint64) *nnet.Net {
	net, err := nnet.Random([]int{nnet.NumDraughtsInputs, 40, 10, 1}, nnet.PieceDiff, rand.New(rand.NewPCG(seed, 3)))
	if err != nil {
		tb.Fatal(err)
	}
	return net
}

// BenchmarkNetGame plays complete games between two random nets searching
// to depth 4 (with the capture extension), each from a different random
// 4-ply opening; the figure the issue asks for is ms/game.
func BenchmarkNetGame(b *testing.B) {
	a, err := DraughtsNet("a", randomNet(b, 1), 4)
	if err != nil {
		b.Fatal(err)
	}
	c, err := DraughtsNet("b", randomNet(b, 2), 4)
	if err != nil {
		b.Fatal(err)
	}
	pa, pc := a.New(), c.New()
	arena := tournament.Arena[draughts.Move, *draughts.Game]{Name: "draughts", OpeningPlies: 4,
		NewGame: func() *draughts.Game { return draughts.NewGame(draughts.Start(), draughts.DefaultRules()) }}
	rng := rand.New(rand.NewPCG(1, 1))
	plies := 0
	for b.Loop() {
		g := arena.NewGame()
		arena.Opening(g, rng)
		moves, _, err := tournament.Play(context.Background(), g, pa, pc, [2]uint64{1, 2})
		if err != nil {
			b.Fatal(err)
		}
		plies += len(moves)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/game")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
}

// BenchmarkNetSearch searches sixteen positions after random 6-ply
// openings to depth 6 with a random Blondie net, a fresh table for each,
// and reports nodes/s: the throughput of a net player's search, which,
// unlike BenchmarkNetGame, two builds whose evaluations differ in the last
// bits can be compared by (their games may differ, their node rates not).
func BenchmarkNetSearch(b *testing.B) {
	eval, err := nnet.NewDraughtsEval(randomNet(b, 1))
	if err != nil {
		b.Fatal(err)
	}
	ab := search.NewAlphaBeta[draughts.Move, *draughts.Game](&draughtsNetEval{acc: eval.NewAccumulator(), cache: nnet.NewEvalCache(evalCacheEntries)},
		search.Options{Depth: 6, CaptureExtension: true, TableBits: 14})
	arena := tournament.Arena[draughts.Move, *draughts.Game]{Name: "draughts", OpeningPlies: 6,
		NewGame: func() *draughts.Game { return draughts.NewGame(draughts.Start(), draughts.DefaultRules()) }}
	rng := rand.New(rand.NewPCG(2, 2))
	games := make([]*draughts.Game, 16)
	for i := range games {
		games[i] = arena.NewGame()
		arena.Opening(games[i], rng)
	}
	var nodes int64
	for b.Loop() {
		for _, g := range games {
			ab.Reset()
			nodes += ab.Search(context.Background(), g).Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
}
