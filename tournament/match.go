package tournament

import (
	"context"
	"fmt"

	"golang.org/x/sync/semaphore"

	"evolved/game"
	"evolved/search"
	"evolved/sprt"
)

// MatchOptions configures a match between two players.
type MatchOptions struct {
	// Games is the number of games; colours alternate, and each pair of
	// games (2k, 2k+1) starts from the same opening with colours swapped.
	Games int
	// Concurrency is the number of games played at once; default: the
	// number of CPUs.
	Concurrency int
	// Seed seeds the openings and the players' own random choices.
	Seed uint64
	// Progress, if set, is called after each finished game with the number
	// of games done; calls come from several goroutines, one at a time.
	Progress func(done, total int)
	// Slots, if set, is a game budget shared with other tournaments (see Config).
	Slots *semaphore.Weighted
	// Clock, if not zero, times every game (see Config).
	Clock Clock
	// FixedColors gives A the first move in every game, each game with an
	// opening of its own, instead of alternating colours over shared
	// openings: for measuring a player from one side of a given position.
	FixedColors bool
	// Resume, for a sequential match (SequentialMatch), holds A's scores
	// in the game pairs of the chunks an earlier run of the same match
	// played, in schedule order, whole chunks of SequentialChunkPairs
	// pairs (the last may be shorter when it ends the match): they count
	// in their place and are not played again, so a resumed match decides
	// where the uninterrupted one would have (untimed games are the same
	// games). Their games are not in the result's Records.
	Resume []PairScores
	// ChunkDone, if set, is called by a sequential match after each chunk
	// it plays, with the chunk's number and A's scores in its pairs,
	// before the test looks at them: what a journal keeps for Resume. An
	// error stops the match.
	ChunkDone func(chunk int, pairs []PairScores) error
}

// PairScores are A's scores (1, 0.5 or 0) in a game pair: the game in
// which A moves first, then the one in which B does.
type PairScores [2]float64

// MatchResult holds a match's games and their tally from A's point of view.
type MatchResult[M comparable] struct {
	Wins, Draws, Losses int
	// Records holds every game in schedule order; AFirst[i] tells whether
	// A had the first move in game i.
	Records []Record[M]
	AFirst  []bool
}

// TimeUse sums the clocks of the match's games under clock for A and for
// B (zero when untimed).
func (r MatchResult[M]) TimeUse(clock Clock) (a, b TimeUse) {
	return SumClocks(r.Records, r.AFirst, clock)
}

// SumClocks sums the clocks of games played under clock for one player
// and for its opponents: first[i] tells whether the player moved first in
// games[i].
func SumClocks[M comparable](games []Record[M], first []bool, clock Clock) (player, opponents TimeUse) {
	for i, rec := range games {
		side := game.First
		if !first[i] {
			side = game.Second
		}
		player.Add(rec.Clocks, side, clock)
		opponents.Add(rec.Clocks, side.Other(), clock)
	}
	return player, opponents
}

// Score returns A's score as a fraction: (wins + draws/2) / games.
func (r MatchResult[M]) Score() float64 {
	n := r.Wins + r.Draws + r.Losses
	if n == 0 {
		return 0
	}
	return (float64(r.Wins) + float64(r.Draws)/2) / float64(n)
}

// Pentanomial returns the pentanomial counts of the match's game pairs
// (2k, 2k+1) from A's side: meaningful when colours alternated, so that
// each pair shares an opening with colours swapped. An odd last game is
// left out.
func (r MatchResult[M]) Pentanomial() sprt.Pentanomial {
	var p sprt.Pentanomial
	for k := 0; k+1 < len(r.Records); k += 2 {
		p.Add(r.scoreOfA(k), r.scoreOfA(k+1))
	}
	return p
}

// scoreOfA returns A's score in game k: 1, 0.5 or 0.
func (r MatchResult[M]) scoreOfA(k int) float64 {
	s := r.Records[k].Outcome.Result.FirstScore()
	if !r.AFirst[k] {
		s = 1 - s
	}
	return s
}

// Match plays opts.Games games between the players that newA and newB make:
// A moves first in even games, and games 2k and 2k+1 share their opening
// (with FixedColors, A moves first in every game). It
// is a tournament of two agents, so its results too are the same whatever
// the concurrency.
func Match[M comparable, S search.Game[M]](ctx context.Context, arena Arena[M, S], newA, newB func() search.Player[M, S], opts MatchOptions) (MatchResult[M], error) {
	if opts.Games < 1 {
		return MatchResult[M]{}, fmt.Errorf("tournament: match needs at least one game, got %d", opts.Games)
	}
	schedule := make([]Pairing, opts.Games)
	for i := range schedule {
		schedule[i] = Pairing{First: i % 2, Second: 1 - i%2, OpeningIndex: i / 2}
		if opts.FixedColors {
			schedule[i] = Pairing{First: 0, Second: 1, OpeningIndex: i}
		}
	}
	r, err := Run(ctx, arena, []func() search.Player[M, S]{newA, newB}, schedule, Config{Workers: opts.Concurrency, Slots: opts.Slots, Clock: opts.Clock}, opts.Seed, 0, opts.Progress)
	if err != nil {
		return MatchResult[M]{}, fmt.Errorf("tournament: match: %w", err)
	}
	res := MatchResult[M]{Wins: r.Wins[0], Draws: r.Draws[0], Losses: r.Losses[0],
		Records: make([]Record[M], opts.Games), AFirst: make([]bool, opts.Games)}
	for i, g := range r.Games {
		res.Records[i], res.AFirst[i] = g.Record, g.First == 0
	}
	return res, nil
}
