package population

import (
	"context"
	"math"
	"slices"
	"testing"

	"evolved/game"
	"evolved/tournament"
)

// drawnRoundRobin returns the results of a round robin among n agents, one
// pair a pairing, every game drawn.
func drawnRoundRobin(n int) tournament.Results[int] {
	var games []tournament.GameResult[int]
	opening := 0
	for a := range n {
		for b := a + 1; b < n; b++ {
			for _, p := range []tournament.Pairing{{First: a, Second: b, OpeningIndex: opening}, {First: b, Second: a, OpeningIndex: opening}} {
				games = append(games, tournament.GameResult[int]{Pairing: p, Record: tournament.Record[int]{Outcome: game.Outcome{Result: game.Draw}}})
			}
			opening++
		}
	}
	return tournament.Tally(n, games, tournament.DefaultScoring)
}

// lowerSlotWins is a racer in which the agent of the lower slot wins every
// game; it checks that each round continues the generation's numbering and
// openings, with both colours of a pair from one opening, and records the
// rounds.
func lowerSlotWins(t *testing.T, played *[][]tournament.Pairing, games *int, openings *int) racer[int] {
	return func(_ context.Context, schedule []tournament.Pairing, first int) ([]tournament.GameResult[int], error) {
		if first != *games {
			t.Errorf("round %d starts at game %d, want %d", len(*played)+1, first, *games)
		}
		out := make([]tournament.GameResult[int], len(schedule))
		for k, p := range schedule {
			if p.OpeningIndex < *openings {
				t.Errorf("round %d game %d reuses opening %d", len(*played)+1, k, p.OpeningIndex)
			}
			if k%2 == 1 && (schedule[k-1].OpeningIndex != p.OpeningIndex || schedule[k-1].First != p.Second || schedule[k-1].Second != p.First) {
				t.Errorf("round %d games %d and %d are not a colour-swapped pair from one opening: %+v, %+v", len(*played)+1, k-1, k, schedule[k-1], p)
			}
			r := game.SecondWins
			if p.First < p.Second {
				r = game.FirstWins
			}
			out[k] = tournament.GameResult[int]{Pairing: p, Record: tournament.Record[int]{Outcome: game.Outcome{Result: r}}}
		}
		for _, p := range schedule {
			*openings = max(*openings, p.OpeningIndex+1)
		}
		*games += len(schedule)
		*played = append(*played, schedule)
		return out, nil
	}
}

// TestRaceByHand checks the race against figures worked by hand: three
// agents, an elite of one, a drawn round robin (each agent 0 points in 4
// games, the pooled spread 1 as for no spread, so a standard error of 1/2
// and an interval of ±0.82 at 90%), and a race in which the lower slot
// always wins.
//
// Round 1, all three (6 games): agent 0 has 8 points in 8 games (1.0),
// agent 1 2 (0.25), agent 2 -4 (-0.5); standard errors 1/sqrt(8), margins
// ±0.58; the boundary (1.0+0.25)/2 = 0.625: agent 2 (at most 0.08) is out,
// 0 and 1 are open. With a budget of 6 that is all: the statistic decides,
// and how sure it is is Phi(0.75 / sqrt(1/8+1/8)) = Phi(1.5). With a
// budget of 12 agents 0 and 1 race again (2 games): 12/10 = 1.2 against
// 0/10, margins ±0.52, boundary 0.6: 0 is in (0.68), 1 out (0.52), and
// the selection is Phi(1.2 / sqrt(0.2)) sure.
func TestRaceByHand(t *testing.T) {
	for _, tc := range []struct {
		budget, games, rounds, undecided int
		sure                             float64
	}{
		{6, 6, 1, 2, 0.5 * math.Erfc(-1.5/math.Sqrt2)},
		{12, 8, 2, 0, 0.5 * math.Erfc(-1.2/math.Sqrt(0.2)/math.Sqrt2)},
		{7, 6, 1, 2, 0.5 * math.Erfc(-1.5/math.Sqrt2)}, // the second round's 2 games would pass 7
	} {
		cfg := Config{Elite: 1, RacingGames: tc.budget, Tournament: tournament.Config{Scoring: tournament.DefaultScoring}}
		r := drawnRoundRobin(3)
		var played [][]tournament.Pairing
		games, openings := len(r.Games), 3
		res, ranking, sel, err := race(context.Background(), cfg, make([]Agent, 3), r, 3, pooledSpread(r), openings,
			lowerSlotWins(t, &played, &games, &openings))
		if err != nil {
			t.Fatal(err)
		}
		want := Selection{RaceGames: tc.games, RaceRounds: tc.rounds, Undecided: tc.undecided}
		got := sel
		got.Sure = 0
		if got != want || math.Abs(sel.Sure-tc.sure) > 1e-12 {
			t.Errorf("budget %d: selection %+v, want %+v with sure %.6f", tc.budget, sel, want, tc.sure)
		}
		if !slices.Equal(ranking, []int{0, 1, 2}) {
			t.Errorf("budget %d: ranking %v, want [0 1 2]", tc.budget, ranking)
		}
		if len(res.Games) != 6+tc.games {
			t.Errorf("budget %d: %d games returned, want the tournament's 6 and the race's %d", tc.budget, len(res.Games), tc.games)
		}
		wantPoints := map[int][]int{6: {8, 2, -4}, 12: {12, 0, -4}, 7: {8, 2, -4}}[tc.budget]
		if !slices.Equal(res.Points, wantPoints) {
			t.Errorf("budget %d: points %v, want %v", tc.budget, res.Points, wantPoints)
		}
	}
}

// TestRaceSpendsOnlyWhereUncertain plays a population of 15 with an elite
// of 5 in which agents 0-2 won every tournament game against 3-14 and the
// rest drew: the three are placed at once and never race, 12 agents race
// for the 2 places left (132 games a round, or the agents nearest the
// boundary that the budget affords, all equally near here, so the lowest
// slots), the budget holds, and the race's winners, the lowest slots,
// take the places.
func TestRaceSpendsOnlyWhereUncertain(t *testing.T) {
	n := 15
	r := drawnRoundRobin(n)
	for k := range r.Games {
		p := r.Games[k].Pairing
		switch {
		case p.First < 3 && p.Second >= 3:
			r.Games[k].Outcome.Result = game.FirstWins
		case p.Second < 3 && p.First >= 3:
			r.Games[k].Outcome.Result = game.SecondWins
		}
	}
	r = tournament.Tally(n, r.Games, tournament.DefaultScoring)
	for _, budget := range []int{0, 50, 90, 300, 2100} {
		cfg := Config{Elite: 5, RacingGames: budget, Tournament: tournament.Config{Scoring: tournament.DefaultScoring}}
		var played [][]tournament.Pairing
		games, openings := len(r.Games), n*(n-1)/2
		_, ranking, sel, err := race(context.Background(), cfg, make([]Agent, n), r, n, pooledSpread(r), openings,
			lowerSlotWins(t, &played, &games, &openings))
		if err != nil {
			t.Fatal(err)
		}
		if sel.RaceGames > budget || sel.RaceGames != games-len(r.Games) {
			t.Errorf("budget %d: %d race games (%d played)", budget, sel.RaceGames, games-len(r.Games))
		}
		for i, round := range played {
			for _, p := range round {
				if p.First < 3 || p.Second < 3 {
					t.Errorf("budget %d round %d: placed agent raced: %+v", budget, i+1, p)
				}
			}
		}
		if !slices.Equal(ranking[:3], []int{0, 1, 2}) {
			t.Errorf("budget %d: ranking %v, want agents 0, 1, 2 first", budget, ranking)
		}
		if first := map[int]int{50: 42, 90: 90, 300: 132, 2100: 132}[budget]; len(played) > 0 && len(played[0]) != first {
			t.Errorf("budget %d: first round of %d games, want %d", budget, len(played[0]), first)
		}
		if budget >= 90 {
			if !slices.Equal(slices.Sorted(slices.Values(ranking[3:5])), []int{3, 4}) {
				t.Errorf("budget %d: ranking %v, want the race's winners 3 and 4 in the elite", budget, ranking)
			}
		}
		if budget == 50 && (len(played) != 3 || sel.RaceGames != 50) {
			t.Errorf("budget 50: %d rounds of %d games, want 3 of 50 (7, 3 and 2 agents)", len(played), sel.RaceGames)
		}
		if budget == 0 && (sel.RaceGames != 0 || sel.Undecided != 12) {
			t.Errorf("budget 0: %+v, want no race and 12 undecided", sel)
		}
		if budget == 2100 && sel.Undecided != 0 {
			t.Errorf("budget 2100: %d undecided, want every agent placed", sel.Undecided)
		}
	}
}
