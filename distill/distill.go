// Package distill fits a genome's evaluation to what a deeper search with
// the genome says of the quiet positions of games: the search's knowledge
// distilled into the evaluation it searches with. A chess or xiangqi
// genome's linear weights move (its piece values, piece-square tables
// and positional terms; Fit, FitXiangqi), a draughts genome's whole net
// (FitDraughts), which has nothing else.
//
// The genetic algorithm ranks agents by game results, 28 games an agent a
// generation, and cannot see differences of a few Elo; after the first
// hour of a run its agents are closer than that and selection picks among
// equals. Every position of those games holds more: a search of a few
// thousand nodes from it is a far better estimate of its value than the
// static evaluation, and the evaluation can be moved so that it predicts
// that value (as Texel tuning fits weights to game results, and as
// engines train evaluations on search scores). For linear weights the fit
// is full-batch Adam on the squared error of the two values' win
// probabilities (logistic in pawns, Scale a pawn), from the genome's own
// weights, with a pull back to them (L2), for a fixed number of steps;
// the net's hidden layers are held. For a whole net it is minibatch Adam
// through the net's layers (see FitDraughts).
//
// The fits are deterministic: positions are taken in game order, each
// search starts from an empty table with a node budget, and the sums run
// in a fixed order, so the same games and genome give the same genome bit
// for bit at any number of workers, and with the searches run on other
// machines (Options.Search) when those run the same search.
package distill

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"evolved/game"
	"evolved/game/chess"
	"evolved/game/xiangqi"
	"evolved/nnet"
)

// Scale is the logistic's scale a pawn: a value of v pawns is a win
// probability 1/(1+exp(-Scale*v)). 0.25 is about what fits the results of
// the default chess run's games to their positions' values (measured 0.20
// to 0.25).
const Scale = 0.25

// MaxScore bounds a search's value, in pawns: mate scores would
// otherwise dominate the squared error's gradient near 0 and 1 no more
// than a won position does.
const MaxScore = 20

// Options are a fit's settings; the zero value of each takes its default.
type Options struct {
	// Steps is the number of Adam steps over all positions (default
	// 150); for FitDraughts, the number of passes over them (default
	// DraughtsSteps).
	Steps int
	// Rate is Adam's step size (default 0.01), in pawns for piece values
	// and tables and in units of the term's own (nnet.ChessTermUnits)
	// for terms; for FitDraughts, in the net's weights (default
	// DraughtsRate).
	Rate float64
	// L2 pulls the weights back to the genome's (default 1e-4): the loss
	// gains L2 times the squared change.
	L2 float64
	// SkipPlies leaves out each game's first plies (default 10): the
	// random opening and the first moves out of it.
	SkipPlies int
	// Results is the share, 0 to 1, of each position's target taken from
	// its game's result (1 won, 1/2 drawn, 0 lost for the side to move),
	// the rest from the search's win probability (default 0: the search
	// alone). The results anchor the evaluation's scale to what wins
	// games, as engines' trainers mix results into search scores; a
	// game without a result (game.Ongoing) gives its positions the
	// search's target alone.
	Results float64
	// Lambda, 0 to 1, makes each position's search target look ahead
	// along its game, as TD(lambda) does (KnightCap's TD-Leaf): 1-Lambda
	// of the position's own search's win probability and Lambda of the
	// next quiet position's target of the same game, seen from the same
	// side; after a game's last quiet position comes its result (or,
	// unknown, that position's own search). So a search that misjudged
	// what followed learns from what did. 0 (default): each position's
	// own search alone. Results then takes its share of the target.
	Lambda float64
	// Workers searches that many positions at once (default: one a
	// CPU). The result does not depend on it.
	Workers int
	// Search, if set, searches the positions elsewhere (on a cluster's
	// workers) in place of Workers local searches: it returns the value
	// of each position, given by its FEN, in order, which must be the
	// value the fit's own scorer gives the position (the caller's
	// promise: the same search on the position the FEN reads back to),
	// and calls progress, if not nil, from one goroutine at a time as
	// values come. The fit is then the local one, bit for bit.
	Search func(ctx context.Context, fens []string, progress func(done, total int)) ([]float64, error)
	// Progress, if set, is called after each search with the number of
	// positions searched and their total, from one goroutine at a time.
	Progress func(done, total int)
}

func (o Options) withDefaults() Options {
	if o.Steps == 0 {
		o.Steps = 150
	}
	if o.Rate == 0 {
		o.Rate = 0.01
	}
	if o.L2 == 0 {
		o.L2 = 1e-4
	}
	if o.SkipPlies == 0 {
		o.SkipPlies = 10
	}
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	return o
}

// check returns an error naming the first setting out of its range.
func (o Options) check() error {
	if !(o.Results >= 0 && o.Results <= 1) {
		return fmt.Errorf("distill: the share of the results must be 0 to 1, got %v", o.Results)
	}
	if !(o.Lambda >= 0 && o.Lambda <= 1) {
		return fmt.Errorf("distill: lambda must be 0 to 1, got %v", o.Lambda)
	}
	return nil
}

// targets returns the positions' target win probabilities from their
// sides to move's points of view: q holds their searches' win
// probabilities, sides their sides to move, from their games' indices
// (positions in game order), result a game's result. See Lambda and
// Results.
func (o Options) targets(q []float64, sides []game.Player, from []int, result func(g int) game.Result) []float64 {
	t := slices.Clone(q)
	if o.Lambda > 0 {
		// Backwards through each game, in the first player's view.
		ahead := make([]float64, len(q))
		for i := len(q) - 1; i >= 0; i-- {
			p := firstView(q[i], sides[i])
			next := p
			if i+1 < len(q) && from[i+1] == from[i] {
				next = ahead[i+1]
			} else if r := result(from[i]); r != game.Ongoing {
				next = r.FirstScore()
			}
			ahead[i] = (1-o.Lambda)*p + o.Lambda*next
			t[i] = firstView(ahead[i], sides[i])
		}
	}
	for i := range t {
		t[i] = o.target(t[i], result(from[i]), sides[i])
	}
	return t
}

// target returns the target win probability of a position whose search
// gives win probability q, of a game whose result is res, side to move
// side: q, with the share o.Results of it replaced by the side's score.
func (o Options) target(q float64, res game.Result, side game.Player) float64 {
	if o.Results == 0 || res == game.Ongoing {
		return q
	}
	return (1-o.Results)*q + o.Results*firstView(res.FirstScore(), side)
}

// firstView turns a win probability (or score) from side's point of view
// into the first player's, and back: the turn is its own inverse.
func firstView(p float64, side game.Player) float64 {
	if side != game.First {
		return 1 - p
	}
	return p
}

// Game is a played game: its start position, its moves and its result
// (game.Ongoing when unknown).
type Game struct {
	Start  chess.Position
	Moves  []chess.Move
	Result game.Result
}

// Scorer returns a search's value of p, in pawns from the side to move's
// point of view. Each worker has its own.
type Scorer func(ctx context.Context, p chess.Position) (float64, error)

// Report says what a fit did.
type Report struct {
	// Games and Positions count the games read and the quiet positions
	// taken from them; Searched the searches made, one a distinct
	// position (a position met in several games is searched once).
	Games, Positions, Searched int
	// Before and After are the mean squared error between the
	// evaluation's and the search's win probabilities before and after
	// the fit.
	Before, After float64
	// Moved is the root mean square of the change of the evaluation over
	// the positions, in pawns.
	Moved float64
}

// ErrNothingToFit is returned for a genome without linear weights and
// for games without a quiet position past SkipPlies.
var ErrNothingToFit = errors.New("distill: nothing to fit")

// sample is one position: the genome's static value, the target, and the
// derivatives of the value by the linear weights.
type sample struct {
	value, target float64
	idx           []int32
	grad          []float64
}

// QuietPositions returns the positions of games the fit learns from, in
// game order: from ply skip on, those whose side to move is not in check
// and whose move in the game neither captures nor promotes (their value
// is what the evaluation alone should see; a capture's recapture is the
// search's business). A game's last position has no move and is left out.
// The second slice holds each position's game's index.
func QuietPositions(games []Game, skip int) ([]chess.Position, []int, error) {
	var out []chess.Position
	var from []int
	buf := make([]chess.Move, 0, chess.MaxMoves)
	for gi, g := range games {
		p := g.Start
		for ply, m := range g.Moves {
			if buf = p.LegalMoves(buf[:0]); !slices.Contains(buf, m) {
				return nil, nil, fmt.Errorf("distill: game %d ply %d: the move from %v to %v is not legal in %s", gi, ply, m.From(), m.To(), p.FEN())
			}
			next := p.Play(m)
			if ply >= skip && !p.InCheck() && m.Promotion() == chess.NoPieceType && occupied(&next) == occupied(&p) {
				out, from = append(out, p), append(from, gi)
			}
			p = next
		}
	}
	return out, from, nil
}

func occupied(p *chess.Position) int {
	return bits.OnesCount64(uint64(p.Color(game.First) | p.Color(game.Second)))
}

// Fit returns net with its linear weights fitted to the values newScorer's
// searches give the quiet positions of games (see the package comment).
// newScorer is called once per worker. net must be a chess net with
// evolved piece values, tables or terms; the error wraps ErrNothingToFit
// otherwise, and for games with no quiet position.
func Fit(ctx context.Context, net *nnet.Net, games []Game, newScorer func() Scorer, opts Options) (*nnet.Net, Report, error) {
	opts = opts.withDefaults()
	if err := opts.check(); err != nil {
		return nil, Report{Games: len(games)}, err
	}
	eval, err := nnet.NewChessEval(net)
	if err != nil {
		return nil, Report{Games: len(games)}, fmt.Errorf("distill: %w", err)
	}
	positions, from, err := QuietPositions(games, opts.SkipPlies)
	if err != nil {
		return nil, Report{Games: len(games)}, err
	}
	result := func(g int) game.Result { return games[g].Result }
	side := func(i int) game.Player { return positions[i].Side() }
	features := func(p *chess.Position) (float64, []int32, []float64, error) {
		idx, grad, err := net.ChessLinearGradient(nil, nil, p, p.Side())
		return eval.Evaluate(*p, p.Side()), idx, grad, err
	}
	scorer := func() func(context.Context, chess.Position) (float64, error) { return newScorer() }
	return fit(ctx, net, len(games), positions, from, result, side, features, scorer, opts)
}

// fit fits net's linear weights to the searches' values of positions:
// from gives each position's game's index, result a game's result, side
// the ith position's side to move, features a position's value and
// derivatives from its side to move's point of view, newScorer each
// worker's search.
func fit[P interface{ FEN() string }](ctx context.Context, net *nnet.Net, games int, positions []P,
	from []int, result func(g int) game.Result, side func(i int) game.Player,
	features func(p *P) (float64, []int32, []float64, error), newScorer func() func(context.Context, P) (float64, error), opts Options) (*nnet.Net, Report, error) {
	rep := Report{Games: games, Positions: len(positions)}
	if net.Flags()&(nnet.EvolvePieceValues|nnet.EvolvePST|nnet.EvolveTerms) == 0 {
		return nil, rep, fmt.Errorf("%w: the genome has no evolved piece values, tables or terms (flags %v)", ErrNothingToFit, net.Flags())
	}
	if len(positions) == 0 {
		return nil, rep, fmt.Errorf("%w: no quiet position after ply %d in %d games", ErrNothingToFit, opts.SkipPlies, games)
	}
	scores, searched, err := score(ctx, positions, newScorer, opts)
	if err != nil {
		return nil, rep, err
	}
	rep.Searched = searched
	q, sides := make([]float64, len(positions)), make([]game.Player, len(positions))
	for i := range positions {
		q[i] = win(max(-MaxScore, min(MaxScore, scores[i])))
		sides[i] = side(i)
	}
	targets := opts.targets(q, sides, from, result)
	samples := make([]sample, len(positions))
	for i := range positions {
		s := &samples[i]
		if s.value, s.idx, s.grad, err = features(&positions[i]); err != nil {
			return nil, rep, fmt.Errorf("distill: %w", err)
		}
		s.target = targets[i]
	}
	w := net.Weights()
	delta := make([]float64, len(w))
	rep.Before = loss(samples, delta)
	adam(samples, delta, opts)
	rep.After = loss(samples, delta)
	var moved float64
	for i := range samples {
		d := shift(&samples[i], delta)
		moved += d * d
	}
	rep.Moved = math.Sqrt(moved / float64(len(samples)))
	for i, d := range delta {
		w[i] += d
	}
	fitted, err := net.WithWeights(w)
	if err != nil {
		return nil, rep, fmt.Errorf("distill: %w", err)
	}
	return fitted, rep, nil
}

// XiangqiGame is a played xiangqi game: its start position, its moves and
// its result (game.Ongoing when unknown).
type XiangqiGame struct {
	Start  xiangqi.Position
	Moves  []xiangqi.Move
	Result game.Result
}

// XiangqiScorer is Scorer for xiangqi: a search's value of p in pawns
// from the side to move's point of view.
type XiangqiScorer func(ctx context.Context, p xiangqi.Position) (float64, error)

// XiangqiQuietPositions is QuietPositions for xiangqi: from ply skip on,
// the positions whose side to move is not in check and whose move in the
// game captures nothing. The second slice holds each position's game's
// index.
func XiangqiQuietPositions(games []XiangqiGame, skip int) ([]xiangqi.Position, []int, error) {
	var out []xiangqi.Position
	var from []int
	buf := make([]xiangqi.Move, 0, xiangqi.MaxMoves)
	for gi, g := range games {
		p := g.Start
		for ply, m := range g.Moves {
			if buf = p.LegalMoves(buf[:0]); !slices.Contains(buf, m) {
				return nil, nil, fmt.Errorf("distill: game %d ply %d: the move from %v to %v is not legal in %s", gi, ply, m.From(), m.To(), p.FEN())
			}
			if captured, _ := p.PieceAt(m.To()); ply >= skip && !p.InCheck() && captured == xiangqi.NoPieceType {
				out, from = append(out, p), append(from, gi)
			}
			p = p.Play(m)
		}
	}
	return out, from, nil
}

// FitXiangqi is Fit for a xiangqi net and xiangqi games.
func FitXiangqi(ctx context.Context, net *nnet.Net, games []XiangqiGame, newScorer func() XiangqiScorer, opts Options) (*nnet.Net, Report, error) {
	opts = opts.withDefaults()
	if err := opts.check(); err != nil {
		return nil, Report{Games: len(games)}, err
	}
	eval, err := nnet.NewXiangqiEval(net)
	if err != nil {
		return nil, Report{Games: len(games)}, fmt.Errorf("distill: %w", err)
	}
	positions, from, err := XiangqiQuietPositions(games, opts.SkipPlies)
	if err != nil {
		return nil, Report{Games: len(games)}, err
	}
	result := func(g int) game.Result { return games[g].Result }
	side := func(i int) game.Player { return positions[i].Side() }
	features := func(p *xiangqi.Position) (float64, []int32, []float64, error) {
		idx, grad, err := net.XiangqiLinearGradient(nil, nil, p, p.Side())
		return eval.Evaluate(*p, p.Side()), idx, grad, err
	}
	scorer := func() func(context.Context, xiangqi.Position) (float64, error) { return newScorer() }
	return fit(ctx, net, len(games), positions, from, result, side, features, scorer, opts)
}

// score returns each position's value, at its index, and the number of
// searches it made: a position met in several games (a sixth of a
// draughts distillation's, most of them in the openings) is searched
// once, and its copies take that value, which is the same: every search
// starts afresh, so its value depends only on the position (and the same
// FEN is the same position: the cluster's searches read them from it).
// The searches run opts.Workers at once, or through opts.Search with the
// FENs, reporting each to opts.Progress.
func score[P interface{ FEN() string }](ctx context.Context, positions []P, newScorer func() func(context.Context, P) (float64, error), opts Options) ([]float64, int, error) {
	distinct, fens, of := distinctPositions(positions)
	var values []float64
	var err error
	if opts.Search != nil {
		values, err = searchElsewhere(ctx, fens, opts.Search, opts.Progress)
	} else {
		values, err = scoreHere(ctx, distinct, newScorer, opts)
	}
	if err != nil {
		return nil, 0, err
	}
	out := make([]float64, len(positions))
	for i, d := range of {
		out[i] = values[d]
	}
	return out, len(distinct), nil
}

// distinctPositions returns the positions without their repeats, in the
// order they first come, with their FENs, and for each position its index
// among them.
func distinctPositions[P interface{ FEN() string }](positions []P) ([]P, []string, []int) {
	index := make(map[string]int, len(positions))
	distinct := make([]P, 0, len(positions))
	var fens []string
	of := make([]int, len(positions))
	for i, p := range positions {
		fen := p.FEN()
		d, ok := index[fen]
		if !ok {
			d = len(distinct)
			index[fen] = d
			distinct = append(distinct, p)
			fens = append(fens, fen)
		}
		of[i] = d
	}
	return distinct, fens, of
}

// scoreHere is score's searches on this machine, opts.Workers at once,
// one a position.
func scoreHere[P interface{ FEN() string }](ctx context.Context, positions []P, newScorer func() func(context.Context, P) (float64, error), opts Options) ([]float64, error) {
	progress := opts.Progress
	out := make([]float64, len(positions))
	var mu sync.Mutex
	done := 0
	g, ctx := errgroup.WithContext(ctx)
	workers := min(opts.Workers, len(positions))
	for wk := range workers {
		g.Go(func() error {
			s := newScorer()
			for i := wk; i < len(positions); i += workers {
				v, err := s(ctx, positions[i])
				if err != nil {
					return fmt.Errorf("distill: search of %s: %w", positions[i].FEN(), err)
				}
				out[i] = v
				if progress != nil {
					mu.Lock()
					done++
					progress(done, len(positions))
					mu.Unlock()
				}
			}
			return ctx.Err()
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// searchElsewhere returns the values search gives the positions' FENs,
// checked to be one finite value a position: what search returns is the
// word of other machines.
func searchElsewhere(ctx context.Context, fens []string, search func(context.Context, []string, func(int, int)) ([]float64, error), progress func(done, total int)) ([]float64, error) {
	out, err := search(ctx, fens, progress)
	if err != nil {
		return nil, fmt.Errorf("distill: searches of %d positions: %w", len(fens), err)
	}
	if len(out) != len(fens) {
		return nil, fmt.Errorf("distill: searches of %d positions gave %d values", len(fens), len(out))
	}
	for i, v := range out {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("distill: the search of %s gave %v", fens[i], v)
		}
	}
	return out, nil
}

// win is the win probability of a value in pawns.
func win(v float64) float64 { return 1 / (1 + math.Exp(-Scale*v)) }

// shift is the change delta makes to s's value.
func shift(s *sample, delta []float64) float64 {
	var d float64
	for j, ix := range s.idx {
		d += delta[ix] * s.grad[j]
	}
	return d
}

// loss is the mean squared error of the win probabilities with the
// weights moved by delta.
func loss(samples []sample, delta []float64) float64 {
	var sum float64
	for i := range samples {
		s := &samples[i]
		e := win(s.value+shift(s, delta)) - s.target
		sum += e * e
	}
	return sum / float64(len(samples))
}

// adam moves delta by opts.Steps full-batch Adam steps on the loss plus
// opts.L2 times the squared change. Only the weights some position's
// value depends on move.
func adam(samples []sample, delta []float64, opts Options) {
	n := len(delta)
	grad := make([]float64, n)
	fixed := make([]bool, n)
	for i := range fixed {
		fixed[i] = true
	}
	for i := range samples {
		for _, ix := range samples[i].idx {
			fixed[ix] = false
		}
	}
	opt := newAdamState(n)
	scale := 1 / float64(len(samples))
	for range opts.Steps {
		clear(grad)
		for i := range samples {
			s := &samples[i]
			q := win(s.value + shift(s, delta))
			// d/dv (q - target)^2 = 2 (q - target) q (1 - q) Scale.
			g := 2 * (q - s.target) * q * (1 - q) * Scale
			for j, ix := range s.idx {
				grad[ix] += g * s.grad[j]
			}
		}
		for j := range grad {
			grad[j] = grad[j]*scale + 2*opts.L2*delta[j]
		}
		opt.step(delta, grad, opts.Rate, fixed)
	}
}

// adamState holds Adam's moment estimates over n parameters (beta1 0.9,
// beta2 0.999, as the fits use it) and the number of steps taken.
type adamState struct {
	m1, m2 []float64
	steps  int
}

func newAdamState(n int) *adamState {
	return &adamState{m1: make([]float64, n), m2: make([]float64, n)}
}

// step moves each x[j] by one Adam step at rate on the gradient g[j],
// but the j with fixed[j] (fixed nil: none).
func (a *adamState) step(x, g []float64, rate float64, fixed []bool) {
	const beta1, beta2, eps = 0.9, 0.999, 1e-8
	a.steps++
	c1 := 1 - math.Pow(beta1, float64(a.steps))
	c2 := 1 - math.Pow(beta2, float64(a.steps))
	for j := range x {
		if fixed != nil && fixed[j] {
			continue
		}
		a.m1[j] = beta1*a.m1[j] + (1-beta1)*g[j]
		a.m2[j] = beta2*a.m2[j] + (1-beta2)*g[j]*g[j]
		x[j] -= rate * (a.m1[j] / c1) / (math.Sqrt(a.m2[j]/c2) + eps)
	}
}
