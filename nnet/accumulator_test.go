package nnet

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"evolved/game"
	"evolved/game/draughts"
)

// walk plays random legal moves from draughts.Start(), pushing each
// position on acc and popping at random (and at the end of a game or at
// maxDepth), for steps steps. After every Reset, Push and Pop it calls
// check with the path's current position.
func walk(rng *rand.Rand, acc *DraughtsAccumulator, games, steps, maxDepth int, check func(p draughts.Position)) {
	var buf []draughts.Move
	for range games {
		path := []draughts.Position{draughts.Start()}
		acc.Reset(path[0])
		check(path[0])
		for range steps {
			top := path[len(path)-1]
			buf = top.Moves(buf)
			if len(path) > 1 && (len(buf) == 0 || len(path) > maxDepth || rng.IntN(4) == 0) {
				acc.Pop()
				path = path[:len(path)-1]
			} else if len(buf) > 0 {
				p := top.Play(buf[rng.IntN(len(buf))])
				if rng.IntN(2) == 0 { // the two ways in, as the tests' and a search's
					acc.Push(p)
				} else {
					acc.PushPieces(p.Black, p.White, p.Kings)
				}
				path = append(path, p)
			}
			check(path[len(path)-1])
		}
	}
}

// TestAccumulatorMatchesFromScratch walks random games and, after every
// push and every pop, compares the incremental value for both points of view
// (in random order) with the from-scratch one, which must be identical, and
// with the plain reference (91 inputs, Net.Forward), to evalTolerance.
func TestAccumulatorMatchesFromScratch(t *testing.T) {
	for _, flags := range []Flags{0, allExtras} {
		e := testEval(t, flags, 21)
		acc := e.NewAccumulator()
		rng := newRNG(22)
		checks := 0
		walk(rng, acc, 20, 300, 80, func(p draughts.Position) {
			if acc.pos[acc.top] != boardOf(&p) {
				t.Fatalf("board %+v, want that of %+v", acc.pos[acc.top], p)
			}
			first := game.Player(rng.IntN(2))
			for _, pov := range []game.Player{first, first ^ 1} {
				got, want := acc.Evaluate(pov), e.Evaluate(p, pov)
				if got != want {
					t.Fatalf("flags %v, ply %d, pov %v: incremental %v, from scratch %v", flags, acc.Ply(), pov, got, want)
				}
				if ref := reference(e.Net(), p, pov); math.Abs(got-ref) > evalTolerance {
					t.Fatalf("flags %v, ply %d, pov %v: incremental %v, reference %v", flags, acc.Ply(), pov, got, ref)
				}
				checks++
			}
		})
		if checks < 10000 {
			t.Errorf("only %d checks", checks)
		}
	}
}

// TestAccumulatorLazy evaluates only now and then, one point of view at a
// time, so that updates start from ancestors several plies up and from
// plies computed for the other point of view only.
func TestAccumulatorLazy(t *testing.T) {
	for _, flags := range []Flags{0, allExtras} {
		e := testEval(t, flags, 23)
		acc := e.NewAccumulator()
		rng := newRNG(24)
		walk(rng, acc, 20, 400, 100, func(p draughts.Position) {
			if rng.IntN(5) != 0 {
				return
			}
			pov := game.Player(rng.IntN(2))
			if got, want := acc.Evaluate(pov), e.Evaluate(p, pov); got != want {
				t.Fatalf("flags %v, ply %d, pov %v: incremental %v, from scratch %v", flags, acc.Ply(), pov, got, want)
			}
		})
	}
}

// TestAccumulatorGrows pushes far beyond the preallocated 128 plies and
// pops back. The positions are unrelated (the accumulator does not need
// them to be a move apart), so updates also take the from-scratch branch.
func TestAccumulatorGrows(t *testing.T) {
	e := testEval(t, allExtras, 25)
	acc := e.NewAccumulator()
	rng := newRNG(26)
	path := randomPositions(rng, 400)
	acc.Reset(path[0])
	for i, p := range path[1:] {
		acc.Push(p)
		if i%7 == 0 {
			pov := game.Player(rng.IntN(2))
			if got, want := acc.Evaluate(pov), e.Evaluate(p, pov); got != want {
				t.Fatalf("ply %d: incremental %v, from scratch %v", acc.Ply(), got, want)
			}
		}
	}
	for i := len(path) - 1; i >= 0; i-- {
		for pov := draughts.Black; pov <= draughts.White; pov++ {
			if got, want := acc.Evaluate(pov), e.Evaluate(path[i], pov); got != want {
				t.Fatalf("ply %d: incremental %v, from scratch %v", i, got, want)
			}
		}
		if i > 0 {
			acc.Pop()
		}
	}
}

// TestAccumulatorNoAllocs checks that Reset, Push, Evaluate and Pop do not
// allocate once the accumulator exists.
func TestAccumulatorNoAllocs(t *testing.T) {
	e := testEval(t, allExtras, 27)
	acc := e.NewAccumulator()
	positions := randomPositions(newRNG(28), 64)
	allocs := testing.AllocsPerRun(100, func() {
		acc.Reset(draughts.Start())
		for _, p := range positions {
			acc.Push(p)
			acc.Evaluate(p.Side)
		}
		for range positions {
			acc.Pop()
		}
		e.Evaluate(positions[0], draughts.White)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
}

// TestAccumulatorPopPanics checks that popping the root panics.
func TestAccumulatorPopPanics(t *testing.T) {
	acc := testEval(t, 0, 29).NewAccumulator()
	acc.Reset(draughts.Start())
	defer func() {
		if recover() == nil {
			t.Error("Pop at the root did not panic")
		}
	}()
	acc.Pop()
}

// TestDraughtsEvalShared runs searches in several goroutines on one
// evaluator, each with its own accumulator (run with -race).
func TestDraughtsEvalShared(t *testing.T) {
	e := testEval(t, allExtras, 30)
	want := map[draughts.Position]float64{}
	positions := randomPositions(newRNG(31), 50)
	for _, p := range positions {
		want[p] = e.Evaluate(p, p.Side)
	}
	done := make(chan error)
	for g := range 4 {
		go func() {
			acc := e.NewAccumulator()
			for i := range positions {
				p := positions[(i+g*13)%len(positions)]
				acc.Reset(draughts.Start())
				acc.Push(p)
				if got := acc.Evaluate(p.Side); got != want[p] {
					done <- fmt.Errorf("goroutine %d: %v, want %v", g, got, want[p])
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
