package distill

import (
	"context"
	"fmt"
	"math"
	"slices"

	"evolved/game"
	"evolved/game/draughts"
	"evolved/nnet"
)

// DraughtsGame is a played draughts game: its start position, its moves
// and its result (game.Ongoing when unknown).
type DraughtsGame struct {
	Start  draughts.Position
	Moves  []draughts.Move
	Result game.Result
}

// DraughtsScorer is Scorer for draughts: a search's value of p in the
// net's units (its output, in (-1, 1); a won position beyond 1) from the
// side to move's point of view.
type DraughtsScorer func(ctx context.Context, p draughts.Position) (float64, error)

// Defaults of FitDraughts, which fits a whole net where Fit fits linear
// weights: Adam over minibatches of DraughtsBatch positions, each of its
// Options.Steps a pass over all positions, at a smaller rate.
const (
	// DraughtsSteps is FitDraughts' default Options.Steps: passes over
	// the positions.
	DraughtsSteps = 10
	// DraughtsRate is FitDraughts' default Options.Rate.
	DraughtsRate = 0.001
	// DraughtsBatch is the number of positions of each of FitDraughts'
	// Adam steps.
	DraughtsBatch = 256
)

// DraughtsQuietPositions returns the positions of games the fit learns
// from, in game order: from ply skip on, those whose side to move has no
// capture (captures are forced, so a position with one is the search's
// business, not the evaluation's). A game's last position has no move and
// is left out. The second slice holds each position's game's index.
func DraughtsQuietPositions(games []DraughtsGame, skip int) ([]draughts.Position, []int, error) {
	var out []draughts.Position
	var from []int
	buf := make([]draughts.Move, 0, 64)
	for gi, g := range games {
		p := g.Start
		for ply, m := range g.Moves {
			if buf = p.Moves(buf[:0]); !slices.Contains(buf, m) {
				return nil, nil, fmt.Errorf("distill: game %d ply %d: the move %s is not legal in %s", gi, ply, p.FormatMove(m), p.FEN())
			}
			if ply >= skip && !m.IsCapture() {
				out, from = append(out, p), append(from, gi)
			}
			p = p.Play(m)
		}
	}
	return out, from, nil
}

// FitDraughts returns net with all its weights fitted to the values
// newScorer's searches give the quiet positions of games: Fit's method for
// a net without linear weights, a Blondie24 draughts net, whose every
// layer then moves (its king value and mutation steps do not). The loss is
// the squared error of the win probabilities (v+1)/2 of the net's output v
// and of the search's value clamped to [-1, 1] (looking ahead along the
// game and mixed with its result as opts.Lambda and opts.Results say),
// plus opts.L2 times the
// squared change; Adam minimises it over opts.Steps passes (default
// DraughtsSteps) of minibatches of DraughtsBatch positions at rate
// opts.Rate (default DraughtsRate), and each weight's change is then
// rounded to a multiple of at most 15 (roundChange). Batch j of nb holds positions j,
// j+nb, j+2nb, ... of the game order, so every batch spans the games, and
// the fit is deterministic at any number of workers. Report.Moved is in
// the net's units. The error wraps ErrNothingToFit for games with no quiet
// position.
func FitDraughts(ctx context.Context, net *nnet.Net, games []DraughtsGame, newScorer func() DraughtsScorer, opts Options) (*nnet.Net, Report, error) {
	if opts.Steps == 0 {
		opts.Steps = DraughtsSteps
	}
	if opts.Rate == 0 {
		opts.Rate = DraughtsRate
	}
	opts = opts.withDefaults()
	rep := Report{Games: len(games)}
	if err := opts.check(); err != nil {
		return nil, rep, err
	}
	if net.Flags()&nnet.Perspective != 0 {
		return nil, rep, fmt.Errorf("distill: %w: a draughts perspective net (the distillation fits the Blondie net's tanh layers)", nnet.ErrArchitecture)
	}
	bp, err := nnet.NewBackprop(net)
	if err != nil {
		return nil, rep, fmt.Errorf("distill: %w", err)
	}
	if net.Sizes()[0] != nnet.NumDraughtsInputs {
		return nil, rep, fmt.Errorf("distill: %w: a net of %d inputs is not a draughts net", nnet.ErrArchitecture, net.Sizes()[0])
	}
	positions, from, err := DraughtsQuietPositions(games, opts.SkipPlies)
	if err != nil {
		return nil, rep, err
	}
	rep.Positions = len(positions)
	if len(positions) == 0 {
		return nil, rep, fmt.Errorf("%w: no quiet position after ply %d in %d games", ErrNothingToFit, opts.SkipPlies, len(games))
	}
	scorer := func() func(context.Context, draughts.Position) (float64, error) { return newScorer() }
	scores, searched, err := score(ctx, positions, scorer, opts)
	if err != nil {
		return nil, rep, err
	}
	rep.Searched = searched
	king := net.King()
	in := make([][]float64, len(positions))
	direct, target := make([]float64, len(positions)), make([]float64, len(positions))
	q, sides := make([]float64, len(positions)), make([]game.Player, len(positions))
	for i, p := range positions {
		in[i] = nnet.DraughtsInputs(make([]float64, 0, nnet.NumDraughtsInputs), p, p.Side, king)
		direct[i] = nnet.DraughtsPieceDiff(p, p.Side, king)
		target[i] = max(-1, min(1, scores[i]))
		q[i], sides[i] = (target[i]+1)/2, p.Side
	}
	// A target the options change is the net's value of its win
	// probability; the others stay the search's value, bit for bit.
	for i, t := range opts.targets(q, sides, from, func(g int) game.Result { return games[g].Result }) {
		if t != q[i] {
			target[i] = 2*t - 1
		}
	}
	w0 := net.Weights()
	w := slices.Clone(w0)
	before := make([]float64, len(positions))
	lossAt := func(out []float64) float64 {
		var sum float64
		for i := range positions {
			v := bp.Forward(w, in[i], direct[i])
			if out != nil {
				out[i] = v
			}
			e := (v - target[i]) / 2
			sum += e * e
		}
		return sum / float64(len(positions))
	}
	rep.Before = lossAt(before)

	grad := make([]float64, len(w))
	opt := newAdamState(len(w))
	batches := max(1, (len(positions)+DraughtsBatch-1)/DraughtsBatch)
	for range opts.Steps {
		if err := ctx.Err(); err != nil {
			return nil, rep, fmt.Errorf("distill: %w", err)
		}
		for b := range batches {
			clear(grad)
			count := 0
			for i := b; i < len(positions); i += batches {
				v := bp.Forward(w, in[i], direct[i])
				// d/dv ((v - t)/2)^2 = (v - t)/2.
				bp.Backward(w, (v-target[i])/2, grad)
				count++
			}
			scale := 1 / float64(count)
			for j := range grad {
				grad[j] = grad[j]*scale + 2*opts.L2*(w[j]-w0[j])
			}
			opt.step(w, grad, opts.Rate, nil)
		}
	}
	roundChange(w, w0)
	after := make([]float64, len(positions))
	rep.After = lossAt(after)
	var moved float64
	for i := range positions {
		d := after[i] - before[i]
		moved += d * d
	}
	rep.Moved = math.Sqrt(moved / float64(len(positions)))
	fitted, err := net.WithWeights(w)
	if err != nil {
		return nil, rep, fmt.Errorf("distill: %w", err)
	}
	return fitted, rep, nil
}

// stepLargest is the largest multiple roundChange gives a weight's change,
// so that the step a whole net takes is stored in at most 5 bits a weight
// (lineage.EncodeStep; about 3.6 in its Rice form, the multiples mostly
// small), where its float32 deltas would take four bytes and their
// indices four more. Measured on a draughts champion's
// distillation (docs/draughts.md): the fit's gain in squared error is the
// same with multiples up to 31 or 127, 2% less with 15, 12% less with 7.
const stepLargest = 15

// roundChange rounds each weight's change w[i]-w0[i] to a whole multiple
// q*2^k of the least power of two that keeps every |q| <= stepLargest.
// 2^k is less than 2/stepLargest of the largest change, so the rounding
// moves no weight by 1/stepLargest of it or more. The encoder
// (lineage.EncodeStep) finds the power of two again; distill may not call
// lineage, which is on its own layer.
func roundChange(w, w0 []float64) { roundChangeTo(w, w0, stepLargest) }

// roundChangeTo is roundChange with the largest multiple most.
func roundChangeTo(w, w0 []float64, most float64) {
	var largest float64
	for i := range w {
		largest = max(largest, math.Abs(w[i]-w0[i]))
	}
	if largest == 0 {
		return
	}
	_, k := math.Frexp(largest / most) // largest/most < 2^k
	for largest <= most*math.Ldexp(1, k-1) {
		k--
	}
	for i := range w {
		w[i] = w0[i] + math.Ldexp(math.Round(math.Ldexp(w[i]-w0[i], -k)), k)
	}
}
