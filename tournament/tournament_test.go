package tournament

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"evolved/game"
	"evolved/game/draughts"
	"evolved/search"
)

type (
	dm = draughts.Move
	dg = *draughts.Game
)

func draughtsArena() Arena[dm, dg] {
	return Arena[dm, dg]{
		Name:         "draughts",
		NewGame:      func() dg { return draughts.NewGame(draughts.Start(), draughts.DefaultRules()) },
		OpeningPlies: 4,
	}
}

// material is a test evaluator: men 100, kings 150.
type material struct{}

func (material) Evaluate(g dg) int {
	p := g.Position()
	us, them := p.Side, p.Side.Other()
	c := func(b uint32) int { return bits.OnesCount32(b) }
	return 100*(c(p.Men(us))-c(p.Men(them))) + 150*(c(p.KingsOf(us))-c(p.KingsOf(them)))
}

func alphaBeta(depth int) func() search.Player[dm, dg] {
	return func() search.Player[dm, dg] {
		return search.Searcher[dm, dg]{AlphaBeta: search.NewAlphaBeta[dm, dg](material{}, search.Options{Depth: depth, TableBits: 12})}
	}
}

func random() search.Player[dm, dg] { return search.NewRandom[dm, dg]() }

// TestScheduleRounds checks that each round of a round robin replays the
// first round's pairings from openings of its own, and that one round,
// asked for or not, is the schedule without rounds.
func TestScheduleRounds(t *testing.T) {
	one, _ := Schedule(Config{Format: RoundRobin}, 4, nil)
	if again, _ := Schedule(Config{Format: RoundRobin, Rounds: 1}, 4, nil); !slices.Equal(again, one) {
		t.Errorf("one round: %v, want %v", again, one)
	}
	three, err := Schedule(Config{Format: RoundRobin, Rounds: 3}, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(three) != 3*12 {
		t.Fatalf("3 rounds of 4 agents: %d games, want 36", len(three))
	}
	openings := map[int]bool{}
	for r := range 3 {
		for k, p := range three[12*r : 12*(r+1)] {
			if p.First != one[k].First || p.Second != one[k].Second || p.OpeningIndex != one[k].OpeningIndex+6*r {
				t.Errorf("round %d game %d: %+v, want round 1's %+v with opening %d", r, k, p, one[k], one[k].OpeningIndex+6*r)
			}
			openings[p.OpeningIndex] = true
		}
	}
	if len(openings) != 18 {
		t.Errorf("%d openings over 18 pairs of games, want 18", len(openings))
	}
}

func TestScheduleRoundRobin(t *testing.T) {
	s, err := Schedule(Config{Format: RoundRobin}, 15, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 210 {
		t.Fatalf("15 agents: %d games, want 210", len(s))
	}
	seen := map[[2]int]int{}
	for _, p := range s {
		if p.First == p.Second {
			t.Fatalf("agent %d plays itself", p.First)
		}
		seen[[2]int{p.First, p.Second}]++
	}
	for i := range 15 {
		for j := range 15 {
			if i != j && seen[[2]int{i, j}] != 1 {
				t.Errorf("pair (%d first, %d second) scheduled %d times, want 1", i, j, seen[[2]int{i, j}])
			}
		}
	}
	// The two colours of a pair share their opening, and pairs differ.
	for k := 0; k < len(s); k += 2 {
		if s[k].OpeningIndex != s[k+1].OpeningIndex || s[k].First != s[k+1].Second {
			t.Errorf("games %d and %d: %+v and %+v do not form a pair on one opening", k, k+1, s[k], s[k+1])
		}
		if k > 0 && s[k].OpeningIndex == s[k-1].OpeningIndex {
			t.Errorf("game %d shares the opening of the previous pair", k)
		}
	}
}

func TestScheduleBlondie(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	s, err := Schedule(Config{Format: Blondie}, 15, rng)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 75 {
		t.Fatalf("15 agents: %d games, want 75", len(s))
	}
	first := make([]int, 15)
	for _, p := range s {
		if p.First == p.Second || p.Second < 0 || p.Second >= 15 {
			t.Fatalf("bad pairing %+v", p)
		}
		first[p.First]++
	}
	for i, n := range first {
		if n != 5 {
			t.Errorf("agent %d moves first in %d games, want 5", i, n)
		}
	}
	if _, err := Schedule(Config{Format: "swiss"}, 15, rng); !errors.Is(err, ErrFormat) {
		t.Errorf("unknown format: err = %v, want ErrFormat", err)
	}
}

func TestRunIsIndependentOfWorkers(t *testing.T) {
	agents := []func() search.Player[dm, dg]{alphaBeta(1), random, alphaBeta(2), random}
	sched, _ := Schedule(Config{Format: RoundRobin}, len(agents), nil)
	var runs []Results[dm]
	for _, workers := range []int{1, 4} {
		r, err := Run(context.Background(), draughtsArena(), agents, sched, Config{Workers: workers}, 99, 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	a, b := runs[0], runs[1]
	if !slices.Equal(a.Points, b.Points) {
		t.Errorf("points with 1 worker %v, with 4 workers %v", a.Points, b.Points)
	}
	for k := range a.Games {
		if !slices.Equal(a.Games[k].Moves, b.Games[k].Moves) || a.Games[k].Outcome != b.Games[k].Outcome {
			t.Fatalf("game %d differs between 1 and 4 workers", k)
		}
	}
	// Scores follow the +2/0/-1 rule from the tallies.
	for i := range agents {
		if want := 2*a.Wins[i] - a.Losses[i]; a.Points[i] != want {
			t.Errorf("agent %d: %d points, want 2*%d - %d = %d", i, a.Points[i], a.Wins[i], a.Losses[i], want)
		}
	}
}

func TestRunStopsWhenCancelled(t *testing.T) {
	agents := []func() search.Player[dm, dg]{alphaBeta(6), alphaBeta(6)}
	sched := make([]Pairing, 200)
	for i := range sched {
		sched[i] = Pairing{i % 2, 1 - i%2, i}
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := Run(ctx, draughtsArena(), agents, sched, Config{Workers: 2}, 1, 0, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	// Generous: a depth-6 move takes milliseconds; the point is that 200
	// games were not played to the end.
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to stop", d)
	}
}

func TestMatchMaterialBeatsRandom(t *testing.T) {
	r, err := Match(context.Background(), draughtsArena(), alphaBeta(4), random, MatchOptions{Games: 100, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Wins+r.Draws+r.Losses != 100 {
		t.Fatalf("tally %d+%d+%d, want 100 games", r.Wins, r.Draws, r.Losses)
	}
	if r.Wins < 95 {
		t.Errorf("material:4 vs random: +%d =%d -%d, want at least 95 wins", r.Wins, r.Draws, r.Losses)
	}
}

// TestMatchFixedColors checks that A moves first in every game and that
// the games do not share openings in pairs.
func TestMatchFixedColors(t *testing.T) {
	arena := draughtsArena()
	r, err := Match(context.Background(), arena, alphaBeta(2), random, MatchOptions{Games: 6, Seed: 3, FixedColors: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, first := range r.AFirst {
		if !first {
			t.Errorf("game %d: A did not move first", i)
		}
	}
	open := func(i int) string { return fmt.Sprint(r.Records[i].Moves[:arena.OpeningPlies]) }
	if open(0) == open(1) && open(2) == open(3) && open(4) == open(5) {
		t.Errorf("games share openings in pairs: %s %s", open(0), open(1))
	}
}

// sleeper plays random moves, each after a pause.
type sleeper struct {
	*search.Random[dm, dg]
	pause time.Duration
}

func (s sleeper) Move(ctx context.Context, g dg) (search.Result[dm], error) {
	time.Sleep(s.pause)
	return s.Random.Move(ctx, g)
}

func TestClockForfeit(t *testing.T) {
	slow := func() search.Player[dm, dg] { return sleeper{search.NewRandom[dm, dg](), 30 * time.Millisecond} }
	r, err := Match(context.Background(), draughtsArena(), slow, random,
		MatchOptions{Games: 2, Seed: 1, Clock: Clock{Base: 100 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	for i, rec := range r.Records {
		if rec.Outcome.Reason != game.TimeForfeit || r.Losses != 2 {
			t.Errorf("game %d: %v (A lost %d); want the slow player to lose on time", i, rec.Outcome, r.Losses)
		}
	}
	// With time to spare nobody forfeits.
	r, err = Match(context.Background(), draughtsArena(), random, random,
		MatchOptions{Games: 2, Seed: 1, Clock: Clock{Base: 10 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	for i, rec := range r.Records {
		if rec.Outcome.Reason == game.TimeForfeit {
			t.Errorf("game %d lost on time with 10 s for random moves", i)
		}
	}
}

// slowStarter is a random mover that needs startPause to get ready before
// its first move, as an external engine does when it starts, and counts
// the calls to Prepare.
type slowStarter struct {
	*search.Random[dm, dg]
	startPause time.Duration
	prepared   *int
}

func (s slowStarter) Prepare(ctx context.Context, g dg) error {
	if *s.prepared == 0 {
		time.Sleep(s.startPause)
	}
	*s.prepared++
	return nil
}

func TestClockStartsAfterPrepare(t *testing.T) {
	// Getting ready takes 1.2 s, longer than the whole 1 s clock: charged
	// to the clock it would forfeit at the first move. The margin for the
	// random moves themselves holds on a loaded machine.
	for i := range 2 {
		prepared := 0
		slow := func() search.Player[dm, dg] {
			return slowStarter{search.NewRandom[dm, dg](), 1200 * time.Millisecond, &prepared}
		}
		r, err := Match(context.Background(), draughtsArena(), slow, random,
			MatchOptions{Games: 1, Seed: uint64(i), Concurrency: 1, Clock: Clock{Base: time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		rec := r.Records[0]
		if rec.Outcome.Reason == game.TimeForfeit {
			t.Errorf("game %d: %v; the time spent in Prepare was charged to the clock", i, rec.Outcome)
		}
		// Prepare comes before every move of the slow player.
		moved := 0
		for ply := rec.Opening; ply < len(rec.Moves); ply++ {
			if (ply%2 == 0) == r.AFirst[0] {
				moved++
			}
		}
		if prepared != moved {
			t.Errorf("game %d: Prepare called %d times for %d moves", i, prepared, moved)
		}
	}
}

func TestClocksCountEachSide(t *testing.T) {
	// A pauses 2 ms a move; B answers at once. Each side's moves are
	// counted exactly, its clock ends at the base, plus an increment a
	// move, less what it used, and A used at least its pauses.
	pause := 2 * time.Millisecond
	slow := func() search.Player[dm, dg] { return sleeper{search.NewRandom[dm, dg](), pause} }
	clock := Clock{Base: 20 * time.Second, Inc: 50 * time.Millisecond}
	r, err := Match(context.Background(), draughtsArena(), slow, random, MatchOptions{Games: 2, Seed: 4, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	var moves [2]int // A's and B's
	for i, rec := range r.Records {
		c := rec.Clocks
		var want [2]int // by mover
		for ply := rec.Opening; ply < len(rec.Moves); ply++ {
			want[ply%2]++ // draughts' first mover is game.First at ply 0
		}
		if c.Moves != want {
			t.Errorf("game %d: moves by side %v, want %v", i, c.Moves, want)
		}
		for side := range 2 {
			if got := clock.Base + time.Duration(c.Moves[side])*clock.Inc - c.Used[side]; c.Left[side] != got {
				t.Errorf("game %d side %d: %v left, want base + increments - used = %v", i, side, c.Left[side], got)
			}
		}
		a := 0
		if !r.AFirst[i] {
			a = 1
		}
		if c.Used[a] < time.Duration(c.Moves[a])*pause {
			t.Errorf("game %d: A used %v over %d moves of at least %v", i, c.Used[a], c.Moves[a], pause)
		}
		moves[0] += c.Moves[a]
		moves[1] += c.Moves[1-a]
	}
	ta, tb := r.TimeUse(clock)
	if ta.Games != 2 || tb.Games != 2 || ta.Moves != moves[0] || tb.Moves != moves[1] {
		t.Errorf("TimeUse: A %+v, B %+v; want 2 games each and %v moves", ta, tb, moves)
	}
	if want := 2*clock.Base + time.Duration(moves[0])*clock.Inc; ta.Given != want {
		t.Errorf("A was given %v, want %v", ta.Given, want)
	}
	// Untimed games leave the clocks zero.
	r, err = Match(context.Background(), draughtsArena(), random, random, MatchOptions{Games: 2, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i, rec := range r.Records {
		if rec.Clocks != (Clocks{}) {
			t.Errorf("untimed game %d has clocks %+v", i, rec.Clocks)
		}
	}
	if ta, _ := r.TimeUse(Clock{}); ta.String() != "" {
		t.Errorf("untimed TimeUse says %q", ta)
	}
}

func TestTimeUseString(t *testing.T) {
	// Two games at 10+0.1 of 40 and 39 moves: 10 + 4.0 and 10 + 3.9 s
	// given, 4.0 + 5.9 s used, 10.0 + 8.0 s left.
	clock := Clock{Base: 10 * time.Second, Inc: 100 * time.Millisecond}
	var u TimeUse
	u.Add(Clocks{Moves: [2]int{40, 40}, Used: [2]time.Duration{4 * time.Second, time.Second}, Left: [2]time.Duration{10 * time.Second, 13 * time.Second}}, game.First, clock)
	u.Add(Clocks{Moves: [2]int{40, 39}, Used: [2]time.Duration{time.Second, 5900 * time.Millisecond}, Left: [2]time.Duration{13 * time.Second, 8 * time.Second}}, game.Second, clock)
	// 9.9 of 27.9 s is 35%; 9.9 s over 79 moves 0.125 s; 18 s over 2 games.
	if got, want := u.String(), "35% of the clock (0.13 s a move, 9.0 s left at the end of a game)"; got != want {
		t.Errorf("TimeUse %+v says %q, want %q", u, got, want)
	}
}
