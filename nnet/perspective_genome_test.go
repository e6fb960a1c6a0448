package nnet

import (
	"bytes"
	"errors"
	"math"
	"sync"
	"testing"

	"evolved/game"
	"evolved/game/chess"
)

// perspectiveExtras are the flags of a perspective chess genome with every
// extra a chess run may use beside it but tapered tables (which
// chessReference does not compute).
const perspectiveExtras = Perspective | SelfAdaptive | EvolvePieceValues | EvolvePST | EvolveTerms | EvolveMoreTerms

// perspectivePawns is the perspective net of n's value of p from pov's
// point of view in pawns, from scratch: the quantized net's centipawns for
// the side to move, negated for the other side.
func perspectivePawns(n *Net, p chess.Position, pov game.Player) float64 {
	cp := quantizedOf(n).Evaluate(&p)
	if pov&1 != p.Side() {
		cp = -cp
	}
	return float64(cp) / 100
}

// quantizedNets holds the quantized perspective net of each genome the
// references have evaluated (*Net to *QuantizedPerspective), so that a
// reference evaluation costs an evaluation, not a quantization.
var quantizedNets sync.Map

// quantizedOf returns the quantized perspective net of n, made once.
func quantizedOf(n *Net) *QuantizedPerspective {
	if q, ok := quantizedNets.Load(n); ok {
		return q.(*QuantizedPerspective)
	}
	f, err := n.Perspective()
	if err != nil {
		panic(err)
	}
	q, err := f.Quantize()
	if err != nil {
		panic(err)
	}
	quantizedNets.Store(n, q)
	return q
}

// TestPerspectiveGenomeLayout checks the weight count and indexes of a
// perspective genome by hand: N rows of 768 incoming
// weights, N biases, 2N output weights and a bias, then the tables, terms
// and piece values as for any chess net.
func TestPerspectiveGenomeLayout(t *testing.T) {
	const h = 8
	plain, err := New([]int{NumChessInputs, h, 1}, Perspective)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := plain.NumWeights(), h*NumChessInputs+h+2*h+1; got != want {
		t.Errorf("NumWeights = %d, want %d", got, want)
	}
	if got, want := plain.WeightIndex(1, 3, 5), 3*NumChessInputs+5; got != want {
		t.Errorf("WeightIndex(1, 3, 5) = %d, want %d", got, want)
	}
	if got, want := plain.BiasIndex(1, 2), h*NumChessInputs+2; got != want {
		t.Errorf("BiasIndex(1, 2) = %d, want %d", got, want)
	}
	if got, want := plain.WeightIndex(2, 0, h+1), h*NumChessInputs+h+h+1; got != want {
		t.Errorf("WeightIndex(2, 0, N+1) = %d, want %d", got, want)
	}
	if got, want := plain.BiasIndex(2, 0), h*NumChessInputs+h+2*h; got != want {
		t.Errorf("BiasIndex(2, 0) = %d, want %d", got, want)
	}
	full, err := New([]int{NumChessInputs, h, 1}, perspectiveExtras|TaperedTables)
	if err != nil {
		t.Fatal(err)
	}
	tail := 2*NumPSTValues + NumMoreChessTerms + NumPieceValues
	if got, want := full.NumWeights(), plain.NumWeights()+tail; got != want {
		t.Errorf("with tables, terms and values: NumWeights = %d, want %d", got, want)
	}
	if got := full.Flags().String(); got != "self-adaptive|evolve-piece-values|evolve-pst|evolve-terms|evolve-more-terms|tapered-tables|perspective" {
		t.Errorf("Flags = %q", got)
	}
}

// TestPerspectiveGenomeRefused checks that Perspective is refused where a
// perspective net does not fit.
func TestPerspectiveGenomeRefused(t *testing.T) {
	for _, c := range []struct {
		sizes []int
		flags Flags
	}{
		{[]int{NumChessInputs, 32, 8, 1}, Perspective},                    // two hidden layers
		{[]int{NumChessInputs, 32, 2}, Perspective},                       // two outputs
		{[]int{NumDraughtsInputs, 32, 1}, Perspective},                    // draughts
		{[]int{NumChessInputs, MaxPerspectiveHidden + 1, 1}, Perspective}, // too wide
		{[]int{NumChessInputs, 32, 1}, Perspective | PieceDiff},
	} {
		if _, err := New(c.sizes, c.flags); !errors.Is(err, ErrArchitecture) {
			t.Errorf("New(%v, %v) = %v, want ErrArchitecture", c.sizes, c.flags, err)
		}
	}
	narrow := chessTestNet(t, chessHidden, 0, 1)
	if _, err := narrow.Perspective(); !errors.Is(err, ErrArchitecture) {
		t.Errorf("Perspective of a tanh net = %v, want ErrArchitecture", err)
	}
}

// TestPerspectiveOfGenome checks Net.Perspective against the genome's
// weights read by index, and its clamping of weights beyond the limits.
func TestPerspectiveOfGenome(t *testing.T) {
	const h = 6
	n := chessTestNet(t, []int{h}, perspectiveExtras, 3)
	w := n.Weights()
	w[n.WeightIndex(1, 2, 100)] = 9   // clamped to PerspectiveFeatureLimit
	w[n.BiasIndex(1, 4)] = -7         // and to its negative
	w[n.WeightIndex(2, 0, h+3)] = 1e6 // clamped to PerspectiveOutputLimit
	w[n.BiasIndex(2, 0)] = -5         // and to its negative
	n, err := n.WithWeights(w)
	if err != nil {
		t.Fatal(err)
	}
	p, err := n.Perspective()
	if err != nil {
		t.Fatal(err)
	}
	clamp := func(x, limit float64) float32 { return float32(min(max(x, -limit), limit)) }
	for i := range h {
		for f := range NumChessInputs {
			if got, want := p.FeatureWeights[f*h+i], clamp(w[n.WeightIndex(1, i, f)], PerspectiveFeatureLimit); got != want {
				t.Fatalf("FeatureWeights[%d*N+%d] = %v, want %v", f, i, got, want)
			}
		}
		if got, want := p.FeatureBias[i], clamp(w[n.BiasIndex(1, i)], PerspectiveFeatureLimit); got != want {
			t.Errorf("FeatureBias[%d] = %v, want %v", i, got, want)
		}
	}
	for i := range 2 * h {
		if got, want := p.OutputWeights[i], clamp(w[n.WeightIndex(2, 0, i)], PerspectiveOutputLimit); got != want {
			t.Errorf("OutputWeights[%d] = %v, want %v", i, got, want)
		}
	}
	if p.FeatureWeights[100*h+2] != PerspectiveFeatureLimit || p.FeatureBias[4] != -PerspectiveFeatureLimit ||
		p.OutputWeights[h+3] != PerspectiveOutputLimit || p.OutputBias != -PerspectiveOutputLimit {
		t.Errorf("clamped weights %v %v %v %v, want ±%v and ±%v", p.FeatureWeights[100*h+2], p.FeatureBias[4],
			p.OutputWeights[h+3], p.OutputBias, PerspectiveFeatureLimit, PerspectiveOutputLimit)
	}
}

// TestPerspectiveLimitsNeverOverflow checks that a genome at the limits
// everywhere, the widest there is, quantizes: the limits are what makes
// every genome playable.
func TestPerspectiveLimitsNeverOverflow(t *testing.T) {
	for _, sign := range []float64{1, -1} {
		n, err := New([]int{NumChessInputs, MaxPerspectiveHidden, 1}, Perspective)
		if err != nil {
			t.Fatal(err)
		}
		w := n.Weights()
		for i := range w {
			w[i] = sign * 1e9
		}
		if n, err = n.WithWeights(w); err != nil {
			t.Fatal(err)
		}
		e, err := NewChessEval(n)
		if err != nil {
			t.Fatalf("sign %v: %v", sign, err)
		}
		// Every sum of 32 pieces and the bias saturates the clipped ReLU
		// (or stays below 0), so the value is known: with every weight at
		// +limits, (bias + 2*1024*4*1)*400 = 3,278,400 cp for the side to
		// move; at -limits every sum is negative: the bias alone, -1600.
		want := 3278400.0
		if sign < 0 {
			want = -1600
		}
		p := chess.Start()
		if got := e.Evaluate(p, p.Side()); got != want/100 {
			t.Errorf("sign %v: value %v pawns, want %v", sign, got, want/100)
		}
	}
}

// TestPerspectiveChessEval checks a perspective genome's evaluation
// against the same genome's tables, terms and piece values beside a tanh
// net whose output is 0 (Quieted): the difference is the perspective
// net's value from scratch, for either point of view.
func TestPerspectiveChessEval(t *testing.T) {
	n := chessTestNet(t, []int{32}, perspectiveExtras|TaperedTables, 5)
	e, err := NewChessEval(n)
	if err != nil {
		t.Fatal(err)
	}
	quiet, err := New(ChessSizes(chessHidden...), perspectiveExtras&^Perspective|TaperedTables)
	if err != nil {
		t.Fatal(err)
	}
	w, tail := quiet.Weights(), n.Weights()
	copy(w[len(w)-(2*NumPSTValues+NumMoreChessTerms+NumPieceValues):], tail[len(tail)-(2*NumPSTValues+NumMoreChessTerms+NumPieceValues):])
	if quiet, err = quiet.WithWeights(w); err != nil {
		t.Fatal(err)
	}
	q, err := NewChessEval(quiet)
	if err != nil {
		t.Fatal(err)
	}
	checkNetPart(t, randomChessPositions(t, newRNG(6), 300), chess.Position.FEN, func(p chess.Position, pov game.Player) (float64, float64) {
		return e.Evaluate(p, pov) - q.Evaluate(p, pov), perspectivePawns(n, p, pov)
	})
}

// checkNetPart checks, for both points of view of 300 positions, that a
// perspective genome's value less its quiet twin's (part's first result)
// is the net's from scratch (its second), and that the net is not 0
// nearly everywhere, where the check would see nothing.
func checkNetPart[P any](t *testing.T, positions []P, fen func(P) string, part func(P, game.Player) (got, want float64)) {
	t.Helper()
	nonzero := 0
	for _, p := range positions {
		for pov := range game.Player(2) {
			got, want := part(p, pov)
			if math.Abs(got-want) > 1e-9 {
				t.Fatalf("%s pov %v: perspective genome minus quiet genome = %v, want the net's %v", fen(p), pov, got, want)
			}
			if want != 0 {
				nonzero++
			}
		}
	}
	if nonzero < 5*len(positions)/3 {
		t.Errorf("the net is 0 in %d of %d evaluations: the test would not see it", 2*len(positions)-nonzero, 2*len(positions))
	}
}

// TestPerspectiveQuieted checks that Quieted zeroes the 2N output weights
// and the bias of a perspective genome, and nothing else.
func TestPerspectiveQuieted(t *testing.T) {
	const h = 16
	n := chessTestNet(t, []int{h}, perspectiveExtras, 7)
	q := n.Quieted()
	w, qw := n.Weights(), q.Weights()
	first, last := n.WeightIndex(2, 0, 0), n.BiasIndex(2, 0)
	for i := range w {
		want := w[i]
		if i >= first && i <= last {
			want = 0
		}
		if qw[i] != want {
			t.Fatalf("weight %d = %v, want %v (output weights %d..%d)", i, qw[i], want, first, last)
		}
	}
	p := chess.Start()
	if v := perspectivePawns(q, p, chess.White); v != 0 {
		t.Errorf("quieted net's value %v, want 0", v)
	}
}

// TestPerspectiveCrossover checks that node-swap crossover of perspective
// genomes swaps exactly the node's incoming weights (768 for chess, 128
// for draughts), its bias and its two output weights, and their sigmas.
func TestPerspectiveCrossover(t *testing.T) {
	const h, node = 12, 5
	for _, g := range []struct {
		name   string
		inputs int
		a, b   *Net
	}{
		{"chess", NumChessInputs, chessTestNet(t, []int{h}, perspectiveExtras, 8), chessTestNet(t, []int{h}, perspectiveExtras, 9)},
		{"draughts", NumDraughtsPerspectiveInputs, draughtsPerspectiveGenome(t, h, 8), draughtsPerspectiveGenome(t, h, 9)},
	} {
		a, b := g.a, g.b
		c1, c2, err := CrossoverAt(a, b, Node{Layer: 1, Index: node})
		if err != nil {
			t.Fatal(err)
		}
		swapped := map[int]bool{a.BiasIndex(1, node): true, a.WeightIndex(2, 0, node): true, a.WeightIndex(2, 0, h+node): true}
		for f := range g.inputs {
			swapped[a.WeightIndex(1, node, f)] = true
		}
		if len(swapped) != g.inputs+3 {
			t.Fatalf("%s: %d distinct swapped indexes", g.name, len(swapped))
		}
		for _, c := range []struct {
			name       string
			child      *Net
			copy, from *Net
		}{{"child1", c1, a, b}, {"child2", c2, b, a}} {
			w, s := c.child.Weights(), c.child.Sigmas()
			cw, cs, fw, fs := c.copy.Weights(), c.copy.Sigmas(), c.from.Weights(), c.from.Sigmas()
			for i := range w {
				wantW, wantS := cw[i], cs[i]
				if swapped[i] {
					wantW, wantS = fw[i], fs[i]
				}
				if w[i] != wantW || s[i] != wantS {
					t.Fatalf("%s %s: weight %d = %v (sigma %v), want %v (%v); swapped %v", g.name, c.name, i, w[i], s[i], wantW, wantS, swapped[i])
				}
			}
		}
	}
}

// TestPerspectiveRandom checks Random on a perspective genome: the
// first layer's draws are uniform in ±InitRange as for any net, the
// output's the same draws scaled by 1/sqrt(2N), one draw per weight.
func TestPerspectiveRandom(t *testing.T) {
	const h = 32
	n, err := Random([]int{NumChessInputs, h, 1}, Perspective, newRNG(10))
	if err != nil {
		t.Fatal(err)
	}
	rng := newRNG(10)
	w := n.Weights()
	scale := 1 / math.Sqrt(2*h)
	for i := range w {
		draw := float64(rng.Float64()*(2*InitRange)) - InitRange
		if i >= n.WeightIndex(2, 0, 0) {
			draw = float64(draw * scale)
		}
		if want := round32(draw); w[i] != want {
			t.Fatalf("weight %d = %v, want %v", i, w[i], want)
		}
	}
	// A random genome's net moves a position's value by tenths of a
	// pawn, not pawns.
	worst := 0.0
	for _, p := range randomChessPositions(t, newRNG(11), 100) {
		worst = max(worst, math.Abs(perspectivePawns(n, p, p.Side())))
	}
	if worst > 1.5 || worst < 0.01 {
		t.Errorf("a random perspective net's largest value on 100 positions is %v pawns, want tenths", worst)
	}
}

// TestPerspectiveCodec checks that a perspective genome survives the
// binary and JSON formats bit for bit.
func TestPerspectiveCodec(t *testing.T) {
	n := chessTestNet(t, []int{16}, perspectiveExtras|TaperedTables, 12)
	bin, err := n.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadNet(bytes.NewReader(bin))
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equal(n) {
		t.Error("binary round trip changed the genome")
	}
	js, err := n.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var fromJSON Net
	if err := fromJSON.UnmarshalJSON(js); err != nil {
		t.Fatal(err)
	}
	if !fromJSON.Equal(n) {
		t.Error("JSON round trip changed the genome")
	}
	if !bytes.Contains(js, []byte(`"perspective"`)) {
		t.Errorf("JSON without the flag's name: %.200s", js)
	}
}
