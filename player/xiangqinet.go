package player

import (
	"fmt"
	"math"

	"evolved/game/xiangqi"
	"evolved/nnet"
	"evolved/population"
	"evolved/search"
)

// xiangqiNetEval is the search evaluator of one xiangqi net: an
// incremental accumulator over a shared nnet.XiangqiEval, in centipawns.
type xiangqiNetEval struct {
	acc *nnet.XiangqiAccumulator
}

func (x *xiangqiNetEval) Reset(g *xiangqi.Game) { x.acc.Reset(g.Position()) }
func (x *xiangqiNetEval) Push(g *xiangqi.Game)  { x.acc.PushMove(g.LastMove()) }
func (x *xiangqiNetEval) Pop()                  { x.acc.Pop() }

// Evaluate returns the net's value (in units of 100) in centipawns, within
// search's bounds.
func (x *xiangqiNetEval) Evaluate(g *xiangqi.Game) int {
	v := math.Round(x.acc.Evaluate(g.ToMove()) * 100)
	return int(max(-search.MaxEval, min(search.MaxEval, v)))
}

// xiangqiNetOptions are the search settings of xiangqi agents: alpha-beta
// to depth with quiescence on captures, a check extension and a
// transposition table.
func xiangqiNetOptions(depth int) search.Options {
	return search.Options{Depth: depth, Quiescence: true, CheckExtension: true, MaxExtension: 4, TableBits: 15}
}

// XiangqiNet returns a spec whose players search with net: alpha-beta to
// depth plies with quiescence and the check extension.
func XiangqiNet(name string, net *nnet.Net, depth int) (XiangqiSpec, error) {
	eval, err := nnet.NewXiangqiEval(net)
	if err != nil {
		return XiangqiSpec{}, fmt.Errorf("player %s: %w", name, err)
	}
	return XiangqiSpec{Name: name, New: func() XiangqiPlayer {
		ab := search.NewAlphaBeta[xiangqi.Move, *xiangqi.Game](&xiangqiNetEval{acc: eval.NewAccumulator()}, xiangqiNetOptions(depth))
		return search.Searcher[xiangqi.Move, *xiangqi.Game]{AlphaBeta: ab}
	}}, nil
}

// XiangqiSetup is how the xiangqi population plays.
type XiangqiSetup struct {
	// Depth is the agents' alpha-beta depth before quiescence; default 2.
	Depth int
	// Nodes, if positive, also ends each move's search after about this
	// many nodes: the search deepens one ply at a time up to Depth and
	// plays the best move of the last iteration it completed, so with a
	// high Depth the budget decides how deep it looks. Node counts, unlike
	// time, make the games reproducible.
	Nodes int64
	// OpeningPlies is the number of random plies opening each game; default 4.
	OpeningPlies int
	// MaxMoves draws a game once each side has made this many moves; default 100.
	MaxMoves int
	// AdjudicateMaterial, if positive, ends a game as a win for the side
	// that is this many soldiers (100 centipawns of material:D's values)
	// ahead with the side to move not in check; the reason is stored as
	// "adjudicated".
	AdjudicateMaterial int
}

// XiangqiSpecies returns the genetic algorithm's binding to xiangqi.
func XiangqiSpecies(setup XiangqiSetup) population.Species[xiangqi.Move, *xiangqi.Game] {
	if setup.Depth <= 0 {
		setup.Depth = 2
	}
	if setup.OpeningPlies <= 0 {
		setup.OpeningPlies = 4
	}
	if setup.MaxMoves <= 0 {
		setup.MaxMoves = 100
	}
	arena := XiangqiArena(xiangqi.Rules{MaxMoves: setup.MaxMoves}, xiangqi.Start(), setup.OpeningPlies)
	if margin := setup.AdjudicateMaterial; margin > 0 {
		arena.Adjudicate = adjudicateMaterial(margin, (XiangqiMaterial{}).Evaluate)
	}
	return netSpecies(arena, nnet.NumXiangqiInputs, func(net *nnet.Net) (XiangqiSpec, error) {
		spec, err := XiangqiNet("agent", net, setup.Depth)
		return WithNodes(spec, setup.Nodes), err
	}, ParseXiangqi)
}
