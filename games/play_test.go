package games_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"evolved/game/chess"
	"evolved/games"
	"evolved/search"
)

// TestParseMoveTextReadsMoveText reads back the move text of random games
// of each game, from the standard start and a set-up one.
func TestParseMoveTextReadsMoveText(t *testing.T) {
	p960, err := chess.Chess960(518 + 1)
	if err != nil {
		t.Fatal(err)
	}
	testParseMoveText(t, games.Draughts(), "W:W18,23,27,30:B6,11,15,K2")
	testParseMoveText(t, games.Chess(), p960.FEN())
	testParseMoveText(t, games.Xiangqi(), "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1")
}

func testParseMoveText[M comparable, S search.Game[M]](t *testing.T, k games.Kind[M, S], setUp string) {
	t.Helper()
	for i, start := range []string{"", setUp} {
		g, err := k.NewGame(start, games.Setup{})
		if err != nil {
			t.Fatal(err)
		}
		wantStart := k.FEN(g)
		rng := rand.New(rand.NewPCG(uint64(i), 4))
		var moves []M
		for range 60 {
			legal := g.LegalMoves(nil)
			if g.Outcome().Over() {
				break
			}
			m := legal[rng.IntN(len(legal))]
			moves = append(moves, m)
			g.Make(m)
		}
		text, err := k.MoveText(start, moves)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := k.ParseMoveText(start, text)
		if err != nil || rec.Start != wantStart || !slices.Equal(rec.Moves, moves) {
			t.Errorf("%s from %q: %v, start %q, %d moves; want %q, %d moves\n%s", k.Name, start, err, rec.Start, len(rec.Moves), wantStart, len(moves), text)
		}
	}
	if _, err := k.ParseMoveText("no such position", ""); err == nil || !strings.HasPrefix(err.Error(), "start: ") {
		t.Errorf("%s: a bad start gives %v, want an error starting \"start: \"", k.Name, err)
	}
	if _, err := k.ParseMoveText("", "1. zz"); err == nil {
		t.Errorf("%s: 1. zz read without an error", k.Name)
	}
}

// TestParseMoveTextOfNothing: no moves is the start alone.
func TestParseMoveTextOfNothing(t *testing.T) {
	rec, err := games.Chess().ParseMoveText("", "")
	if err != nil || rec.Start != chess.StartFEN || len(rec.Moves) != 0 {
		t.Errorf("ParseMoveText of nothing: %v, %q, %v", err, rec.Start, rec.Moves)
	}
}
