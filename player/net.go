package player

import (
	"fmt"
	"math"

	"evolved/game"
	"evolved/game/draughts"
	"evolved/nnet"
	"evolved/search"
)

// NetScale converts a net's output in (-1, 1) to search units: a net value
// of v scores round(v*NetScale), well inside search.MaxEval.
const NetScale = 10000

// povEvaluator evaluates the current position of a search for a point of
// view: the games' accumulators.
type povEvaluator interface{ Evaluate(pov game.Player) float64 }

// cachedValue returns the value for pov of the position with hash: the
// one cache holds, or acc's, which it then stores.
func cachedValue[E povEvaluator](cache *nnet.EvalCache, hash uint64, pov game.Player, acc E) float64 {
	v, ok := cache.Probe(hash, pov)
	if !ok {
		v = acc.Evaluate(pov)
		cache.Store(hash, pov, v)
	}
	return v
}

// evalCacheEntries is the size of a net player's evaluation cache: 64 KiB.
// Iterative deepening evaluates the same positions again at every
// iteration (a node's static evaluation for pruning, then its stand-pat in
// the quiescence search of the next iteration), and a value depends only
// on the position, so the cache changes the speed of a search, never its
// result. In draughts 4K entries played a generation 4% faster than 16K,
// a smaller part of the caches, which every agent's player holds.
const evalCacheEntries = 1 << 12

// draughtsNetEval is the search evaluator of one net: an incremental
// accumulator over an immutable, shared nnet.DraughtsEval.
type draughtsNetEval struct {
	acc   *nnet.DraughtsAccumulator
	cache *nnet.EvalCache
}

var _ search.Incremental[*draughts.Game] = (*draughtsNetEval)(nil)

func (d *draughtsNetEval) Reset(g *draughts.Game) { d.acc.Reset(g.Position()) }
func (d *draughtsNetEval) Push(g *draughts.Game)  { d.acc.PushPieces(g.Pieces()) }
func (d *draughtsNetEval) Pop()                   { d.acc.Pop() }

// Evaluate returns the net's value of the current position for the side to move.
func (d *draughtsNetEval) Evaluate(g *draughts.Game) int {
	return int(math.Round(cachedValue(d.cache, g.Hash(), g.ToMove(), d.acc) * NetScale))
}

// netWinRate maps a net score to a win rate for MCTS-EPT: (v+1)/2.
func netWinRate(score int) float64 { return (float64(score)/NetScale + 1) / 2 }

// DraughtsNet returns a spec whose players search with net: alpha-beta to
// depth plies with the capture extension, as Blondie24 played. The net's
// evaluator is built once and shared read-only by every player made.
func DraughtsNet(name string, net *nnet.Net, depth int) (DraughtsSpec, error) {
	eval, err := nnet.NewDraughtsEval(net)
	if err != nil {
		return DraughtsSpec{}, fmt.Errorf("player %s: %w", name, err)
	}
	return DraughtsSpec{Name: name, Unit: "ten-thousandths of the net's full output", New: func() DraughtsPlayer {
		ab := search.NewAlphaBeta[draughts.Move, *draughts.Game](&draughtsNetEval{acc: eval.NewAccumulator(), cache: nnet.NewEvalCache(evalCacheEntries)},
			search.Options{Depth: depth, CaptureExtension: true, TableBits: 14})
		return search.Searcher[draughts.Move, *draughts.Game]{AlphaBeta: ab}
	}}, nil
}

// DraughtsNetSearch returns an alpha-beta search with net as DraughtsNet's
// players search (the capture extension), to depth plies with a
// transposition table of 2^tableBits entries: the search itself, for
// callers that score positions rather than play (package distill).
func DraughtsNetSearch(net *nnet.Net, depth, tableBits int) (*search.AlphaBeta[draughts.Move, *draughts.Game], error) {
	eval, err := nnet.NewDraughtsEval(net)
	if err != nil {
		return nil, fmt.Errorf("player: %w", err)
	}
	return search.NewAlphaBeta[draughts.Move, *draughts.Game](&draughtsNetEval{acc: eval.NewAccumulator(), cache: nnet.NewEvalCache(evalCacheEntries)},
		search.Options{Depth: depth, CaptureExtension: true, TableBits: tableBits}), nil
}

// DraughtsNetEPT returns a spec whose players run MCTS-EPT, playouts
// playouts a move, with net scoring the playouts cut after EPTPlies plies
// (its value v turned into the win rate (v+1)/2). The net's evaluator is
// built once and shared read-only by every player made.
func DraughtsNetEPT(name string, net *nnet.Net, playouts int) (DraughtsSpec, error) {
	eval, err := nnet.NewDraughtsEval(net)
	if err != nil {
		return DraughtsSpec{}, fmt.Errorf("player %s: %w", name, err)
	}
	return mctsSpec[draughts.Move](name, eptOptions(playouts), search.Evaluator[*draughts.Game](netFromScratch{eval}), netWinRate), nil
}

// netFromScratch evaluates with the net without an accumulator, for MCTS
// whose playouts are not a search path (see chessScratch). It is
// bit-identical to draughtsNetEval, and does not allocate.
type netFromScratch struct{ e *nnet.DraughtsEval }

// Evaluate returns the net's value for the side to move, in NetScale units.
func (n netFromScratch) Evaluate(g *draughts.Game) int {
	return int(math.Round(n.e.Evaluate(g.Position(), g.ToMove()) * NetScale))
}
