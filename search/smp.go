package search

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Lazy SMP, as CounterGo and Stockfish search with several threads: each
// helper thread runs the same iterative deepening on a copy of the game
// with its own evaluator, move buffers, killers and history, and the
// threads meet only in the transposition table they share, so that each
// finds the others' results there. Helpers skip depths in a pattern that
// spreads them over the next iterations; the main thread keeps the clock,
// reports the iterations and gives the result, and stops the helpers when
// it ends.

// Cloner is implemented by what a search of several threads (SetThreads)
// gives each helper a copy of: the game, whose Clone returns an
// independent game at the same position with the same history (for the
// repetition rules), and the evaluator, whose Clone (returning an
// Evaluator) gives one of the same values with state of its own
// (accumulators, caches), safe to use beside the original in another
// goroutine.
type Cloner[T any] interface {
	Clone() T
}

// MaxThreads bounds the threads of one search (SetThreads).
const MaxThreads = 256

// ErrNoClone is returned by SetThreads when the game or the evaluator
// cannot be cloned for a helper thread.
var ErrNoClone = errors.New("search: a search of several threads needs a game and an evaluator that clone")

// SetThreads makes the searches that follow run on n threads (Lazy SMP),
// 1..MaxThreads; one, as before any call, is the search of one goroutine,
// node for node. The helpers are made here, each with a clone of the
// evaluator, and kept from search to search with their killers and
// history, as the main thread keeps its own; Reset clears them all. It
// returns an error wrapping ErrNoClone, and keeps the threads it had,
// when more than one is asked of a game type or evaluator that is not a
// Cloner.
func (ab *AlphaBeta[M, S]) SetThreads(n int) error {
	if n < 1 || n > MaxThreads {
		return fmt.Errorf("search: %d threads: want 1..%d", n, MaxThreads)
	}
	if n == 1 {
		ab.helpers = nil
		return nil
	}
	var game S
	if _, ok := any(game).(Cloner[S]); !ok {
		return fmt.Errorf("search: %d threads of %T: %w", n, game, ErrNoClone)
	}
	eval, ok := ab.eval.(Cloner[Evaluator[S]])
	if !ok {
		return fmt.Errorf("search: %d threads with %T: %w", n, ab.eval, ErrNoClone)
	}
	for len(ab.helpers) < n-1 {
		o := ab.opts
		o.NoTable = true // the main search's table is theirs
		h := NewAlphaBeta[M, S](eval.Clone(), o)
		h.index = len(ab.helpers) + 1
		ab.helpers = append(ab.helpers, h)
	}
	clear(ab.helpers[n-1:])
	ab.helpers = ab.helpers[:n-1]
	return nil
}

// Threads returns the number of threads the searches run on.
func (ab *AlphaBeta[M, S]) Threads() int { return 1 + len(ab.helpers) }

// searchParallel is Search with helpers: each gets a clone of s and the
// main search's options, less its clock and depth (it deepens until the
// main search, which runs in this goroutine, ends and cancels it). The
// node limit bounds all threads together; the result is the main
// search's, with every thread's nodes and the deepest ply any reached.
func (ab *AlphaBeta[M, S]) searchParallel(ctx context.Context, s S) Result[M] {
	start := time.Now()
	var total atomic.Int64
	if ab.table != nil {
		ab.table.share(true)
	}
	hctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, h := range ab.helpers {
		h.follow(ab, &total)
		g := any(s).(Cloner[S]).Clone()
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.deepen(hctx, g, start)
		}()
	}
	ab.total = &total
	res := ab.deepen(ctx, s, start)
	cancel()
	wg.Wait()
	ab.total = nil
	if ab.table != nil {
		ab.table.share(false)
	}
	for _, h := range ab.helpers {
		res.Nodes += h.nodes
		res.SelDepth = max(res.SelDepth, h.seldepth)
		h.total = nil
	}
	res.Elapsed = time.Since(start)
	return res
}

// follow readies helper h for a search of main's: main's options,
// techniques and table, no limit but main's nodes (counted in total, with
// main's), one line.
func (h *AlphaBeta[M, S]) follow(main *AlphaBeta[M, S], total *atomic.Int64) {
	h.opts = main.opts
	h.opts.Depth, h.opts.Time, h.opts.SoftTime = maxPly-1, 0, 0
	h.params, h.lmr = main.params, main.lmr
	h.table, h.total = main.table, total
	h.multiPV = 1
}

// allNodes returns the nodes of the search so far: this thread's, or in
// a parallel search those all threads have added to the total and this
// thread's not yet added.
func (ab *AlphaBeta[M, S]) allNodes() int64 {
	if ab.total == nil {
		return ab.nodes
	}
	return ab.total.Load() + ab.nodes - ab.flushed
}

// skipDepth reports whether helper i (1, 2, ...) skips the iteration of
// depth d: Stockfish 9's pattern, under which helper i takes row (i-1)%20
// and skips d when (d+phase)/size is odd. The first helper searches the
// even depths, the second the odd ones, later ones runs of two, three and
// four depths out of phase, so that the threads are spread over the
// iterations to come rather than all searching the main thread's.
func skipDepth(i, d int) bool {
	size := [20]int{1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4}
	phase := [20]int{0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7}
	r := (i - 1) % 20
	return (d+phase[r])/size[r]%2 == 1
}
