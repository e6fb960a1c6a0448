package classic

import (
	"context"
	"time"

	"evolved/game/xiangqi"
	"evolved/search"
)

// mateValue is the score of a mate at the root in the search's internal
// units: the general's strength, as a classic program that scored the
// capture of the general would have it. A side without a legal move ply
// plies from the root scores -(mateValue - ply), so nearer mates score
// higher. Evaluate stays below 29,000, far from it.
const mateValue = 1_000_000

// infinity bounds every internal score.
const infinity = mateValue + 1

// pollNodes is the interval, in nodes, at which the search looks at its
// context: often enough to stop within a millisecond, rarely enough to
// cost nothing.
const pollNodes = 4096

// frame is one ply of the search stack: the position and its moves.
type frame struct {
	pos    xiangqi.Position
	static int // staticDiff(&pos), kept up to date move by move
	moves  [xiangqi.MaxMoves]xiangqi.Move
}

// Player is the classic program reborn as a search.Player: a plain
// fixed-depth negamax search with alpha-beta pruning, without
// transposition table, quiescence search, iterative deepening or
// opening book, whose depth follows Depth, whose moves are ordered by
// OrderMoves and whose leaves are scored by Evaluate. It keeps its search
// stack from move to move and does not allocate while searching; it keeps
// the piece-square part of the evaluation up to date move by move, and
// skips the activity terms of a leaf whose piece-square part alone puts
// it outside the alpha-beta window (lazy evaluation), which changes
// neither the tree searched nor the result. It is
// deterministic (ties go to the move searched first) and remembers
// nothing between moves, so NewGame has nothing to do. A Player is used
// by one goroutine at a time.
type Player struct {
	stack   [MaxDepth + 1]frame
	nodes   int64
	ctx     context.Context
	stopped bool
	// eager turns lazy evaluation off, for the test that shows it
	// changes nothing.
	eager bool
}

var _ search.Player[xiangqi.Move, *xiangqi.Game] = (*Player)(nil)

// New returns a classic player.
func New() *Player { return new(Player) }

// NewGame does nothing: the classic player keeps nothing from one move to
// the next and draws no random numbers.
func (pl *Player) NewGame(uint64) {}

// Move searches the current position of g to the depth Depth gives for
// its number of pieces and returns the best move. Like the classic
// program, the search sees neither repetitions nor the move limit; g's
// rules still apply to the game. It returns search.ErrNoMove when the
// side to move has no legal move.
func (pl *Player) Move(ctx context.Context, g *xiangqi.Game) (search.Result[xiangqi.Move], error) {
	p := g.Position()
	pieces := p.Occupied(xiangqi.Red).Count() + p.Occupied(xiangqi.Black).Count()
	res := pl.Search(ctx, p, Depth(pieces))
	if res.Move == xiangqi.NoMove {
		return res, search.ErrNoMove
	}
	return res, nil
}

// Search searches p to depth plies (clamped to 1..MaxDepth) and returns
// the best move, its score from the point of view of the side to move in
// search's units (Evaluate/Scale; a mate n plies away scores
// ±(search.Win-n), so search.IsWin recognises it), the depth, the nodes
// visited (every position searched, the root and the leaves included)
// and the time taken; it leaves PV empty. If ctx is done before the
// search ends, it returns the best move among the root moves searched so
// far, or the first move in search order if none was; Move is NoMove
// only when p has no legal move.
func (pl *Player) Search(ctx context.Context, p xiangqi.Position, depth int) search.Result[xiangqi.Move] {
	start := time.Now()
	depth = min(MaxDepth, max(1, depth))
	pl.ctx, pl.nodes, pl.stopped = ctx, 1, ctx.Err() != nil
	root := &pl.stack[0]
	root.pos, root.static = p, staticDiff(&p)
	moves := root.pos.LegalMoves(root.moves[:0])
	res := search.Result[xiangqi.Move]{Depth: depth}
	if len(moves) == 0 {
		res.Score = -search.Win
		res.Nodes, res.Elapsed = pl.nodes, time.Since(start)
		return res
	}
	OrderMoves(moves)
	best, alpha := moves[0], -infinity
	next := &pl.stack[1]
	for _, m := range moves {
		if pl.stopped {
			break
		}
		next.pos, next.static = root.pos.Play(m), root.static+staticDelta(m, root.pos.Side())
		score := -pl.alphaBeta(1, depth-1, -infinity, -alpha)
		if pl.stopped {
			break
		}
		if score > alpha {
			best, alpha = m, score
		}
	}
	res.Move = best
	res.Score = searchScore(alpha)
	res.Nodes, res.Elapsed = pl.nodes, time.Since(start)
	return res
}

// alphaBeta returns the value of the position in stack[ply] searched to
// depth plies, from the point of view of its side to move, within the
// window (alpha, beta): a fail-hard negamax, as the classic program's.
// Only positions with depth left are tested for having no legal move;
// leaves are evaluated as they stand.
func (pl *Player) alphaBeta(ply, depth, alpha, beta int) int {
	pl.nodes++
	if pl.nodes%pollNodes == 0 && pl.ctx.Err() != nil {
		pl.stopped = true
	}
	if pl.stopped {
		return 0
	}
	f := &pl.stack[ply]
	if depth == 0 {
		// Lazy evaluation: the activity terms move the evaluation at
		// most maxActivity from the static part, so when that alone
		// puts it outside the window, a bound on the right side of the
		// window is worth the exact value to every ancestor (fail-hard
		// alpha-beta compares it and takes the same branches), and the
		// two Activity walks are skipped. The tree, the move and the
		// score are the same as with full evaluation.
		static := f.static
		if f.pos.Side() == xiangqi.Black {
			static = -static
		}
		if !pl.eager {
			if static-maxActivity >= beta {
				return static - maxActivity
			}
			if static+maxActivity <= alpha {
				return static + maxActivity
			}
		}
		return evaluate(&f.pos, f.static)
	}
	moves := f.pos.LegalMoves(f.moves[:0])
	if len(moves) == 0 {
		return -(mateValue - ply)
	}
	OrderMoves(moves)
	next := &pl.stack[ply+1]
	for _, m := range moves {
		next.pos, next.static = f.pos.Play(m), f.static+staticDelta(m, f.pos.Side())
		score := -pl.alphaBeta(ply+1, depth-1, -beta, -alpha)
		if score > alpha {
			alpha = score
			if alpha >= beta {
				break
			}
		}
	}
	return alpha
}

// searchScore converts an internal score to search's units: mates to
// ±(search.Win - plies), evaluations divided by Scale.
func searchScore(score int) int {
	switch {
	case score > mateValue-MaxDepth-1:
		return search.Win - (mateValue - score)
	case score < -mateValue+MaxDepth+1:
		return -search.Win + (mateValue + score)
	}
	return max(-search.MaxEval, min(search.MaxEval, score/Scale))
}
