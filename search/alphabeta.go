package search

import (
	"context"
	"slices"
	"sync/atomic"
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
	// Techniques are the pruning, reduction and extension techniques the
	// search uses where the game allows them; zero means the game's
	// Defaults, None plain alpha-beta.
	Techniques Technique
	// Nodes stops the search after about this many nodes (0: no limit).
	Nodes int64
	// Time stops the search after about this long (0: no limit): the hard
	// limit of a move.
	Time time.Duration
	// SoftTime, when positive, is the time a move should take: no new
	// iteration starts once it is spent, and less of it is used while the
	// best move stays the same from iteration to iteration (more when it
	// has just changed). Time still bounds the search.
	SoftTime time.Duration
	// TableBits sizes the transposition table at 1<<TableBits entries;
	// default 16.
	TableBits int
	// NoTable, NoKillers and NoHistory switch those heuristics off.
	NoTable, NoKillers, NoHistory bool
	// Params are the numbers of the techniques (margins, depths, the
	// reduction formula); nil means the game's (GameDefaults).
	Params *Params
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
	// Nodes counts the positions visited, by every thread of a search of
	// several (SetThreads).
	Nodes int64
	// Elapsed is the time the search took.
	Elapsed time.Duration
	// PV is the principal variation, starting with Move. It is only valid
	// until the next search.
	PV []M
	// SelDepth is the deepest ply the search reached, quiescence and
	// extensions included (UCI's seldepth).
	SelDepth int
	// Hashfull is how full the transposition table is with this search's
	// entries, in thousandths, sampled from its first thousand entries
	// (UCI's hashfull); 0 without a table. Set in the reports of
	// OnIteration only.
	Hashfull int
	// MultiPV is the line's rank among the root moves, 1 for the best, in
	// the reports of a search of several lines (SetMultiPV); 0 otherwise.
	MultiPV int
}

// pvLine is one of the lines of a search of several (SetMultiPV): its
// score and principal variation at the last completed iteration.
type pvLine[M comparable] struct {
	score int
	pv    []M
}

// plyState is the per-ply scratch space of a search.
type plyState[M comparable] struct {
	moves   []M
	scores  []int32
	killers [2]M
	pv      []M
	quiets  []M // the quiet moves searched at the node so far (HistoryMalus)
	move    M   // the move being searched from the node; zero for a null move (CounterMove)
	eval    int // the node's static value, -Infinity when not evaluated (in check, or no technique needed it)
}

// AlphaBeta is an iterative-deepening negamax search with alpha-beta
// pruning, a transposition table, move ordering by the table's move,
// captures, killer moves and the history heuristic, and the techniques of
// Options.Techniques. It is not safe for concurrent use: a search of
// several threads (SetThreads) runs its helpers itself, each on a value
// of its own.
type AlphaBeta[M comparable, S Game[M]] struct {
	opts    Options
	eval    Evaluator[S]
	inc     Incremental[S] // eval, when it is incremental; else nil
	table   *table[M]
	plies   []plyState[M]
	history []int32
	counter []M // by MoveKey of the move played: the quiet move that last cut off in reply (CounterMove)
	pv      []M // the last completed iteration's PV, returned in Result

	multiPV int         // the root moves each iteration ranks (SetMultiPV); 0 or 1: the best only
	lines   []pvLine[M] // lines 2..multiPV of the iteration (lines[0] is unused: line 1 is pv)
	exclude []M         // the root moves the root search skips: the lines found before it

	// What the searched game offers, found at the start of each search.
	q     Quiescent[M] // the game as a Quiescent, or nil
	null  NullMover    // the game as a NullMover when null moves are on, or nil
	see   Exchanger[M] // the game as an Exchanger when SEE is on, or nil
	delta Exchanger[M] // the game as an Exchanger when delta pruning is on, or nil
	vals  []int        // the evaluator's piece values for see and delta, or nil
	quiet bool         // run quiescence search (option on and the game supports it)
	tech  Technique    // the techniques on, less those the game cannot use

	params Params    // *opts.Params, read by the techniques
	lmr    *lmrTable // the reductions of params

	nodes    int64
	seldepth int // the deepest ply reached in this search
	stopped  bool
	deadline time.Time
	ctx      context.Context
	report   func(Result[M]) // called after each completed iteration, if set

	// Lazy SMP (SetThreads): the helper threads of a main search, and in
	// every thread of a parallel search the node count they share.
	helpers []*AlphaBeta[M, S] // the main search's helpers; nil with one thread
	index   int                // 0 in the main search, i in its i-th helper
	total   *atomic.Int64      // the nodes all threads have added, during a parallel search; else nil
	flushed int64              // the part of nodes already added to total
}

// Limits changes the depth, node and time limits of the searches that
// follow (zero depth keeps the current one; zero nodes or time, none). The
// time is a hard limit; a soft one set before is dropped.
func (ab *AlphaBeta[M, S]) Limits(depth int, nodes int64, t time.Duration) {
	if depth > 0 {
		ab.opts.Depth = depth
	}
	ab.opts.Nodes, ab.opts.Time, ab.opts.SoftTime = nodes, t, 0
}

// ClockTableBits is the least size of the transposition table of a
// player searching by the clock (Searcher.SetClock): 1<<20 entries, as the
// UCI server's. A player's table is sized for the tournaments' searches of
// a few hundred to a few thousand nodes (1<<14 entries); at 10+0.1 a chess
// move searches some 100,000 to 300,000 nodes, which such a table holds a
// tenth of.
const ClockTableBits = 20

// Clock makes the searches that follow deepen until the soft time is spent
// (less while the best move is stable), never past the hard time.
func (ab *AlphaBeta[M, S]) Clock(soft, hard time.Duration) {
	ab.opts.Depth = maxPly - 1
	ab.opts.Nodes, ab.opts.Time, ab.opts.SoftTime = 0, hard, soft
}

// growTable replaces a table of fewer than 1<<bits entries with an empty
// one of 1<<bits; a search without a table stays without.
func (ab *AlphaBeta[M, S]) growTable(bits int) {
	if ab.table != nil && len(ab.table.buckets) < 1<<(bits-1) {
		ab.opts.TableBits = bits
		ab.table = newTable[M](bits)
	}
}

// SetTechniques changes the techniques of the searches that follow (zero:
// the game's Defaults).
func (ab *AlphaBeta[M, S]) SetTechniques(t Technique) {
	if t == 0 {
		t = Defaults[M, S]()
	}
	ab.opts.Techniques = t
}

// SetParams changes the parameters of the techniques for the searches
// that follow. It does not check their ranges (Params.Validate does).
func (ab *AlphaBeta[M, S]) SetParams(p Params) {
	ab.opts.Params = &p
	ab.params, ab.lmr = p, lmrFor(p)
}

// lmrFor returns the reduction table of p, the one built once for the
// defaults when p's reduction formula is theirs.
func lmrFor(p Params) *lmrTable {
	d := DefaultParams()
	if p.LMRBase == d.LMRBase && p.LMRDivisor == d.LMRDivisor {
		return defaultLMR
	}
	return newLMRTable(p)
}

// defaultLMR is the reduction table of DefaultParams, built once and only
// read.
var defaultLMR = newLMRTable(DefaultParams())

// ResizeTable gives the transposition table at most mb megabytes (the
// most buckets of a power of two that fit, at least one), emptying it; a
// UCI engine's Hash option calls it. The helpers of a parallel search
// share the new table.
func (ab *AlphaBeta[M, S]) ResizeTable(mb int) {
	bucket := int(unsafe.Sizeof(ttBucket[M]{}))
	bits := 1
	for (1<<bits)*bucket <= mb<<20 {
		bits++
	}
	ab.table = newTable[M](bits)
}

// OnIteration sets a function called after every completed iteration of
// a search with its result so far (a UCI engine prints them as info lines).
// The Result's PV is only valid during the call.
func (ab *AlphaBeta[M, S]) OnIteration(report func(Result[M])) { ab.report = report }

// SetMultiPV makes the searches that follow rank the best k root moves
// (UCI's MultiPV) rather than find the best only: each iteration, once the
// search of all root moves has found the best, the root is searched again
// without it, and then without the two found, and so on, k searches in all
// (fewer when the root has fewer legal moves). OnIteration's function is
// told each line of a completed iteration, best first, with its rank in
// MultiPV; Search returns the first line, the move a search of one line
// would choose. k <= 1 searches one line, as before any call.
func (ab *AlphaBeta[M, S]) SetMultiPV(k int) {
	ab.multiPV = max(1, k)
	for len(ab.lines) < ab.multiPV {
		ab.lines = append(ab.lines, pvLine[M]{pv: make([]M, 0, maxPly)})
	}
	if cap(ab.exclude) < ab.multiPV {
		ab.exclude = make([]M, 0, ab.multiPV)
	}
}

// NewAlphaBeta returns a search that evaluates leaves with eval.
func NewAlphaBeta[M comparable, S Game[M]](eval Evaluator[S], opts Options) *AlphaBeta[M, S] {
	opts = opts.withDefaults()
	if opts.Techniques == 0 || opts.Params == nil {
		set, p := GameDefaults[M, S]()
		if opts.Techniques == 0 {
			opts.Techniques = set
		}
		if opts.Params == nil {
			opts.Params = &p
		}
	}
	ab := &AlphaBeta[M, S]{opts: opts, eval: eval, plies: make([]plyState[M], maxPly+1)}
	ab.SetParams(*opts.Params)
	ab.inc, _ = eval.(Incremental[S])
	if !opts.NoTable {
		ab.table = newTable[M](opts.TableBits)
	}
	for i := range ab.plies {
		ab.plies[i].moves = make([]M, 0, 64)
		ab.plies[i].scores = make([]int32, 64)
		ab.plies[i].pv = make([]M, 0, maxPly)
		ab.plies[i].quiets = make([]M, 0, 64)
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
	ab.forget()
	for _, h := range ab.helpers {
		h.forget()
	}
}

// forget clears the killer and history tables.
func (ab *AlphaBeta[M, S]) forget() {
	clear(ab.history)
	clear(ab.counter)
	for i := range ab.plies {
		ab.plies[i].killers = [2]M{}
	}
}

// prepare finds what the game of s offers the techniques.
func (ab *AlphaBeta[M, S]) prepare(s S) {
	tech := ab.opts.Techniques
	q, isQuiescent := any(s).(Quiescent[M])
	ab.q, ab.null, ab.see, ab.delta = nil, nil, nil, nil
	if isQuiescent {
		ab.q = q
	} else {
		tech &^= CheckExtension
	}
	ab.quiet = ab.opts.Quiescence && isQuiescent
	if n, ok := any(s).(NullMover); ok && tech.Has(NullMove) {
		ab.null = n
	} else {
		tech &^= NullMove
	}
	x, isExchanger := any(s).(Exchanger[M])
	if !isExchanger || !isQuiescent {
		tech &^= SEE | Delta
	}
	if tech.Has(SEE) {
		ab.see = x
	}
	if tech.Has(Delta) {
		ab.delta = x
	}
	ab.vals = nil
	if v, ok := ab.eval.(Valuer); ok && (ab.see != nil || ab.delta != nil) {
		ab.vals = v.ExchangeValues()
	}
	ab.tech = tech
}

// Search looks for the best move in the current position of s and returns
// it with its score. s is returned to the position it had. The search stops
// early when ctx is done or a node or time limit is reached, and then
// reports the last completed iteration (at least depth 1 is always
// completed unless ctx is already done).
//
// With more than one thread (SetThreads), the helpers search copies of s
// beside it, sharing the table, until this search ends; the result is
// this thread's, its Nodes those of all threads.
func (ab *AlphaBeta[M, S]) Search(ctx context.Context, s S) Result[M] {
	if ab.table != nil {
		ab.table.age()
	}
	if len(ab.helpers) > 0 {
		return ab.searchParallel(ctx, s)
	}
	return ab.deepen(ctx, s, time.Now())
}

// deepen is the iterative deepening of Search, begun at start, on a table
// already aged for this search; in a parallel search each thread runs it.
func (ab *AlphaBeta[M, S]) deepen(ctx context.Context, s S, start time.Time) Result[M] {
	ab.ctx, ab.nodes, ab.flushed, ab.seldepth, ab.stopped = ctx, 0, 0, 0, false
	ab.deadline = time.Time{}
	if ab.opts.Time > 0 {
		ab.deadline = start.Add(ab.opts.Time)
	}
	if n := s.MoveKeySpace(); len(ab.history) != n {
		ab.history, ab.counter = make([]int32, n), make([]M, n)
	}
	if ab.inc != nil {
		ab.inc.Reset(s)
	}
	ab.prepare(s)
	lines := 1
	if ab.multiPV > 1 {
		ab.plies[0].moves = s.LegalMoves(ab.plies[0].moves)
		lines = min(ab.multiPV, len(ab.plies[0].moves))
	}
	var res Result[M]
	stable := 0 // iterations in a row that kept the best move
	for depth := 1; depth <= ab.opts.Depth; depth++ {
		if ab.index > 0 && skipDepth(ab.index, depth) {
			continue
		}
		if depth > 1 {
			ab.checkLimits()
			if ab.stopped {
				break
			}
		}
		score := ab.root(s, depth, res.Score)
		if ab.stopped && depth > 1 {
			break
		}
		root := &ab.plies[0]
		if len(root.pv) > 0 && res.Depth > 0 && root.pv[0] == res.Move {
			stable++
		} else {
			stable = 0
		}
		res.Score, res.Depth = score, depth
		ab.pv = append(ab.pv[:0], root.pv...)
		res.PV = ab.pv
		if len(res.PV) > 0 {
			res.Move = res.PV[0]
		}
		if lines > 1 && !ab.stopped {
			ab.searchLines(s, depth, lines)
		}
		if ab.report != nil && !ab.stopped {
			res.Nodes, res.Elapsed, res.SelDepth = ab.allNodes(), time.Since(start), ab.seldepth
			if ab.table != nil {
				res.Hashfull = ab.table.permill()
			}
			ab.reportLines(res, lines)
		}
		if ab.stopped || IsWin(score) || ab.softStop(time.Since(start), stable) {
			break
		}
	}
	res.Nodes, res.Elapsed, res.SelDepth = ab.nodes, time.Since(start), ab.seldepth
	return res
}

// searchLines searches lines 2..n of the iteration to depth whose first
// line, the best move's, is ab.pv: line i searches the root without the
// first moves of lines 1..i-1. A stopped search leaves the iteration's
// lines incomplete; Search then reports none of them.
func (ab *AlphaBeta[M, S]) searchLines(s S, depth, n int) {
	if len(ab.pv) == 0 {
		return
	}
	ab.exclude = append(ab.exclude[:0], ab.pv[0])
	for i := 1; i < n && !ab.stopped; i++ {
		l := &ab.lines[i]
		score := ab.root(s, depth, l.score)
		root := &ab.plies[0]
		if ab.stopped || len(root.pv) == 0 {
			break
		}
		l.score, l.pv = score, append(l.pv[:0], root.pv...)
		ab.exclude = append(ab.exclude, l.pv[0])
	}
	ab.exclude = ab.exclude[:0]
}

// reportLines tells the report function res, the first line of an
// iteration of n lines, and lines 2..n; their ranks are set when n > 1.
func (ab *AlphaBeta[M, S]) reportLines(res Result[M], n int) {
	if n <= 1 {
		ab.report(res)
		return
	}
	res.MultiPV = 1
	ab.report(res)
	for i := 1; i < n; i++ {
		l := ab.lines[i]
		res.Move, res.Score, res.PV, res.MultiPV = l.pv[0], l.score, l.pv, i+1
		ab.report(res)
	}
}

// softStop reports whether a search that has run for elapsed should not
// start another iteration: an iteration costs about as much as all those
// before it together, so none starts past 60% of the soft time. The soft
// time shrinks to half while the best move has held for three iterations
// and grows by half when it has just changed.
func (ab *AlphaBeta[M, S]) softStop(elapsed time.Duration, stable int) bool {
	soft := ab.opts.SoftTime
	if soft <= 0 {
		return false
	}
	switch {
	case stable >= 3:
		soft /= 2
	case stable == 0:
		soft += soft / 2
	}
	return elapsed > soft*6/10
}

// root searches the root to depth, inside an aspiration window around the
// last iteration's score when that technique is on, widening the window
// until the score falls inside it.
func (ab *AlphaBeta[M, S]) root(s S, depth, last int) int {
	if !ab.tech.Has(Aspiration) || depth < 4 || IsWin(last) {
		return ab.negamax(s, depth, 0, 0, -Infinity, Infinity, true)
	}
	delta := ab.params.Aspiration
	alpha, beta := max(last-delta, -Infinity), min(last+delta, Infinity)
	for {
		score := ab.negamax(s, depth, 0, 0, alpha, beta, true)
		if ab.stopped {
			return score
		}
		switch {
		case score <= alpha:
			alpha = max(score-delta, -Infinity)
		case score >= beta:
			beta = min(score+delta, Infinity)
		default:
			return score
		}
		delta *= 2
		if delta > 8*ab.params.Aspiration {
			alpha, beta = -Infinity, Infinity
		}
	}
}

// checkLimits sets stopped when the context, the node limit or the clock
// says so. It is called every 1024 nodes.
//
// In a parallel search the node limit bounds the nodes of all threads
// together: each adds its count to the shared total here.
func (ab *AlphaBeta[M, S]) checkLimits() {
	nodes := ab.nodes
	if ab.total != nil {
		nodes = ab.total.Add(ab.nodes - ab.flushed)
		ab.flushed = ab.nodes
	}
	if ab.ctx.Err() != nil ||
		ab.opts.Nodes > 0 && nodes >= ab.opts.Nodes ||
		!ab.deadline.IsZero() && time.Now().After(ab.deadline) {
		ab.stopped = true
	}
}

// countNode counts a node of negamax or quiesce at ply (the deepest so
// far is the search's seldepth) and checks the limits
// every 1024 nodes; the caller returns at once when ab.stopped is then
// set. It is small enough to be inlined (the PV reset stays with the
// callers for that reason).
func (ab *AlphaBeta[M, S]) countNode(ply int) {
	ab.nodes++
	ab.seldepth = max(ab.seldepth, ply)
	if ab.nodes&1023 == 0 {
		ab.checkLimits()
	}
}

// negamax returns the value of s searched to depth plies, ply plies below
// the root, with ext extension plies used on this path, inside the window
// (alpha, beta); a window of width one makes a non-PV node. nullOK is false
// right after a null move. It fills the ply's PV.
func (ab *AlphaBeta[M, S]) negamax(s S, depth, ply, ext, alpha, beta int, nullOK bool) int {
	ps := &ab.plies[ply]
	ps.pv = ps.pv[:0]
	ab.countNode(ply)
	if ab.stopped {
		return 0
	}
	if ply > 0 {
		if s.Drawn() {
			return 0
		}
		if ab.tech.Has(MateDistance) {
			alpha, beta = max(alpha, -Win+ply), min(beta, Win-ply-1)
			if alpha >= beta {
				return alpha
			}
		}
	}
	inCheck := ab.q != nil && ab.q.InCheck()
	if inCheck && ab.tech.Has(CheckExtension) && ply > 0 && ext < ab.opts.MaxExtension {
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
				switch b := e.bound(); {
				case b == boundExact,
					b == boundLower && score >= beta,
					b == boundUpper && score <= alpha:
					if e.move != zero {
						ps.pv = append(ps.pv, e.move)
					}
					return score
				}
			}
		}
	}

	if ab.tech.Has(IIR) && ply > 0 && depth >= ab.params.IIRDepth && ttMove == zero && ab.table != nil {
		depth--
	}

	// Pruning before the moves, at non-PV nodes that are quiet (not in
	// check, no capture pending).
	pvNode := beta-alpha > 1
	unquiet := inCheck || s.Tactical()
	staticEval := -Infinity
	if !unquiet && (!pvNode && ab.tech&(ReverseFutility|NullMove|Futility) != 0 || ab.tech.Has(Improving)) {
		staticEval = ab.eval.Evaluate(s)
	}
	ps.eval = staticEval
	improving := ab.tech.Has(Improving) && ab.improving(ply)
	if !pvNode && staticEval > -Infinity {
		rfpDepth := depth
		if improving {
			rfpDepth--
		}
		if ab.tech.Has(ReverseFutility) && depth <= ab.params.RFPDepth && !IsWin(beta) &&
			staticEval-ab.params.RFPMargin*rfpDepth >= beta {
			return staticEval
		}
		if ab.null != nil && nullOK && depth >= ab.params.NullDepth && staticEval >= beta && !IsWin(beta) && ab.null.NullSafe() {
			r := ab.params.NullBase + depth/ab.params.NullDivisor
			ps.move = zero
			ab.null.MakeNull()
			if ab.inc != nil {
				ab.inc.Push(s)
			}
			score := -ab.negamax(s, depth-1-r, ply+1, ext, -beta, -beta+1, false)
			ab.null.UnmakeNull()
			if ab.inc != nil {
				ab.inc.Pop()
			}
			if ab.stopped {
				return 0
			}
			if score >= beta {
				ps.pv = ps.pv[:0]
				if IsWin(score) {
					score = beta // a mate after a pass proves nothing
				}
				return score
			}
		}
	}

	ps.moves = s.LegalMoves(ps.moves)
	if ply == 0 && len(ab.exclude) > 0 {
		ps.moves = ab.withoutExcluded(ps.moves)
	}
	moves := ps.moves
	if len(moves) == 0 {
		return terminalScore(s.Outcome(), s.ToMove(), ply)
	}
	ab.scoreMoves(s, ps, ttMove, ab.counterTo(s, ply))

	futilityMargin := ab.params.FutilityMargin * (depth + 1)
	futile := ab.tech.Has(Futility) && !pvNode && staticEval > -Infinity && depth <= ab.params.FutilityDepth &&
		!IsWin(alpha) && staticEval+futilityMargin <= alpha
	reduce := ab.tech.Has(LMR) && depth >= ab.params.LMRDepth && !unquiet
	lateQuiets := -1 // the quiet moves searched before late-move pruning starts; -1: it does not
	if ab.tech.Has(LateMovePruning) && ab.q != nil && !pvNode && !inCheck && depth <= ab.params.LMPDepth {
		lateQuiets = ab.params.LMPBase + ab.params.LMPScale*depth*depth/100
	}
	quiets := 0
	ps.quiets = ps.quiets[:0]
	alphaIn := alpha
	best, bestMove := -Infinity, zero
	for i := range moves {
		m := ab.pickNext(ps, i)
		order := ps.scores[i]
		// History scores stay within ±orderKiller/2 (noteCutoff), above
		// the losing captures' scores and below the killers'.
		quietMove := order > orderBadCapture/2 && order < orderKiller && m != ttMove
		if quietMove {
			if lateQuiets >= 0 && quiets >= lateQuiets && best > -Infinity && !IsWin(best) {
				continue
			}
			quiets++
		}
		ps.move = m
		ab.make(s, m)
		givesCheck := s.Tactical()
		if futile && i > 0 && quietMove && !givesCheck {
			ab.unmake(s)
			best = max(best, staticEval+futilityMargin)
			continue
		}
		var score int
		if i == 0 {
			score = -ab.negamax(s, depth-1, ply+1, ext, -beta, -alpha, true)
		} else {
			r := 0
			if reduce && quietMove && !givesCheck && i >= ab.params.LMRMove {
				r = int(ab.lmr[min(depth, 63)][min(i, 63)])
				if pvNode {
					r--
				}
				if ab.tech.Has(Improving) && !improving {
					r++
				}
				r = max(0, min(r, depth-2))
			}
			// Later moves are searched with a null window when PVS is on,
			// to prove them no better than the first.
			lo := -beta
			if ab.tech.Has(PVS) {
				lo = -alpha - 1
			}
			score = -ab.negamax(s, depth-1-r, ply+1, ext, lo, -alpha, true)
			if score > alpha && r > 0 {
				score = -ab.negamax(s, depth-1, ply+1, ext, lo, -alpha, true)
			}
			if score > alpha && score < beta && lo != -beta {
				score = -ab.negamax(s, depth-1, ply+1, ext, -beta, -alpha, true)
			}
		}
		ab.unmake(s)
		if ab.stopped {
			return 0
		}
		if quietMove && score < beta {
			ps.quiets = append(ps.quiets, m)
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				child := ab.plies[ply+1].pv
				ps.pv = append(append(ps.pv[:0], m), child...)
				if alpha >= beta {
					if ab.q == nil || ab.q.CaptureOrder(m) == 0 {
						ab.noteCutoff(s, ply, m, depth, len(moves) > 1)
					}
					break
				}
			}
		}
	}
	// A root searched without some of its moves has no value to keep.
	if ab.table != nil && (ply > 0 || len(ab.exclude) == 0) {
		b := boundExact
		switch {
		case best >= beta:
			b = boundLower
		case best <= alphaIn:
			b = boundUpper
			bestMove = zero // no move proved best: keep the table's
		}
		ab.table.store(key, bestMove, best, depth, ply, b)
	}
	return best
}

// withoutExcluded removes the moves of ab.exclude from moves, in place.
func (ab *AlphaBeta[M, S]) withoutExcluded(moves []M) []M {
	kept := moves[:0]
	for _, m := range moves {
		if !slices.Contains(ab.exclude, m) {
			kept = append(kept, m)
		}
	}
	return kept
}

// Move ordering scores: the table's move first, then captures (in games
// that rank them) that do not lose material, then the killers, then the
// counter move (CounterMove), then the rest by history, and last the
// captures that lose material by static exchange. The counter move counts
// as a quiet move (it is reduced and pruned as one); the killers do not.
const (
	orderTable      = 1 << 30
	orderCapture    = 1<<29 + 1<<28
	orderKiller     = 1 << 29
	orderCounter    = orderKiller - 1
	orderBadCapture = -1 << 29
)

// improving reports whether the static value of the node at ply is
// above that of the node two plies up, the same side's last (Improving);
// four plies up when that one was not evaluated (in check), and true when
// neither was. A node not evaluated itself is not improving.
func (ab *AlphaBeta[M, S]) improving(ply int) bool {
	e := ab.plies[ply].eval
	if e == -Infinity {
		return false
	}
	for _, up := range [2]int{2, 4} {
		if ply >= up && ab.plies[ply-up].eval != -Infinity {
			return e > ab.plies[ply-up].eval
		}
	}
	return true
}

// counterTo returns the counter move (CounterMove) to the move that led
// to the node at ply, or the zero move when there is none: at the root,
// after a null move, or with the technique off.
func (ab *AlphaBeta[M, S]) counterTo(s S, ply int) M {
	var zero M
	if !ab.tech.Has(CounterMove) || ply == 0 {
		return zero
	}
	prev := ab.plies[ply-1].move
	if prev == zero {
		return zero
	}
	return ab.counter[s.MoveKey(prev)]
}

// scoreMoves fills ps.scores for ps.moves; counter is the counter move to
// the move just played, or the zero move.
func (ab *AlphaBeta[M, S]) scoreMoves(s S, ps *plyState[M], ttMove, counter M) {
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
			// before killers and quiet moves unless they lose material.
			sc = orderCapture + int32(q.CaptureOrder(m))
			if ab.see != nil && !ab.see.SEEAtLeast(m, 0, ab.vals) {
				sc = orderBadCapture + int32(q.CaptureOrder(m))
			}
		case !ab.opts.NoKillers && (m == ps.killers[0] || m == ps.killers[1]):
			sc = orderKiller
		case m == counter && counter != zero:
			sc = orderCounter
		case !ab.opts.NoHistory:
			sc = ab.history[s.MoveKey(m)]
		}
		ps.scores[i] = sc
	}
}

// pickNext moves the best-scored of ps.moves[i:] to position i and returns
// it. Selection beats sorting because most nodes cut off after a few moves.
// Ties go to the earliest move.
func (ab *AlphaBeta[M, S]) pickNext(ps *plyState[M], i int) M {
	moves, scores := ps.moves[i:], ps.scores[i:len(ps.moves)]
	best, top := 0, scores[0]
	for j, sc := range scores {
		if sc > top {
			best, top = j, sc
		}
	}
	moves[0], moves[best] = moves[best], moves[0]
	scores[0], scores[best] = top, scores[0]
	return moves[0]
}

// noteCutoff records a quiet move that caused a beta cutoff at ply in the
// killer, counter-move and history tables. Forced moves teach nothing and
// are skipped.
func (ab *AlphaBeta[M, S]) noteCutoff(s S, ply int, m M, depth int, choice bool) {
	if !choice {
		return
	}
	ps := &ab.plies[ply]
	var zero M
	if ab.tech.Has(CounterMove) && ply > 0 {
		if prev := ab.plies[ply-1].move; prev != zero {
			ab.counter[s.MoveKey(prev)] = m
		}
	}
	if !ab.opts.NoKillers && m != ps.killers[0] {
		ps.killers[1], ps.killers[0] = ps.killers[0], m
	}
	if ab.opts.NoHistory {
		return
	}
	bonus := int32(depth * depth)
	h := &ab.history[s.MoveKey(m)]
	*h += bonus
	over := *h > orderKiller/2
	if ab.tech.Has(HistoryMalus) {
		for _, q := range ps.quiets {
			if q != m {
				h := &ab.history[s.MoveKey(q)]
				*h -= bonus
				over = over || *h < -orderKiller/2
			}
		}
	}
	if over {
		for i := range ab.history {
			ab.history[i] /= 2
		}
	}
}

// quiesce searches only the moves that change the material (or, in check,
// every evasion) until the position is quiet: the side to move may stand pat
// on the evaluation unless it is in check. With SEE on, captures that lose
// material are not searched; with delta pruning, neither are those that
// could not raise alpha if they won their victim and a margin.
func (ab *AlphaBeta[M, S]) quiesce(s S, q Quiescent[M], ply, alpha, beta int) int {
	ps := &ab.plies[ply]
	ps.pv = ps.pv[:0]
	ab.countNode(ply)
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
	best, standPat := -Infinity, -Infinity
	if inCheck {
		ps.moves = s.LegalMoves(ps.moves)
		if len(ps.moves) == 0 {
			return terminalScore(s.Outcome(), s.ToMove(), ply)
		}
	} else {
		standPat = ab.eval.Evaluate(s)
		best = standPat
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
		if !inCheck {
			if ab.delta != nil && standPat+ab.delta.CaptureValue(m, ab.vals)+ab.params.DeltaMargin <= alpha {
				continue
			}
			if ab.see != nil && !ab.see.SEEAtLeast(m, 0, ab.vals) {
				continue
			}
		}
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
