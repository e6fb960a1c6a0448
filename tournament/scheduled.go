package tournament

import (
	"context"
	"errors"
	"fmt"

	"evolved/game"
	"evolved/search"
	"evolved/seed"
)

// GameID is everything that decides a tournament's game besides its two
// players: the run's seed, the generation, the game's place in the
// schedule and its pairing. The opening comes from (RunSeed, arena,
// Generation, seed.Opening, OpeningIndex) and the players' seeds from
// (RunSeed, arena, Generation, seed.Player, Index), so a game played
// anywhere from its GameID and its players' nets is the same game.
type GameID struct {
	RunSeed    uint64
	Generation int
	// Index is the game's place in the schedule, from 0.
	Index int
	Pairing
}

// PlayScheduled plays the game id with first and second as the pairing's
// First and Second: the same game, move for move, wherever and whenever it
// is played with the same players and clock (untimed games are
// reproducible; see Config.Clock). It is what Run plays for each game of
// its schedule.
func (a Arena[M, S]) PlayScheduled(ctx context.Context, id GameID, first, second search.Player[M, S], clock Clock) (Record[M], error) {
	rng := seed.Rand(id.RunSeed, a.Name, id.Generation, seed.Opening, id.OpeningIndex)
	s, start := a.begin(rng)
	opening := a.Opening(s, rng)
	ps := seed.Derive(id.RunSeed, a.Name, id.Generation, seed.Player, id.Index)
	rec, err := a.Play(ctx, s, first, second, [2]uint64{seed.Split(ps, 0), seed.Split(ps, 1)}, clock)
	if err != nil {
		return Record[M]{}, fmt.Errorf("game %d (agent %d vs %d): %w", id.Index+1, id.First, id.Second, err)
	}
	rec.Start, rec.Moves, rec.Opening = start, append(opening, rec.Moves...), len(opening)
	return rec, nil
}

// ErrForged is wrapped by Verify's errors: a record that is not a game of
// its GameID played by the rules.
var ErrForged = errors.New("not a game played by the rules")

// Verify checks that rec could be the untimed game id of this arena,
// without replaying the players' searches: its start and its opening are
// those the seeds give, every move is legal where it is played, the game
// goes on (neither over by the rules nor adjudicated) until its last move,
// and its outcome is the one the rules or the adjudication give there. The
// error wraps ErrForged and names the first thing wrong. A record that
// passes may still have moves other than those the players would choose;
// only replaying their searches tells that.
func (a Arena[M, S]) Verify(id GameID, rec Record[M]) error {
	rng := seed.Rand(id.RunSeed, a.Name, id.Generation, seed.Opening, id.OpeningIndex)
	s, start := a.begin(rng)
	opening := a.Opening(s, rng)
	if rec.Start != start {
		return fmt.Errorf("game %d: %w: start %q, want %q", id.Index+1, ErrForged, rec.Start, start)
	}
	if rec.Opening != len(opening) || len(rec.Moves) < len(opening) {
		return fmt.Errorf("game %d: %w: an opening of %d plies, want %d", id.Index+1, ErrForged, rec.Opening, len(opening))
	}
	for i, m := range opening {
		if rec.Moves[i] != m {
			return fmt.Errorf("game %d: %w: opening ply %d is %v, want %v", id.Index+1, ErrForged, i+1, rec.Moves[i], m)
		}
	}
	var legal []M
	for i, m := range rec.Moves[len(opening):] {
		ply := len(opening) + i + 1
		if o, over := a.ended(s); over {
			return fmt.Errorf("game %d: %w: ply %d played after the game ended (%v)", id.Index+1, ErrForged, ply, o.Result)
		}
		legal = s.LegalMoves(legal)
		if !contains(legal, m) {
			return fmt.Errorf("game %d: %w: ply %d, %v, is illegal", id.Index+1, ErrForged, ply, m)
		}
		s.Make(m)
	}
	o, over := a.ended(s)
	if !over {
		return fmt.Errorf("game %d: %w: the game is not over after its %d plies", id.Index+1, ErrForged, len(rec.Moves))
	}
	if o != rec.Outcome {
		return fmt.Errorf("game %d: %w: outcome %v (%v), want %v (%v)", id.Index+1, ErrForged,
			rec.Outcome.Result, rec.Outcome.Reason, o.Result, o.Reason)
	}
	return nil
}

// ended returns the outcome of s if the game is over there, by the rules
// or by the arena's adjudication, as play decides before each move.
func (a Arena[M, S]) ended(s S) (game.Outcome, bool) {
	if o := s.Outcome(); o.Over() {
		return o, true
	}
	if a.Adjudicate != nil {
		if o, ok := a.Adjudicate(s); ok {
			return o, true
		}
	}
	return game.Outcome{}, false
}

// Tally returns the results of a tournament among n agents from its
// games: each agent's points under sc (DefaultScoring when zero), wins,
// draws and losses. Run tallies its games with it; a tournament played
// elsewhere is tallied the same way.
func Tally[M comparable](n int, games []GameResult[M], sc Scoring) Results[M] {
	if sc == (Scoring{}) {
		sc = DefaultScoring
	}
	res := Results[M]{Games: games, Points: make([]int, n), Wins: make([]int, n), Draws: make([]int, n), Losses: make([]int, n)}
	for _, gr := range games {
		a, b := gr.First, gr.Second
		switch gr.Outcome.Result {
		case game.FirstWins:
			res.Points[a] += sc.Win
			res.Points[b] += sc.Loss
			res.Wins[a]++
			res.Losses[b]++
		case game.SecondWins:
			res.Points[b] += sc.Win
			res.Points[a] += sc.Loss
			res.Wins[b]++
			res.Losses[a]++
		default:
			res.Points[a] += sc.Draw
			res.Points[b] += sc.Draw
			res.Draws[a]++
			res.Draws[b]++
		}
	}
	return res
}
