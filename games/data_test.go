package games

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"evolved/game/chess"
	"evolved/nnet"
	"evolved/positions"
	"evolved/search"
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

// TestPlayDataPinned pins the records of data games, hashed, as the code
// before PlayDataGame and DataRecords made them (main at 575fe02): the
// local data games must not change when they are played through the
// function the cluster's workers call too. The cases cover a Chess960
// start (a FEN in the record), adjudication and xiangqi. They search as
// the agents of that time did: without the history malus, which chess and
// xiangqi have by default since, and with the parameters of that time,
// which chess has tuned since (search.GameDefaults), as the setups say.
func TestPlayDataPinned(t *testing.T) {
	const oldChessSearch = "#-malus,aspiration=30,rfp_margin=90,futility_margin=100,delta_margin=200,lmr_base=75,lmr_divisor=225"
	chessNet, err := nnet.RandomChess([]int{8}, nnet.Perspective|nnet.EvolvePST, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	xiangqiNet, err := nnet.RandomXiangqi([]int{8}, nnet.Perspective, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	d := DataGames{Games: 3, First: 7, RunSeed: 11, Generation: 5, Workers: 2}
	for _, c := range []struct {
		name string
		play func(emit func(int, []positions.Record) error) error
		want string
	}{
		{"chess", func(emit func(int, []positions.Record) error) error {
			return Chess().Bind(Setup{Depth: 20, Nodes: 200, OpeningPlies: 4, MaxMoves: 30, Search: oldChessSearch}).PlayData(context.Background(), chessNet, d, emit)
		}, "151 274e10815276624352c0e86caf23c28a"},
		{"chess960 adjudicated", func(emit func(int, []positions.Record) error) error {
			b := Chess().Bind(Setup{Depth: 20, Nodes: 200, OpeningPlies: 2, MaxMoves: 30, Chess960: true, AdjudicateMaterial: 3, Search: oldChessSearch})
			return b.PlayData(context.Background(), chessNet, d, emit)
		}, "46 caea8c0174b86a86ac9ceb77bf18f4c3"},
		{"xiangqi", func(emit func(int, []positions.Record) error) error {
			return Xiangqi().Bind(Setup{Depth: 20, Nodes: 200, OpeningPlies: 4, MaxMoves: 30, Search: "#-malus"}).PlayData(context.Background(), xiangqiNet, d, emit)
		}, "168 7a6fef3910f3807397ec129d58c36460"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := sha256.New()
			n := 0
			err := c.play(func(_ int, recs []positions.Record) error {
				var b [positions.RecordSize]byte
				for k := range recs {
					recs[k].MarshalTo(b[:])
					h.Write(b[:])
				}
				n += len(recs)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%d %x", n, h.Sum(nil)[:16]); got != c.want {
				t.Errorf("records: %s, want %s", got, c.want)
			}
		})
	}
}

// TestDataRecordsRefuses checks that DataRecords refuses scores that are
// not one a move after the opening and a move that is not legal, and that
// a game's own scores give the records PlayData gives.
func TestDataRecordsRefuses(t *testing.T) {
	net, err := nnet.RandomChess([]int{8}, nnet.Perspective|nnet.EvolvePST, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	b := Chess().Bind(Setup{Depth: 20, Nodes: 200, OpeningPlies: 4, MaxMoves: 20})
	newPlayer, err := b.Player(net)
	if err != nil {
		t.Fatal(err)
	}
	d := DataGames{Games: 1, First: 3, RunSeed: 9, Generation: 1}
	rec, scores, err := b.PlayDataGame(context.Background(), d.ID(0), [2]search.Player[chess.Move, *chess.Game]{newPlayer(), newPlayer()})
	if err != nil {
		t.Fatal(err)
	}
	if len(scores) != len(rec.Moves)-rec.Opening || rec.Opening != 4 {
		t.Fatalf("%d scores for %d moves, an opening of %d", len(scores), len(rec.Moves), rec.Opening)
	}
	got, err := b.DataRecords(rec, scores)
	if err != nil {
		t.Fatal(err)
	}
	var want []positions.Record
	if err := b.PlayData(context.Background(), net, d, func(_ int, recs []positions.Record) error {
		want = recs
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("PlayDataGame and DataRecords differ from PlayData")
	}
	if _, err := b.DataRecords(rec, scores[1:]); err == nil || !strings.Contains(err.Error(), "scores for") {
		t.Errorf("one score short: err %v, want the count named", err)
	}
	bad := rec
	bad.Moves = slices.Clone(rec.Moves)
	bad.Moves[5], bad.Moves[6] = bad.Moves[6], bad.Moves[5]
	if _, err := b.DataRecords(bad, scores); err == nil || !strings.Contains(err.Error(), "ply 6") {
		t.Errorf("plies 6 and 7 swapped: err %v, want ply 6 named illegal", err)
	}
}
