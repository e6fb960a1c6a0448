package metaheuristic

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"evolved/game"
	"evolved/game/chess"
	"evolved/search"
	"evolved/seed"
)

// The purposes of this package's random streams. Each is drawn with
// seed.Derive(run seed, "meta-"+method, iteration, purpose, index), the
// index being the game's (the ant's, the child's) within the iteration.
const (
	// purposeLearner drives the learner's random choices in one game.
	purposeLearner seed.Purpose = "meta-learner"
	// purposeOpponent is the seed the opponent's NewGame gets for one game.
	purposeOpponent seed.Purpose = "meta-opponent"
	// purposeCrossover drives the GA's choice of parents and of their moves
	// for one child.
	purposeCrossover seed.Purpose = "meta-crossover"
)

// env is a run's validated setting, shared by its games.
type env struct {
	method Method
	start
	turns   int
	weights Weights
	seed    uint64
	workers int
	memoOn  bool
	// memo holds the opponent's answers by position hash when memoOn. Games
	// only read it; batch adds what they learnt once they are done.
	memo map[uint64]chess.Move
	pool pool
}

// openEnv checks a method's own settings with validate, then opens the
// environment of its run, as newEnv does. The run defers the env's close.
func openEnv(method Method, c *Config, validate func() error) (*env, error) {
	if err := validate(); err != nil {
		return nil, err
	}
	return newEnv(method, c)
}

// close closes the pool of e's games; its failure becomes *err, named by
// the method, unless *err holds an error already.
func (e *env) close(err *error) {
	if cerr := e.pool.close(); cerr != nil && *err == nil {
		*err = fmt.Errorf("metaheuristic: %s: %w", e.method, cerr)
	}
}

// newEnv validates c for method.
func newEnv(method Method, c *Config) (*env, error) {
	s, err := c.prepare()
	if err != nil {
		return nil, err
	}
	workers := c.Workers
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	e := &env{method: method, start: s, turns: c.Turns, weights: c.Weights.orDefault(), seed: c.Seed,
		workers: workers, memoOn: c.MemoOpponent, memo: map[uint64]chess.Move{}}
	e.pool.newOpponent = c.Opponent
	e.pool.start, e.pool.rules = s.pos, s.rules
	return e, nil
}

// rand returns the random stream of purpose for game index of iteration.
func (e *env) rand(iteration int, purpose seed.Purpose, index int) *rand.Rand {
	return seed.Rand(e.seed, "meta-"+string(e.method), iteration, purpose, index)
}

// seat is what a worker plays a game with: an opponent instance, a game
// and a move buffer, reused from game to game.
type seat struct {
	opponent search.Player[chess.Move, *chess.Game]
	game     *chess.Game
	legal    []chess.Move
}

// pool keeps the seats of a run: no more are made than games are played at
// once, and all are closed when the run ends. The Opponent factory is
// called under the lock, from one goroutine at a time.
type pool struct {
	newOpponent Opponent
	start       chess.Position
	rules       chess.Rules
	mu          sync.Mutex // protects the fields below
	free, all   []*seat
}

func (p *pool) get() *seat {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		s := p.free[n-1]
		p.free = p.free[:n-1]
		return s
	}
	s := &seat{opponent: p.newOpponent(), game: chess.NewGame(p.start, p.rules), legal: make([]chess.Move, 0, chess.MaxMoves)}
	p.all = append(p.all, s)
	return s
}

func (p *pool) put(s *seat) {
	p.mu.Lock()
	p.free = append(p.free, s)
	p.mu.Unlock()
}

// close closes the opponents that are io.Closers.
func (p *pool) close() error {
	var errs []error
	for _, s := range p.all {
		if c, ok := s.opponent.(io.Closer); ok {
			if err := c.Close(); err != nil {
				errs = append(errs, fmt.Errorf("close opponent: %w", err))
			}
		}
	}
	p.all, p.free = nil, nil
	return errors.Join(errs...)
}

// learner chooses the learner's moves in one game.
type learner interface {
	// move returns the learner's move number turn (from 0) in pos, whose
	// board and legal moves (at least one) are given.
	move(pos *chess.Position, board *Board, legal []chess.Move, turn int) chess.Move
	// reply returns the opponent's move at ply (counted from the first
	// learner move) when it is fixed in advance, as on SA's saved line;
	// false asks the opponent.
	reply(ply int) (chess.Move, bool)
}

// unscripted is embedded by learners that never fix the opponent's move.
type unscripted struct{}

func (unscripted) reply(int) (chess.Move, bool) { return chess.NoMove, false }

// visit is one learner turn of a game: the position's board and the move
// played.
type visit struct {
	board Board
	move  chess.Move
}

// memoEntry is an opponent answer learnt in one game.
type memoEntry struct {
	hash uint64
	move chess.Move
}

// played is a finished game.
type played struct {
	plies   []chess.Move // the moves after the opening
	visits  []visit      // the learner's turns, in order
	final   chess.Position
	outcome game.Outcome
	cost    float64
	won     bool        // the learner mated
	memo    []memoEntry // answers asked of the opponent, when memoOn
}

// over reports whether the game on g has ended, given its legal moves.
func over(g *chess.Game, legal []chess.Move) bool { return len(legal) == 0 || g.Drawn() }

// play plays one game at s, the learner choosing by l and the opponent
// seeded with oppSeed.
func (e *env) play(ctx context.Context, s *seat, l learner, oppSeed uint64) (played, error) {
	g := s.game
	g.Reset(e.pos)
	for _, m := range e.opening {
		g.Make(m)
	}
	s.opponent.NewGame(oppSeed)
	var rec played
	rec.visits = make([]visit, 0, e.turns)
	rec.plies = make([]chess.Move, 0, 2*e.turns)
	for turn := range e.turns {
		if err := ctx.Err(); err != nil {
			return played{}, err
		}
		s.legal = g.LegalMoves(s.legal)
		if over(g, s.legal) {
			break
		}
		pos := g.Position()
		board := BoardOf(&pos)
		m := l.move(&pos, &board, s.legal, turn)
		rec.visits = append(rec.visits, visit{board: board, move: m})
		g.Make(m)
		rec.plies = append(rec.plies, m)
		s.legal = g.LegalMoves(s.legal)
		if over(g, s.legal) {
			break
		}
		reply, err := e.answer(ctx, s, l, &rec)
		if err != nil {
			return played{}, err
		}
		g.Make(reply)
		rec.plies = append(rec.plies, reply)
	}
	rec.final = g.Position()
	rec.outcome = g.Outcome()
	rec.cost = e.weights.Cost(&rec.final, e.learner)
	rec.won = rec.outcome.Reason == game.Checkmate && rec.outcome.Result == game.WinFor(e.learner)
	return rec, nil
}

// answer returns the opponent's move in the current position of s.game:
// the learner's script, the memo, or the opponent's own answer.
func (e *env) answer(ctx context.Context, s *seat, l learner, rec *played) (chess.Move, error) {
	if m, ok := l.reply(len(rec.plies)); ok && contains(s.legal, m) {
		return m, nil
	}
	g := s.game
	var hash uint64
	if e.memoOn {
		hash = g.Hash()
		if m, ok := e.memo[hash]; ok && contains(s.legal, m) {
			return m, nil
		}
		for _, me := range rec.memo {
			if me.hash == hash && contains(s.legal, me.move) {
				return me.move, nil
			}
		}
	}
	res, err := s.opponent.Move(ctx, g)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return chess.NoMove, ctxErr
		}
		return chess.NoMove, fmt.Errorf("opponent: %w", err)
	}
	if !contains(s.legal, res.Move) {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return chess.NoMove, ctxErr
		}
		p := g.Position()
		played := "no move"
		if res.Move != chess.NoMove {
			played = res.Move.From().String() + res.Move.To().String()
		}
		return chess.NoMove, fmt.Errorf("opponent played %s, not a legal move in %s", played, p.FEN())
	}
	if e.memoOn {
		rec.memo = append(rec.memo, memoEntry{hash, res.Move})
	}
	return res.Move, nil
}

func contains(moves []chess.Move, m chess.Move) bool {
	for _, x := range moves {
		if x == m {
			return true
		}
	}
	return false
}

// batch plays n games of iteration at once, at most e.workers at a time;
// game i's learner is newLearner(i) and its opponent's seed is derived from
// (iteration, i). The games come back in index order, and the memo learns
// their answers in that order, so nothing depends on the schedule.
// newLearner is called concurrently. A cancelled ctx returns ctx.Err().
func (e *env) batch(ctx context.Context, iteration, n int, newLearner func(i int) learner) ([]played, error) {
	out := make([]played, n)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(e.workers)
	for i := range n {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			s := e.pool.get()
			defer e.pool.put(s)
			oppSeed := seed.Derive(e.seed, "meta-"+string(e.method), iteration, purposeOpponent, i)
			rec, err := e.play(gctx, s, newLearner(i), oppSeed)
			if err != nil {
				return fmt.Errorf("iteration %d, game %d: %w", iteration, i, err)
			}
			out[i] = rec
			return nil
		})
	}
	err := g.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	if e.memoOn {
		for i := range out {
			for _, me := range out[i].memo {
				if _, ok := e.memo[me.hash]; !ok {
					e.memo[me.hash] = me.move
				}
			}
			out[i].memo = nil
		}
	}
	return out, nil
}

// record returns p as a GameRecord.
func (e *env) record(p *played) GameRecord {
	moves := make([]chess.Move, 0, len(e.opening)+len(p.plies))
	moves = append(append(moves, e.opening...), p.plies...)
	return GameRecord{Start: e.pos, Moves: moves, Opening: len(e.opening), Learner: e.learner, Outcome: p.outcome, Cost: p.cost}
}

// tracker follows a run: its statistics and its best game.
type tracker struct {
	e        *env
	res      Result
	bestCost float64
	onIter   func(IterationStats)
}

func newTracker(e *env, method Method, onIter func(IterationStats)) *tracker {
	return &tracker{e: e, res: Result{Method: method}, onIter: onIter}
}

// observe records an iteration's games, in index order, and reports it.
// A game becomes the run's best game when its cost is strictly higher than
// the best so far, so the first of equals stays.
func (t *tracker) observe(iteration int, games []played, temperature float64, began time.Time) {
	st := IterationStats{Iteration: iteration, Games: len(games), Temperature: temperature}
	sum := 0.0
	for i := range games {
		p := &games[i]
		if i == 0 || p.cost > st.BestCost {
			st.BestCost = p.cost
		}
		sum += p.cost
		if p.won {
			st.Wins++
		}
		if t.res.Best.Moves == nil || p.cost > t.bestCost {
			t.res.Best = t.e.record(p)
			t.bestCost = p.cost
			best := t.res.Best
			best.Moves = slices.Clone(best.Moves)
			st.NewBest = &best
		}
	}
	if len(games) > 0 {
		st.MeanCost = sum / float64(len(games))
	}
	st.BestSoFar = t.bestCost
	st.Elapsed = time.Since(began)
	t.res.Iterations = append(t.res.Iterations, st)
	if t.onIter != nil {
		t.onIter(st)
	}
}
