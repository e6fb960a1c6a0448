package player

import (
	"context"
	"math/rand/v2"
	"testing"

	"evolved/cputime"
	"evolved/game/chess"
	"evolved/game/draughts"
	"evolved/game/xiangqi"
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
	searchRate(b, ab, arena, 2)
}

// BenchmarkChessNetSearch is BenchmarkNetSearch for chess: sixteen
// positions after random 8-ply openings, searched to depth 4 with
// quiescence by a random net of the daemon's default chess genome
// (768-32-8-1 with evolvable piece values, tables and all the terms).
func BenchmarkChessNetSearch(b *testing.B) {
	flags := nnet.PieceDiff | nnet.SelfAdaptive | nnet.EvolvePST | nnet.EvolveTerms | nnet.EvolveMoreTerms
	net, err := nnet.RandomChess([]int{32, 8}, flags, rand.New(rand.NewPCG(1, 3)))
	if err != nil {
		b.Fatal(err)
	}
	chessNetSearchRate(b, net)
}

// BenchmarkChessPerspectiveSearch is BenchmarkChessNetSearch with the
// perspective net of chess.perspective = true (256 sums a side) in the
// narrow net's place, the same tables and terms beside it.
func BenchmarkChessPerspectiveSearch(b *testing.B) {
	flags := nnet.Perspective | nnet.SelfAdaptive | nnet.EvolvePST | nnet.EvolveTerms | nnet.EvolveMoreTerms
	net, err := nnet.RandomChess([]int{nnet.DefaultPerspectiveHidden}, flags, rand.New(rand.NewPCG(1, 3)))
	if err != nil {
		b.Fatal(err)
	}
	chessNetSearchRate(b, net)
}

// chessNetSearchRate is BenchmarkChessNetSearch's body for net.
func chessNetSearchRate(b *testing.B, net *nnet.Net) {
	eval, err := nnet.NewChessEval(net)
	if err != nil {
		b.Fatal(err)
	}
	ab := search.NewAlphaBeta[chess.Move, *chess.Game](&chessNetEval{acc: eval.NewAccumulator(), cache: nnet.NewEvalCache(evalCacheEntries), values: chessExchangeValues(net)},
		search.Options{Depth: 4, Quiescence: true, TableBits: 14})
	arena := tournament.Arena[chess.Move, *chess.Game]{Name: "chess", OpeningPlies: 8,
		NewGame: func() *chess.Game { return chess.NewGame(chess.Start(), chess.Rules{FiftyMoveRule: true}) }}
	searchRate(b, ab, arena, 3)
}

// BenchmarkXiangqiNetSearch is BenchmarkNetSearch for xiangqi: sixteen
// positions after random 8-ply openings, searched to depth 4 with the
// players' options by a random net of the daemon's default xiangqi genome
// (1260-32-8-1 with evolvable piece values, tables and terms).
func BenchmarkXiangqiNetSearch(b *testing.B) {
	flags := nnet.PieceDiff | nnet.SelfAdaptive | nnet.EvolvePST | nnet.EvolveTerms
	net, err := nnet.RandomXiangqi([]int{32, 8}, flags, rand.New(rand.NewPCG(1, 3)))
	if err != nil {
		b.Fatal(err)
	}
	xiangqiNetSearchRate(b, net)
}

// BenchmarkXiangqiPerspectiveSearch is BenchmarkXiangqiNetSearch with the
// perspective net of xiangqi.perspective = true (256 sums a side) in the
// narrow net's place, the same tables and terms beside it.
func BenchmarkXiangqiPerspectiveSearch(b *testing.B) {
	flags := nnet.Perspective | nnet.SelfAdaptive | nnet.EvolvePST | nnet.EvolveTerms
	net, err := nnet.RandomXiangqi([]int{nnet.DefaultPerspectiveHidden}, flags, rand.New(rand.NewPCG(1, 3)))
	if err != nil {
		b.Fatal(err)
	}
	xiangqiNetSearchRate(b, net)
}

// xiangqiNetSearchRate is BenchmarkXiangqiNetSearch's body for net.
func xiangqiNetSearchRate(b *testing.B, net *nnet.Net) {
	eval, err := nnet.NewXiangqiEval(net)
	if err != nil {
		b.Fatal(err)
	}
	ab := search.NewAlphaBeta[xiangqi.Move, *xiangqi.Game](&xiangqiNetEval{acc: eval.NewAccumulator(), cache: nnet.NewEvalCache(evalCacheEntries), values: xiangqiExchangeValues(net)},
		xiangqiNetOptions(4))
	arena := tournament.Arena[xiangqi.Move, *xiangqi.Game]{Name: "xiangqi", OpeningPlies: 8,
		NewGame: func() *xiangqi.Game { return xiangqi.NewGame(xiangqi.Start(), xiangqi.DefaultRules()) }}
	searchRate(b, ab, arena, 4)
}

// searchRate searches sixteen positions after random openings of arena
// (seeded by seed) with ab, a fresh table for each, and reports nodes/s
// and ns/node.
func searchRate[M comparable, S search.Game[M]](b *testing.B, ab *search.AlphaBeta[M, S], arena tournament.Arena[M, S], seed uint64) {
	rng := rand.New(rand.NewPCG(seed, seed))
	games := make([]S, 16)
	for i := range games {
		games[i] = arena.NewGame()
		arena.Opening(games[i], rng)
	}
	var nodes int64
	cpu0 := cputime.Seconds()
	for b.Loop() {
		for _, g := range games {
			ab.Reset()
			nodes += ab.Search(context.Background(), g).Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
	if cpu := cputime.Seconds() - cpu0; cpu0 > 0 && cpu > 0 {
		b.ReportMetric(cpu*1e9/float64(nodes), "cpu-ns/node")
	}
}
