package nnet

import (
	"errors"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"evolved/cputime"
	"evolved/game"
	"evolved/game/draughts"
)

// draughtsPerspectiveFlags are the flags of a draughts perspective genome
// in the tests: self-adaptive, so that crossover's sigmas are checked too.
const draughtsPerspectiveFlags = Perspective | SelfAdaptive

// draughtsPerspectiveGenome returns a random draughts perspective genome
// of the given width.
func draughtsPerspectiveGenome(t testing.TB, hidden int, seed uint64) *Net {
	t.Helper()
	return testNet(t, []int{NumDraughtsPerspectiveInputs, hidden, 1}, draughtsPerspectiveFlags, seed)
}

// draughtsPerspectiveEval returns the evaluator of a random draughts
// perspective genome of the given width.
func draughtsPerspectiveEval(t testing.TB, hidden int, seed uint64) *DraughtsEval {
	t.Helper()
	e, err := NewDraughtsEval(draughtsPerspectiveGenome(t, hidden, seed))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// draughtsPerspectiveMasters returns the masters of a random draughts
// perspective genome with every weight multiplied by scale.
func draughtsPerspectiveMasters(t testing.TB, hidden int, scale float32, seed uint64) *PerspectiveNet {
	t.Helper()
	n, err := draughtsPerspectiveGenome(t, hidden, seed).Perspective()
	if err != nil {
		t.Fatal(err)
	}
	return scaled(n, scale)
}

// TestDraughtsPerspectiveHandComputed checks values worked out by hand
// with a net of two sums: 0.2 (51/255) into sum 0 for each own man and
// -0.2 for each opponent's man, 0.4 into sum 1 for each own king and 0.2
// for an own man on square 1 of the board the point of view sees, a bias
// of 0.2 on sum 1; output weights 1 and 0.5 for the point of view's sums,
// -1 and -0.25 for the other's.
func TestDraughtsPerspectiveHandComputed(t *testing.T) {
	n, err := newPerspectiveNet(NumDraughtsPerspectiveInputs, 2)
	if err != nil {
		t.Fatal(err)
	}
	for s := range 32 {
		n.FeatureWeights[(0*32+s)*2+0] = 0.2  // own man
		n.FeatureWeights[(2*32+s)*2+0] = -0.2 // opponent's man
		n.FeatureWeights[(1*32+s)*2+1] = 0.4  // own king
	}
	n.FeatureWeights[0*2+1] = 0.2 // own man on square 1
	n.FeatureBias[1] = 0.2
	copy(n.OutputWeights, []float32{1, 0.5, -1, -0.25})
	q := quantized(t, n)
	bit := func(squares ...int) (b uint32) {
		for _, s := range squares {
			b |= 1 << (s - 1)
		}
		return b
	}
	for _, c := range []struct {
		name  string
		p     draughts.Position
		black int // the value for Black, in ten-thousandths
		white int
	}{
		// Black: men on 1 and 10, a king on 20; White: a man on 30, a king
		// on 5. Black sees its men on squares 1 and 10, White's man on 30:
		// sum 0 = 0.4 - 0.2 = 0.2, sum 1 = 0.2 + 0.4 + 0.2 = 0.8. White
		// sees its man on 3 (33-30), its king on 28, Black's men on 32 and
		// 23: sum 0 = 0.2 - 0.4 < 0, clipped to 0; sum 1 = 0.2 + 0.4 = 0.6.
		// For Black 0.2 + 0.5*0.8 - 0 - 0.25*0.6 = 0.45; for White
		// 0 + 0.5*0.6 - 0.2 - 0.25*0.8 = -0.1.
		{"kings", draughts.NewPosition(bit(1, 10, 20), bit(5, 30), bit(5, 20), draughts.Black), 4500, -1000},
		// Black's twelve men alone: for Black sum 0 = 2.4 clips to 1, sum 1
		// = 0.4: 1 + 0.2 - 0 - 0.25*0.2 = 1.15; for White sum 0 < 0, sum 1
		// = 0.2: 0.1 - 1 - 0.1 = -1. The evaluators clamp 1.15 to 1.
		{"clamped", draughts.NewPosition(0xfff, 0, 0, draughts.White), 11500, -10000},
		// No piece: the biases alone, 0.5*0.2 - 0.25*0.2 = 0.05 for both.
		{"empty", draughts.NewPosition(0, 0, 0, draughts.Black), 500, 500},
	} {
		e, err := n.genome(t)
		if err != nil {
			t.Fatal(err)
		}
		for pov, want := range [2]int{c.black, c.white} {
			v := game.Player(pov)
			if got := q.EvaluateDraughts(&c.p, v); got != want {
				t.Errorf("%s, pov %v: quantized %d, want %d", c.name, v, got, want)
			}
			if got := n.EvaluateDraughts(&c.p, v); math.Abs(got-float64(want)) > 1e-3 {
				t.Errorf("%s, pov %v: float %v, want %d", c.name, v, got, want)
			}
			clamped := math.Max(-1, math.Min(1, float64(want)/DraughtsPerspectiveScale))
			if got := e.Evaluate(c.p, v); got != clamped {
				t.Errorf("%s, pov %v: DraughtsEval %v, want %v", c.name, v, got, clamped)
			}
		}
	}
}

// genome returns the evaluator of a draughts perspective genome whose
// masters are n's (the test's hand-made net).
func (n *PerspectiveNet) genome(t *testing.T) (*DraughtsEval, error) {
	t.Helper()
	g, err := New([]int{NumDraughtsPerspectiveInputs, n.Hidden, 1}, Perspective)
	if err != nil {
		return nil, err
	}
	if g, err = g.WithPerspective(n); err != nil {
		return nil, err
	}
	return NewDraughtsEval(g)
}

// draughtsMoveKinds counts the kinds of moves a walk made.
type draughtsMoveKinds struct{ quiet, captures, multiCaptures, promotions, kingCaptured int }

// draughtsWalk plays random legal moves from draughts.Start(), pushing
// each position on acc (by Push or PushPieces, at random) and popping at
// random (and at the end of a game or at maxDepth), for steps steps a
// game, and counts the moves by kind. After every Reset, push and pop it
// calls check with the path's current position.
func draughtsWalk(rng *rand.Rand, acc *DraughtsAccumulator, games, steps, maxDepth int, check func(p draughts.Position)) draughtsMoveKinds {
	var buf []draughts.Move
	var kinds draughtsMoveKinds
	for range games {
		path := []draughts.Position{draughts.Start()}
		acc.Reset(path[0])
		check(path[0])
		for range steps {
			top := path[len(path)-1]
			buf = top.Moves(buf)
			if len(path) > 1 && (len(buf) == 0 || len(path) > maxDepth || rng.IntN(4) == 0) {
				acc.Pop()
				path = path[:len(path)-1]
			} else if len(buf) > 0 {
				m := buf[rng.IntN(len(buf))]
				p := top.Play(m)
				switch {
				case m.Jumps() > 1:
					kinds.multiCaptures++
				case m.IsCapture():
					kinds.captures++
				default:
					kinds.quiet++
				}
				if m.Captured()&top.Kings != 0 {
					kinds.kingCaptured++
				}
				if top.Kings&(1<<m.From()) == 0 && p.Kings&(1<<m.To()) != 0 {
					kinds.promotions++
				}
				if rng.IntN(2) == 0 {
					acc.Push(p)
				} else {
					acc.PushPieces(p.Black, p.White, p.Kings)
				}
				path = append(path, p)
			}
			check(path[len(path)-1])
		}
	}
	return kinds
}

// TestDraughtsPerspectiveMatchesFromScratch walks random games (jumps,
// multiple jumps, promotions and captured kings among their moves) deeper
// than the stack's first 128 plies, and after every Reset, push and pop
// compares both points of view's int16 sums with sums from scratch
// (refreshDraughts), and the values of both with DraughtsEval.Evaluate:
// they must be identical. The genome's weights are random, but for one
// sum's, at the clamp's limit (988 units a square), so that its sums are
// the largest any genome can make.
func TestDraughtsPerspectiveMatchesFromScratch(t *testing.T) {
	games, steps := 200, 400
	if testing.Short() {
		games = 20
	}
	const h = 48
	g := draughtsPerspectiveGenome(t, h, 701)
	w := g.Weights()
	for f := range NumDraughtsPerspectiveInputs {
		w[g.WeightIndex(1, 7, f)] = PerspectiveFeatureLimit
	}
	w[g.BiasIndex(1, 7)] = PerspectiveFeatureLimit
	g, err := g.WithWeights(w)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewDraughtsEval(g)
	if err != nil {
		t.Fatal(err)
	}
	q := e.persp
	acc := e.NewAccumulator()
	rng := newRNG(702)
	scratch := make([]int16, h)
	checks, largest, deepest := 0, int16(0), 0
	kinds := draughtsWalk(rng, acc, games, steps, 150, func(p draughts.Position) {
		deepest = max(deepest, acc.Ply())
		first := game.Player(rng.IntN(2))
		for _, pov := range [2]game.Player{first, first ^ 1} {
			if got, want := acc.Evaluate(pov), e.Evaluate(p, pov); got != want {
				t.Fatalf("ply %d, %+v, pov %v: incremental %v, from scratch %v", acc.Ply(), p, pov, got, want)
			}
			b := boardOf(&p)
			q.refreshDraughts(scratch, &b, pov)
			if got := acc.persp.sums(acc.persp.top, pov); !slices.Equal(got, scratch) {
				t.Fatalf("ply %d, %+v, pov %v: incremental sums %v, from scratch %v", acc.Ply(), p, pov, got, scratch)
			}
			largest = max(largest, scratch[7])
		}
		checks++
	})
	if checks < games*steps || kinds.captures == 0 || kinds.multiCaptures == 0 || kinds.promotions == 0 || kinds.kingCaptured == 0 || deepest <= defaultPlies {
		t.Errorf("%d checks, %d plies deep at most, moves %+v: want every kind of move, and the stack grown", checks, deepest, kinds)
	}
	t.Logf("%d checks, %d plies deep at most, the largest sum %d (of 32767), moves %+v", checks, deepest, largest, kinds)
}

// TestDraughtsPerspectiveLazy evaluates only now and then, for one point
// of view, so that updates start from ancestors several plies up, or from
// scratch when no ply has sums; the values must be those from scratch.
// Unrelated positions pushed one on another (a Push need not follow a
// move) take the from-scratch branch of a step.
func TestDraughtsPerspectiveLazy(t *testing.T) {
	e := draughtsPerspectiveEval(t, 32, 703)
	acc := e.NewAccumulator()
	rng := newRNG(704)
	checks := 0
	draughtsWalk(rng, acc, 20, 300, 60, func(p draughts.Position) {
		if rng.IntN(3) != 0 {
			return
		}
		pov := game.Player(rng.IntN(2))
		if got, want := acc.Evaluate(pov), e.Evaluate(p, pov); got != want {
			t.Fatalf("ply %d, pov %v: incremental %v, from scratch %v", acc.Ply(), pov, got, want)
		}
		checks++
	})
	path := randomPositions(rng, 300)
	acc.Reset(draughts.Start())
	for i, p := range path {
		acc.Push(p)
		if i%3 == 0 {
			if got, want := acc.Evaluate(p.Side), e.Evaluate(p, p.Side); got != want {
				t.Fatalf("unrelated ply %d: incremental %v, from scratch %v", i+1, got, want)
			}
			checks++
		}
	}
	if checks < 1000 {
		t.Errorf("%d checks, want at least 1000", checks)
	}
}

// TestDraughtsPerspectiveQuantization compares the integer value
// (QuantizedPerspective.EvaluateDraughts) with the float one
// (PerspectiveNet.EvaluateDraughts) on 10,000 positions of random games,
// for the masters of a random genome of the default width and of two and
// four times them: they must agree within the net's
// QuantizationTolerance, in ten-thousandths of an output. It logs the
// largest and the mean difference.
func TestDraughtsPerspectiveQuantization(t *testing.T) {
	positions := randomPositions(newRNG(705), 10_000)
	for i, scale := range []float32{1, 2, 4} {
		n := draughtsPerspectiveMasters(t, DefaultDraughtsPerspectiveHidden, scale, 706+uint64(i))
		q := quantized(t, n)
		tolerance := n.QuantizationTolerance()
		var worst, sum, spread float64
		for k := range positions {
			p := &positions[k]
			f := n.EvaluateDraughts(p, p.Side)
			d := math.Abs(f - float64(q.EvaluateDraughts(p, p.Side)))
			if d > tolerance {
				t.Errorf("scale %v, %+v: float %.3f, integer %d: beyond the tolerance %.3f", scale, *p, f, q.EvaluateDraughts(p, p.Side), tolerance)
			}
			worst, sum, spread = max(worst, d), sum+d, spread+f*f
		}
		t.Logf("scale %v (values %.0f rms, in 1e-4 of an output): |float - integer| at most %.3f (tolerance %.3f), mean %.3f",
			scale, math.Sqrt(spread/float64(len(positions))), worst, tolerance, sum/float64(len(positions)))
	}
}

// TestDraughtsPerspectiveMirror checks that a position and its
// colour-flipped mirror image (rotated: the board turned, the colours
// swapped) have the same sums for the opposite points of view, bit for
// bit, and the same values for them, integer, float (within 1e-9: the
// same weights added in another order) and through DraughtsEval.
func TestDraughtsPerspectiveMirror(t *testing.T) {
	n := draughtsPerspectiveMasters(t, 64, 2, 707)
	q := quantized(t, n)
	e, err := n.genome(t)
	if err != nil {
		t.Fatal(err)
	}
	a, b := make([]int16, 64), make([]int16, 64)
	for _, p := range append(randomPositions(newRNG(708), 500), draughts.Start()) {
		m := rotated(p)
		bp, bm := boardOf(&p), boardOf(&m)
		for pov := draughts.Black; pov <= draughts.White; pov++ {
			q.refreshDraughts(a, &bp, pov)
			q.refreshDraughts(b, &bm, pov^1)
			if !slices.Equal(a, b) {
				t.Fatalf("%+v, pov %v: sums %v, the mirror's for the other side %v", p, pov, a, b)
			}
			if x, y := q.EvaluateDraughts(&p, pov), q.EvaluateDraughts(&m, pov^1); x != y {
				t.Fatalf("%+v, pov %v: %d, the mirror's %d", p, pov, x, y)
			}
			if x, y := n.EvaluateDraughts(&p, pov), n.EvaluateDraughts(&m, pov^1); math.Abs(x-y) > 1e-9 {
				t.Fatalf("%+v, pov %v: float %v, the mirror's %v", p, pov, x, y)
			}
			if x, y := e.Evaluate(p, pov), e.Evaluate(m, pov^1); x != y {
				t.Fatalf("%+v, pov %v: DraughtsEval %v, the mirror's %v", p, pov, x, y)
			}
		}
	}
}

// TestDraughtsOtherView checks draughtsOtherView against the features
// themselves: the features White sees of a position are those Black sees,
// turned, and the map is its own inverse.
func TestDraughtsOtherView(t *testing.T) {
	for f := range uint16(NumDraughtsPerspectiveInputs) {
		if g := draughtsOtherView(f); g >= NumDraughtsPerspectiveInputs || draughtsOtherView(g) != f || g/64 == f/64 || g/32%2 != f/32%2 {
			t.Fatalf("draughtsOtherView(%d) = %d", f, g)
		}
	}
	var black, white [perspectivePieces]uint16
	for _, p := range randomPositions(newRNG(709), 300) {
		b := boardOf(&p)
		nb, nw := draughtsFeatures(&b, draughts.Black, &black), draughtsFeatures(&b, draughts.White, &white)
		if nb != nw || nb != bits.OnesCount32(p.Black|p.White) {
			t.Fatalf("%+v: %d features for Black, %d for White", p, nb, nw)
		}
		turned := make([]uint16, nb)
		for i, f := range black[:nb] {
			turned[i] = draughtsOtherView(f)
		}
		slices.Sort(turned)
		got := slices.Clone(white[:nw])
		slices.Sort(got)
		if !slices.Equal(turned, got) {
			t.Fatalf("%+v: White's features %v, Black's turned %v", p, got, turned)
		}
	}
}

// TestDraughtsPerspectiveGenome checks a draughts perspective genome's
// layout (N rows of 128 weights, N biases, 2N output weights and a bias),
// that PieceDiff and the Blondie net's 91 inputs are refused with the
// flag, and that the evaluator of a genome gives the quantized masters'
// values, clamped, within the tolerance of the float ones.
func TestDraughtsPerspectiveGenome(t *testing.T) {
	const h = 8
	g, err := New([]int{NumDraughtsPerspectiveInputs, h, 1}, Perspective)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := g.NumWeights(), h*NumDraughtsPerspectiveInputs+h+2*h+1; got != want {
		t.Errorf("NumWeights = %d, want %d", got, want)
	}
	for _, c := range []struct {
		sizes []int
		flags Flags
	}{
		{[]int{NumDraughtsPerspectiveInputs, h, 1}, Perspective | PieceDiff},
		{[]int{NumDraughtsInputs, h, 1}, Perspective},
		{[]int{NumDraughtsPerspectiveInputs, h, 4, 1}, Perspective},
	} {
		if _, err := New(c.sizes, c.flags); !errors.Is(err, ErrArchitecture) {
			t.Errorf("New(%v, %v) = %v, want ErrArchitecture", c.sizes, c.flags, err)
		}
	}
	if got := GenomeInputs(NumDraughtsInputs, Perspective); got != NumDraughtsPerspectiveInputs {
		t.Errorf("GenomeInputs(draughts, Perspective) = %d", got)
	}
	for _, in := range []int{NumDraughtsInputs, NumChessInputs, NumXiangqiInputs} {
		if got := GenomeInputs(in, 0); got != in {
			t.Errorf("GenomeInputs(%d, 0) = %d", in, got)
		}
	}
	if got := GenomeInputs(NumChessInputs, Perspective); got != NumChessInputs {
		t.Errorf("GenomeInputs(chess, Perspective) = %d", got)
	}
	net := draughtsPerspectiveGenome(t, 64, 710)
	e, err := NewDraughtsEval(net)
	if err != nil {
		t.Fatal(err)
	}
	masters, err := net.Perspective()
	if err != nil {
		t.Fatal(err)
	}
	tolerance := masters.QuantizationTolerance() / DraughtsPerspectiveScale
	worst := 0.0
	for _, p := range randomPositions(newRNG(711), 500) {
		for pov := draughts.Black; pov <= draughts.White; pov++ {
			got := e.Evaluate(p, pov)
			if want := draughtsPerspectiveValue(e.persp.EvaluateDraughts(&p, pov)); got != want {
				t.Fatalf("%+v, pov %v: %v, the quantized masters' %v", p, pov, got, want)
			}
			f := math.Max(-1, math.Min(1, masters.EvaluateDraughts(&p, pov)/DraughtsPerspectiveScale))
			if math.Abs(got-f) > tolerance {
				t.Fatalf("%+v, pov %v: %v, float %v, beyond %v", p, pov, got, f, tolerance)
			}
			worst = max(worst, math.Abs(got))
		}
	}
	// A random genome's net gives values of a few hundredths of an
	// output, as the tanh nets' first moves do.
	if worst > 0.9 || worst < 0.001 {
		t.Errorf("a random draughts perspective genome's largest value on 500 positions is %v, want hundredths", worst)
	}
	t.Logf("a random genome of 64 sums: values up to %.4f of an output", worst)
}

// TestDraughtsPerspectiveNoAllocs checks that Reset, Push, PushPieces,
// Evaluate and Pop of a perspective accumulator, and DraughtsEval.Evaluate
// of a perspective net, do not allocate.
func TestDraughtsPerspectiveNoAllocs(t *testing.T) {
	e := draughtsPerspectiveEval(t, DefaultDraughtsPerspectiveHidden, 712)
	acc := e.NewAccumulator()
	positions := randomPositions(newRNG(713), 64)
	allocs := testing.AllocsPerRun(100, func() {
		acc.Reset(draughts.Start())
		for i, p := range positions {
			if i%2 == 0 {
				acc.Push(p)
			} else {
				acc.PushPieces(p.Black, p.White, p.Kings)
			}
			acc.Evaluate(p.Side)
		}
		for range positions {
			acc.Pop()
		}
		e.Evaluate(positions[0], draughts.White)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
}

// BenchmarkPerspectiveDraughts measures a search's leaf in draughts, one
// node per operation, as BenchmarkPerspectiveChess does in chess: make a
// move on a draughts.Game, record the position (PushPieces), evaluate it
// for the side to move, take it back (Pop, Unmake). The nodes are every
// legal move of every position of a fixed random game (seed 714, at most
// 120 plies), whose line is played on the game and evaluated the same way
// (so each parent has its sums, as in a search). "net=blondie" is the
// Blondie net (91-40-10-1 with the piece difference, as the default and
// the blondie24 preset play); "net=perspective128" and
// "net=perspective256" are draughts perspective nets of 128 and 256 sums
// a side (draughts.perspective = true), through the same DraughtsEval and
// DraughtsAccumulator; "net=none" is the make and unmake alone. The
// ratios between them come from the same run; evals/cpu-s (nodes per CPU
// second of the process) is the steadier measure on a busy machine.
func BenchmarkPerspectiveDraughts(b *testing.B) {
	start := draughts.Start()
	var line []draughts.Move
	rng := newRNG(714)
	var buf []draughts.Move
	for p := start; len(line) < 120; {
		buf = p.Moves(buf)
		m := buf[rng.IntN(len(buf))]
		if p = p.Play(m); len(p.Moves(buf)) == 0 {
			break // the line ends where a move remains
		}
		line = append(line, m)
	}
	for _, bc := range []struct {
		name string
		eval *DraughtsEval
	}{
		{"net=blondie", testEval(b, PieceDiff, 31)},
		{"net=perspective128", draughtsPerspectiveEval(b, 128, 715)},
		{"net=perspective256", draughtsPerspectiveEval(b, 256, 715)},
		{"net=none", nil},
	} {
		b.Run(bc.name, func(b *testing.B) {
			g := draughts.NewGame(start, draughts.DefaultRules())
			var acc *DraughtsAccumulator
			if bc.eval != nil {
				acc = bc.eval.NewAccumulator()
				acc.Reset(start)
			}
			sink := 0.0
			ply, next := 0, 0
			moves := g.LegalMoves(nil)
			nodes := 0
			b.ReportAllocs()
			cpu0 := cputime.Seconds()
			for b.Loop() {
				if next == len(moves) { // every child seen: down the line, or back to its start
					if ply == len(line) {
						g.Reset(start)
						if acc != nil {
							acc.Reset(start)
						}
						ply = 0
					} else {
						g.Make(line[ply])
						if acc != nil {
							acc.PushPieces(g.Pieces())
						}
						ply++
					}
					if acc != nil {
						sink += acc.Evaluate(g.ToMove())
					}
					moves, next = g.LegalMoves(moves[:0]), 0
				}
				g.Make(moves[next])
				if acc != nil {
					acc.PushPieces(g.Pieces())
					sink += acc.Evaluate(g.ToMove())
					acc.Pop()
				}
				g.Unmake()
				next++
				nodes++
			}
			reportEvals(b, nodes, cpu0)
			sinkF = sink
		})
	}
}

// TestDraughtsPerspectiveLimitsNeverOverflow checks that a draughts genome
// at the limits everywhere, the widest there is, quantizes and evaluates
// to what its clamp says (every sum saturated: 1 for the point of view,
// the bias alone at the negative limits: -4 clamped to -1), and that
// mutation and crossover of draughts genomes keep them playable: the
// evolution's operators work on the float masters, and the evaluator
// quantizes whatever they make.
func TestDraughtsPerspectiveLimitsNeverOverflow(t *testing.T) {
	for _, sign := range []float64{1, -1} {
		n, err := New([]int{NumDraughtsPerspectiveInputs, MaxPerspectiveHidden, 1}, Perspective)
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
		e, err := NewDraughtsEval(n)
		if err != nil {
			t.Fatalf("sign %v: %v", sign, err)
		}
		if got := e.Evaluate(draughts.Start(), draughts.Black); got != sign {
			t.Errorf("sign %v: value %v, want %v", sign, got, sign)
		}
	}
	rng := newRNG(716)
	a, b := draughtsPerspectiveGenome(t, 16, 717), draughtsPerspectiveGenome(t, 16, 718)
	positions := randomPositions(rng, 50)
	for range 20 {
		c1, c2, _, err := Crossover(a, b, rng)
		if err != nil {
			t.Fatal(err)
		}
		a, b = c1.Mutated(rng), c2.Mutated(rng)
		if a.Equal(c1) {
			t.Fatal("mutation changed nothing")
		}
		for _, n := range []*Net{a, b} {
			e, err := NewDraughtsEval(n)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range positions {
				if v := e.Evaluate(p, p.Side); math.IsNaN(v) || v < -1 || v > 1 {
					t.Fatalf("an evolved genome values %+v at %v", p, v)
				}
			}
		}
	}
}
