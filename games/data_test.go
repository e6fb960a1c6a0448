package games

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"evolved/nnet"
	"evolved/positions"
)

// TestPlayDataChess plays data games and checks each record against the
// rules: each position is the one before played with its recorded move,
// each result the game's for the side to move, and the same records come
// at any number of workers.
func TestPlayDataChess(t *testing.T) {
	net, err := nnet.RandomChess([]int{8}, nnet.Perspective|nnet.EvolvePST, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	b := Chess().Bind(Setup{Depth: 20, Nodes: 300, OpeningPlies: 6, MaxMoves: 40})
	play := func(workers int) [][]positions.Record {
		var games [][]positions.Record
		err := b.PlayData(context.Background(), net, DataGames{Games: 4, First: 10, RunSeed: 3, Generation: 2, Workers: workers},
			func(i int, recs []positions.Record) error {
				if i != len(games) {
					t.Fatalf("game %d emitted after %d games", i, len(games))
				}
				games = append(games, recs)
				return nil
			})
		if err != nil {
			t.Fatal(err)
		}
		return games
	}
	one := play(1)
	if three := play(3); !reflect.DeepEqual(one, three) {
		t.Fatal("1 and 3 workers recorded different games")
	}
	for g, recs := range one {
		if len(recs) == 0 || recs[0].Ply != 6 {
			t.Fatalf("game %d: %d records, the first at ply %d, want ply 6 (after the opening)", g, len(recs), recs[0].Ply)
		}
		for k := range recs {
			r := &recs[k]
			p, err := positions.UnpackChess(&r.Position)
			if err != nil {
				t.Fatalf("game %d record %d: %v", g, k, err)
			}
			m, ok := positions.ChessMove(&p, r.Move)
			if !ok {
				t.Fatalf("game %d record %d: move %#x is not legal in %s", g, k, r.Move, p.FEN())
			}
			if r.Ply != recs[0].Ply+uint16(k) || r.Source != positions.DataGame || r.Result == positions.Unknown {
				t.Fatalf("game %d record %d: %+v", g, k, r)
			}
			if k+1 == len(recs) {
				// The last mover mated: the record says it won.
				end := p.Play(m)
				if end.InCheck() && len(end.LegalMoves(nil)) == 0 && r.Result != positions.Win {
					t.Fatalf("game %d: the last move mates, and its record's result is %v", g, r.Result)
				}
			}
			if k+1 < len(recs) {
				next := p.Play(m)
				if positions.PackChess(&next) != recs[k+1].Position {
					t.Fatalf("game %d record %d: the next record is not %s played with %v", g, k, p.FEN(), m)
				}
				// Self-play: consecutive positions' results are opposite, or both draws.
				if a, b := r.Result, recs[k+1].Result; a != -b {
					t.Fatalf("game %d record %d: results %v then %v", g, k, a, b)
				}
			}
		}
	}
}

func TestPlayDataRefusesDraughts(t *testing.T) {
	net, err := nnet.Random([]int{nnet.NumDraughtsInputs, 4, 1}, 0, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	err = Draughts().Bind(Setup{}).PlayData(context.Background(), net, DataGames{Games: 1}, nil)
	if err == nil {
		t.Fatal("draughts data games were played")
	}
}
