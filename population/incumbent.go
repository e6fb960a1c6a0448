package population

import (
	"context"
	"fmt"
	"slices"

	"evolved/tournament"
)

// The title match (Config.ChampionGames). When a population's agents
// differ by less than a generation's games can tell, the best-ranked agent
// is mostly the luckiest, and a champion chosen by rank wanders with the
// luck. With a title match the champion is an incumbent: the champion of
// the generation before, which is always a member (it leads the ranking
// and so the elite), keeps the title unless the generation's best-ranked
// other agent beats it head to head, in ChampionGames games from paired
// openings, by more wins than losses. The champion leads the ranking, so
// it heads the elite and the breeding too. The match's games are played
// like the race's, through the Env, as the tournament's, so
// they go to the workers unchanged; they decide only the title, not the
// agents' points.

// Challenge is a generation's title match.
type Challenge[M comparable] struct {
	// Played reports whether the match was played: not in generation 0
	// (no incumbent yet), nor when the incumbent ranked first itself.
	Played bool
	// IncumbentID is the champion of the generation before, ChallengerID
	// the best-ranked other agent (0 when not played).
	IncumbentID, ChallengerID int64
	// Wins, Draws and Losses are the challenger's.
	Wins, Draws, Losses int
	// Replaced reports whether the challenger won more games than it lost
	// and took the title.
	Replaced bool
	// Games holds the match, numbered after the generation's fitness games.
	Games []tournament.GameResult[M] `json:"-"`
}

// ChallengeGames returns the most games generation's title match plays
// (none when the incumbent ranks first): ChampionGames from generation 1
// on, none without a title match.
func (c Config) ChallengeGames(generation int) int {
	if generation < 1 {
		return 0
	}
	return c.ChampionGames
}

// challenge plays generation st.Generation's title match on the ranking
// the fitness games gave and returns the ranking with the champion first.
// fitness is the generation's fitness games, which the match's games and
// openings continue.
func challenge[M comparable](ctx context.Context, cfg Config, st *State, ranking []int, fitness []tournament.GameResult[M],
	play racer[M]) (Challenge[M], []int, error) {
	var c Challenge[M]
	if cfg.ChallengeGames(st.Generation) == 0 || len(st.Champions) == 0 {
		return c, ranking, nil
	}
	c.IncumbentID = st.Champions[len(st.Champions)-1].AgentID
	incumbent := slices.IndexFunc(st.Agents, func(a Agent) bool { return a.ID == c.IncumbentID })
	if incumbent < 0 {
		return c, nil, fmt.Errorf("population: generation %d: the champion of generation %d, agent %d, is not a member: a title match needs it in the elite",
			st.Generation, st.Generation-1, c.IncumbentID)
	}
	challenger := ranking[0]
	if challenger == incumbent {
		return c, ranking, nil
	}
	c.Played, c.ChallengerID = true, st.Agents[challenger].ID
	opening := nextOpening(pairingsOf(fitness))
	schedule := make([]tournament.Pairing, 0, cfg.ChampionGames)
	for k := range cfg.ChampionGames / 2 {
		schedule = append(schedule, tournament.Pairing{First: challenger, Second: incumbent, OpeningIndex: opening + k},
			tournament.Pairing{First: incumbent, Second: challenger, OpeningIndex: opening + k})
	}
	games, err := play(ctx, schedule, len(fitness))
	if err != nil {
		return c, nil, fmt.Errorf("population: generation %d: title match of agent %d against champion %d: %w", st.Generation, c.ChallengerID, c.IncumbentID, err)
	}
	if len(games) != len(schedule) {
		return c, nil, fmt.Errorf("population: generation %d: title match: %d games played of %d", st.Generation, len(games), len(schedule))
	}
	c.Games = games
	// The agents' slots, so that Tally counts from each one's side.
	t := tournament.Tally(len(st.Agents), games, cfg.Tournament.Scoring)
	c.Wins, c.Draws, c.Losses = t.Wins[challenger], t.Draws[challenger], t.Losses[challenger]
	c.Replaced = c.Wins > c.Losses
	if c.Replaced {
		return c, ranking, nil
	}
	out := make([]int, 0, len(ranking))
	out = append(out, incumbent)
	for _, slot := range ranking {
		if slot != incumbent {
			out = append(out, slot)
		}
	}
	return c, out, nil
}

// pairingsOf returns the pairings of games.
func pairingsOf[M comparable](games []tournament.GameResult[M]) []tournament.Pairing {
	out := make([]tournament.Pairing, len(games))
	for i, g := range games {
		out[i] = g.Pairing
	}
	return out
}
