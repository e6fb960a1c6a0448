package climb_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"evolved/climb"
	"evolved/game/draughts"
	"evolved/games"
	"evolved/search"
	"evolved/tournament"
)

// players returns the makers of the draughts players of specs.
func players(t *testing.T, specs ...string) map[string]func() search.Player[draughts.Move, *draughts.Game] {
	t.Helper()
	out := map[string]func() search.Player[draughts.Move, *draughts.Game]{}
	for _, spec := range specs {
		s, err := games.Draughts().Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		out[spec] = s.New
	}
	return out
}

// TestPlay checks that each point is its champion's own match against the
// opponent, played as tournament.Match plays it alone, with the hours and
// budget of its generation, and that progress counts the games of all
// the matches.
func TestPlay(t *testing.T) {
	k := games.Draughts()
	arena := k.Arena(games.Setup{MaxMoves: 30, OpeningPlies: 2})
	ps := players(t, "random", "material:1", "material:2")
	champions := map[int]string{3: "material:1", 5: "material:2"}
	opts := tournament.MatchOptions{Games: 6, Concurrency: 2, Seed: 7}
	var done []int
	var measured []climb.Point
	c := climb.Climb[draughts.Move, *draughts.Game]{
		Arena:    arena,
		Opponent: ps["random"],
		Champion: func(g int) (func() search.Player[draughts.Move, *draughts.Game], error) { return ps[champions[g]], nil },
		Budget:   func(g int) (int64, error) { return int64(1000 * g), nil },
		Hours:    map[int]float64{3: 1.5, 5: 2.5},
		Match:    opts,
		Progress: func(n, g int) { done = append(done, n) },
		Measured: func(p climb.Point) { measured = append(measured, p) },
	}
	points, err := c.Play(context.Background(), []int{3, 5})
	if err != nil {
		t.Fatal(err)
	}
	var want []climb.Point
	for _, g := range []int{3, 5} {
		res, err := tournament.Match(context.Background(), arena, ps[champions[g]], ps["random"], opts)
		if err != nil {
			t.Fatal(err)
		}
		p := climb.NewPoint(g, c.Hours[g], res.Wins, res.Draws, res.Losses)
		p.Nodes = int64(1000 * g)
		want = append(want, p)
	}
	if !reflect.DeepEqual(points, want) {
		t.Errorf("Play = %+v, want %+v", points, want)
	}
	if !reflect.DeepEqual(measured, want) {
		t.Errorf("Measured saw %+v, want %+v", measured, want)
	}
	if len(done) != 12 || done[len(done)-1] != 12 {
		t.Errorf("Progress saw %v, want 12 calls ending at 12 games", done)
	}
}

// TestPlayErrors checks that a champion's error stops the climb as it is,
// with the points measured before it, and that a budget's error is
// wrapped.
func TestPlayErrors(t *testing.T) {
	k := games.Draughts()
	ps := players(t, "random")
	errMissing, errBudget := errors.New("no such champion"), errors.New("no budget")
	c := climb.Climb[draughts.Move, *draughts.Game]{
		Arena:    k.Arena(games.Setup{MaxMoves: 10}),
		Opponent: ps["random"],
		Champion: func(g int) (func() search.Player[draughts.Move, *draughts.Game], error) {
			if g == 2 {
				return nil, errMissing
			}
			return ps["random"], nil
		},
		Match: tournament.MatchOptions{Games: 2, Concurrency: 1, Seed: 1},
	}
	points, err := c.Play(context.Background(), []int{1, 2, 3})
	if err != errMissing || len(points) != 1 || points[0].Generation != 1 {
		t.Errorf("Play with a missing champion = %+v, %v, want generation 1's point and the champion's error", points, err)
	}
	c.Budget = func(int) (int64, error) { return 0, errBudget }
	if _, err := c.Play(context.Background(), []int{1}); !errors.Is(err, errBudget) || err.Error() != "climb: no budget" {
		t.Errorf("Play with a failing budget = %v, want climb: no budget", err)
	}
}
