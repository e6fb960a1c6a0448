package classic

import (
	"time"

	"evolved/game/xiangqi"
	"evolved/search"
)

// Defaults of PlusOptions.
const (
	// DefaultMoveTime is the time classic+ spends on a move.
	DefaultMoveTime = time.Second
	// DefaultPlusDepth caps classic+'s iterative deepening; the move time
	// stops it long before in all but the simplest endings.
	DefaultPlusDepth = 64
	// DefaultTableBits sizes classic+'s transposition table: 1<<18
	// entries, a few megabytes.
	DefaultTableBits = 18
)

// PlusOptions configures the classic+ player. The zero value of each
// field means its default.
type PlusOptions struct {
	// MoveTime is the time the search may take per move; default
	// DefaultMoveTime. When it expires (search.AlphaBeta looks every
	// 1024 nodes) the search abandons the iteration under way and plays
	// the last completed one's move (depth 1 always completes). In timed
	// games (tournament.Clocked) the clock decides instead.
	MoveTime time.Duration
	// MaxDepth caps the nominal depth of the iterative deepening, in
	// plies; default DefaultPlusDepth. Quiescence searches captures
	// beyond it.
	MaxDepth int
	// TableBits sizes the transposition table at 1<<TableBits entries;
	// default DefaultTableBits.
	TableBits int
}

// NewPlus returns the classic+ player: the classic evaluation (Evaluator,
// that is Evaluate/Scale) on search.AlphaBeta, with iterative deepening,
// a transposition table, killer and history move ordering after the
// captures (most valuable victim first, xiangqi.Game.CaptureOrder), and
// quiescence search on captures and check evasions at the leaves, under
// a time limit per move and a depth cap. Its search sees repetitions and
// the move limit through xiangqi.Game.Drawn, which the classic player
// does not.
func NewPlus(opts PlusOptions) search.Searcher[xiangqi.Move, *xiangqi.Game] {
	if opts.MoveTime <= 0 {
		opts.MoveTime = DefaultMoveTime
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultPlusDepth
	}
	if opts.TableBits <= 0 {
		opts.TableBits = DefaultTableBits
	}
	ab := search.NewAlphaBeta[xiangqi.Move, *xiangqi.Game](Evaluator{}, search.Options{
		Depth:      opts.MaxDepth,
		Quiescence: true,
		Time:       opts.MoveTime,
		TableBits:  opts.TableBits,
	})
	return search.Searcher[xiangqi.Move, *xiangqi.Game]{AlphaBeta: ab}
}
