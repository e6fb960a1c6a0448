package rating_test

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"evolved/game/draughts"
	"evolved/games"
	"evolved/player"
	"evolved/rating"
	"evolved/search"
	"evolved/tournament"
)

type (
	move  = draughts.Move
	board = *draughts.Game
)

// opponents builds anchors from specs and ratings.
func opponents(t *testing.T, specs []string, elos []float64) []rating.Opponent[move, board] {
	t.Helper()
	out := make([]rating.Opponent[move, board], len(specs))
	for i, s := range specs {
		p, err := player.ParseDraughts(s)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = rating.Opponent[move, board]{Name: s, Elo: elos[i], New: rating.Unclocked(p.New)}
	}
	return out
}

func arena() tournament.Arena[move, board] {
	return games.Draughts().Arena(games.Setup{MaxMoves: 100, OpeningPlies: 4})
}

func rated(t *testing.T, spec string) func() search.Player[move, board] {
	t.Helper()
	p, err := player.ParseDraughts(spec)
	if err != nil {
		t.Fatal(err)
	}
	return p.New
}

func TestRateIsIndependentOfConcurrency(t *testing.T) {
	anchors := opponents(t, []string{"random", "material:1", "material:3", "material:5"}, []float64{0, 500, 800, 1000})
	var reports []rating.Report[move]
	for _, workers := range []int{1, 3} {
		var lastDone int
		var last rating.Rated
		var lastValid bool
		var mu sync.Mutex
		rep, err := rating.Rate(context.Background(), arena(), rated(t, "material:2"), anchors,
			rating.Options{Games: 40, RoundPairs: 4, Concurrency: workers, Seed: 2026,
				Progress: func(done, _ int, r rating.Rated, valid bool) {
					mu.Lock()
					defer mu.Unlock()
					lastDone, last, lastValid = done, r, valid
				}})
		if err != nil {
			t.Fatal(err)
		}
		// What a live line shows last is what the report says.
		if lastDone != 40 || !lastValid || last != rep.Rating {
			t.Errorf("%d workers: last progress %d games, %+v (valid %v); the report %+v", workers, lastDone, last, lastValid, rep.Rating)
		}
		rep.Elapsed = 0
		reports = append(reports, rep)
	}
	if !reflect.DeepEqual(reports[0], reports[1]) {
		t.Errorf("1 worker: %+v\n3 workers: %+v", reports[0].Rating, reports[1].Rating)
	}
	r := reports[0]
	if r.Rating.Games != 40 || len(r.Games) != 40 {
		t.Errorf("%d games rated, %d recorded, want 40", r.Rating.Games, len(r.Games))
	}
	total := 0
	for i, a := range r.Anchors {
		total += a.Games()
		if a.Name != anchors[i].Name || a.Elo != anchors[i].Elo {
			t.Errorf("tally %d is %s at %v", i, a.Name, a.Elo)
		}
	}
	if total != 40 {
		t.Errorf("tallies hold %d games", total)
	}
	// Colours: the rated player moves first in exactly half the games.
	first := 0
	for _, f := range r.PlayerFirst {
		if f {
			first++
		}
	}
	if first != 20 {
		t.Errorf("rated player moved first in %d of 40 games", first)
	}
}

// TestRateFindsAnAnchorsOwnRating rates a player that is also an anchor:
// its interval must hold the anchor's rating. The games are seeded, so the
// outcome is fixed; a sign or colour mistake in the bookkeeping moves the
// estimate hundreds of Elo away.
func TestRateFindsAnAnchorsOwnRating(t *testing.T) {
	anchors := opponents(t, []string{"random", "material:1", "material:3", "material:5"}, []float64{0, 420, 800, 1030})
	rep, err := rating.Rate(context.Background(), arena(), rated(t, "material:3"), anchors,
		rating.Options{Games: 64, Concurrency: 2, Seed: 2026})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Rating
	if math.Abs(r.Elo-800) > r.HalfWidth || r.HalfWidth > 250 {
		t.Errorf("material:3 rated %.0f ± %.0f, want its anchor rating 800 inside the interval", r.Elo, r.HalfWidth)
	}
	// The second and later rounds play near the estimate: the strongest
	// anchors, not random.
	if rep.Anchors[0].Games() > 16 {
		t.Errorf("random played %d of 64 games; the plan should move to the anchors near 800", rep.Anchors[0].Games())
	}
}

// slow is a draughts player that thinks for a fixed time per move and
// then plays the first legal move.
type slow struct{ think time.Duration }

func (slow) NewGame(uint64) {}

func (s slow) Move(ctx context.Context, g board) (search.Result[move], error) {
	time.Sleep(s.think)
	return search.Result[move]{Move: g.LegalMoves(nil)[0]}, nil
}

func TestRateRefusesGamesLostOnTime(t *testing.T) {
	anchors := opponents(t, []string{"random", "material:1"}, []float64{0, 500})
	_, err := rating.Rate(context.Background(), arena(), func() search.Player[move, board] { return slow{think: 30 * time.Millisecond} }, anchors,
		rating.Options{Games: 2, Seed: 1, Clock: tournament.Clock{Base: 50 * time.Millisecond}})
	if !errors.Is(err, rating.ErrForfeit) || !strings.Contains(err.Error(), "the rated player lost") {
		t.Errorf("err = %v, want ErrForfeit naming the rated player", err)
	}
}

func TestUnclockedHidesTheClock(t *testing.T) {
	p, err := player.ParseDraughts("material:2")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.New().(tournament.Clocked); !ok {
		t.Fatal("material:2 takes no clock: the test would prove nothing")
	}
	if _, ok := rating.Unclocked(p.New)().(tournament.Clocked); ok {
		t.Error("an unclocked player still takes the clock")
	}
}

func TestRateRefusesBadInput(t *testing.T) {
	anchors := opponents(t, []string{"material:3", "random"}, []float64{800, 0})
	if _, err := rating.Rate(context.Background(), arena(), rated(t, "random"), anchors, rating.Options{Games: 2}); err == nil || !strings.Contains(err.Error(), "weakest first") {
		t.Errorf("unordered anchors: %v", err)
	}
	if _, err := rating.Rate(context.Background(), arena(), rated(t, "random"), anchors[:1], rating.Options{}); err == nil {
		t.Error("no games: no error")
	}
	if _, err := rating.Rate(context.Background(), arena(), rated(t, "random"), nil, rating.Options{Games: 2}); err == nil {
		t.Error("no anchors: no error")
	}
}

// TestDraughtsLadderRefitsConsistently re-fits four neighbours of the
// built-in draughts ladder from a small fresh sample (another seed than
// the ladder's), the weakest held at its rating in the file: each fitted
// rating must agree with the file's within the two intervals. A ladder
// file edited by hand, fitted under other settings, or with its players
// swapped fails.
func TestDraughtsLadderRefitsConsistently(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 240 games (skipped with -short)")
	}
	l, err := rating.DefaultLadder("draughts")
	if err != nil {
		t.Fatal(err)
	}
	specs := []string{"material:2#none", "material:3#none", "material:4#none", "material:5#none"}
	file := make(map[string]rating.Anchor)
	for _, a := range l.Anchors {
		file[a.Player] = a
	}
	players := make([]rating.Opponent[move, board], len(specs))
	for i, s := range specs {
		a, ok := file[s]
		if !ok {
			t.Fatalf("the draughts ladder has no %s", s)
		}
		p, err := player.ParseDraughts(s)
		if err != nil {
			t.Fatal(err)
		}
		players[i] = rating.Opponent[move, board]{Name: s, Elo: math.NaN(), New: p.New}
		if i == 0 {
			players[i].Elo = a.Elo
		}
	}
	cal, err := rating.Calibrate(context.Background(), games.Draughts().Arena(games.Setup{MaxMoves: l.MoveLimit(), OpeningPlies: l.Plies()}), players,
		rating.CalibrateOptions{Pairs: 20, Seed: 2026})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range specs[1:] {
		got, want := cal.Ratings[i+1], file[s]
		if d := math.Abs(got.Elo - want.Elo); d > got.HalfWidth+want.HalfWidth {
			t.Errorf("%s: refitted %.0f ± %.0f, the ladder file says %.0f ± %.0f", s, got.Elo, got.HalfWidth, want.Elo, want.HalfWidth)
		}
	}
}

func TestReportTimeUseSidesWithTheRatedPlayer(t *testing.T) {
	// Game 0: the rated player first; game 1: second. Its clocks are the
	// first side's in game 0 and the second's in game 1.
	clock := tournament.Clock{Base: 10 * time.Second, Inc: 100 * time.Millisecond}
	rep := rating.Report[move]{
		PlayerFirst: []bool{true, false},
		Games: []tournament.Record[move]{
			{Clocks: tournament.Clocks{Moves: [2]int{30, 29}, Used: [2]time.Duration{3 * time.Second, 7 * time.Second}}},
			{Clocks: tournament.Clocks{Moves: [2]int{20, 20}, Used: [2]time.Duration{9 * time.Second, 2 * time.Second}}},
		},
	}
	rated, anchors := rep.TimeUse(clock)
	if rated.Moves != 50 || rated.Used != 5*time.Second || rated.Given != 25*time.Second {
		t.Errorf("rated: %+v, want 50 moves, 5 s used of 25 s", rated)
	}
	if anchors.Moves != 49 || anchors.Used != 16*time.Second || anchors.Given != 24900*time.Millisecond {
		t.Errorf("anchors: %+v, want 49 moves, 16 s used of 24.9 s", anchors)
	}
}
