package search

import (
	"context"
	"time"
	"unsafe"
)

// Options configures an AlphaBeta search. The zero value of each field means
// its default; the booleans switch heuristics off so that their worth can be
// measured by matches (ablation).
type Options struct {
	// Depth is the nominal search depth in plies; default 4, as Blondie24.
	Depth int
	// CaptureExtension searches on past the nominal depth while the
	// position is tactical (a capture pending), up to MaxExtension plies,
	// instead of evaluating an unquiet position.
	CaptureExtension bool
	// MaxExtension bounds the extension plies on one path; default 8.
	MaxExtension int
	// Quiescence searches captures (and check evasions) past the nominal
	// depth in games that implement Quiescent, instead of evaluating a
	// position in the middle of an exchange.
	Quiescence bool
	// CheckExtension searches a position whose side to move is in check one
	// ply deeper (up to MaxExtension plies on a path), in games that
	// implement Quiescent, so that a line of quiet checks is not cut off at
	// the horizon.
	CheckExtension bool
	// Nodes stops the search after about this many nodes (0: no limit).
	Nodes int64
	// Time stops the search after about this long (0: no limit).
	Time time.Duration
	// TableBits sizes the transposition table at 1<<TableBits entries;
	// default 16.
	TableBits int
	// NoTable, NoKillers and NoHistory switch those heuristics off.
	NoTable, NoKillers, NoHistory bool
}

// withDefaults fills in zero fields.
func (o Options) withDefaults() Options {
	if o.Depth <= 0 {
		o.Depth = 4
	}
	if o.MaxExtension <= 0 {
		o.MaxExtension = 8
	}
	if o.TableBits <= 0 {
		o.TableBits = 16
	}
	return o
}

// Result is the outcome of a search.
type Result[M comparable] struct {
	// Move is the best move found (the zero M when the root has no move).
	Move M
	// Score is its value from the root side's point of view.
	Score int
	// Depth is the depth of the last completed iteration.
	Depth int
	// Nodes counts the positions visited.
	Nodes int64
	// Elapsed is the time the search took.
	Elapsed time.Duration
	// PV is the principal variation, starting with Move. It is only valid
	// until the next search.
	PV []M
}

// plyState is the per-ply scratch space of a search.
type plyState[M comparable] struct {
	moves   []M
	scores  []int32
	killers [2]M
	pv      []M
}

// AlphaBeta is an iterative-deepening negamax search with alpha-beta
// pruning, a transposition table, and move ordering by the table's move,
// killer moves and the history heuristic. It is not safe for concurrent use.
type AlphaBeta[M comparable, S Game[M]] struct {
	opts    Options
	eval    Evaluator[S]
	inc     Incremental[S] // eval, when it is incremental; else nil
	q       Quiescent[M]   // the searched game as a Quiescent, or nil if it is not one
	quiet   bool           // run quiescence search (option on and the game supports it)
	checks  bool           // extend checks (option on and the game supports it)
	table   *table[M]
	plies   []plyState[M]
	history []int32
	pv      []M // the last completed iteration's PV, returned in Result

	nodes    int64
	stopped  bool
	deadline time.Time
	ctx      context.Context
	report   func(Result[M]) // called after each completed iteration, if set
}

// Limits changes the depth, node and time limits of the searches that
// follow (zero depth keeps the current one; zero nodes or time, none).
func (ab *AlphaBeta[M, S]) Limits(depth int, nodes int64, t time.Duration) {
	if depth > 0 {
		ab.opts.Depth = depth
	}
	ab.opts.Nodes, ab.opts.Time = nodes, t
}

// ResizeTable gives the transposition table about mb megabytes (at least
// one entry), emptying it; a UCI engine's Hash option calls it.
func (ab *AlphaBeta[M, S]) ResizeTable(mb int) {
	entry := int(unsafe.Sizeof(ttEntry[M]{}))
	bits := 0
	for (2<<bits)*entry <= mb<<20 {
		bits++
	}
	ab.table = newTable[M](bits)
}

// OnIteration sets a function called after every completed iteration of
// a search with its result so far (a UCI engine prints them as info lines).
// The Result's PV is only valid during the call.
func (ab *AlphaBeta[M, S]) OnIteration(report func(Result[M])) { ab.report = report }

// NewAlphaBeta returns a search that evaluates leaves with eval.
func NewAlphaBeta[M comparable, S Game[M]](eval Evaluator[S], opts Options) *AlphaBeta[M, S] {
	opts = opts.withDefaults()
	ab := &AlphaBeta[M, S]{opts: opts, eval: eval, plies: make([]plyState[M], maxPly+1)}
	ab.inc, _ = eval.(Incremental[S])
	if !opts.NoTable {
		ab.table = newTable[M](opts.TableBits)
	}
	for i := range ab.plies {
		ab.plies[i].moves = make([]M, 0, 64)
		ab.plies[i].scores = make([]int32, 64)
		ab.plies[i].pv = make([]M, 0, maxPly)
	}
	return ab
}

// Options returns the options the search runs with, defaults filled in.
func (ab *AlphaBeta[M, S]) Options() Options { return ab.opts }

// Reset forgets everything learnt from earlier searches (table, killers,
// history), so that the next search depends only on its position.
func (ab *AlphaBeta[M, S]) Reset() {
	if ab.table != nil {
		ab.table.clear()
	}
	clear(ab.history)
	for i := range ab.plies {
		ab.plies[i].killers = [2]M{}
	}
}

// Search looks for the best move in the current position of s and returns
// it with its score. s is returned to the position it had. The search stops
// early when ctx is done or a node or time limit is reached, and then
// reports the last completed iteration (at least depth 1 is always
// completed unless ctx is already done).
func (ab *AlphaBeta[M, S]) Search(ctx context.Context, s S) Result[M] {
	start := time.Now()
	ab.ctx, ab.nodes, ab.stopped = ctx, 0, false
	ab.deadline = time.Time{}
	if ab.opts.Time > 0 {
		ab.deadline = start.Add(ab.opts.Time)
	}
	if n := s.MoveKeySpace(); len(ab.history) != n {
		ab.history = make([]int32, n)
	}
	if ab.inc != nil {
		ab.inc.Reset(s)
	}
	q, isQuiescent := any(s).(Quiescent[M])
	ab.q = q
	ab.quiet = ab.opts.Quiescence && isQuiescent
	ab.checks = ab.opts.CheckExtension && isQuiescent
	var res Result[M]
	for depth := 1; depth <= ab.opts.Depth; depth++ {
		if depth > 1 {
			ab.checkLimits()
			if ab.stopped {
				break
			}
		}
		score := ab.negamax(s, depth, 0, 0, -Infinity, Infinity)
		if ab.stopped && depth > 1 {
			break
		}
		root := &ab.plies[0]
		res.Score, res.Depth = score, depth
		ab.pv = append(ab.pv[:0], root.pv...)
		res.PV = ab.pv
		if len(res.PV) > 0 {
			res.Move = res.PV[0]
		}
		if ab.report != nil && !ab.stopped {
			res.Nodes, res.Elapsed = ab.nodes, time.Since(start)
			ab.report(res)
		}
		if ab.stopped || IsWin(score) {
			break
		}
	}
	res.Nodes, res.Elapsed = ab.nodes, time.Since(start)
	return res
}

// checkLimits sets stopped when the context, the node limit or the clock
// says so. It is called every 1024 nodes.
func (ab *AlphaBeta[M, S]) checkLimits() {
	if ab.ctx.Err() != nil ||
		ab.opts.Nodes > 0 && ab.nodes >= ab.opts.Nodes ||
		!ab.deadline.IsZero() && time.Now().After(ab.deadline) {
		ab.stopped = true
	}
}

// negamax returns the value of s searched to depth plies, ply plies below the
// root, with ext extension plies used on this path. It fills the ply's PV.
func (ab *AlphaBeta[M, S]) negamax(s S, depth, ply, ext, alpha, beta int) int {
	ps := &ab.plies[ply]
	ps.pv = ps.pv[:0]
	ab.nodes++
	if ab.nodes&1023 == 0 {
		ab.checkLimits()
	}
	if ab.stopped {
		return 0
	}
	if ply > 0 && s.Drawn() {
		return 0
	}
	if ab.checks && ply > 0 && ext < ab.opts.MaxExtension && ab.q.InCheck() {
		depth, ext = depth+1, ext+1
	}
	if depth <= 0 {
		if ab.quiet {
			ab.nodes-- // quiesce counts this node itself
			return ab.quiesce(s, ab.q, ply, alpha, beta)
		}
		if !ab.opts.CaptureExtension || ext >= ab.opts.MaxExtension || ply >= maxPly || !s.Tactical() {
			return ab.eval.Evaluate(s)
		}
		depth, ext = 1, ext+1
	}
	if ply >= maxPly {
		return ab.eval.Evaluate(s)
	}

	key := s.Hash()
	var ttMove M
	var zero M
	if ab.table != nil {
		if e, ok := ab.table.probe(key); ok {
			ttMove = e.move
			if ply > 0 && int(e.depth) >= depth {
				score := fromTT(int(e.score), ply)
				switch {
				case e.bound == boundExact,
					e.bound == boundLower && score >= beta,
					e.bound == boundUpper && score <= alpha:
					if e.move != zero {
						ps.pv = append(ps.pv, e.move)
					}
					return score
				}
			}
		}
	}

	ps.moves = s.LegalMoves(ps.moves)
	moves := ps.moves
	if len(moves) == 0 {
		return terminalScore(s.Outcome(), s.ToMove(), ply)
	}
	ab.scoreMoves(s, ps, ttMove)

	alphaIn := alpha
	best, bestMove := -Infinity, zero
	for i := range moves {
		m := ab.pickNext(ps, i)
		ab.make(s, m)
		score := -ab.negamax(s, depth-1, ply+1, ext, -beta, -alpha)
		ab.unmake(s)
		if ab.stopped {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				child := ab.plies[ply+1].pv
				ps.pv = append(append(ps.pv[:0], m), child...)
				if alpha >= beta {
					ab.noteCutoff(s, ps, m, depth, len(moves) > 1)
					break
				}
			}
		}
	}
	if ab.table != nil {
		b := boundExact
		switch {
		case best >= beta:
			b = boundLower
		case best <= alphaIn:
			b = boundUpper
		}
		ab.table.store(key, bestMove, best, depth, ply, b)
	}
	return best
}

// Move ordering scores: the table's move first, then captures (in games
// that rank them), then the killers, then the rest by history.
const (
	orderTable   = 1 << 30
	orderCapture = 1<<29 + 1<<28
	orderKiller  = 1 << 29
)

// scoreMoves fills ps.scores for ps.moves.
func (ab *AlphaBeta[M, S]) scoreMoves(s S, ps *plyState[M], ttMove M) {
	if cap(ps.scores) < len(ps.moves) {
		ps.scores = make([]int32, len(ps.moves), 2*len(ps.moves))
	}
	ps.scores = ps.scores[:len(ps.moves)]
	var zero M
	q := ab.q
	captures := q != nil
	for i, m := range ps.moves {
		var sc int32
		switch {
		case m == ttMove && ttMove != zero:
			sc = orderTable
		case captures && q.CaptureOrder(m) > 0:
			// Captures and promotions, most valuable victim first, come
			// before killers and quiet moves.
			sc = orderCapture + int32(q.CaptureOrder(m))
		case !ab.opts.NoKillers && (m == ps.killers[0] || m == ps.killers[1]):
			sc = orderKiller
		case !ab.opts.NoHistory:
			sc = ab.history[s.MoveKey(m)]
		}
		ps.scores[i] = sc
	}
}

// pickNext moves the best-scored of ps.moves[i:] to position i and returns
// it. Selection beats sorting because most nodes cut off after a few moves.
func (ab *AlphaBeta[M, S]) pickNext(ps *plyState[M], i int) M {
	best := i
	for j := i + 1; j < len(ps.moves); j++ {
		if ps.scores[j] > ps.scores[best] {
			best = j
		}
	}
	ps.moves[i], ps.moves[best] = ps.moves[best], ps.moves[i]
	ps.scores[i], ps.scores[best] = ps.scores[best], ps.scores[i]
	return ps.moves[i]
}

// noteCutoff records a move that caused a beta cutoff in the killer and
// history tables. Forced moves teach nothing and are skipped.
func (ab *AlphaBeta[M, S]) noteCutoff(s S, ps *plyState[M], m M, depth int, choice bool) {
	if !choice {
		return
	}
	if !ab.opts.NoKillers && m != ps.killers[0] {
		ps.killers[1], ps.killers[0] = ps.killers[0], m
	}
	if !ab.opts.NoHistory {
		h := &ab.history[s.MoveKey(m)]
		*h += int32(depth * depth)
		if *h > orderKiller/2 {
			for i := range ab.history {
				ab.history[i] /= 2
			}
		}
	}
}

// quiesce searches only the moves that change the material (or, in check,
// every evasion) until the position is quiet: the side to move may stand pat
// on the evaluation unless it is in check.
func (ab *AlphaBeta[M, S]) quiesce(s S, q Quiescent[M], ply, alpha, beta int) int {
	ps := &ab.plies[ply]
	ps.pv = ps.pv[:0]
	ab.nodes++
	if ab.nodes&1023 == 0 {
		ab.checkLimits()
	}
	if ab.stopped {
		return 0
	}
	if ply > 0 && s.Drawn() {
		return 0
	}
	if ply >= maxPly {
		return ab.eval.Evaluate(s)
	}
	inCheck := q.InCheck()
	best := -Infinity
	if inCheck {
		ps.moves = s.LegalMoves(ps.moves)
		if len(ps.moves) == 0 {
			return terminalScore(s.Outcome(), s.ToMove(), ply)
		}
	} else {
		best = ab.eval.Evaluate(s)
		if best >= beta {
			return best
		}
		alpha = max(alpha, best)
		ps.moves = q.NoisyMoves(ps.moves)
	}
	if cap(ps.scores) < len(ps.moves) {
		ps.scores = make([]int32, len(ps.moves), 2*len(ps.moves))
	}
	ps.scores = ps.scores[:len(ps.moves)]
	for i, m := range ps.moves {
		ps.scores[i] = int32(q.CaptureOrder(m))
	}
	for i := range ps.moves {
		m := ab.pickNext(ps, i)
		ab.make(s, m)
		score := -ab.quiesce(s, q, ply+1, -beta, -alpha)
		ab.unmake(s)
		if ab.stopped {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// make plays m and tells an incremental evaluator.
func (ab *AlphaBeta[M, S]) make(s S, m M) {
	s.Make(m)
	if ab.inc != nil {
		ab.inc.Push(s)
	}
}

// unmake takes the last move back and tells an incremental evaluator.
func (ab *AlphaBeta[M, S]) unmake(s S) {
	s.Unmake()
	if ab.inc != nil {
		ab.inc.Pop()
	}
}
