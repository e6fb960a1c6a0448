package search

import (
	"context"
	"math/rand/v2"
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
