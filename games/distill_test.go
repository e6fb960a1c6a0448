package games_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"evolved/distill"
	"evolved/game/chess"
	"evolved/games"
	"evolved/nnet"
	"evolved/search"
	"evolved/tournament"
)

// randomRecords plays a game of random legal moves, up to plies plies,
// from each of starts ("" for the standard start).
func randomRecords[M comparable, S search.Game[M]](t *testing.T, k games.Kind[M, S], starts []string, plies int, rng *rand.Rand) []tournament.Record[M] {
	t.Helper()
	var out []tournament.Record[M]
	var buf []M
	for _, start := range starts {
		g, err := k.NewGame(start, games.Setup{MaxMoves: 1000})
		if err != nil {
			t.Fatal(err)
		}
		rec := tournament.Record[M]{Start: start}
		for range plies {
			if buf = g.LegalMoves(buf[:0]); len(buf) == 0 {
				break
			}
			m := buf[rng.IntN(len(buf))]
			rec.Moves = append(rec.Moves, m)
			g.Make(m)
		}
		out = append(out, rec)
	}
	return out
}

// checkDistillWorkers distills net on records with k's real searches at
// one worker and at three: each position's search starts from a cleared
// table, so the genomes must be the same bit for bit, and differ from net.
func checkDistillWorkers[M comparable, S search.Game[M]](t *testing.T, k games.Kind[M, S], net *nnet.Net, records []tournament.Record[M], steps int) {
	t.Helper()
	ctx := context.Background()
	a, ra, err := k.Distill(ctx, net, records, 200, distill.Options{Steps: steps, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, rb, err := k.Distill(ctx, net, records, 200, distill.Options{Steps: steps, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Equal(b) || ra != rb {
		t.Errorf("one worker and three distill different genomes: %+v, %+v", ra, rb)
	}
	if a.Equal(net) || ra.Positions < 50 || !(ra.After < ra.Before) {
		t.Errorf("the fit did nothing: %+v", ra)
	}
}

// TestDistillIsTheSameAtAnyWorkers runs checkDistillWorkers for each game:
// chess on random games, one from a Chess960 start; xiangqi; draughts,
// whose whole net moves.
func TestDistillIsTheSameAtAnyWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	t.Run("chess", func(t *testing.T) {
		net, err := nnet.RandomChess([]int{8}, nnet.EvolvePST|nnet.EvolveTerms, rng)
		if err != nil {
			t.Fatal(err)
		}
		p, err := chess.Chess960(518 + 1)
		if err != nil {
			t.Fatal(err)
		}
		checkDistillWorkers(t, games.Chess(), net, randomRecords(t, games.Chess(), []string{"", "", "", "", "", p.FEN()}, 40, rng), 20)
	})
	t.Run("xiangqi", func(t *testing.T) {
		net, err := nnet.RandomXiangqi([]int{8}, nnet.EvolvePST|nnet.EvolveTerms|nnet.EvolveMoreTerms, rng)
		if err != nil {
			t.Fatal(err)
		}
		checkDistillWorkers(t, games.Xiangqi(), net, randomRecords(t, games.Xiangqi(), make([]string, 6), 40, rng), 20)
	})
	t.Run("draughts", func(t *testing.T) {
		net, err := nnet.Random([]int{nnet.NumDraughtsInputs, 40, 10, 1}, nnet.PieceDiff, rng)
		if err != nil {
			t.Fatal(err)
		}
		checkDistillWorkers(t, games.Draughts(), net, randomRecords(t, games.Draughts(), make([]string, 6), 40, rng), 3)
	})
}
