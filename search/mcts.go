package search

import (
	"context"
	"math"
	"math/rand/v2"
	"time"

	"evolved/game"
)

// MCTSOptions configures a Monte Carlo tree search.
type MCTSOptions struct {
	// Playouts is the number of simulations per move; default 1000.
	Playouts int
	// Exploration is the UCT constant C in w/n + C*sqrt(ln N / n); default sqrt(2).
	Exploration float64
	// PlayoutPlies cuts every playout after this many plies and scores the
	// position reached with the evaluator (MCTS with early playout
	// termination, "EPT"); 0 plays every playout to the end of the game.
	PlayoutPlies int
	// Time stops the search after about this long (0: no limit).
	Time time.Duration
}

// withDefaults fills in zero fields.
func (o MCTSOptions) withDefaults() MCTSOptions {
	if o.Playouts <= 0 {
		o.Playouts = 1000
	}
	if o.Exploration <= 0 {
		o.Exploration = math.Sqrt2
	}
	return o
}

// mctsNode is a node of the search tree. Children are stored contiguously
// in the tree's node slice.
type mctsNode[M comparable] struct {
	move      M
	firstKid  int32 // index of the first child; -1 until expanded
	kids      int32 // number of children
	tried     int32 // children visited at least once (they come first)
	visits    int32
	value     float64 // total reward from the point of view of the player who made move
	terminal  bool
	outcome   float64 // for terminal nodes: reward for the player who made move
	evaluated bool
}

// MCTS is a Monte Carlo tree search with UCT selection. With
// PlayoutPlies > 0 it is MCTS-EPT: playouts stop early and the evaluator
// scores the position, converted to a win rate by WinRate. Every random
// choice comes from the *rand.Rand given to Search, so a search is
// reproducible. It is not safe for concurrent use.
type MCTS[M comparable, S Game[M]] struct {
	opts MCTSOptions
	eval Evaluator[S]
	// winRate maps an evaluation (side to move's view) to the probability
	// that the side to move wins, in [0,1].
	winRate func(int) float64
	nodes   []mctsNode[M]
	moves   []M
	path    []int32
	pv      [1]M
}

// NewMCTS returns a search. eval and winRate are used only when
// PlayoutPlies > 0 and may be nil otherwise.
func NewMCTS[M comparable, S Game[M]](opts MCTSOptions, eval Evaluator[S], winRate func(int) float64) *MCTS[M, S] {
	return &MCTS[M, S]{opts: opts.withDefaults(), eval: eval, winRate: winRate}
}

// Options returns the options the search runs with, defaults filled in.
func (t *MCTS[M, S]) Options() MCTSOptions { return t.opts }

// Search runs the playouts from the current position of s and returns the
// most visited root move, with its visit count as Nodes and its mean reward
// (per mille) as Score. s is returned to the position it had. Result.PV is
// only valid until the next search.
func (t *MCTS[M, S]) Search(ctx context.Context, s S, rng *rand.Rand) Result[M] {
	start := time.Now()
	var deadline time.Time
	if t.opts.Time > 0 {
		deadline = start.Add(t.opts.Time)
	}
	t.nodes = append(t.nodes[:0], mctsNode[M]{firstKid: -1})
	var res Result[M]
	for i := 0; i < t.opts.Playouts; i++ {
		if i&63 == 0 && (ctx.Err() != nil || !deadline.IsZero() && time.Now().After(deadline)) && i > 0 {
			break
		}
		t.playout(s, rng)
		res.Nodes++
	}
	root := &t.nodes[0]
	best := int32(-1)
	for k := root.firstKid; k >= 0 && k < root.firstKid+root.tried; k++ {
		if best < 0 || t.nodes[k].visits > t.nodes[best].visits {
			best = k
		}
	}
	if best >= 0 {
		n := &t.nodes[best]
		res.Move = n.move
		res.Score = int(1000 * n.value / float64(n.visits))
		t.pv[0] = n.move
		res.PV = t.pv[:]
	}
	res.Depth, res.Elapsed = 1, time.Since(start)
	return res
}

// playout runs one selection, expansion, simulation and backpropagation.
func (t *MCTS[M, S]) playout(s S, rng *rand.Rand) {
	t.path = append(t.path[:0], 0)
	cur := int32(0)
	made := 0
	for {
		n := &t.nodes[cur]
		if n.terminal {
			break
		}
		if n.firstKid < 0 {
			t.expand(s, cur, rng)
			n = &t.nodes[cur]
			if n.terminal {
				break
			}
		}
		var next int32
		if n.tried < n.kids {
			// Visit the untried children first, in their shuffled order.
			next = n.firstKid + n.tried
			n.tried++
			s.Make(t.nodes[next].move)
			made++
			t.path = append(t.path, next)
			cur = next
			break
		}
		next = t.selectUCT(cur)
		s.Make(t.nodes[next].move)
		made++
		t.path = append(t.path, next)
		cur = next
	}

	// reward is from the point of view of the player who made the move
	// into cur, i.e. the player not to move now.
	var reward float64
	if n := &t.nodes[cur]; n.terminal {
		reward = n.outcome
	} else {
		var r float64
		r, made = t.simulate(s, rng, made)
		reward = 1 - r
	}
	for i := made; i > 0; i-- {
		s.Unmake()
	}
	for i := len(t.path) - 1; i >= 0; i-- {
		n := &t.nodes[t.path[i]]
		n.visits++
		n.value += reward
		reward = 1 - reward
	}
}

// expand creates the children of node idx in a random order, or marks it
// terminal with its outcome.
func (t *MCTS[M, S]) expand(s S, idx int32, rng *rand.Rand) {
	if s.Drawn() {
		t.nodes[idx].terminal, t.nodes[idx].outcome = true, 0.5
		return
	}
	t.moves = s.LegalMoves(t.moves)
	if len(t.moves) == 0 {
		t.nodes[idx].terminal = true
		t.nodes[idx].outcome = 1 - rewardFor(s.Outcome(), s.ToMove())
		return
	}
	rng.Shuffle(len(t.moves), func(i, j int) { t.moves[i], t.moves[j] = t.moves[j], t.moves[i] })
	first := int32(len(t.nodes))
	for _, m := range t.moves {
		t.nodes = append(t.nodes, mctsNode[M]{move: m, firstKid: -1})
	}
	n := &t.nodes[idx]
	n.firstKid, n.kids = first, int32(len(t.moves))
}

// selectUCT returns the child of idx with the highest UCT value.
func (t *MCTS[M, S]) selectUCT(idx int32) int32 {
	n := &t.nodes[idx]
	logN := math.Log(float64(n.visits))
	best, bestVal := n.firstKid, math.Inf(-1)
	for k := n.firstKid; k < n.firstKid+n.kids; k++ {
		c := &t.nodes[k]
		v := c.value/float64(c.visits) + t.opts.Exploration*math.Sqrt(logN/float64(c.visits))
		if v > bestVal {
			best, bestVal = k, v
		}
	}
	return best
}

// simulate plays random moves from the current position of s and returns
// the reward, in [0,1], for the side to move at its start, and made plus
// the number of moves it made: the caller unmakes them all.
func (t *MCTS[M, S]) simulate(s S, rng *rand.Rand, made int) (float64, int) {
	me := s.ToMove()
	for plies := 0; ; plies++ {
		if s.Drawn() {
			return 0.5, made
		}
		if t.opts.PlayoutPlies > 0 && plies >= t.opts.PlayoutPlies {
			p := t.winRate(t.eval.Evaluate(s))
			if s.ToMove() != me {
				p = 1 - p
			}
			return p, made
		}
		t.moves = s.LegalMoves(t.moves)
		if len(t.moves) == 0 {
			return rewardFor(s.Outcome(), me), made
		}
		s.Make(t.moves[rng.IntN(len(t.moves))])
		made++
	}
}

// rewardFor returns 1, 0.5 or 0 for a win, draw or loss of p.
func rewardFor(o game.Outcome, p game.Player) float64 {
	switch o.Result {
	case game.WinFor(p):
		return 1
	case game.WinFor(p.Other()):
		return 0
	}
	return 0.5
}
