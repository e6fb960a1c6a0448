package search

import (
	"context"
	"math/rand/v2"
	"time"
)

// Player chooses moves for one side of a game. A Player value is used by one
// goroutine at a time and plays one game at a time: NewGame starts a game
// and seeds every random choice the player makes in it, so that a game's
// moves depend only on the players, the start position and the seeds.
type Player[M comparable, S Game[M]] interface {
	// NewGame prepares the player for a new game.
	NewGame(seed uint64)
	// Move chooses a move in the current position of s, which must have a
	// legal move, and leaves s as it found it. The error is for players
	// that can fail (an external engine); built-in players return nil.
	Move(ctx context.Context, s S) (Result[M], error)
}

// Random plays uniformly random legal moves.
type Random[M comparable, S Game[M]] struct {
	src   *rand.PCG
	rng   *rand.Rand
	moves []M
}

// NewRandom returns a random mover.
func NewRandom[M comparable, S Game[M]]() *Random[M, S] {
	src := rand.NewPCG(0, 0)
	return &Random[M, S]{src: src, rng: rand.New(src)}
}

// NewGame reseeds the player.
func (r *Random[M, S]) NewGame(seed uint64) { r.src.Seed(seed, 0x72616e646f6d) } // "random"

// Move returns a uniformly random legal move.
func (r *Random[M, S]) Move(_ context.Context, s S) (Result[M], error) {
	r.moves = s.LegalMoves(r.moves)
	if len(r.moves) == 0 {
		return Result[M]{}, ErrNoMove
	}
	return Result[M]{Move: r.moves[r.rng.IntN(len(r.moves))]}, nil
}

// Searcher plays the moves an AlphaBeta search finds. The search is
// deterministic, so the seed is not used; Reset at every new game keeps a
// game independent of the games before it.
type Searcher[M comparable, S Game[M]] struct {
	*AlphaBeta[M, S]
}

// NewGame clears the search's tables.
func (p Searcher[M, S]) NewGame(uint64) { p.Reset() }

// Move searches the current position.
func (p Searcher[M, S]) Move(ctx context.Context, s S) (Result[M], error) {
	res := p.Search(ctx, s)
	var zero M
	if res.Move == zero {
		// Stopped before depth 1 completed: any legal move beats none.
		moves := s.LegalMoves(nil)
		if len(moves) == 0 {
			return res, ErrNoMove
		}
		res.Move = moves[0]
	}
	return res, nil
}

// MCTSPlayer plays the moves an MCTS finds, seeded per game.
type MCTSPlayer[M comparable, S Game[M]] struct {
	*MCTS[M, S]
	src *rand.PCG
	rng *rand.Rand
}

// NewMCTSPlayer wraps t as a Player.
func NewMCTSPlayer[M comparable, S Game[M]](t *MCTS[M, S]) *MCTSPlayer[M, S] {
	src := rand.NewPCG(0, 0)
	return &MCTSPlayer[M, S]{MCTS: t, src: src, rng: rand.New(src)}
}

// NewGame reseeds the player.
func (p *MCTSPlayer[M, S]) NewGame(seed uint64) { p.src.Seed(seed, 0x6d637473) } // "mcts"

// Move searches the current position.
func (p *MCTSPlayer[M, S]) Move(ctx context.Context, s S) (Result[M], error) {
	res := p.Search(ctx, s, p.rng)
	var zero M
	if res.Move == zero {
		return res, ErrNoMove
	}
	return res, nil
}

// Allot returns the time to spend on one move with left on the clock and
// inc added per move: an even share of the clock over the moves to go (30
// when unknown, movesToGo <= 0) plus three quarters of the increment, never
// more than a third of what is left, less 20 ms for lag and overhead.
func Allot(left, inc time.Duration, movesToGo int) time.Duration {
	if movesToGo <= 0 {
		movesToGo = 30
	}
	t := left/time.Duration(movesToGo) + inc*3/4
	t = min(t, left/3)
	t -= 20 * time.Millisecond
	return max(t, 5*time.Millisecond)
}

// Budget returns the soft and hard time limits of one move with left on
// the clock and inc added per move: the soft one is Allot's share, the hard
// one four times that, but never more than a third of what is left less
// 20 ms for lag and overhead, and never less than the soft one.
func Budget(left, inc time.Duration, movesToGo int) (soft, hard time.Duration) {
	soft = Allot(left, inc, movesToGo)
	hard = min(4*soft, left/3-20*time.Millisecond)
	return soft, max(hard, soft)
}

// SetClock makes the next moves' searches deepen while Budget's soft time
// lasts (less when the best move is stable), never past its hard time,
// with a table of at least ClockTableBits entries (a smaller one is
// replaced, empty, at the first call). The UCI server calls Clock itself,
// so a table its Hash option sized stays as the user chose.
func (p Searcher[M, S]) SetClock(mine, _, inc time.Duration) {
	p.growTable(ClockTableBits)
	p.Clock(Budget(mine, inc, 0))
}

// SetClock makes the next moves' searches stop by the time Allot gives,
// running as many playouts as that time allows.
func (p *MCTSPlayer[M, S]) SetClock(mine, _, inc time.Duration) {
	p.opts.Time = Allot(mine, inc, 0)
	p.opts.Playouts = 1 << 30
}
