// Package search holds game-independent players: alpha-beta (negamax with
// iterative deepening, a transposition table and move ordering), Monte Carlo
// tree search with random playouts, MCTS with early playout termination, and
// a random mover. It knows a game only through the Game interface below and a
// position's value only through an Evaluator.
//
// A search value is owned by one goroutine: it keeps per-ply buffers, tables
// and counters that it reuses from move to move so that searching does not
// allocate. An AlphaBeta given several threads (SetThreads, the UCI
// server's Threads option: Lazy SMP) starts and stops its helper goroutines
// itself, each with its own copies, within a call of Search. Reset it between games so that a game's result never depends on
// what the same value searched before (tournaments rely on that for
// determinism whatever the schedule).
package search

import (
	"errors"

	"evolved/game"
)

// Game is what search needs of a game: the game.State contract plus a few
// cheap queries used at every node.
type Game[M comparable] interface {
	game.State[M]
	// Drawn reports whether a rule draws the current position regardless of
	// the legal moves (repetition, move limit, no-progress rule). It must not
	// generate moves.
	Drawn() bool
	// Tactical reports whether the position is not quiet (a capture is
	// pending in draughts): a search extends such a leaf instead of
	// evaluating it when its extension option is on.
	Tactical() bool
	// MoveKey maps a move to 0..MoveKeySpace()-1 for history and killer tables.
	MoveKey(m M) int
	// MoveKeySpace returns the number of distinct move keys.
	MoveKeySpace() int
}

// Quiescent is implemented by games whose leaves are searched on until they
// are quiet (chess, xiangqi): at depth 0 an AlphaBeta with Quiescence on
// stands pat on the evaluation and tries only the moves that change the
// material, or every move when in check.
type Quiescent[M comparable] interface {
	// NoisyMoves appends the legal captures and promotions to buf[:0].
	NoisyMoves(buf []M) []M
	// InCheck reports whether the side to move is in check.
	InCheck() bool
	// CaptureOrder scores a move for ordering, most promising first
	// (most valuable victim, least valuable attacker); quiet moves 0.
	CaptureOrder(m M) int
}

// NullMover is implemented by games in which passing the turn is a sound
// probe for null-move pruning (chess, xiangqi; not draughts, whose move
// obligation makes zugzwang the rule): if the side to move is still
// winning after giving the opponent a free move, a real move will be too.
type NullMover interface {
	// MakeNull passes the turn: the side to move changes and nothing moves
	// (in chess an en passant right lapses). It must not be called in check.
	// Repetition and draw rules never look back past a null move.
	MakeNull()
	// UnmakeNull takes back the last MakeNull.
	UnmakeNull()
	// NullSafe reports whether zugzwang is unlikely enough for the side to
	// move that a null move may be tried: in chess it has a piece other than
	// pawns and the king; in xiangqi a chariot, horse or cannon.
	NullSafe() bool
}

// Exchanger is implemented by games with a static exchange evaluation
// (chess, xiangqi): it orders losing captures last and prunes them in
// quiescence, and gives delta pruning the value a capture wins. values
// are the piece values to count, as the game's own ExchangeValues makes
// them, or nil for the game's usual ones; the search passes those of its
// Evaluator when it is a Valuer.
type Exchanger[M comparable] interface {
	// SEEAtLeast reports whether the exchange that move m starts on its
	// target square wins at least threshold centipawns for the side to
	// move, each side recapturing with its least valuable piece and free to
	// stop (pins ignored, as usual).
	SEEAtLeast(m M, threshold int, values []int) bool
	// CaptureValue returns the material m wins at once, in centipawns: the
	// captured piece's value plus, for a promotion, what the new piece adds
	// over a pawn; 0 for a quiet move.
	CaptureValue(m M, values []int) int
}

// Valuer is implemented by evaluators that count the pieces otherwise than
// the game's usual values (nets with evolved piece values): static
// exchange evaluation and delta pruning then use their values, so that the
// search does not prune as losing an exchange the evaluation would call
// even, nor hide from selection what the evolved values change.
type Valuer interface {
	// ExchangeValues returns the piece values as the game's Exchanger
	// takes them; it is called once per search.
	ExchangeValues() []int
}

// Scores are ints from the point of view of the side to move.
const (
	// Infinity bounds every score.
	Infinity = 32000
	// Win is the score of a position won at the root; a win found n plies
	// down scores Win-n, so that shorter wins are preferred.
	Win = 31000
	// MaxEval bounds what an Evaluator may return, so that evaluations never
	// look like wins.
	MaxEval = 20000
	// maxPly bounds the depth of a search, extensions included.
	maxPly = 128
)

// Evaluator gives the value of the current position of a game from the
// point of view of the side to move, in -MaxEval..MaxEval.
type Evaluator[S any] interface {
	Evaluate(s S) int
}

// Incremental is an Evaluator that keeps state along the search path (an
// accumulator, as NNUE engines do): Reset at the root, Push after every
// Make, Pop after every Unmake.
type Incremental[S any] interface {
	Evaluator[S]
	Reset(s S)
	Push(s S)
	Pop()
}

// IsWin reports whether score is a forced win or loss found by search.
func IsWin(score int) bool { return score > Win-maxPly || score < -Win+maxPly }

// terminalScore returns the score of a position with no legal move for the
// side to move, ply plies from the root.
func terminalScore(o game.Outcome, toMove game.Player, ply int) int {
	switch o.Result {
	case game.WinFor(toMove):
		return Win - ply
	case game.WinFor(toMove.Other()):
		return -Win + ply
	}
	return 0
}

// ErrNoMove is returned by a Player asked to move in a position without a
// legal move.
var ErrNoMove = errors.New("search: no legal move")
