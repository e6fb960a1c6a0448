package nnet

import (
	"errors"
	"math"
	"slices"
	"testing"

	"evolved/cputime"
	"evolved/game/chess"
)

// perspectiveTestNet returns RandomPerspective(hidden) with every weight
// multiplied by scale.
func perspectiveTestNet(t testing.TB, hidden int, scale float32, seed uint64) *PerspectiveNet {
	t.Helper()
	n, err := RandomPerspective(hidden, newRNG(seed))
	if err != nil {
		t.Fatal(err)
	}
	return scaled(n, scale)
}

// scaled multiplies every weight and bias of n by scale, in place, and
// returns n.
func scaled(n *PerspectiveNet, scale float32) *PerspectiveNet {
	for _, s := range [][]float32{n.FeatureWeights, n.FeatureBias, n.OutputWeights} {
		for i := range s {
			s[i] *= scale
		}
	}
	n.OutputBias *= scale
	return n
}

// quantized returns n.Quantize(), failing the test on an error.
func quantized(t testing.TB, n *PerspectiveNet) *QuantizedPerspective {
	t.Helper()
	q, err := n.Quantize()
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestKernels16Match checks that addSub16, add16, sub16 and creluDot16
// (vector code with AVX2) give the results of their definitions, element
// by element in wrapping int16 and summed in wrapping int32, for every
// length up to 100, random, small and extreme values, and clips 0, 255,
// random and 32767 (the row operations through checkRowKernels, their
// outputs inside sentinels).
func TestKernels16Match(t *testing.T) {
	t.Logf("AVX2 kernels: %v", useAVX2)
	rng := newRNG(611)
	checkRowKernels(t, rng, kernels16(), [3]string{"addSub16", "add16", "sub16"})
	for n := range 101 {
		src, p := make([]int16, n), make([]int16, n)
		for i := range src {
			src[i], p[i] = intValue[int16](rng), intValue[int16](rng)
		}
		for _, clip := range []int16{0, PerspectiveQA, int16(rng.IntN(math.MaxInt16)), math.MaxInt16} {
			var want int32
			for i := range src {
				want += int32(min(max(src[i], 0), clip)) * int32(p[i])
			}
			if got := creluDot16(src, p, clip); got != want {
				t.Fatalf("length %d, clip %d: creluDot16 = %d, want %d", n, clip, got, want)
			}
			if got := creluDot16Generic(src, p, clip); got != want {
				t.Fatalf("length %d, clip %d: creluDot16Generic = %d, want %d", n, clip, got, want)
			}
		}
	}
}

// TestPerspectiveHandComputed checks values worked out by hand: a net of
// 16 sums whose only nonzero feature weights are 0.2 for every own pawn
// (51 in units of 1/255), output weights 1 for the side to move's sums and
// -0.5 for the other's.
func TestPerspectiveHandComputed(t *testing.T) {
	n, err := NewPerspectiveNet(16)
	if err != nil {
		t.Fatal(err)
	}
	for s := range 64 {
		for h := range 16 {
			n.FeatureWeights[ChessInputIndex(0, chess.Pawn, chess.Square(s))*16+h] = 0.2
		}
	}
	for h := range 16 {
		n.OutputWeights[h], n.OutputWeights[16+h] = 1, -0.5
	}
	q := quantized(t, n)
	for _, c := range []struct {
		fen string
		cp  int
	}{
		// Eight pawns each: 8*51 clips to 255 (1) on both sides:
		// 16*1 - 0.5*16*1 = 8, 3200 cp.
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3200},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 3200},
		// White's three pawns 153 (0.6), Black's two 102 (0.4): for White
		// 16*0.6 - 8*0.4 = 6.4, 2560 cp; for Black 16*0.4 - 8*0.6 = 1.6.
		{"4k3/pp6/8/8/8/8/PPP5/4K3 w - - 0 1", 2560},
		{"4k3/pp6/8/8/8/8/PPP5/4K3 b - - 0 1", 640},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0},
	} {
		p, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := q.Evaluate(&p); got != c.cp {
			t.Errorf("%s: quantized %d cp, want %d", c.fen, got, c.cp)
		}
		if got := n.Evaluate(&p); math.Abs(got-float64(c.cp)) > 1e-4 {
			t.Errorf("%s: float %v cp, want %d", c.fen, got, c.cp)
		}
	}
}

// TestPerspectiveAccumulatorMatchesFromScratch walks random games (the
// standard start and Chess960 ones, half the moves castlings, en passant
// captures, promotions and double pushes where there are any, deeper than
// 128 plies so that the stack grows) and after every Reset, Push and Pop
// compares both points of view's int16 sums with sums from scratch and the
// value with QuantizedPerspective.Evaluate: they must be identical. The
// net's weights are four times RandomPerspective's, and one sum's are
// raised to what Quantize just accepts (32767 with 32 pieces), so that the
// int16 sum wraps during updates (castling with 32 pieces adds two rows
// before it subtracts two).
func TestPerspectiveAccumulatorMatchesFromScratch(t *testing.T) {
	games, steps := 300, 400
	if testing.Short() {
		games = 30
	}
	n := perspectiveTestNet(t, 48, 4, 612)
	for f := range NumChessInputs {
		n.FeatureWeights[f*48+7] = 4 // 1020 units, 32 of them at most: 32640
	}
	n.FeatureBias[7] = 127.0 / 255 // 32767 with 32 pieces
	q := quantized(t, n)
	acc := q.NewAccumulator()
	rng := newRNG(613)
	scratch := make([]int16, q.Hidden())
	checks, full, wraps := 0, 0, 0
	var prev chess.Position
	kinds := chessWalk(t, rng, acc, games, steps, 300, func(p chess.Position) {
		if p.Occupied().Count() == 32 && prev.Occupied().Count() == 32 && prev.Changed(&p).Count() == 4 {
			wraps++ // castling, or taking it back, with 32 pieces
		}
		prev = p
		if acc.Position() != p {
			t.Fatalf("Position() = %s, want %s", acc.Position().FEN(), p.FEN())
		}
		if got, want := acc.Evaluate(), q.Evaluate(&p); got != want {
			t.Fatalf("ply %d, %s: incremental %d cp, from scratch %d", acc.Ply(), p.FEN(), got, want)
		}
		for pov := chess.White; pov <= chess.Black; pov++ {
			q.refresh(scratch, &p, pov)
			if got := acc.sums(acc.top, pov); !slices.Equal(got, scratch) {
				t.Fatalf("ply %d, %s, pov %v: incremental sums %v, from scratch %v", acc.Ply(), p.FEN(), pov, got, scratch)
			}
			if scratch[7] == math.MaxInt16 { // castling wraps: two rows added before two subtracted
				full++
			}
		}
		checks++
	})
	if checks < games*steps || kinds.captures == 0 || kinds.promotions == 0 || kinds.castles == 0 || kinds.enPassant == 0 || full == 0 || wraps == 0 {
		t.Errorf("%d checks, %d at the int16 bound, %d castlings with 32 pieces, moves %+v: want every kind of move", checks, full, wraps, kinds)
	}
	t.Logf("%d checks, %d sums at the int16 bound, %d castlings with 32 pieces, moves %+v", checks, full, wraps, kinds)
}

// TestPerspectiveAccumulatorLazy evaluates only now and then (a third of
// the time, never right after a Reset), so that updates start from
// ancestors several plies up, or from scratch when no ply has sums; the
// values must be those from scratch.
func TestPerspectiveAccumulatorLazy(t *testing.T) {
	q := quantized(t, perspectiveTestNet(t, 32, 2, 624))
	acc := q.NewAccumulator()
	rng := newRNG(625)
	checks := 0
	chessWalk(t, rng, acc, 20, 300, 60, func(p chess.Position) {
		if acc.Ply() == 0 || rng.IntN(3) != 0 {
			return
		}
		if got, want := acc.Evaluate(), q.Evaluate(&p); got != want {
			t.Fatalf("ply %d, %s: incremental %d cp, from scratch %d", acc.Ply(), p.FEN(), got, want)
		}
		checks++
	})
	if checks < 1000 {
		t.Errorf("%d checks, want at least 1000", checks)
	}
}

// TestPerspectiveAccumulatorNoAllocs checks that Reset, Push, PushRef,
// Evaluate and Pop, and QuantizedPerspective.Evaluate, do not allocate.
func TestPerspectiveAccumulatorNoAllocs(t *testing.T) {
	q := quantized(t, perspectiveTestNet(t, DefaultPerspectiveHidden, 1, 621))
	acc := q.NewAccumulator()
	positions := randomChessPositions(t, newRNG(622), 64)
	start := chess.Start() // Start itself allocates
	allocs := testing.AllocsPerRun(100, func() {
		acc.Reset(start)
		for i := range positions {
			if i%2 == 0 {
				acc.Push(positions[i])
			} else {
				acc.PushRef(&positions[i])
			}
			acc.Evaluate()
		}
		for range positions {
			acc.Pop()
		}
		q.Evaluate(&positions[0])
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run, want 0", allocs)
	}
}

// TestPerspectiveAccumulatorPopPanics checks that popping the root panics.
func TestPerspectiveAccumulatorPopPanics(t *testing.T) {
	acc := quantized(t, perspectiveTestNet(t, 16, 1, 623)).NewAccumulator()
	acc.Reset(chess.Start())
	defer func() {
		if recover() == nil {
			t.Error("Pop of the root did not panic")
		}
	}()
	acc.Pop()
}

// TestPerspectiveQuantization compares the integer value
// (QuantizedPerspective) with the float one (PerspectiveNet.Evaluate) on
// 10,000 positions of random games, for nets of RandomPerspective's scale
// and of two and four times it, which must agree within the net's
// QuantizationTolerance. It logs the largest and the mean
// difference, and those with the output weights at the scale 64 that nets
// with int8 output weights use, which PerspectiveQB's comment cites.
func TestPerspectiveQuantization(t *testing.T) {
	positions := randomChessPositions(t, newRNG(614), 10_000)
	for i, scale := range []float32{1, 2, 4} {
		n := perspectiveTestNet(t, DefaultPerspectiveHidden, scale, 615+uint64(i))
		q := quantized(t, n)
		q64, err := n.quantize(64)
		if err != nil {
			t.Fatal(err)
		}
		tolerance := n.QuantizationTolerance()
		var worst, worst64, sum, spread float64
		for _, p := range positions {
			f := n.Evaluate(&p)
			d := math.Abs(f - float64(q.Evaluate(&p)))
			if d > tolerance {
				t.Errorf("scale %v, %s: float %.3f cp, integer %d: beyond the tolerance %.3f", scale, p.FEN(), f, q.Evaluate(&p), tolerance)
			}
			worst, sum, spread = max(worst, d), sum+d, spread+f*f
			worst64 = max(worst64, math.Abs(f-float64(q64.Evaluate(&p))))
		}
		if worst64 <= worst {
			t.Errorf("scale %v: with QB = 64 at most %.3f cp from the float value, with %d %.3f: want QB = 64 worse", scale, worst64, PerspectiveQB, worst)
		}
		t.Logf("scale %v (values %.0f cp rms): |float - integer| at most %.3f cp (tolerance %.3f), mean %.3f; with QB = 64 at most %.3f",
			scale, math.Sqrt(spread/float64(len(positions))), worst, tolerance, sum/float64(len(positions)), worst64)
	}
}

// TestPerspectiveMirror checks that a position and its colour-flipped
// mirror image (mirrorFEN) have the same sums for the opposite points of
// view, bit for bit, and the same value for their sides to move, integer
// and float (the float sums add the same weights in another order: within
// 1e-9 cp), for a random net: the encoding mirrors the board for Black.
func TestPerspectiveMirror(t *testing.T) {
	n := perspectiveTestNet(t, 64, 2, 616)
	q := quantized(t, n)
	a, b := make([]int16, 64), make([]int16, 64)
	for _, p := range randomChessPositions(t, newRNG(617), 500) {
		m := mirrorFEN(t, p)
		for pov := chess.White; pov <= chess.Black; pov++ {
			q.refresh(a, &p, pov)
			q.refresh(b, &m, pov^1)
			if !slices.Equal(a, b) {
				t.Fatalf("%s, pov %v: sums %v, mirror %s's for the other side %v", p.FEN(), pov, a, m.FEN(), b)
			}
		}
		if x, y := q.Evaluate(&p), q.Evaluate(&m); x != y {
			t.Fatalf("%s: %d cp, its mirror %s %d", p.FEN(), x, m.FEN(), y)
		}
		if x, y := n.Evaluate(&p), n.Evaluate(&m); math.Abs(x-y) > 1e-9 {
			t.Fatalf("%s: float %v cp, its mirror %s %v", p.FEN(), x, m.FEN(), y)
		}
	}
}

// TestPerspectiveOverflow checks Quantize's bounds at their edges: a sum
// whose 32 largest per-square weights reach 32640 units with a bias of at
// most 127 passes, one unit more does not; an output weight beyond int16
// or an output sum beyond int32 is refused, and one at its edge evaluates
// exactly; a bad shape or a NaN is an architecture error.
func TestPerspectiveOverflow(t *testing.T) {
	edge := func(bias float32) *PerspectiveNet {
		n, err := NewPerspectiveNet(16)
		if err != nil {
			t.Fatal(err)
		}
		for f := range NumChessInputs {
			n.FeatureWeights[f*16+3] = -4 // 1020 units
		}
		n.FeatureBias[3] = bias
		return n
	}
	if _, err := edge(-127.0 / 255).Quantize(); err != nil {
		t.Errorf("32*1020 + 127 units: %v, want no error", err)
	}
	for _, c := range []struct {
		name string
		net  func() *PerspectiveNet
		want error
	}{
		{"sum 32768", func() *PerspectiveNet { return edge(128.0 / 255) }, ErrPerspectiveOverflow},
		{"feature weight", func() *PerspectiveNet {
			n := edge(0)
			n.FeatureWeights[5*16] = 129
			return n
		}, ErrPerspectiveOverflow},
		{"output weight", func() *PerspectiveNet {
			n := edge(0)
			n.OutputWeights[0] = 32768.0 / PerspectiveQB
			return n
		}, ErrPerspectiveOverflow},
		{"output sum", func() *PerspectiveNet { return wideOutput(33) }, ErrPerspectiveOverflow},
		{"NaN", func() *PerspectiveNet {
			n := edge(0)
			n.OutputBias = float32(math.NaN())
			return n
		}, ErrArchitecture},
		{"shape", func() *PerspectiveNet {
			n := edge(0)
			n.FeatureBias = n.FeatureBias[:15]
			return n
		}, ErrArchitecture},
	} {
		if _, err := c.net().Quantize(); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	// At the output's edge, 512*255*16384 + 32*255*1024 = 2147450880 units,
	// with every sum clipped at 255 (32 pieces of 255 units each): 3289600
	// cp, exactly.
	n := wideOutput(32)
	q := quantized(t, n)
	p := chess.Start()
	if got, want := q.Evaluate(&p), (512*16+32)*PerspectiveScale; got != want || n.Evaluate(&p) != float64(want) {
		t.Errorf("start at the output's edge: %d cp, float %v, want %d", got, n.Evaluate(&p), want)
	}
	for _, h := range []int{0, -1, MaxPerspectiveHidden + 1} {
		if _, err := NewPerspectiveNet(h); !errors.Is(err, ErrArchitecture) {
			t.Errorf("NewPerspectiveNet(%d): %v, want %v", h, err, ErrArchitecture)
		}
	}
}

// wideOutput returns a net of 256 sums whose feature weights are all 1
// (255 units) and whose output weights are all 16 (16384 units), with the
// given output bias: 32 or less fits int32, 33 does not.
func wideOutput(bias float32) *PerspectiveNet {
	n, err := NewPerspectiveNet(256)
	if err != nil {
		panic(err)
	}
	for i := range n.FeatureWeights {
		n.FeatureWeights[i] = 1
	}
	for i := range n.OutputWeights {
		n.OutputWeights[i] = 16
	}
	n.OutputBias = bias
	return n
}

// benchNode is what BenchmarkPerspectiveChess measures: an accumulator
// that records positions and evaluates them for the side to move.
type benchNode interface {
	Reset(p chess.Position)
	PushRef(p *chess.Position)
	Pop()
	eval() int
}

// narrowNode is a ChessAccumulator as a benchNode: the value for the side
// to move, as a negamax search's leaves ask for it.
type narrowNode struct{ *ChessAccumulator }

func (a narrowNode) eval() int {
	return int(a.Evaluate(a.pos[a.top].Side()) * 100)
}

// perspectiveNode is a PerspectiveAccumulator as a benchNode.
type perspectiveNode struct{ *PerspectiveAccumulator }

func (a perspectiveNode) eval() int { return a.Evaluate() }

// defaultChessFlags are the genome flags of the daemon's default chess
// configuration.
const defaultChessFlags = EvolvePieceValues | EvolvePST | EvolveTerms | EvolveMoreTerms | TaperedTerms | EvolveKingDanger

// BenchmarkPerspectiveChess measures a search's leaf, one node per
// operation: make a move on a chess.Game, record the position (PushRef),
// evaluate it for the side to move, take it back (Pop, Unmake). The nodes
// are every legal move of every position of a fixed random game (seed 618,
// 120 plies), whose line is played on the game and evaluated the same way
// (so each parent has its sums, as in a search). "net=perspective256" is
// the perspective net of 256 sums a side (both points of view updated at
// every node); "net=narrow" is today's chess evaluation, the default
// 768-32-8-1 net with the piece-square tables and the positional terms
// (the flags of the daemon's default chess configuration), and
// "net=narrow/terms=no" its net and material alone; "net=perspective256/genome"
// is the whole evaluation of a chess genome with the perspective net in
// the narrow net's place (chess.perspective = true: the net, material,
// tables and terms, through a ChessAccumulator), "/terms=no" its net and
// material alone. The ratios between
// them come from the same run; evals/cpu-s (nodes per CPU second of the
// process) is the steadier measure on a busy machine.
func BenchmarkPerspectiveChess(b *testing.B) {
	start := chess.Start()
	line := []chess.Move{}
	rng := newRNG(618)
	buf := make([]chess.Move, 0, chess.MaxMoves)
	for p := start; len(line) < 120; {
		buf = p.LegalMoves(buf[:0])
		if len(buf) == 0 {
			break
		}
		m := buf[rng.IntN(len(buf))]
		line, p = append(line, m), p.Play(m)
	}
	narrow := func(hidden []int, flags Flags) benchNode {
		e, err := NewChessEval(chessTestNet(b, hidden, flags, 619))
		if err != nil {
			b.Fatal(err)
		}
		return narrowNode{e.NewAccumulator()}
	}
	q := quantized(b, perspectiveTestNet(b, DefaultPerspectiveHidden, 1, 620))
	for _, bc := range []struct {
		name string
		node benchNode
	}{
		{"net=perspective256", perspectiveNode{q.NewAccumulator()}},
		{"net=perspective256/genome", narrow([]int{DefaultPerspectiveHidden}, Perspective|defaultChessFlags)},
		{"net=perspective256/genome/terms=no", narrow([]int{DefaultPerspectiveHidden}, Perspective)},
		{"net=narrow", narrow(chessHidden, defaultChessFlags)},
		{"net=narrow/terms=no", narrow(chessHidden, 0)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			g := chess.NewGame(start, chess.DefaultRules())
			acc := bc.node
			acc.Reset(start)
			sink := acc.eval()
			ply, next := 0, 0
			moves := g.LegalMoves(nil)
			nodes := 0
			b.ReportAllocs()
			cpu0 := cputime.Seconds()
			for b.Loop() {
				if next == len(moves) { // every child seen: down the line, or back to its start
					if ply == len(line) {
						g.Reset(start)
						acc.Reset(start)
						ply = 0
					} else {
						g.Make(line[ply])
						acc.PushRef(g.Current())
						ply++
					}
					sink += acc.eval()
					moves, next = g.LegalMoves(moves[:0]), 0
				}
				g.Make(moves[next])
				acc.PushRef(g.Current())
				sink += acc.eval()
				acc.Pop()
				g.Unmake()
				next++
				nodes++
			}
			reportEvals(b, nodes, cpu0)
			sinkF = float64(sink)
		})
	}
}
