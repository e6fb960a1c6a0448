package games_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"evolved/distill"
	"evolved/game/chess"
	"evolved/game/xiangqi"
	"evolved/games"
	"evolved/nnet"
	"evolved/tournament"
)

// TestChessDistillIsTheSameAtAnyWorkers distills a chess net on random
// games, one from a Chess960 start, with its real searches at one worker
// and at three: each position's search starts from a cleared table, so
// the genomes are the same bit for bit, and they differ from the net.
func TestChessDistillIsTheSameAtAnyWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	net, err := nnet.RandomChess([]int{8}, nnet.EvolvePST|nnet.EvolveTerms, rng)
	if err != nil {
		t.Fatal(err)
	}
	var records []tournament.Record[chess.Move]
	buf := make([]chess.Move, 0, chess.MaxMoves)
	for i := range 6 {
		p := chess.Start()
		var rec tournament.Record[chess.Move]
		if i == 5 {
			if p, err = chess.Chess960(518 + 1); err != nil {
				t.Fatal(err)
			}
			rec.Start = p.FEN()
		}
		for range 40 {
			buf = p.LegalMoves(buf[:0])
			if len(buf) == 0 {
				break
			}
			m := buf[rng.IntN(len(buf))]
			rec.Moves = append(rec.Moves, m)
			p = p.Play(m)
		}
		records = append(records, rec)
	}
	ctx := context.Background()
	a, ra, err := games.ChessDistill(ctx, net, records, 200, distill.Options{Steps: 20, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, rb, err := games.ChessDistill(ctx, net, records, 200, distill.Options{Steps: 20, Workers: 3})
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

// TestXiangqiDistillIsTheSameAtAnyWorkers is the chess test for xiangqi:
// the agents' real searches, one worker and three, one genome.
func TestXiangqiDistillIsTheSameAtAnyWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	net, err := nnet.RandomXiangqi([]int{8}, nnet.EvolvePST|nnet.EvolveTerms|nnet.EvolveMoreTerms, rng)
	if err != nil {
		t.Fatal(err)
	}
	var records []tournament.Record[xiangqi.Move]
	buf := make([]xiangqi.Move, 0, xiangqi.MaxMoves)
	for range 6 {
		p := xiangqi.Start()
		var rec tournament.Record[xiangqi.Move]
		for range 40 {
			if buf = p.LegalMoves(buf[:0]); len(buf) == 0 {
				break
			}
			m := buf[rng.IntN(len(buf))]
			rec.Moves = append(rec.Moves, m)
			p = p.Play(m)
		}
		records = append(records, rec)
	}
	ctx := context.Background()
	a, ra, err := games.XiangqiDistill(ctx, net, records, 200, distill.Options{Steps: 20, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, rb, err := games.XiangqiDistill(ctx, net, records, 200, distill.Options{Steps: 20, Workers: 3})
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
