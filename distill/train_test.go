package distill

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"evolved/game/chess"
	"evolved/game/xiangqi"
	"evolved/nnet"
	"evolved/positions"
)

// randomChessPositions returns n positions of random chess games from
// the standard start, one every few plies, none in check.
func randomChessPositions(n int, seed uint64) []chess.Position {
	return randomPositions[chess.Position, chess.Move](chess.Start(), n, seed)
}

// randomPositions returns n positions of random games from start, one
// every three plies, none in check, each game at most 120 plies.
func randomPositions[P any, M any, PP interface {
	*P
	LegalMoves([]M) []M
	InCheck() bool
	Play(M) P
}](start P, n int, seed uint64) []P {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []P
	var buf []M
	for len(out) < n {
		p := start
		for ply := 0; ply < 120 && len(out) < n; ply++ {
			buf = PP(&p).LegalMoves(buf[:0])
			if len(buf) == 0 {
				break
			}
			if ply%3 == 2 && !PP(&p).InCheck() {
				out = append(out, p)
			}
			p = PP(&p).Play(buf[rng.IntN(len(buf))])
		}
	}
	return out
}

// perspectiveGenome returns a random chess perspective genome of width h
// with evolved tables, so that its quiet twin has values of its own.
func perspectiveGenome(t testing.TB, h int, seed uint64) *nnet.Net {
	n, err := nnet.RandomChess([]int{h}, nnet.Perspective|nnet.EvolvePST, rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// teacherRecords labels positions with the values of a teacher genome:
// the scores its evaluation gives, the results unknown.
func teacherRecords(t testing.TB, teacher *nnet.Net, ps []chess.Position) []positions.Record {
	eval, err := nnet.NewChessEval(teacher)
	if err != nil {
		t.Fatal(err)
	}
	recs := make([]positions.Record, len(ps))
	for i := range ps {
		p := &ps[i]
		recs[i] = positions.Record{Position: positions.PackChess(p), Result: positions.Unknown, Source: positions.DataGame,
			Score: positions.ClampScore(int(math.Round(eval.Evaluate(*p, p.Side()) * 100))), Ply: 20}
	}
	return recs
}

// TestTrainValueIsTheGenomes checks the trainer's forward pass against
// nnet's own: base plus the float net's value is the genome's value with
// its quiet twin's tables and the float masters' net.
func TestTrainValueIsTheGenomes(t *testing.T) {
	g := perspectiveGenome(t, 16, 3)
	masters, err := g.Perspective()
	if err != nil {
		t.Fatal(err)
	}
	base, err := nnet.NewChessEval(g.Quieted())
	if err != nil {
		t.Fatal(err)
	}
	ps := randomChessPositions(200, 1)
	recs := teacherRecords(t, g, ps)
	for i := range recs {
		var s trainSample
		ok, err := chessSampler(base, false)(&recs[i], &s)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			continue
		}
		got := value(masters, &s, make([]float64, 16), make([]float64, 16))
		want := base.Evaluate(ps[i], ps[i].Side()) + masters.Evaluate(&ps[i])/100
		if math.Abs(got-want) > 1e-5 {
			t.Fatalf("%s: trainer's value %.6f pawns, nnet's %.6f", ps[i].FEN(), got, want)
		}
	}
}

// TestTrainGradient checks accumulate's gradient against central finite
// differences of its loss, weight by weight over a sample of weights.
func TestTrainGradient(t *testing.T) {
	g := perspectiveGenome(t, 8, 4)
	masters, _ := g.Perspective()
	// Larger output weights, so that the gradient is well above rounding.
	for i := range masters.OutputWeights {
		masters.OutputWeights[i] *= 20
	}
	base, _ := nnet.NewChessEval(g.Quieted())
	recs := teacherRecords(t, perspectiveGenome(t, 8, 5), randomChessPositions(40, 2))
	var samples []trainSample
	for i := range recs {
		var s trainSample
		s.target = float32(sampleTarget(&recs[i], 0))
		if ok, err := chessSampler(base, false)(&recs[i], &s); err != nil {
			t.Fatal(err)
		} else if ok {
			samples = append(samples, s)
		}
	}
	tr := newTrainer(masters, TrainOptions{}.withDefaults())
	grad := make([]float64, len(tr.x))
	accumulate(masters, samples, grad)
	rng := rand.New(rand.NewPCG(9, 9))
	checked := 0
	for k := 0; k < 400; k++ {
		j := rng.IntN(len(tr.x))
		if k < 20 {
			j = len(tr.x) - 1 - k // the output layer always
		}
		// Small, so that no sum crosses a clip of the ReLU, and a power of
		// two, so that the masters (float32) hold x±eps exactly.
		const eps = 1.0 / (1 << 14)
		orig := tr.x[j]
		tr.x[j] = orig + eps
		tr.store()
		up := accumulate(masters, samples, nil)
		tr.x[j] = orig - eps
		tr.store()
		down := accumulate(masters, samples, nil)
		tr.x[j] = orig
		tr.store()
		num := (up - down) / (2 * eps)
		if grad[j] == 0 && num == 0 {
			continue
		}
		checked++
		if math.Abs(num-grad[j]) > 1e-3*math.Max(1e-3, math.Abs(num)) {
			t.Errorf("weight %d: gradient %.6g, finite differences %.6g", j, grad[j], num)
		}
	}
	if checked < 40 {
		t.Fatalf("only %d weights with a gradient checked", checked)
	}
}

// TestTrainLearnsATeacher trains a genome on the values of another, with
// the same tables, and checks that the held-out loss falls by more than
// half: the net learns what the tables leave to it.
func TestTrainLearnsATeacher(t *testing.T) {
	teacher := perspectiveGenome(t, 16, 6)
	tm, _ := teacher.Perspective()
	for i := range tm.OutputWeights {
		tm.OutputWeights[i] *= 30 // a net with a say of pawns, not tenths
	}
	teacher, err := teacher.WithPerspective(tm)
	if err != nil {
		t.Fatal(err)
	}
	// The student: the teacher's tables, a net of its own.
	sm, _ := perspectiveGenome(t, 16, 7).Perspective()
	student, err := teacher.WithPerspective(sm)
	if err != nil {
		t.Fatal(err)
	}
	recs := teacherRecords(t, teacher, randomChessPositions(6000, 3))
	out, rep, err := TrainChess(context.Background(), student, recs, TrainOptions{Epochs: 20, Batch: 256, Rate: 0.003, Workers: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("positions %d held out %d, loss %.5f -> %.5f, held out %.5f -> %.5f", rep.Positions, rep.HeldOut,
		rep.Loss[0], rep.Loss[len(rep.Loss)-1], rep.HeldOutLoss[0], rep.HeldOutLoss[len(rep.HeldOutLoss)-1])
	if rep.Positions+rep.HeldOut > len(recs) || rep.HeldOut == 0 || len(rep.Loss) != 21 || len(rep.HeldOutLoss) != 21 {
		t.Fatalf("report %+v", rep)
	}
	if last := rep.HeldOutLoss[len(rep.HeldOutLoss)-1]; !(last < rep.HeldOutLoss[0]/2) {
		t.Fatalf("held-out loss %.5f -> %.5f, want it halved", rep.HeldOutLoss[0], last)
	}
	if out.Equal(student) {
		t.Fatal("the trained genome is the student")
	}
	if _, err := out.Perspective(); err != nil {
		t.Fatal(err)
	}
}

// TestTrainSameAtAnyWorkers trains twice, with 1 and 3 workers, and gets
// the same genome bit for bit.
func TestTrainSameAtAnyWorkers(t *testing.T) {
	g := perspectiveGenome(t, 8, 8)
	recs := teacherRecords(t, perspectiveGenome(t, 8, 9), randomChessPositions(1500, 4))
	var nets [2]*nnet.Net
	for i, w := range []int{1, 3} {
		out, _, err := TrainChess(context.Background(), g, recs, TrainOptions{Epochs: 2, Batch: 300, Workers: w, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		nets[i] = out
	}
	if !nets[0].Equal(nets[1]) {
		t.Fatal("1 and 3 workers trained different genomes")
	}
}

// TestTrainRefuses checks the errors: a narrow genome, a record that is
// not a position, no position left to train on.
func TestTrainRefuses(t *testing.T) {
	ctx := context.Background()
	narrow, _ := nnet.RandomChess([]int{4}, 0, rand.New(rand.NewPCG(1, 1)))
	recs := teacherRecords(t, perspectiveGenome(t, 4, 1), randomChessPositions(10, 5))
	if _, _, err := TrainChess(ctx, narrow, recs, TrainOptions{}); err == nil {
		t.Error("a narrow genome was trained")
	}
	bad := append([]positions.Record(nil), recs...)
	bad[3].Position[30] = 1
	if _, _, err := TrainChess(ctx, perspectiveGenome(t, 4, 1), bad, TrainOptions{}); err == nil {
		t.Error("a corrupt record was trained on")
	}
	if _, _, err := TrainChess(ctx, perspectiveGenome(t, 4, 1), recs, TrainOptions{SkipPlies: 100}); err == nil {
		t.Error("no positions, and no error")
	}
}

// TestTrainL2Holds trains with and without the pull back to the genome's
// weights: with a strong pull the masters move less than a fifth as far.
func TestTrainL2Holds(t *testing.T) {
	g := perspectiveGenome(t, 8, 10)
	recs := teacherRecords(t, perspectiveGenome(t, 8, 11), randomChessPositions(1500, 6))
	start, _ := g.Perspective()
	moved := func(l2 float64) float64 {
		out, _, err := TrainChess(context.Background(), g, recs, TrainOptions{Epochs: 4, Batch: 100, Rate: 0.01, L2: l2, Workers: 2, Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		p, _ := out.Perspective()
		var d float64
		for i := range p.FeatureWeights {
			d += math.Pow(float64(p.FeatureWeights[i]-start.FeatureWeights[i]), 2)
		}
		for i := range p.OutputWeights {
			d += math.Pow(float64(p.OutputWeights[i]-start.OutputWeights[i]), 2)
		}
		return math.Sqrt(d)
	}
	free, held := moved(0), moved(1)
	t.Logf("distance moved: %.4f free, %.4f with L2 = 1", free, held)
	if !(held < free/5) {
		t.Fatalf("with L2 = 1 the masters moved %.4f, without %.4f", held, free)
	}
}

// TestTrainXiangqi checks the xiangqi trainer's forward pass against
// nnet's evaluation, and that it learns a teacher's values.
func TestTrainXiangqi(t *testing.T) {
	genome := func(seed uint64) *nnet.Net {
		n, err := nnet.RandomXiangqi([]int{16}, nnet.Perspective, rand.New(rand.NewPCG(seed, 3)))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	teacher := genome(1)
	tm, _ := teacher.Perspective()
	for i := range tm.OutputWeights {
		tm.OutputWeights[i] *= 30
	}
	teacher, _ = teacher.WithPerspective(tm)
	eval, err := nnet.NewXiangqiEval(teacher)
	if err != nil {
		t.Fatal(err)
	}
	ps := randomPositions[xiangqi.Position, xiangqi.Move](xiangqi.Start(), 4000, 2)
	recs := make([]positions.Record, len(ps))
	for i := range ps {
		recs[i] = positions.Record{Position: positions.PackXiangqi(&ps[i]), Result: positions.Unknown, Source: positions.DataGame,
			Score: positions.ClampScore(int(math.Round(eval.Evaluate(ps[i], ps[i].Side()) * 100)))}
	}
	// The forward pass, on the teacher itself: base plus net is its value.
	base, _ := nnet.NewXiangqiEval(teacher.Quieted())
	sample := xiangqiSampler(base, false)
	for i := range 100 {
		var s trainSample
		if ok, err := sample(&recs[i], &s); err != nil || !ok {
			t.Fatalf("record %d: %v %v", i, ok, err)
		}
		got := value(tm, &s, make([]float64, 16), make([]float64, 16))
		if want := base.Evaluate(ps[i], ps[i].Side()) + tm.EvaluateXiangqi(&ps[i])/100; math.Abs(got-want) > 1e-5 {
			t.Fatalf("%s: trainer's value %.6f, nnet's %.6f", ps[i].FEN(), got, want)
		}
	}
	sm, _ := genome(2).Perspective()
	student, _ := teacher.WithPerspective(sm)
	_, rep, err := TrainXiangqi(context.Background(), student, recs, TrainOptions{Epochs: 20, Batch: 256, Rate: 0.003, Workers: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if first, last := rep.HeldOutLoss[0], rep.HeldOutLoss[len(rep.HeldOutLoss)-1]; !(last < first/2) {
		t.Fatalf("held-out loss %.5f -> %.5f, want it halved", first, last)
	}
	if _, _, err := TrainXiangqi(context.Background(), perspectiveGenome(t, 4, 1), recs, TrainOptions{}); err == nil {
		t.Fatal("a chess genome was trained on xiangqi records")
	}
}

// TestRoundStep rounds a trained step and checks each change is a whole
// multiple, at most 127, of one power of two, within half that power of
// the change it rounds, and that the largest change keeps its size.
func TestRoundStep(t *testing.T) {
	g := perspectiveGenome(t, 8, 12)
	recs := teacherRecords(t, perspectiveGenome(t, 8, 13), randomChessPositions(800, 7))
	trained, _, err := TrainChess(context.Background(), g, recs, TrainOptions{Epochs: 2, Batch: 100, Rate: 0.01, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	r, err := RoundStep(trained, g, 127)
	if err != nil {
		t.Fatal(err)
	}
	w0, w1, wr := g.Weights(), trained.Weights(), r.Weights()
	var largest, unit float64
	for i := range w0 {
		largest = max(largest, math.Abs(w1[i]-w0[i]))
	}
	_, k := math.Frexp(largest / 127)
	for largest <= 127*math.Ldexp(1, k-1) {
		k--
	}
	unit = math.Ldexp(1, k)
	changed := 0
	for i := range w0 {
		q := (wr[i] - w0[i]) / unit
		if q != math.Round(q) || math.Abs(q) > 127 || math.Abs(wr[i]-w1[i]) > unit/2+1e-12 {
			t.Fatalf("weight %d: change %g rounded to %g (%g units of %g)", i, w1[i]-w0[i], wr[i]-w0[i], q, unit)
		}
		if wr[i] != w0[i] {
			changed++
		}
	}
	if changed < len(w0)/10 {
		t.Fatalf("only %d of %d weights changed after rounding", changed, len(w0))
	}
	if _, err := RoundStep(trained, narrowGenome(t), 127); err == nil {
		t.Fatal("a step between two architectures was rounded")
	}
}

// narrowGenome returns a chess genome without a perspective net.
func narrowGenome(t *testing.T) *nnet.Net {
	n, err := nnet.RandomChess([]int{4}, 0, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}
