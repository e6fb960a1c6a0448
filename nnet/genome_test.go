package nnet

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// TestMutatedUniform checks mutation without self-adaptive sigma: every
// weight (biases and the direct weight included) changes, by at most
// 1/sqrt(2*sqrt(K)), by exactly the amount the generator's draws dictate;
// the parent is untouched; the same seed gives the same child.
func TestMutatedUniform(t *testing.T) {
	for _, flags := range []Flags{0, PieceDiff} {
		parent := testNet(t, draughtsSizes, flags, 41)
		before := parent.Clone()
		k := parent.NumWeights()
		wantK := 91*40 + 40 + 40*10 + 10 + 10 + 1
		if flags&PieceDiff != 0 {
			wantK++
		}
		if k != wantK {
			t.Fatalf("flags %v: NumWeights = %d, want %d", flags, k, wantK)
		}
		step := 1 / math.Sqrt(2*math.Sqrt(float64(k)))
		if MutationStep(k) != step {
			t.Fatalf("MutationStep(%d) = %v, want %v", k, MutationStep(k), step)
		}
		child := parent.Mutated(newRNG(42))
		if !parent.Equal(before) {
			t.Fatal("Mutated changed its receiver")
		}
		replay := newRNG(42)
		pw, cw := parent.Weights(), child.Weights()
		sumAbs := 0.0
		for i := range pw {
			m := float64(replay.Float64()*2) - 1              // conversions: no fused multiply-add
			want := float64(float32(pw[i] + float64(m*step))) // rounded to float32
			d := cw[i] - pw[i]
			if cw[i] != want || d == 0 || math.Abs(d) > step*(1+1e-6) {
				t.Fatalf("flags %v: weight %d: %v -> %v, want %v (step %v)", flags, i, pw[i], cw[i], want, step)
			}
			sumAbs += math.Abs(d)
		}
		if mean := sumAbs / float64(k); math.Abs(mean-step/2) > step/20 {
			t.Errorf("mean |change| = %v, want about %v", mean, step/2)
		}
		if child.King() != parent.King() || child.Sigmas() != nil {
			t.Errorf("K %v -> %v, sigmas %v; want K unchanged and no sigmas", parent.King(), child.King(), child.Sigmas())
		}
		if again := parent.Mutated(newRNG(42)); !again.Equal(child) {
			t.Error("same seed, different children")
		}
		if other := parent.Mutated(newRNG(43)); other.Equal(child) {
			t.Error("different seeds, same child")
		}
	}
}

// TestMutatedByScalesTheSteps replays MutatedBy's draws: the weights move
// by scale times Mutated's step, with and without SelfAdaptive (whose
// sigmas mutate as without a scale), and scale 1 is Mutated bit for bit.
func TestMutatedByScalesTheSteps(t *testing.T) {
	const scale = 0.25
	for _, flags := range []Flags{PieceDiff, PieceDiff | SelfAdaptive} {
		parent := testNet(t, draughtsSizes, flags, 48)
		if !parent.MutatedBy(newRNG(49), 1).Equal(parent.Mutated(newRNG(49))) {
			t.Errorf("flags %v: MutatedBy(1) differs from Mutated", flags)
		}
		child, full := parent.MutatedBy(newRNG(49), scale), parent.Mutated(newRNG(49))
		pw, cw, fw := parent.Weights(), child.Weights(), full.Weights()
		for i := range pw {
			want := scale * (fw[i] - pw[i])
			if d := cw[i] - pw[i]; math.Abs(d-want) > 1e-6*math.Max(1, math.Abs(pw[i])) {
				t.Fatalf("flags %v: weight %d moved %v, want %v (a quarter of Mutated's %v)", flags, i, d, want, fw[i]-pw[i])
			}
		}
		if flags&SelfAdaptive != 0 && !slices.Equal(child.Sigmas(), full.Sigmas()) {
			t.Errorf("the sigmas depend on the scale")
		}
	}
}

// TestMutatedSelfAdaptive checks Blondie24's mutation: every sigma and
// every weight changes as the replayed draws dictate, and K evolves within
// [MinKing, MaxKing].
func TestMutatedSelfAdaptive(t *testing.T) {
	parent := testNet(t, draughtsSizes, allExtras, 44)
	k := parent.NumWeights()
	tau := 1 / math.Sqrt(2*math.Sqrt(float64(k)))
	child := parent.Mutated(newRNG(45))
	replay := newRNG(45)
	wantKing := min(max(parent.King()*math.Exp(replay.NormFloat64()/math.Sqrt2), MinKing), MaxKing)
	if math.Abs(child.King()-wantKing) > 1e-14 {
		t.Errorf("K = %v, want %v", child.King(), wantKing)
	}
	ps, cs, pw, cw := parent.Sigmas(), child.Sigmas(), parent.Weights(), child.Weights()
	for i := range pw {
		// math.Exp may differ from the package's exp in the last bit, and
		// so the float32 rounding of the replay by one float32 step.
		sigma := float64(float32(ps[i] * math.Exp(tau*replay.NormFloat64())))
		w := float64(float32(pw[i] + cs[i]*replay.NormFloat64()))
		if math.Abs(cs[i]-sigma) > 1e-7*sigma || math.Abs(cw[i]-w) > 1e-7*math.Abs(w) || cs[i] == ps[i] || cw[i] == pw[i] ||
			float64(float32(cs[i])) != cs[i] || float64(float32(cw[i])) != cw[i] {
			t.Fatalf("weight %d: sigma %v -> %v (want %v), w %v -> %v (want %v)", i, ps[i], cs[i], sigma, pw[i], cw[i], w)
		}
	}
	// K stays within bounds over many generations.
	n := parent
	rng := newRNG(46)
	for range 200 {
		n = n.Mutated(rng)
		if n.King() < MinKing || n.King() > MaxKing {
			t.Fatalf("K = %v out of [%v, %v]", n.King(), MinKing, MaxKing)
		}
	}
	if !n.Mutated(newRNG(47)).Equal(n.Mutated(newRNG(47))) {
		t.Error("same seed, different children")
	}
}

// TestCrossover checks node-swap crossover: exactly the chosen node's
// incoming weights and bias (and their sigmas) are exchanged, the children
// are reciprocal, the parents are untouched, nodes are drawn over all
// hidden layers, and the same seed gives the same result.
func TestCrossover(t *testing.T) {
	dom, sub := testNet(t, draughtsSizes, allExtras, 51), testNet(t, draughtsSizes, allExtras, 52)
	sub = sub.Mutated(newRNG(53)) // different sigmas and K too
	domBefore, subBefore := dom.Clone(), sub.Clone()
	rng := newRNG(54)
	perLayer := map[int]int{}
	for range 2000 {
		c1, c2, node, err := Crossover(dom, sub, rng)
		if err != nil {
			t.Fatal(err)
		}
		perLayer[node.Layer]++
		swapped := map[int]bool{dom.BiasIndex(node.Layer, node.Index): true}
		for from := range dom.sizes[node.Layer-1] {
			swapped[dom.WeightIndex(node.Layer, node.Index, from)] = true
		}
		for i := range dom.w {
			want1, want2 := dom.w[i], sub.w[i]
			wantS1, wantS2 := dom.sigma[i], sub.sigma[i]
			if swapped[i] {
				want1, want2, wantS1, wantS2 = want2, want1, wantS2, wantS1
			}
			if c1.w[i] != want1 || c2.w[i] != want2 || c1.sigma[i] != wantS1 || c2.sigma[i] != wantS2 {
				t.Fatalf("%v: weight %d: children %v, %v, want %v, %v", node, i, c1.w[i], c2.w[i], want1, want2)
			}
		}
		if c1.King() != dom.King() || c2.King() != sub.King() {
			t.Fatalf("children's K %v, %v, want %v, %v", c1.King(), c2.King(), dom.King(), sub.King())
		}
		// Reciprocal: swapping the same node back gives the parents.
		b1, b2, err := CrossoverAt(c1, c2, node)
		if err != nil || !b1.Equal(dom) || !b2.Equal(sub) {
			t.Fatalf("%v: crossing the children again did not give the parents (%v)", node, err)
		}
	}
	if !dom.Equal(domBefore) || !sub.Equal(subBefore) {
		t.Fatal("Crossover changed a parent")
	}
	// 40 of the 50 hidden nodes are in layer 1.
	if perLayer[1]+perLayer[2] != 2000 || perLayer[1] < 1500 || perLayer[1] > 1700 {
		t.Errorf("nodes per layer = %v, want about 1600 and 400", perLayer)
	}
	a1, a2, an, _ := Crossover(dom, sub, newRNG(55))
	b1, b2, bn, _ := Crossover(dom, sub, newRNG(55))
	if an != bn || !a1.Equal(b1) || !a2.Equal(b2) {
		t.Error("same seed, different crossover")
	}
}

// TestCrossoverErrors checks the architecture checks.
func TestCrossoverErrors(t *testing.T) {
	a := testNet(t, draughtsSizes, 0, 61)
	for _, b := range []*Net{
		testNet(t, []int{91, 41, 10, 1}, 0, 62),
		testNet(t, draughtsSizes, PieceDiff, 63),
	} {
		if _, _, _, err := Crossover(a, b, newRNG(1)); !errors.Is(err, ErrArchitecture) {
			t.Errorf("Crossover(%v, %v): error %v, want ErrArchitecture", a.Sizes(), b.Sizes(), err)
		}
	}
	flat := testNet(t, []int{5, 1}, 0, 64)
	if _, _, _, err := Crossover(flat, flat, newRNG(1)); !errors.Is(err, ErrArchitecture) {
		t.Errorf("Crossover without hidden nodes: error %v, want ErrArchitecture", err)
	}
	for _, node := range []Node{{0, 0}, {3, 0}, {1, 40}, {2, -1}} {
		if _, _, err := CrossoverAt(a, a, node); !errors.Is(err, ErrArchitecture) {
			t.Errorf("CrossoverAt(%v): error %v, want ErrArchitecture", node, err)
		}
	}
}

// TestRandomAndNew checks initialisation: the range, the draw count and the layout.
func TestRandomAndNew(t *testing.T) {
	n := testNet(t, draughtsSizes, allExtras&^EvolveKing, 71)
	for i, w := range n.Weights() {
		if w < -InitRange || w >= InitRange || w == 0 {
			t.Fatalf("weight %d = %v, want in [-0.2, 0.2)", i, w)
		}
	}
	sigma := float64(float32(DefaultSigma)) // Random's values are float32s
	if n.King() != DefaultKing || slices.ContainsFunc(n.Sigmas(), func(s float64) bool { return s != sigma }) || !n.Float32Exact() {
		t.Errorf("K = %v, sigmas %v..., Float32Exact %v; want %v, all %v, true", n.King(), n.Sigmas()[:3], n.Float32Exact(), DefaultKing, sigma)
	}
	if got := n.HiddenNodes(); got != 50 {
		t.Errorf("HiddenNodes = %d, want 50", got)
	}
	// Layout: layer 1's matrix, its biases, layer 2's matrix... the direct weight last.
	for _, c := range []struct{ got, want int }{
		{n.WeightIndex(1, 0, 0), 0}, {n.WeightIndex(1, 1, 0), 91}, {n.BiasIndex(1, 0), 3640},
		{n.WeightIndex(2, 0, 0), 3680}, {n.BiasIndex(2, 9), 4089}, {n.WeightIndex(3, 0, 9), 4099},
		{n.BiasIndex(3, 0), 4100}, {n.DirectIndex(0), 4101}, {n.NumWeights(), 4102},
	} {
		if c.got != c.want {
			t.Errorf("index %d, want %d", c.got, c.want)
		}
	}
	for _, sizes := range [][]int{nil, {5}, {5, 0}, {5, -1, 1}, {1 << 20, 1}} {
		if _, err := New(sizes, 0); !errors.Is(err, ErrArchitecture) {
			t.Errorf("New(%v): error %v, want ErrArchitecture", sizes, err)
		}
	}
	unknown := knownFlags + 1 // the lowest bit past the known ones
	if _, err := New([]int{2, 1}, unknown); !errors.Is(err, ErrFlags) {
		t.Errorf("New with flag %#x: error %v, want ErrFlags", uint32(unknown), err)
	}
}

// TestForward checks the reference forward pass on a net small enough to
// work out by hand.
func TestForward(t *testing.T) {
	n, err := New([]int{2, 2, 1}, PieceDiff)
	if err != nil {
		t.Fatal(err)
	}
	// Layer 1: node 0 = tanh(0.5*x0 - 0.25*x1 + 0.1), node 1 = tanh(x1 - 0.2);
	// output = tanh(2*h0 - h1 + 0.3 + 0.05*direct).
	n, err = n.WithWeights([]float64{0.5, -0.25, 0, 1, 0.1, -0.2, 2, -1, 0.3, 0.05})
	if err != nil {
		t.Fatal(err)
	}
	x0, x1, direct := 1.0, -2.0, 3.0
	h0, h1 := Tanh(0.5*x0-0.25*x1+0.1), Tanh(x1-0.2)
	want := Tanh(2*h0 - h1 + 0.3 + 0.05*direct)
	got := n.Forward(nil, []float64{x0, x1}, direct)
	if len(got) != 1 || math.Abs(got[0]-want) > 1e-15 {
		t.Errorf("Forward = %v, want [%v]", got, want)
	}
}

// TestPerturbedAndRecombined replays the evolution strategy's operators:
// mirrored samples w ± sigma*N(0,1) from the documented draws, and a
// recombination that moves the mean by the weighted parents' differences.
func TestPerturbedAndRecombined(t *testing.T) {
	const sigma = 0.02
	mean := testNet(t, draughtsSizes, PieceDiff, 50)
	plus, minus := mean.Perturbed(newRNG(51), sigma)
	replay := newRNG(51)
	mw, pw, nw := mean.Weights(), plus.Weights(), minus.Weights()
	for i := range mw {
		d := sigma * replay.NormFloat64()
		if pw[i] != float64(float32(mw[i]+d)) || nw[i] != float64(float32(mw[i]-d)) {
			t.Fatalf("weight %d: %v -> %v and %v, want ±%v", i, mw[i], pw[i], nw[i], d)
		}
	}
	// Recombining the mirrored pair with equal weights returns the mean
	// (to float32 rounding); with weight 1 on plus, plus itself.
	back, err := mean.Recombined([]*Net{plus, minus}, []float64{0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	toPlus, _ := mean.Recombined([]*Net{plus}, []float64{1})
	bw, tw := back.Weights(), toPlus.Weights()
	for i := range mw {
		if math.Abs(bw[i]-mw[i]) > 1e-7 || tw[i] != pw[i] {
			t.Fatalf("weight %d: mean %v, recombined %v (want the mean) and %v (want %v)", i, mw[i], bw[i], tw[i], pw[i])
		}
	}
	other := testNet(t, draughtsSizes, 0, 52)
	if _, err := mean.Recombined([]*Net{other}, []float64{1}); !errors.Is(err, ErrArchitecture) {
		t.Errorf("recombining nets of other flags: %v, want ErrArchitecture", err)
	}
	if !mean.Equal(testNet(t, draughtsSizes, PieceDiff, 50)) {
		t.Error("the operators changed the mean")
	}
}

// TestQuieted checks that a quieted net keeps every weight but its output
// layer's, which are 0, leaves its original as it was, and evaluates
// chess and xiangqi positions exactly by its piece values: material
// counted by ChessMaterial and XiangqiMaterial, whatever its hidden layers.
func TestQuieted(t *testing.T) {
	chessPositions := randomChessPositions(t, newRNG(401), 200)
	xiangqiPositions := randomXiangqiPositions(newRNG(402), 200)
	for seed := range uint64(3) {
		c, err := RandomChess(chessHidden, 0, newRNG(seed))
		if err != nil {
			t.Fatal(err)
		}
		x, err := RandomXiangqi(xiangqiHidden, 0, newRNG(seed))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []*Net{c, x} {
			before := n.Clone()
			q := n.Quieted()
			if !n.Equal(before) {
				t.Fatalf("Quieted changed its receiver")
			}
			w, qw := n.Weights(), q.Weights()
			last := len(n.Sizes()) - 1
			from, to := n.WeightIndex(last, 0, 0), n.BiasIndex(last, 0)+1
			for i := range w {
				switch {
				case i >= from && i < to && qw[i] != 0:
					t.Fatalf("output layer weight %d = %v, want 0", i, qw[i])
				case (i < from || i >= to) && qw[i] != w[i]:
					t.Fatalf("weight %d = %v, want %v (only the output layer is quieted)", i, qw[i], w[i])
				}
			}
			if nonzero := slices.ContainsFunc(w[from:to], func(v float64) bool { return v != 0 }); !nonzero {
				t.Fatalf("the random net's output layer was 0 already: the test checks nothing")
			}
		}
		ce, err := NewChessEval(c.Quieted())
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range chessPositions {
			if got, want := ce.Evaluate(p, p.Side()), ChessMaterial(p, p.Side(), c.PieceValues()); got != want {
				t.Fatalf("seed %d: quieted chess net evaluates %v, material %v", seed, got, want)
			}
		}
		xe, err := NewXiangqiEval(x.Quieted())
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range xiangqiPositions {
			if got, want := xe.Evaluate(p, p.Side()), XiangqiMaterial(p, p.Side(), x.XiangqiPieceValues()); got != want {
				t.Fatalf("seed %d: quieted xiangqi net evaluates %v, material %v", seed, got, want)
			}
		}
		// Unquieted, the net's output moves the value off the material.
		e, _ := NewXiangqiEval(x)
		off := 0
		for _, p := range xiangqiPositions {
			if e.Evaluate(p, p.Side()) != XiangqiMaterial(p, p.Side(), x.XiangqiPieceValues()) {
				off++
			}
		}
		if off < len(xiangqiPositions)/2 {
			t.Errorf("seed %d: the random net leaves %d of %d values at the material: the comparison above checks little", seed, len(xiangqiPositions)-off, len(xiangqiPositions))
		}
	}
}
