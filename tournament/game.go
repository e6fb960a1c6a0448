// Package tournament plays games between players: single games from seeded
// random openings, matches of many games between two players, and the
// tournaments of the genetic algorithm, all run concurrently with results
// that do not depend on the number of workers or the order games finish in.
// What a score means in Elo is package elo's; ratings on a calibrated scale
// are package rating's.
package tournament

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"evolved/game"
	"evolved/search"
)

// Arena is what a tournament needs of a game: a fresh game at the standard
// start position under the tournament's rules, and how many random plies
// open each game.
type Arena[M comparable, S search.Game[M]] struct {
	// Name names the game in seeds and records ("draughts").
	Name string
	// NewGame returns a new game at the start position. It is called
	// concurrently and must return independent values.
	NewGame func() S
	// OpeningPlies is the number of uniformly random plies that open each
	// game, so that deterministic players do not replay one game.
	OpeningPlies int
	// Start, if set, returns a new game at a start position of its own,
	// drawn from rng (a Chess960 arrangement, say), which the opening plies
	// then follow; Describe writes such a start for the game's record.
	Start    func(rng *rand.Rand) S
	Describe func(s S) string
	// Adjudicate, if set, may end a game before its rules do (a material
	// advantage that cannot be lost, say); it is asked before every move
	// and reports the outcome when it ends the game.
	Adjudicate func(s S) (game.Outcome, bool)
}

// Record is one played game.
type Record[M comparable] struct {
	// Start is the start position in the game's notation (a FEN), or ""
	// for the standard start position.
	Start string
	// Moves holds every move from the start position; the first Opening
	// of them are the random opening.
	Moves   []M
	Opening int
	Outcome game.Outcome
	// Clocks is what a timed game took from the players' clocks (zero
	// when untimed).
	Clocks Clocks
}

// Clocks is what a timed game took from its players' clocks, indexed by
// the side that moved (game.First, game.Second): each side's moves, its
// thinking time over them, and what its clock showed at the end.
type Clocks struct {
	Moves [2]int
	Used  [2]time.Duration
	Left  [2]time.Duration
}

// TimeUse sums one player's clocks over timed games, to say how much of
// its time a player spends: a player that ends its games with most of its
// clock left plays at a shorter time control than it was given.
type TimeUse struct {
	Games, Moves int
	Used, Left   time.Duration
	// Given is the time the clock gave over those games: the base of each
	// and the increment of each move.
	Given time.Duration
}

// Add counts the game whose clocks are c, played under clock, for the
// player that moved as side.
func (t *TimeUse) Add(c Clocks, side game.Player, clock Clock) {
	t.Games++
	t.Moves += c.Moves[side]
	t.Used += c.Used[side]
	t.Left += c.Left[side]
	t.Given += clock.Base + time.Duration(c.Moves[side])*clock.Inc
}

// Timed reports whether t counts any timed move: only then do its
// figures mean anything.
func (t TimeUse) Timed() bool { return t.Moves > 0 && t.Given > 0 }

// Share is the part of the time given that the player used.
func (t TimeUse) Share() float64 { return t.Used.Seconds() / t.Given.Seconds() }

// PerMove is the player's mean time a move.
func (t TimeUse) PerMove() time.Duration { return t.Used / time.Duration(t.Moves) }

// LeftAtEnd is the mean time left on the player's clock at a game's end.
func (t TimeUse) LeftAtEnd() time.Duration { return t.Left / time.Duration(t.Games) }

// String reports the share of the given time used, the mean time a move
// and the mean clock left at a game's end, or "" before any timed move.
func (t TimeUse) String() string {
	if !t.Timed() {
		return ""
	}
	return fmt.Sprintf("%.0f%% of the clock (%.2f s a move, %.1f s left at the end of a game)",
		100*t.Share(), t.PerMove().Seconds(), t.LeftAtEnd().Seconds())
}

// begin returns a new game for a pairing, and its start position's text:
// from Start when the arena has one, else NewGame's standard start.
func (a Arena[M, S]) begin(rng *rand.Rand) (S, string) {
	if a.Start == nil {
		return a.NewGame(), ""
	}
	s := a.Start(rng)
	start := ""
	if a.Describe != nil {
		start = a.Describe(s)
	}
	return s, start
}

// Opening plays random plies from the start of s, as a game of this arena
// opens, and returns them; s is left after them. An opening that would end
// the game is drawn again from the same generator, so every opening leaves
// a game to play.
func (a Arena[M, S]) Opening(s S, rng *rand.Rand) []M {
	var moves []M
	for attempt := 0; ; attempt++ {
		moves = moves[:0]
		var buf []M
		for len(moves) < a.OpeningPlies && !s.Outcome().Over() {
			buf = s.LegalMoves(buf)
			m := buf[rng.IntN(len(buf))]
			s.Make(m)
			moves = append(moves, m)
		}
		if !s.Outcome().Over() || attempt == 100 {
			return moves
		}
		for range moves {
			s.Unmake()
		}
	}
}

// Clock is a time control: Base for the whole game and Inc added after
// each move, per player. The zero Clock means untimed games.
type Clock struct{ Base, Inc time.Duration }

// Clocked is implemented by players that manage a clock: before each move
// they are told their time, the opponent's and the increment.
type Clocked interface {
	SetClock(mine, theirs, inc time.Duration)
}

// Preparer is implemented by players that have work to do before they can
// think: an external engine to start, or to wait for until it answers
// isready. Play calls Prepare before each of the player's moves and starts
// the player's clock only after it returns, so a time control charges a
// player for its thinking, not for its start-up.
type Preparer[S any] interface {
	Prepare(ctx context.Context, s S) error
}

// Play plays one game on s, from its current position, between first (who
// moves first from the start position) and second, and returns the moves
// it added and the outcome. Each player is told NewGame with its seed.
// A player's error ends the game with that error; a player that returns an
// illegal move loses by adjudication and Play reports an error naming it.
func Play[M comparable, S search.Game[M]](ctx context.Context, s S, first, second search.Player[M, S], seeds [2]uint64) ([]M, game.Outcome, error) {
	return play(ctx, s, first, second, seeds, nil, Clock{}, new(Clocks))
}

// Play plays one game as the package-level Play does, under the arena's
// adjudication and, when clock is not zero, a time control: a player whose
// time runs out loses (game.TimeForfeit). The record holds the moves it
// added (no start, no opening), the outcome and the clocks.
func (a Arena[M, S]) Play(ctx context.Context, s S, first, second search.Player[M, S], seeds [2]uint64, clock Clock) (Record[M], error) {
	var c Clocks
	moves, o, err := play(ctx, s, first, second, seeds, a.Adjudicate, clock, &c)
	return Record[M]{Moves: moves, Outcome: o, Clocks: c}, err
}

// play plays the game, counting the players' thinking in c when clock is
// not zero.
func play[M comparable, S search.Game[M]](ctx context.Context, s S, first, second search.Player[M, S], seeds [2]uint64, adjudicate func(S) (game.Outcome, bool), clock Clock, c *Clocks) ([]M, game.Outcome, error) {
	first.NewGame(seeds[0])
	second.NewGame(seeds[1])
	var moves, legal []M
	left := &c.Left // untimed games leave c zero
	*left = [2]time.Duration{clock.Base, clock.Base}
	for {
		o := s.Outcome()
		if o.Over() {
			return moves, o, nil
		}
		if adjudicate != nil {
			if o, ok := adjudicate(s); ok {
				return moves, o, nil
			}
		}
		if err := ctx.Err(); err != nil {
			return moves, o, err
		}
		mover := s.ToMove()
		p := first
		if mover == game.Second {
			p = second
		}
		if pr, ok := p.(Preparer[S]); ok {
			if err := pr.Prepare(ctx, s); err != nil {
				return moves, game.Outcome{}, fmt.Errorf("%v player at ply %d: %w", mover, s.Ply(), err)
			}
		}
		if clock.Base > 0 {
			if c, ok := p.(Clocked); ok {
				c.SetClock(left[mover], left[mover.Other()], clock.Inc)
			}
		}
		started := time.Now() // after Prepare: the clock measures thinking
		res, err := p.Move(ctx, s)
		if clock.Base > 0 && err == nil {
			took := time.Since(started)
			c.Moves[mover]++
			c.Used[mover] += took
			left[mover] -= took
			if left[mover] < 0 {
				return moves, game.Outcome{Result: game.WinFor(mover.Other()), Reason: game.TimeForfeit}, nil
			}
			left[mover] += clock.Inc
		}
		if err != nil {
			return moves, game.Outcome{}, fmt.Errorf("%v player at ply %d: %w", mover, s.Ply(), err)
		}
		legal = s.LegalMoves(legal)
		if !contains(legal, res.Move) {
			o := game.Outcome{Result: game.WinFor(mover.Other()), Reason: game.Adjudicated}
			return moves, o, fmt.Errorf("%v player at ply %d: illegal move %v", mover, s.Ply(), res.Move)
		}
		s.Make(res.Move)
		moves = append(moves, res.Move)
	}
}

// contains reports whether moves holds m.
func contains[M comparable](moves []M, m M) bool {
	for _, x := range moves {
		if x == m {
			return true
		}
	}
	return false
}
