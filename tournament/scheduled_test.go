package tournament

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"evolved/game"
	"evolved/search"
)

// TestPlayScheduledIsRunsGame checks that PlayScheduled plays, from a
// GameID alone, the very game Run plays at that place of its schedule.
func TestPlayScheduledIsRunsGame(t *testing.T) {
	arena := draughtsArena()
	schedule := []Pairing{{0, 1, 0}, {1, 0, 0}, {0, 1, 1}}
	res, err := Run(context.Background(), arena, []func() search.Player[dm, dg]{alphaBeta(2), alphaBeta(3)}, schedule, Config{Workers: 2}, 11, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, pr := range schedule {
		players := []search.Player[dm, dg]{alphaBeta(2)(), alphaBeta(3)()}
		rec, err := arena.PlayScheduled(context.Background(), GameID{RunSeed: 11, Generation: 7, Index: k, Pairing: pr}, players[pr.First], players[pr.Second], Clock{})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Games[k].Record; got.Start != rec.Start || got.Opening != rec.Opening || got.Outcome != rec.Outcome || !slices.Equal(got.Moves, rec.Moves) {
			t.Errorf("game %d: PlayScheduled played %d plies (%v), Run %d (%v)", k+1, len(rec.Moves), rec.Outcome, len(got.Moves), got.Outcome)
		}
	}
}

// TestVerify checks that Verify accepts a real game and names what is
// wrong with records that were tampered with: a changed outcome, a
// different opening, an illegal move, a game cut short and a move after
// the end.
func TestVerify(t *testing.T) {
	arena := draughtsArena()
	arena.Adjudicate = nil
	id := GameID{RunSeed: 3, Generation: 2, Index: 5, Pairing: Pairing{First: 0, Second: 1, OpeningIndex: 4}}
	rec, err := arena.PlayScheduled(context.Background(), id, alphaBeta(3)(), alphaBeta(1)(), Clock{})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Outcome.Over() || len(rec.Moves) <= rec.Opening+2 {
		t.Fatalf("the test game is too short to tamper with: %d plies, %v", len(rec.Moves), rec.Outcome)
	}
	if err := arena.Verify(id, rec); err != nil {
		t.Fatalf("a real game: %v", err)
	}
	tamper := func(f func(r *Record[dm])) Record[dm] {
		r := rec
		r.Moves = slices.Clone(rec.Moves)
		f(&r)
		return r
	}
	other := rec.Outcome
	other.Result = game.Draw
	if rec.Outcome.Result == game.Draw {
		other.Result = game.FirstWins
	}
	for name, tc := range map[string]struct {
		rec  Record[dm]
		want string
	}{
		"outcome":       {tamper(func(r *Record[dm]) { r.Outcome = other }), "outcome"},
		"opening":       {tamper(func(r *Record[dm]) { r.Moves[0], r.Moves[1] = r.Moves[1], r.Moves[0] }), "opening ply 1"},
		"opening count": {tamper(func(r *Record[dm]) { r.Opening-- }), "an opening of"},
		"illegal":       {tamper(func(r *Record[dm]) { r.Moves[r.Opening+1] = r.Moves[r.Opening] }), "is illegal"},
		"cut short":     {tamper(func(r *Record[dm]) { r.Moves = r.Moves[:len(r.Moves)-1] }), "not over"},
		"another game":  {rec, "opening ply 1"}, // verified as a game of the next generation
	} {
		vid := id
		if name == "another game" {
			vid.Generation++ // another opening, whose first ply differs
		}
		err := arena.Verify(vid, tc.rec)
		if !errors.Is(err, ErrForged) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrForged naming %q", name, err, tc.want)
		}
	}
	// A move after the end: the game's last position has none to play,
	// so append the first legal move of a position one ply earlier.
	long := tamper(func(r *Record[dm]) { r.Moves = append(r.Moves, r.Moves[len(r.Moves)-1]) })
	if err := arena.Verify(id, long); !errors.Is(err, ErrForged) {
		t.Errorf("a move after the end: %v, want ErrForged", err)
	}
}
