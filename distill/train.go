package distill

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"

	"golang.org/x/sync/errgroup"

	"evolved/nnet"
	"evolved/positions"
)

// Training a perspective net on a store of positions (TrainChess).
//
// The genetic algorithm moves a perspective genome's 200,000 weights by
// mutation and selection on a few dozen games a generation, which cannot
// say which of them helped; the positions its games visit, each with a
// search's score and the game's result, can. The trainer fits the net's
// float32 masters to them by minibatch Adam, the genome's material, tables
// and terms held as they are (the net learns what they miss):
//
//	value (pawns, side to move) = base + out*PerspectiveScale/100
//	loss = (sigmoid(Scale*value) - target)²
//	target = Results*result + (1-Results)*sigmoid(Scale*score/100)
//
// base is the genome's value of the position with its net quieted
// (nnet.Net.Quieted), out the net's output (nnet.PerspectiveNet), result
// the game's score for the side to move (1, 1/2, 0; a game without one
// gives the search's target alone), score the search's value in
// centipawns, clamped to MaxScore pawns. After each step the weights are
// clamped to the limits within which every genome quantizes exactly
// (nnet.PerspectiveFeatureLimit, nnet.PerspectiveOutputLimit).
//
// A minibatch is cut into trainChunks chunks, whatever the number of
// workers; each chunk's gradient is summed in its own buffer and the
// buffers are added in chunk order, so the trained net is the same bit for
// bit at any number of workers. The order of the positions is shuffled
// each epoch by an RNG seeded from (Seed, epoch).

// trainChunks is the number of parts a minibatch's gradient is summed in.
const trainChunks = 16

// TrainOptions are a training's settings; the zero value of each takes
// its default.
type TrainOptions struct {
	// Epochs is the number of passes over the positions (default 1: more
	// passes over the same positions measured worse, docs/commands.md).
	Epochs int
	// Batch is the number of positions a step (default 1024).
	Batch int
	// Rate is Adam's step size (default 0.001).
	Rate float64
	// Results is the share, 0 to 1, of a position's target taken from its
	// game's result, the rest from its search's score (default 0: the
	// search's score alone, which measured best; a share of 0.3 lost).
	Results float64
	// L2 pulls the masters back to the genome's: the loss gains L2 times
	// the squared distance (default 0: none). Positions a search reaches
	// but games do not (after a blunder) have features the store rarely
	// shows; the pull keeps the weights of those where evolution left them.
	L2 float64
	// SkipPlies leaves out the positions of each game's first plies
	// (default 0: the data games record none of their random openings).
	SkipPlies int
	// Noisy keeps positions whose side to move is in check or whose best
	// move captures; by default they are left out, as a static
	// evaluation cannot see what they hold (quiescence searches them).
	Noisy bool
	// HoldOut keeps one position in HoldOut (chosen by its key) out of the
	// training, to measure the loss on positions the net did not learn
	// from (default 20: 5%).
	HoldOut int
	// Workers sums that many chunks of a minibatch at once (default: one
	// a CPU). The result does not depend on it.
	Workers int
	// Seed seeds the shuffles.
	Seed uint64
	// Progress, if set, is called from one goroutine after each step with
	// the epoch (1-based), the positions of the epoch done and its total.
	Progress func(epoch, done, total int)
}

func (o TrainOptions) withDefaults() TrainOptions {
	if o.Epochs <= 0 {
		o.Epochs = 1
	}
	if o.Batch <= 0 {
		o.Batch = 1024
	}
	if o.Rate <= 0 {
		o.Rate = 0.001
	}
	o.Results = min(1, max(0, o.Results))
	if o.HoldOut <= 0 {
		o.HoldOut = 20
	}
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	return o
}

// TrainReport is what a training did.
type TrainReport struct {
	// Records is the number of records given; Positions the number
	// trained on and HeldOut the number held out, after the plies skipped
	// and the noisy positions left out.
	Records, Positions, HeldOut int
	// Loss holds the mean loss on the trained positions before training
	// (Loss[0]) and during each epoch (Loss[e], measured as the epoch
	// went); HeldOutLoss the mean loss on the held-out positions before
	// training and after each epoch.
	Loss, HeldOutLoss []float64
}

// trainSample is a position as the trainer reads it: the features of the
// side to move's and the other side's points of view, the genome's value
// without its net, and the target.
type trainSample struct {
	own, other [nnet.PerspectivePieces]uint16
	n          uint8
	base       float32 // pawns, side to move
	target     float32 // win probability, side to move
}

// TrainChess fits the perspective net of the chess genome net to records
// (see above) and returns the genome with the trained net. The error
// names the first record that is not a chess position, or a genome that
// is not a chess perspective net.
func TrainChess(ctx context.Context, net *nnet.Net, records []positions.Record, opts TrainOptions) (*nnet.Net, TrainReport, error) {
	base, err := nnet.NewChessEval(net.Quieted())
	if err != nil {
		return nil, TrainReport{}, fmt.Errorf("train chess: %w", err)
	}
	return train(ctx, "chess", nnet.NumChessInputs, net, records, opts, chessSampler(base, opts.Noisy))
}

// chessSampler returns the reader of chess records for train: base values
// the positions, noisy keeps the positions in check or whose best move
// captures.
func chessSampler(base *nnet.ChessEval, noisy bool) func(r *positions.Record, s *trainSample) (bool, error) {
	return func(r *positions.Record, s *trainSample) (bool, error) {
		p, err := positions.UnpackChess(&r.Position)
		if err != nil {
			return false, err
		}
		if !noisy {
			if p.InCheck() {
				return false, nil
			}
			if m, ok := positions.ChessMove(&p, r.Move); ok && (p.Occupied()&(1<<m.To()) != 0 && !m.IsCastle() || m.IsEnPassant()) {
				return false, nil
			}
		}
		side := p.Side()
		n := nnet.ChessPerspectiveFeatures(&p, side, &s.own)
		if m := nnet.ChessPerspectiveFeatures(&p, side^1, &s.other); m != n {
			return false, fmt.Errorf("%d features from one side, %d from the other", n, m)
		}
		s.n, s.base = uint8(n), float32(base.Evaluate(p, side))
		return true, nil
	}
}

// TrainXiangqi is TrainChess for a xiangqi genome and xiangqi records
// (quiet: the side to move not in check, the best move no capture).
func TrainXiangqi(ctx context.Context, net *nnet.Net, records []positions.Record, opts TrainOptions) (*nnet.Net, TrainReport, error) {
	base, err := nnet.NewXiangqiEval(net.Quieted())
	if err != nil {
		return nil, TrainReport{}, fmt.Errorf("train xiangqi: %w", err)
	}
	return train(ctx, "xiangqi", nnet.NumXiangqiInputs, net, records, opts, xiangqiSampler(base, opts.Noisy))
}

// xiangqiSampler is chessSampler for xiangqi records.
func xiangqiSampler(base *nnet.XiangqiEval, noisy bool) func(r *positions.Record, s *trainSample) (bool, error) {
	return func(r *positions.Record, s *trainSample) (bool, error) {
		p, err := positions.UnpackXiangqi(&r.Position)
		if err != nil {
			return false, err
		}
		if !noisy {
			if p.InCheck() {
				return false, nil
			}
			if m, ok := positions.XiangqiMove(&p, r.Move); ok && m.IsCapture() {
				return false, nil
			}
		}
		side := p.Side()
		n := nnet.XiangqiPerspectiveFeatures(&p, side, &s.own)
		if m := nnet.XiangqiPerspectiveFeatures(&p, side^1, &s.other); m != n {
			return false, fmt.Errorf("%d features from one side, %d from the other", n, m)
		}
		s.n, s.base = uint8(n), float32(base.Evaluate(p, side))
		return true, nil
	}
}

// train is TrainChess and TrainXiangqi: the genome of game (inputs
// features a side) trained on records, each read by sample, which fills a
// sample's features and base and reports whether the record is trained
// on.
func train(ctx context.Context, game string, inputs int, net *nnet.Net, records []positions.Record, opts TrainOptions,
	sample func(r *positions.Record, s *trainSample) (bool, error)) (*nnet.Net, TrainReport, error) {
	opts = opts.withDefaults()
	masters, err := net.Perspective()
	if err != nil {
		return nil, TrainReport{}, fmt.Errorf("train %s: %w", game, err)
	}
	if masters.Inputs != inputs {
		return nil, TrainReport{}, fmt.Errorf("train %s: a net of %d inputs, not %s's %d", game, masters.Inputs, game, inputs)
	}
	trained, held, err := samples(ctx, records, opts, sample)
	if err != nil {
		return nil, TrainReport{}, fmt.Errorf("train %s: %w", game, err)
	}
	rep := TrainReport{Records: len(records), Positions: len(trained), HeldOut: len(held)}
	if len(trained) == 0 {
		return nil, rep, fmt.Errorf("train %s: no position to train on among %d records", game, len(records))
	}
	t := newTrainer(masters, opts)
	if err := t.run(ctx, trained, held, &rep); err != nil {
		return nil, rep, fmt.Errorf("train %s: %w", game, err)
	}
	out, err := net.WithPerspective(t.net)
	if err != nil {
		return nil, rep, fmt.Errorf("train %s: %w", game, err)
	}
	return out, rep, nil
}

// samples turns records into the samples trained on and those held out,
// in the records' order, reading them with sample on opts.Workers
// goroutines.
func samples(ctx context.Context, records []positions.Record, opts TrainOptions,
	sample func(r *positions.Record, s *trainSample) (bool, error)) (train, held []trainSample, err error) {
	all := make([]trainSample, len(records))
	keep := make([]bool, len(records))
	g, ctx := errgroup.WithContext(ctx)
	per := (len(records) + opts.Workers - 1) / opts.Workers
	for w := range opts.Workers {
		lo, hi := min(w*per, len(records)), min((w+1)*per, len(records))
		g.Go(func() error {
			for i := lo; i < hi; i++ {
				if i%4096 == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				r := &records[i]
				if int(r.Ply) < opts.SkipPlies {
					continue
				}
				ok, err := sample(r, &all[i])
				if err != nil {
					return fmt.Errorf("record %d: %w", i, err)
				}
				all[i].target = float32(sampleTarget(r, opts.Results))
				keep[i] = ok
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	for i := range all {
		if !keep[i] {
			continue
		}
		if records[i].Position.Key()%uint64(opts.HoldOut) == 0 {
			held = append(held, all[i])
		} else {
			train = append(train, all[i])
		}
	}
	return train, held, nil
}

// sampleTarget returns the target win probability of r for its side to
// move: results of it from the game's result (when known), the rest from
// the search's score.
func sampleTarget(r *positions.Record, results float64) float64 {
	q := win(max(-MaxScore, min(MaxScore, float64(r.Score)/100)))
	if res, ok := r.Result.Score(); ok {
		return (1-results)*q + results*res
	}
	return q
}

// trainer holds the masters being trained, Adam's state over them and a
// gradient buffer per chunk.
type trainer struct {
	net   *nnet.PerspectiveNet
	opts  TrainOptions
	x     []float64 // the masters as one vector: feature weights, biases, output weights, output bias
	x0    []float64 // x as training began, which L2 pulls towards
	adam  *adamState
	grads [trainChunks][]float64
	loss  [trainChunks]float64
}

func newTrainer(net *nnet.PerspectiveNet, opts TrainOptions) *trainer {
	n := len(net.FeatureWeights) + len(net.FeatureBias) + len(net.OutputWeights) + 1
	t := &trainer{net: net, opts: opts, x: make([]float64, n), adam: newAdamState(n)}
	t.load()
	t.x0 = slices.Clone(t.x)
	for i := range t.grads {
		t.grads[i] = make([]float64, n)
	}
	return t
}

// load copies the masters into x; store copies x back, rounded to
// float32 and clamped to the limits within which every genome quantizes.
func (t *trainer) load() {
	i := 0
	for _, s := range [][]float32{t.net.FeatureWeights, t.net.FeatureBias, t.net.OutputWeights, {t.net.OutputBias}} {
		for _, w := range s {
			t.x[i] = float64(w)
			i++
		}
	}
}

func (t *trainer) store() {
	fw, fb, ow := len(t.net.FeatureWeights), len(t.net.FeatureBias), len(t.net.OutputWeights)
	for i := range t.x {
		limit := nnet.PerspectiveFeatureLimit
		if i >= fw+fb {
			limit = nnet.PerspectiveOutputLimit
		}
		t.x[i] = float64(float32(max(-limit, min(limit, t.x[i]))))
		switch {
		case i < fw:
			t.net.FeatureWeights[i] = float32(t.x[i])
		case i < fw+fb:
			t.net.FeatureBias[i-fw] = float32(t.x[i])
		case i < fw+fb+ow:
			t.net.OutputWeights[i-fw-fb] = float32(t.x[i])
		default:
			t.net.OutputBias = float32(t.x[i])
		}
	}
}

// run trains on train for the epochs, measuring held, and fills rep's
// losses.
func (t *trainer) run(ctx context.Context, train, held []trainSample, rep *TrainReport) error {
	before, err := t.meanLoss(ctx, train)
	if err != nil {
		return err
	}
	heldLoss, err := t.meanLoss(ctx, held)
	if err != nil {
		return err
	}
	rep.Loss, rep.HeldOutLoss = []float64{before}, []float64{heldLoss}
	order := make([]int, len(train))
	batch := make([]trainSample, 0, t.opts.Batch)
	for epoch := 1; epoch <= t.opts.Epochs; epoch++ {
		for i := range order {
			order[i] = i
		}
		rng := rand.New(rand.NewPCG(t.opts.Seed, uint64(epoch)))
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var sum float64
		for lo := 0; lo < len(order); lo += t.opts.Batch {
			batch = batch[:0]
			for _, i := range order[lo:min(lo+t.opts.Batch, len(order))] {
				batch = append(batch, train[i])
			}
			l, err := t.step(ctx, batch)
			if err != nil {
				return err
			}
			sum += l
			if t.opts.Progress != nil {
				t.opts.Progress(epoch, lo+len(batch), len(order))
			}
		}
		rep.Loss = append(rep.Loss, sum/float64(len(order)))
		if heldLoss, err = t.meanLoss(ctx, held); err != nil {
			return err
		}
		rep.HeldOutLoss = append(rep.HeldOutLoss, heldLoss)
	}
	return nil
}

// step takes one Adam step on batch and returns the batch's summed loss
// before the step.
func (t *trainer) step(ctx context.Context, batch []trainSample) (float64, error) {
	if err := t.chunks(ctx, batch, true); err != nil {
		return 0, err
	}
	total := t.grads[0]
	var loss float64
	for c := range t.grads {
		if c > 0 {
			for j, g := range t.grads[c] {
				total[j] += g
			}
		}
		loss += t.loss[c]
	}
	scale := 1 / float64(len(batch))
	for j := range total {
		total[j] = total[j]*scale + 2*t.opts.L2*(t.x[j]-t.x0[j])
	}
	t.adam.step(t.x, total, t.opts.Rate, nil)
	t.store()
	return loss, nil
}

// meanLoss returns the mean loss of samples under the current masters.
func (t *trainer) meanLoss(ctx context.Context, samples []trainSample) (float64, error) {
	if len(samples) == 0 {
		return math.NaN(), nil
	}
	var sum float64
	for lo := 0; lo < len(samples); lo += t.opts.Batch {
		if err := t.chunks(ctx, samples[lo:min(lo+t.opts.Batch, len(samples))], false); err != nil {
			return 0, err
		}
		for _, l := range t.loss {
			sum += l
		}
	}
	return sum / float64(len(samples)), nil
}

// chunks cuts samples into trainChunks parts and sums each part's loss
// (and, with grad, its gradient) into its own buffer, with the workers.
func (t *trainer) chunks(ctx context.Context, samples []trainSample, grad bool) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(t.opts.Workers)
	per := (len(samples) + trainChunks - 1) / trainChunks
	for c := range trainChunks {
		part := samples[min(c*per, len(samples)):min((c+1)*per, len(samples))]
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			var buf []float64
			if grad {
				buf = t.grads[c]
				clear(buf)
			}
			t.loss[c] = accumulate(t.net, part, buf)
			return nil
		})
	}
	return g.Wait()
}

// accumulate returns the summed loss of samples under net and, when grad
// is not nil, adds the loss's gradient by the masters into grad (laid out
// as the trainer's vector x).
func accumulate(net *nnet.PerspectiveNet, samples []trainSample, grad []float64) float64 {
	h := net.Hidden
	fw, fb := len(net.FeatureWeights), len(net.FeatureBias)
	own, other := make([]float64, h), make([]float64, h)
	dOwn, dOther := make([]float64, h), make([]float64, h)
	var loss float64
	for i := range samples {
		s := &samples[i]
		q := win(value(net, s, own, other))
		d := q - float64(s.target)
		loss += d * d
		if grad == nil {
			continue
		}
		// d/dout (q - target)^2 = 2 (q - target) q (1 - q) Scale outScale.
		g := 2 * d * q * (1 - q) * Scale * outScale
		grad[len(grad)-1] += g
		ow := grad[fw+fb:]
		for j := range h {
			ow[j] += g * crelu(own[j])
			ow[h+j] += g * crelu(other[j])
			dOwn[j] = g * float64(net.OutputWeights[j]) * inside(own[j])
			dOther[j] = g * float64(net.OutputWeights[h+j]) * inside(other[j])
			grad[fw+j] += dOwn[j] + dOther[j]
		}
		for k, f := range s.own[:s.n] {
			row := grad[int(f)*h : int(f)*h+h]
			for j := range row {
				row[j] += dOwn[j]
			}
			row = grad[int(s.other[k])*h : int(s.other[k])*h+h]
			for j := range row {
				row[j] += dOther[j]
			}
		}
	}
	return loss
}

// outScale is the pawns a perspective net's output of 1 is worth.
const outScale = nnet.PerspectiveScale / 100

// value returns s's value under net for its side to move, in pawns: its
// base plus the net's output, leaving the feature transformer's sums of
// each point of view in own and other (Hidden long each), which the
// gradient reads.
func value(net *nnet.PerspectiveNet, s *trainSample, own, other []float64) float64 {
	sums(net, own, s.own[:s.n])
	sums(net, other, s.other[:s.n])
	h := net.Hidden
	out := float64(net.OutputBias)
	for j := range h {
		out += float64(net.OutputWeights[j])*crelu(own[j]) + float64(net.OutputWeights[h+j])*crelu(other[j])
	}
	return float64(s.base) + out*outScale
}

// sums sets acc to net's feature transformer's sums over features.
func sums(net *nnet.PerspectiveNet, acc []float64, features []uint16) {
	h := net.Hidden
	for j, b := range net.FeatureBias {
		acc[j] = float64(b)
	}
	for _, f := range features {
		for j, w := range net.FeatureWeights[int(f)*h : int(f)*h+h] {
			acc[j] += float64(w)
		}
	}
}

// crelu is the clipped ReLU, min(max(x, 0), 1).
func crelu(x float64) float64 { return min(max(x, 0), 1) }

// inside is the clipped ReLU's derivative: 1 strictly between 0 and 1,
// where it passes its input on, 0 where it clips.
func inside(x float64) float64 {
	if x > 0 && x < 1 {
		return 1
	}
	return 0
}

// RoundStep returns net with each weight's change from from rounded to a
// whole multiple, at most most, of one power of two (as FitDraughts
// rounds its step): the form in which storage keeps a whole net's step
// in a few bits a weight (lineage.EncodeStep's compact forms), where a
// trained perspective net's 200,000 changes would take 8 bytes each. The
// error wraps nnet.ErrArchitecture when the two are not the same
// architecture.
func RoundStep(net, from *nnet.Net, most int) (*nnet.Net, error) {
	w, w0 := net.Weights(), from.Weights()
	if len(w) != len(w0) {
		return nil, fmt.Errorf("round step: %w: %d weights, from %d", nnet.ErrArchitecture, len(w), len(w0))
	}
	roundChangeTo(w, w0, float64(most))
	return net.WithWeights(w)
}
