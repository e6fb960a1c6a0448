package games_test

import (
	"context"
	"strings"
	"testing"

	"evolved/game/chess"
	"evolved/game/draughts"
	"evolved/game/xiangqi"
	"evolved/games"
	"evolved/seed"
	"evolved/tournament"
)

func TestReadDraughtsOpenings(t *testing.T) {
	k := games.Draughts()
	fens := "# openings\n\nB:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n" +
		"W:W18,21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,15\n"
	got, err := k.ReadOpenings(strings.NewReader(fens), false, games.Setup{})
	if err != nil || len(got) != 2 || got[0].Start != draughts.Start().FEN() || got[1].Start != "W:W18,21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,15" {
		t.Fatalf("FEN lines: %+v, %v", got, err)
	}
	pdn := "[Event \"a\"]\n\n1. 11-15 23-19 *\n\n[Event \"b\"]\n\n1. 9-13 *\n"
	got, err = k.ReadOpenings(strings.NewReader(pdn), true, games.Setup{})
	if err != nil || len(got) != 2 || len(got[0].Moves) != 2 || len(got[1].Moves) != 1 {
		t.Fatalf("PDN: %+v, %v", got, err)
	}
	// An arena with openings starts each pairing from one of them, its
	// moves played, and names the start by its FEN.
	setup := games.Setup{MaxMoves: 100}
	arena := k.WithOpenings(k.Arena(setup), setup, got)
	g := arena.Start(seed.Rand(1, "draughts", 0, seed.Opening, 0))
	if n := len(g.Moves(nil)); n != 1 && n != 2 {
		t.Errorf("the start has %d moves played, want the opening's 1 or 2", n)
	}
	if want := g.Position().FEN(); arena.Describe(g) != want {
		t.Errorf("Describe = %q, want %q", arena.Describe(g), want)
	}
	for _, c := range []struct{ text, want string }{
		{"B:W21:B1\nnonsense\n", "line 2"},
		{"# nothing\n\n", "holds no opening"},
	} {
		if _, err := k.ReadOpenings(strings.NewReader(c.text), false, games.Setup{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error naming %q", c.text, err, c.want)
		}
	}
}

func TestReadXiangqiOpenings(t *testing.T) {
	k := games.Xiangqi()
	start := xiangqi.Start().FEN()
	got, err := k.ReadOpenings(strings.NewReader(start+"\n"), false, games.Setup{})
	if err != nil || len(got) != 1 || got[0].Start != start {
		t.Fatalf("FEN line: %+v, %v", got, err)
	}
	if _, err := k.ReadOpenings(strings.NewReader("\n"+start+"\nrnbakabnr/9 w\n"), false, games.Setup{}); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("a bad third line: %v", err)
	}
	arena := k.WithOpenings(k.Arena(games.Setup{}), games.Setup{}, got)
	g := arena.Start(seed.Rand(1, "xiangqi", 0, seed.Opening, 0))
	if arena.Describe(g) != start {
		t.Errorf("Describe = %q", arena.Describe(g))
	}
}

func TestReadChessOpenings(t *testing.T) {
	k := games.Chess()
	epd := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;\n\n# comment\n8/8/8/8/8/8/8/K6k w - -\n"
	ops, err := k.ReadOpenings(strings.NewReader(epd), false, games.Setup{})
	if err != nil || len(ops) != 2 || ops[0].Start != "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" {
		t.Fatalf("EPD: %v, %+v", err, ops)
	}
	ops, err = k.ReadOpenings(strings.NewReader("[Event \"x\"]\n\n1. d4 d5 2. c4 *\n"), true, games.Setup{})
	if err != nil || len(ops) != 1 || len(ops[0].Moves) != 3 {
		t.Fatalf("PGN: %v, %+v", err, ops)
	}
	for name, text := range map[string]string{"empty": "# nothing\n", "short line": "8/8/8 w\n", "bad FEN": "8/8/8/8/8/8/8/8 w - -\n"} {
		if _, err := k.ReadOpenings(strings.NewReader(text), false, games.Setup{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// A match from the PGN opening: every game starts after 1. d4 d5 2. c4.
	arena := k.WithOpenings(k.Arena(games.Setup{}), games.Setup{}, ops)
	r, err := tournament.Match(context.Background(), arena, mustSpec(t, k, "material:1"), mustSpec(t, k, "random"),
		tournament.MatchOptions{Games: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, rec := range r.Records {
		if rec.Start != "rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2" {
			t.Errorf("game %d starts from %q", i, rec.Start)
		}
	}
}

func TestChess960Openings(t *testing.T) {
	k := games.Chess()
	arena := k.Arena(games.Setup{OpeningPlies: 2, Chess960: true})
	r, err := tournament.Match(context.Background(), arena, mustSpec(t, k, "material:1"), mustSpec(t, k, "random"),
		tournament.MatchOptions{Games: 8, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	starts := map[string]bool{}
	for i, rec := range r.Records {
		if rec.Start == "" {
			t.Fatalf("game %d has no start position", i)
		}
		if _, err := chess.ParseFEN(rec.Start); err != nil {
			t.Fatalf("game %d start %q: %v", i, rec.Start, err)
		}
		starts[rec.Start] = true
		// Both games of a pair start from the same arrangement.
		if i%2 == 1 && rec.Start != r.Records[i-1].Start {
			t.Errorf("games %d and %d of a pair start differently", i-1, i)
		}
	}
	if len(starts) < 3 {
		t.Errorf("only %d different starts in 4 pairs", len(starts))
	}
}
