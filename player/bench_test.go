package player

import (
	"context"
	"math/rand/v2"
	"testing"

	"evolved/game/draughts"
	"evolved/nnet"
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
