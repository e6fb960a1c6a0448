package classic

import (
	"context"
	"testing"

	"evolved/game/xiangqi"
	"evolved/longtest"
	"evolved/search"
	"evolved/tournament"
)

// TestBeatsRandom plays the classic player against a random mover: 100
// games from the start position under the default rules (a draw after
// 150 moves each or by threefold repetition), colours alternating, the
// random mover seeded per game by the match. The classic player must win
// at least 95. With this seed it wins 97 and draws 3, each by threefold
// repetition: it checks the lone general back and forth with a chariot,
// blind to repetitions like the program it reproduces. The match takes
// some 10 s of CPU, so it runs only with the long tests ($EVOLVED_LONG).
func TestBeatsRandom(t *testing.T) {
	longtest.Skip(t, "a strength test, 100 games against a random mover")
	arena := tournament.Arena[xiangqi.Move, *xiangqi.Game]{
		Name:    "xiangqi",
		NewGame: func() *xiangqi.Game { return xiangqi.NewGame(xiangqi.Start(), xiangqi.DefaultRules()) },
	}
	res, err := tournament.Match(context.Background(), arena,
		func() search.Player[xiangqi.Move, *xiangqi.Game] { return New() },
		func() search.Player[xiangqi.Move, *xiangqi.Game] {
			return search.NewRandom[xiangqi.Move, *xiangqi.Game]()
		},
		tournament.MatchOptions{Games: 100, Concurrency: 2, Seed: 2024})
	if err != nil {
		t.Fatal(err)
	}
	plies := 0
	for _, r := range res.Records {
		plies += len(r.Moves)
	}
	t.Logf("classic against random: %d wins, %d draws, %d losses, %.1f plies a game", res.Wins, res.Draws, res.Losses, float64(plies)/float64(len(res.Records)))
	if res.Wins < 95 {
		t.Errorf("classic won %d of 100 games against a random mover, want at least 95", res.Wins)
	}
}
