package player

import (
	"fmt"
	"math"

	"evolved/game/xiangqi"
	"evolved/nnet"
	"evolved/search"
)

// xiangqiNetEval is the search evaluator of one xiangqi net: an
// incremental accumulator over a shared nnet.XiangqiEval, in centipawns.
type xiangqiNetEval struct {
	acc    *nnet.XiangqiAccumulator
	cache  *nnet.EvalCache // see evalCacheEntries
	values []int           // the net's piece values for the search's exchanges
}

// ExchangeValues returns the net's piece values in centipawns, for the
// search's static exchange evaluation and delta pruning.
func (x *xiangqiNetEval) ExchangeValues() []int { return x.values }

// xiangqiExchangeValues returns net's piece values (advisor .. soldier, in
// units of 100) as xiangqi.ExchangeValues takes them, in centipawns, none
// below 0.
func xiangqiExchangeValues(net *nnet.Net) []int {
	v := net.XiangqiPieceValues()
	cp := func(u float64) int { return int(max(0, min(search.MaxEval, math.Round(u*100)))) }
	return xiangqi.ExchangeValues(cp(v[0]), cp(v[1]), cp(v[2]), cp(v[3]), cp(v[4]), cp(v[5]))
}

// Clone returns an evaluator of the same net with an accumulator and a
// cache of its own, for another thread of a parallel search
// (search.Cloner): the net's weights and piece values are shared, only
// read.
func (x *xiangqiNetEval) Clone() search.Evaluator[*xiangqi.Game] {
	return &xiangqiNetEval{acc: x.acc.Eval().NewAccumulator(), cache: nnet.NewEvalCache(evalCacheEntries), values: x.values}
}

func (x *xiangqiNetEval) Reset(g *xiangqi.Game) { x.acc.Reset(g.Position()) }
func (x *xiangqiNetEval) Push(g *xiangqi.Game)  { x.acc.PushPlayed(g.Current(), g.LastMove()) }
func (x *xiangqiNetEval) Pop()                  { x.acc.Pop() }

// Evaluate returns the net's value (in units of 100) in centipawns, within
// search's bounds, from the cache when it holds the position.
func (x *xiangqiNetEval) Evaluate(g *xiangqi.Game) int {
	v := math.Round(cachedValue(x.cache, g.Hash(), g.ToMove(), x.acc) * 100)
	return int(max(-search.MaxEval, min(search.MaxEval, v)))
}

// xiangqiNetOptions are the search settings of xiangqi agents: alpha-beta
// to depth with quiescence on captures and the search's default techniques
// (a check extension among them, at most 4 plies on a path).
func xiangqiNetOptions(depth int) search.Options {
	return search.Options{Depth: depth, Quiescence: true, MaxExtension: 4, TableBits: 15}
}

// XiangqiNetSearch returns an alpha-beta search with net as the agents
// search (xiangqiNetOptions) with a table of 2^tableBits entries, for
// callers that set its limits position by position (the distillation).
func XiangqiNetSearch(net *nnet.Net, depth, tableBits int) (*search.AlphaBeta[xiangqi.Move, *xiangqi.Game], error) {
	eval, err := nnet.NewXiangqiEval(net)
	if err != nil {
		return nil, fmt.Errorf("player: %w", err)
	}
	opts := xiangqiNetOptions(depth)
	opts.TableBits = tableBits
	return search.NewAlphaBeta[xiangqi.Move, *xiangqi.Game](&xiangqiNetEval{acc: eval.NewAccumulator(), cache: nnet.NewEvalCache(evalCacheEntries), values: xiangqiExchangeValues(net)}, opts), nil
}

// XiangqiNet returns a spec whose players search with net: alpha-beta to
// depth plies with quiescence and the check extension.
func XiangqiNet(name string, net *nnet.Net, depth int) (XiangqiSpec, error) {
	eval, err := nnet.NewXiangqiEval(net)
	if err != nil {
		return XiangqiSpec{}, fmt.Errorf("player %s: %w", name, err)
	}
	values := xiangqiExchangeValues(net)
	return XiangqiSpec{Name: name, New: func() XiangqiPlayer {
		ab := search.NewAlphaBeta[xiangqi.Move, *xiangqi.Game](&xiangqiNetEval{acc: eval.NewAccumulator(), cache: nnet.NewEvalCache(evalCacheEntries), values: values}, xiangqiNetOptions(depth))
		return search.Searcher[xiangqi.Move, *xiangqi.Game]{AlphaBeta: ab}
	}}, nil
}
