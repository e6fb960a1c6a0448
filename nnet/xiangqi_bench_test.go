package nnet

import (
	"testing"

	"evolved/cputime"
	"evolved/game/xiangqi"
)

// xiangqiBenchGame is a random game for the benchmarks: its positions and
// the moves between them (moves[i] leads from positions[i] to
// positions[i+1]).
type xiangqiBenchGame struct {
	positions []xiangqi.Position
	moves     []xiangqi.Move
}

// xiangqiBenchGames returns 20 seeded random games of at most 200 plies.
func xiangqiBenchGames() []xiangqiBenchGame {
	rng := newRNG(32)
	var games []xiangqiBenchGame
	buf := make([]xiangqi.Move, 0, xiangqi.MaxMoves)
	for range 20 {
		g := xiangqiBenchGame{positions: []xiangqi.Position{xiangqi.Start()}}
		for len(g.moves) < 200 {
			p := g.positions[len(g.positions)-1]
			buf = p.LegalMoves(buf[:0])
			if len(buf) == 0 {
				break
			}
			m := pickXiangqiMove(rng, buf)
			g.moves = append(g.moves, m)
			g.positions = append(g.positions, p.Play(m))
		}
		games = append(games, g)
	}
	return games
}

// BenchmarkXiangqiEvaluateFull evaluates positions of random games from
// scratch, from the side to move's point of view, with a 1260-32-8-1 net.
func BenchmarkXiangqiEvaluateFull(b *testing.B) {
	e := xiangqiTestEval(b, xiangqiExtras, 31)
	var positions []xiangqi.Position
	for _, g := range xiangqiBenchGames() {
		positions = append(positions, g.positions...)
	}
	i := 0
	cpu0 := cputime.Seconds()
	for b.Loop() {
		p := &positions[i%len(positions)]
		sinkF = e.Evaluate(*p, p.Side())
		i++
	}
	reportEvals(b, i, cpu0)
}

// BenchmarkXiangqiEvaluateIncremental pushes the next position of a random
// game and evaluates it, per iteration, resetting at the start of each
// game: "pov=fixed" always for Red (one update per ply), "pov=side" for
// the side to move (along a single line two updates per ply; see
// BenchmarkEvaluateIncremental); "push=position" with Push (the board read
// point by point), "push=move" with PushMove (the board derived from the
// parent's); "tables=no" without EvolvePST, to show what the
// piece-square tables cost.
func BenchmarkXiangqiEvaluateIncremental(b *testing.B) {
	games := xiangqiBenchGames()
	for _, bc := range []struct {
		name      string
		fixed, pm bool
		flags     Flags
	}{
		{"push=position/pov=fixed", true, false, xiangqiExtras},
		{"push=position/pov=side", false, false, xiangqiExtras},
		{"push=move/pov=fixed", true, true, xiangqiExtras},
		{"push=move/pov=side", false, true, xiangqiExtras},
		{"push=move/pov=side/tables=no", false, true, xiangqiExtras &^ EvolvePST},
	} {
		e := xiangqiTestEval(b, bc.flags, 31)
		b.Run(bc.name, func(b *testing.B) {
			acc := e.NewAccumulator()
			g, ply := 0, len(games[0].positions)
			evals := 0
			cpu0 := cputime.Seconds()
			for b.Loop() {
				if ply == len(games[g].positions) {
					g = (g + 1) % len(games)
					acc.Reset(games[g].positions[0])
					ply = 1
				}
				p := &games[g].positions[ply]
				if bc.pm {
					acc.PushMove(games[g].moves[ply-1])
				} else {
					acc.Push(*p)
				}
				pov := p.Side()
				if bc.fixed {
					pov = xiangqi.Red
				}
				sinkF = acc.Evaluate(pov)
				ply++
				evals++
			}
			reportEvals(b, evals, cpu0)
		})
	}
}

// BenchmarkXiangqiEvaluateLeaves evaluates every child of the positions of
// random games for the side to move there, with Push or PushMove,
// Evaluate and Pop, as the leaves of a search are: the parent's sums are
// computed once, and each child is one step from them.
func BenchmarkXiangqiEvaluateLeaves(b *testing.B) {
	e := xiangqiTestEval(b, xiangqiExtras, 31)
	type node struct {
		parent   xiangqi.Position
		moves    []xiangqi.Move
		children []xiangqi.Position
	}
	var nodes []node
	buf := make([]xiangqi.Move, 0, xiangqi.MaxMoves)
	for _, g := range xiangqiBenchGames() {
		for _, p := range g.positions[:len(g.positions)-1] {
			nd := node{parent: p}
			for _, m := range p.LegalMoves(buf[:0]) {
				nd.moves = append(nd.moves, m)
				nd.children = append(nd.children, p.Play(m))
			}
			nodes = append(nodes, nd)
		}
	}
	for _, bc := range []struct {
		name string
		pm   bool
	}{{"push=position", false}, {"push=move", true}} {
		b.Run(bc.name, func(b *testing.B) {
			acc := e.NewAccumulator()
			n, c := 0, len(nodes[0].children)
			evals := 0
			cpu0 := cputime.Seconds()
			for b.Loop() {
				if c == len(nodes[n].children) {
					n = (n + 1) % len(nodes)
					acc.Reset(nodes[n].parent)
					c = 0
				}
				p := &nodes[n].children[c]
				if bc.pm {
					acc.PushMove(nodes[n].moves[c])
				} else {
					acc.Push(*p)
				}
				sinkF = acc.Evaluate(p.Side())
				acc.Pop()
				c++
				evals++
			}
			reportEvals(b, evals, cpu0)
		})
	}
}
