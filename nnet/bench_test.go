package nnet

import (
	"testing"

	"evolved/cputime"
	"evolved/game"
	"evolved/game/draughts"
)

// randomGames returns count random games from draughts.Start(), each the
// list of its positions, at most 100 plies.
func randomGames(seed uint64, count int) [][]draughts.Position {
	rng := newRNG(seed)
	var games [][]draughts.Position
	var buf []draughts.Move
	for range count {
		g := []draughts.Position{draughts.Start()}
		for len(g) <= 100 {
			p := g[len(g)-1]
			buf = p.Moves(buf)
			if len(buf) == 0 {
				break
			}
			g = append(g, p.Play(buf[rng.IntN(len(buf))]))
		}
		games = append(games, g)
	}
	return games
}

// reportEvals reports evaluations per wall-clock second and, where it can
// be measured, per CPU second of the process since cpu0 = cputime.Seconds()
// (which on a busy shared machine is the better measure of the code).
func reportEvals(b *testing.B, evals int, cpu0 float64) {
	b.ReportMetric(float64(evals)/b.Elapsed().Seconds(), "evals/s")
	if cpu := cputime.Seconds() - cpu0; cpu0 > 0 && cpu > 0 {
		b.ReportMetric(float64(evals)/cpu, "evals/cpu-s")
	}
}

// BenchmarkEvaluateFull evaluates positions of random games from scratch,
// from the side to move's point of view, with Blondie24's net and extras.
func BenchmarkEvaluateFull(b *testing.B) {
	e := testEval(b, allExtras, 31)
	var positions []draughts.Position
	for _, g := range randomGames(32, 20) {
		positions = append(positions, g...)
	}
	i := 0
	cpu0 := cputime.Seconds()
	for b.Loop() {
		p := &positions[i%len(positions)]
		sinkF = e.Evaluate(*p, p.Side)
		i++
	}
	reportEvals(b, i, cpu0)
}

// BenchmarkEvaluateIncremental pushes the next position of a random game
// and evaluates it, per iteration, resetting at the start of each game.
// "pov=fixed" always evaluates for Black (one update per ply); "pov=side"
// evaluates for the side to move, as a negamax search's leaves do, which
// along a single line updates the parent too, since the previous ply was
// evaluated for the other side (two updates per ply; in a search the parent
// is shared by its children).
func BenchmarkEvaluateIncremental(b *testing.B) {
	e := testEval(b, allExtras, 31)
	games := randomGames(32, 20)
	for _, bc := range []struct {
		name  string
		fixed bool
	}{{"pov=fixed", true}, {"pov=side", false}} {
		b.Run(bc.name, func(b *testing.B) {
			acc := e.NewAccumulator()
			g, ply := 0, len(games[0])
			evals := 0
			cpu0 := cputime.Seconds()
			for b.Loop() {
				if ply == len(games[g]) {
					g = (g + 1) % len(games)
					acc.Reset(games[g][0])
					ply = 1
				}
				p := &games[g][ply]
				acc.Push(*p)
				pov := p.Side
				if bc.fixed {
					pov = game.First
				}
				sinkF = acc.Evaluate(pov)
				ply++
				evals++
			}
			reportEvals(b, evals, cpu0)
		})
	}
}

var sinkF float64
