package games

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"evolved/game/chess"
	"evolved/game/draughts"
	"evolved/game/xiangqi"
	"evolved/nnet"
	"evolved/search"
	"evolved/tournament"
)

// playedGames plays a round robin of nets under setup with k's agents,
// as a generation's tournament does, and returns its records.
func playedGames[M comparable, S search.Game[M]](t *testing.T, k Kind[M, S], setup Setup, nets []*nnet.Net) []tournament.Record[M] {
	t.Helper()
	sp := k.Bind(setup)
	players := make([]func() search.Player[M, S], len(nets))
	for i, n := range nets {
		var err error
		if players[i], err = sp.Player(n); err != nil {
			t.Fatal(err)
		}
	}
	schedule, err := tournament.Schedule(tournament.Config{Format: tournament.RoundRobin}, len(nets), nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tournament.Run(context.Background(), sp.Arena, players, schedule, tournament.Config{Workers: 2}, 11, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]tournament.Record[M], len(res.Games))
	for i, g := range res.Games {
		out[i] = g.Record
	}
	return out
}

// positionsOf returns every position of records that has a move, in
// order: each record's start read by parse, then each move played.
func positionsOf[M comparable, P any](t *testing.T, records []tournament.Record[M], parse func(string) (P, error), play func(P, M) P) []P {
	t.Helper()
	var out []P
	for i, rec := range records {
		p, err := parse(rec.Start)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		for _, m := range rec.Moves {
			out = append(out, p)
			p = play(p, m)
		}
	}
	return out
}

// checkFENRoundTrip checks that a worker, which gets positions as FENs,
// searches the positions the local distillation searches: each position
// read back from its FEN is the same position (every field, the hash
// included), and Kind.Scorer's search of the FEN gives the value, to the
// bit, that the typed search the local fit runs gives the position.
func checkFENRoundTrip[P interface {
	comparable
	FEN() string
}](t *testing.T, positions []P, parse func(string) (P, error), typed func() func(context.Context, P) (float64, error), byFEN FENScorer) {
	t.Helper()
	ctx := context.Background()
	score := typed()
	for i, p := range positions {
		fen := p.FEN()
		back, err := parse(fen)
		if err != nil {
			t.Fatalf("position %d: %s does not read back: %v", i, fen, err)
		}
		if back != p {
			t.Fatalf("position %d: %s reads back to another position, %s", i, fen, back.FEN())
		}
		want, err := score(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := byFEN(ctx, fen)
		if err != nil {
			t.Fatal(err)
		}
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("position %d, %s: searched from its FEN %v, from the position %v", i, fen, got, want)
		}
	}
}

// TestScorerFENRoundTrip plays real games of each game with random nets
// (chess also from Chess960 starts) and checks, over every position of
// them, that the distillation's search of a position's FEN, as a worker
// runs it, is the local fit's search of the position (checkFENRoundTrip).
// The positions must include what a FEN could lose: en passant squares,
// Chess960 and partly lost castling rights, halfmove clocks, either side
// to move, kings in draughts.
func TestScorerFENRoundTrip(t *testing.T) {
	const nodes = 150
	rng := rand.New(rand.NewPCG(21, 4))
	t.Run("chess", func(t *testing.T) {
		k := Chess()
		nets := make([]*nnet.Net, 3)
		for i := range nets {
			var err error
			if nets[i], err = nnet.RandomChess([]int{8}, nnet.EvolvePieceValues|nnet.EvolvePST|nnet.EvolveTerms, rng); err != nil {
				t.Fatal(err)
			}
		}
		records := playedGames(t, k, Setup{Depth: 1, MaxMoves: 60}, nets)
		records = append(records, playedGames(t, k, Setup{Depth: 1, MaxMoves: 60, Chess960: true}, nets)...)
		positions := positionsOf(t, records, chessPosition, chess.Position.Play)
		var ep, chess960, partial, clock, black int
		for _, p := range positions {
			rooks := p.CastlingRooks().Count()
			switch {
			case p.EnPassant() != chess.NoSquare:
				ep++
			case rooks > 0 && !p.ClassicalCastling():
				chess960++
			}
			if rooks > 0 && rooks < 4 {
				partial++
			}
			if p.HalfmoveClock() > 0 {
				clock++
			}
			if p.Side() == chess.Black {
				black++
			}
		}
		t.Logf("%d positions: %d with an en passant square, %d with Chess960 castling, %d with some castling rights lost, %d with a halfmove clock, %d with Black to move",
			len(positions), ep, chess960, partial, clock, black)
		if ep == 0 || chess960 == 0 || partial == 0 || clock == 0 || black == 0 {
			t.Fatal("the games lack a kind of position the test must cover")
		}
		byFEN, err := k.Scorer(nets[0], nodes)
		if err != nil {
			t.Fatal(err)
		}
		checkFENRoundTrip(t, positions, chess.ParseFEN, newScorer(chessScorer, nets[0], nodes), byFEN)
	})
	t.Run("xiangqi", func(t *testing.T) {
		k := Xiangqi()
		nets := make([]*nnet.Net, 3)
		for i := range nets {
			var err error
			if nets[i], err = nnet.RandomXiangqi([]int{8}, nnet.EvolvePieceValues|nnet.EvolvePST|nnet.EvolveTerms|nnet.EvolveMoreTerms, rng); err != nil {
				t.Fatal(err)
			}
		}
		positions := positionsOf(t, playedGames(t, k, Setup{Depth: 1, MaxMoves: 60}, nets), xiangqiPosition, xiangqi.Position.Play)
		var clock, black int
		for _, p := range positions {
			if p.HalfmoveClock() > 0 {
				clock++
			}
			if p.Side() == xiangqi.Black {
				black++
			}
		}
		t.Logf("%d positions: %d with a halfmove clock, %d with Black to move", len(positions), clock, black)
		if clock == 0 || black == 0 {
			t.Fatal("the games lack a kind of position the test must cover")
		}
		byFEN, err := k.Scorer(nets[0], nodes)
		if err != nil {
			t.Fatal(err)
		}
		checkFENRoundTrip(t, positions, xiangqi.ParseFEN, newScorer(xiangqiScorer, nets[0], nodes), byFEN)
	})
	t.Run("draughts", func(t *testing.T) {
		k := Draughts()
		nets := make([]*nnet.Net, 3)
		for i := range nets {
			var err error
			if nets[i], err = nnet.Random([]int{nnet.NumDraughtsInputs, 20, 1}, nnet.PieceDiff, rng); err != nil {
				t.Fatal(err)
			}
		}
		positions := positionsOf(t, playedGames(t, k, Setup{Depth: 2, MaxMoves: 80}, nets), draughtsPosition, draughts.Position.Play)
		var kings, white int
		for _, p := range positions {
			if p.Kings != 0 {
				kings++
			}
			if p.Side == draughts.White {
				white++
			}
		}
		t.Logf("%d positions: %d with kings, %d with White to move", len(positions), kings, white)
		if kings == 0 || white == 0 {
			t.Fatal("the games lack a kind of position the test must cover")
		}
		byFEN, err := k.Scorer(nets[0], nodes)
		if err != nil {
			t.Fatal(err)
		}
		checkFENRoundTrip(t, positions, draughts.ParseFEN, newScorer(draughtsScorer, nets[0], nodes), byFEN)
	})
}
