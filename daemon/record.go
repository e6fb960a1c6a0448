package daemon

import (
	"fmt"
	"strconv"
	"time"

	"evolved/population"
	"evolved/storage"
	"evolved/tournament"
)

// toRecord turns a generation's report into the database's record, each
// game's moves written by format in the game's own notation from the
// game's start ("" for the standard one).
func toRecord[M comparable](gameName string, rep *population.Report[M], format func(start string, moves []M) (string, error)) (storage.Generation, error) {
	n := len(rep.Agents)
	g := storage.Generation{
		Game: gameName, Generation: rep.Generation, ChampionID: rep.Champion.ID,
		Points: rep.Results.Points, Wins: rep.Results.Wins, Draws: rep.Results.Draws, Losses: rep.Results.Losses,
		Rank: make([]int, n), LadderPlayed: rep.Ladder.Played, LadderMean: rep.Ladder.Mean, Improved: rep.Ladder.Improved,
		Seconds: rep.Elapsed.Seconds(), CreatedAt: time.Now(),
	}
	for r, slot := range rep.Ranking {
		g.Rank[slot] = r + 1
	}
	champSlot := rep.ChampionSlot
	champ := strconv.FormatInt(rep.Champion.ID, 10)
	add := func(kind, first, second string, rec tournament.Record[M], champion bool) error {
		text, err := format(rec.Start, rec.Moves)
		if err != nil {
			return fmt.Errorf("%s game %s vs %s: %w", kind, first, second, err)
		}
		g.Games = append(g.Games, storage.GameRecord{Kind: kind, Start: rec.Start, First: first, Second: second, Opening: rec.Opening,
			Result: rec.Outcome.Result.Tag(), Reason: rec.Outcome.Reason.String(), Moves: text, Champion: champion})
		return nil
	}
	// A slot is an agent's, named by its id, or past the population a hall
	// of fame champion's, named champion:G like the ladder's opponents.
	name := func(slot int) string {
		if slot < n {
			return strconv.FormatInt(rep.Agents[slot].ID, 10)
		}
		return fmt.Sprintf("champion:%d", rep.Hall[slot-n])
	}
	for _, gr := range rep.Results.Games {
		if err := add("tournament", name(gr.First), name(gr.Second), gr.Record, gr.First == champSlot || gr.Second == champSlot); err != nil {
			return g, err
		}
	}
	if c := rep.Challenge; c.Played {
		for _, gr := range c.Games {
			if err := add("challenge", name(gr.First), name(gr.Second), gr.Record, true); err != nil {
				return g, err
			}
		}
		g.Challenge = &storage.ChallengeRecord{IncumbentID: c.IncumbentID, ChallengerID: c.ChallengerID,
			Wins: c.Wins, Draws: c.Draws, Losses: c.Losses, Replaced: c.Replaced}
	}
	matchGames := func(kind, opponent string, m tournament.MatchResult[M]) error {
		for i, rec := range m.Records {
			first, second := champ, opponent
			if !m.AFirst[i] {
				first, second = opponent, champ
			}
			if err := add(kind, first, second, rec, true); err != nil {
				return err
			}
		}
		return nil
	}
	for i, l := range rep.Ladder.Opponents {
		g.Ladder = append(g.Ladder, storage.LadderRecord{OpponentGeneration: l.Generation, Wins: l.Wins, Draws: l.Draws, Losses: l.Losses, Mean: l.Mean})
		if err := matchGames("ladder", fmt.Sprintf("champion:%d", l.Generation), rep.Ladder.Matches[i]); err != nil {
			return g, err
		}
	}
	for _, b := range rep.Baselines {
		g.Baselines = append(g.Baselines, storage.BaselineRecord{Opponent: b.Opponent, Wins: b.Wins, Draws: b.Draws,
			Losses: b.Losses, Score: b.Score, Elo: b.Elo, HalfWidth: b.HalfWidth})
		if err := matchGames("baseline", b.Opponent, b.Match); err != nil {
			return g, err
		}
	}
	if c := rep.Curriculum; c != nil {
		g.Curriculum = &storage.CurriculumRecord{OpponentGeneration: c.Opponent, Wins: c.Wins, Draws: c.Draws, Losses: c.Losses,
			Elo: c.Elo, HalfWidth: c.HalfWidth, Nodes: c.Nodes, NextNodes: c.Next}
	}
	return g, nil
}

// draws counts the drawn tournament games of a record.
func draws(g storage.Generation) int {
	n := 0
	for _, gr := range g.Games {
		if gr.Kind == "tournament" && gr.Result == "1/2-1/2" {
			n++
		}
	}
	return n
}
