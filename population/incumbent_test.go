package population

import (
	"context"
	"errors"
	"slices"
	"testing"

	"evolved/game"
	"evolved/tournament"
)

// titleState is generation gen of four agents, ids 10 to 13, whose
// champion of the generation before is agent incumbent.
func titleState(gen int, incumbent int64) *State {
	st := &State{Game: "draughts", Generation: gen}
	for i := range 4 {
		st.Agents = append(st.Agents, Agent{ID: int64(10 + i)})
	}
	if gen > 0 {
		st.Champions = []Champion{{Generation: gen - 1, AgentID: incumbent}}
	}
	return st
}

// scripted is a racer whose games end as results says, in turn, from the
// first mover's side; it records what it was asked to play.
func scripted(results []game.Result, asked *[]tournament.Pairing, first *int) racer[int] {
	return func(_ context.Context, schedule []tournament.Pairing, from int) ([]tournament.GameResult[int], error) {
		*asked, *first = schedule, from
		out := make([]tournament.GameResult[int], len(schedule))
		for k, p := range schedule {
			out[k] = tournament.GameResult[int]{Pairing: p, Record: tournament.Record[int]{Outcome: game.Outcome{Result: results[k%len(results)]}}}
		}
		return out, nil
	}
}

// TestTitleMatchByHand checks the title match against outcomes set by
// hand: who plays, from which openings and game numbers, how the games
// are counted for the challenger, and the ranking that comes out.
func TestTitleMatchByHand(t *testing.T) {
	ctx := context.Background()
	cfg := DefaultConfig()
	cfg.ChampionGames = 4
	// Six fitness games, their openings 0 to 2 (a round robin's pairs):
	// the match continues from game 6 and opening 3.
	fitness := drawnRoundRobin(3).Games
	ranking := []int{2, 0, 3, 1} // agent 12 ranked first; the incumbent, 11 (slot 1), last
	w, b, d := game.FirstWins, game.SecondWins, game.Draw

	for _, tc := range []struct {
		name       string
		results    []game.Result // by game: challenger first, incumbent first, ...
		wins       [3]int
		replaced   bool
		wantRanked []int
	}{
		// The challenger wins its first-move games and draws the others: 2-2-0.
		{"challenger wins", []game.Result{w, d}, [3]int{2, 2, 0}, true, []int{2, 0, 3, 1}},
		// Every game won by the first mover: 2 wins, 2 losses, no more wins than losses.
		{"level match", []game.Result{w}, [3]int{2, 0, 2}, false, []int{1, 2, 0, 3}},
		// The incumbent wins both games it plays second, the others drawn: 0-2-2.
		{"incumbent wins", []game.Result{b, d}, [3]int{0, 2, 2}, false, []int{1, 2, 0, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var asked []tournament.Pairing
			first := -1
			c, got, err := challenge(ctx, cfg, titleState(5, 11), slices.Clone(ranking), fitness, scripted(tc.results, &asked, &first))
			if err != nil {
				t.Fatal(err)
			}
			want := []tournament.Pairing{{First: 2, Second: 1, OpeningIndex: 3}, {First: 1, Second: 2, OpeningIndex: 3},
				{First: 2, Second: 1, OpeningIndex: 4}, {First: 1, Second: 2, OpeningIndex: 4}}
			if !slices.Equal(asked, want) || first != len(fitness) {
				t.Errorf("played %+v from game %d, want %+v from game %d", asked, first, want, len(fitness))
			}
			if !c.Played || c.IncumbentID != 11 || c.ChallengerID != 12 || len(c.Games) != 4 {
				t.Errorf("challenge %+v, want agent 12 against champion 11 in 4 games", c)
			}
			if [3]int{c.Wins, c.Draws, c.Losses} != tc.wins || c.Replaced != tc.replaced {
				t.Errorf("challenger %d-%d-%d, replaced %v; want %v, %v", c.Wins, c.Draws, c.Losses, c.Replaced, tc.wins, tc.replaced)
			}
			if !slices.Equal(got, tc.wantRanked) {
				t.Errorf("ranking %v, want %v", got, tc.wantRanked)
			}
		})
	}

	never := func(context.Context, []tournament.Pairing, int) ([]tournament.GameResult[int], error) {
		t.Error("a match was played where none is due")
		return nil, nil
	}
	// Generation 0 has no incumbent; an incumbent ranked first is not challenged.
	for _, st := range []*State{titleState(0, 0), titleState(5, 12)} {
		c, got, err := challenge(ctx, cfg, st, slices.Clone(ranking), fitness, never)
		if err != nil || c.Played || !slices.Equal(got, ranking) {
			t.Errorf("generation %d, incumbent ranked first or none: %+v, ranking %v, %v; want no match and the ranking unchanged", st.Generation, c, got, err)
		}
	}
	// Without the key nothing is played.
	cfg.ChampionGames = 0
	if c, got, err := challenge(ctx, cfg, titleState(5, 11), slices.Clone(ranking), fitness, never); err != nil || c.Played || !slices.Equal(got, ranking) {
		t.Errorf("champion_games = 0: %+v, %v, %v", c, got, err)
	}
	// An incumbent that is not a member is a broken state, named.
	cfg.ChampionGames = 4
	if _, _, err := challenge(ctx, cfg, titleState(5, 99), ranking, fitness, never); err == nil {
		t.Error("an incumbent outside the population was accepted")
	}
	// A failed match is the generation's error.
	boom := errors.New("worker lost")
	failing := func(context.Context, []tournament.Pairing, int) ([]tournament.GameResult[int], error) {
		return nil, boom
	}
	if _, _, err := challenge(ctx, cfg, titleState(5, 11), ranking, fitness, failing); !errors.Is(err, boom) {
		t.Errorf("a failed match gave %v, want it wrapped", err)
	}
}
