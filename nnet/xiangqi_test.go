package nnet

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"evolved/game"
	"evolved/game/xiangqi"
)

// xiangqiHidden is the default xiangqi architecture's hidden layers: 1260-32-8-1.
var xiangqiHidden = []int{32, 8}

// xiangqiExtras turns on every extra a xiangqi net can use.
const xiangqiExtras = PieceDiff | SelfAdaptive | EvolvePieceValues | EvolvePST | EvolveTerms

// xiangqiHandFEN is a position worked out by hand in the tests: Black's
// general d10, advisor e9, chariot b8 and soldier c6; Red's horse g4,
// cannon e3, advisor e2, elephant c1 and general e1.
const xiangqiHandFEN = "3k5/4a4/1r7/9/2p6/9/6N2/4C4/4A4/2B1K4 w - - 0 1"

// xiangqiTestNet returns a random xiangqi net; with EvolvePieceValues or
// EvolvePST it is mutated once, so that its piece values and tables are
// not round numbers.
func xiangqiTestNet(t testing.TB, hidden []int, flags Flags, seed uint64) *Net {
	t.Helper()
	rng := newRNG(seed)
	n, err := Random(XiangqiSizes(hidden...), flags, rng)
	if err != nil {
		t.Fatal(err)
	}
	if flags&(EvolvePieceValues|EvolvePST) != 0 {
		n = n.Mutated(rng)
	}
	return n
}

// xiangqiTestEval returns the evaluator of xiangqiTestNet(xiangqiHidden, flags, seed).
func xiangqiTestEval(t testing.TB, flags Flags, seed uint64) *XiangqiEval {
	t.Helper()
	e, err := NewXiangqiEval(xiangqiTestNet(t, xiangqiHidden, flags, seed))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// xiangqiReference evaluates p with the plain definition: the 1260 inputs,
// Net.Forward, the material with the net's piece values and, with
// EvolvePST, the tables read from the inputs.
//
// With Perspective, the net's part is its quantized value from scratch
// (QuantizedPerspective.EvaluateXiangqi, which
// TestXiangqiPerspectiveQuantization holds to the float definition) for
// the side to move, negated for the other.
func xiangqiReference(n *Net, p xiangqi.Position, pov game.Player) float64 {
	m := XiangqiMaterial(p, pov, n.XiangqiPieceValues())
	inputs := XiangqiInputs(nil, p, pov)
	var v float64
	if n.Flags()&Perspective != 0 {
		v = m + xiangqiPerspectivePawns(n, p, pov)
	} else {
		v = m + XiangqiNetWeight*n.Forward(nil, inputs, m)[0]
	}
	if t, ok := n.XiangqiPST(); ok {
		// pov's piece on (its) point s adds t[pt][s]; the opponent's on
		// pov's point s sits on its own point 9-rank, the same file.
		pst := 0.0
		for i, x := range inputs {
			if x == 0 {
				continue
			}
			side, pt, s := i/630, i%630/90, i%90
			if side == 0 {
				pst += t[XiangqiPSTIndex(xiangqi.PieceType(pt), xiangqi.Square(s))]
			} else {
				own := (9-s/9)*9 + s%9
				pst -= t[XiangqiPSTIndex(xiangqi.PieceType(pt), xiangqi.Square(own))]
			}
		}
		v += pst
	}
	if terms := n.XiangqiTerms(); n.Flags()&EvolveTerms != 0 {
		// Counted point by point, not with Position.Activity.
		f, units := naiveXiangqiTermFeatures(p, pov), XiangqiTermUnits()
		for i := range f {
			v += terms[i] * units[i] * float64(f[i])
		}
	}
	return v
}

// parseXiangqi parses a FEN or fails the test.
func parseXiangqi(t testing.TB, fen string) xiangqi.Position {
	t.Helper()
	p, err := xiangqi.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// randomXiangqiGames returns count random games from the start position,
// each the list of its positions, at most plies plies. Half the moves are
// captures when there are any, so that material changes often.
func randomXiangqiGames(seed uint64, count, plies int) [][]xiangqi.Position {
	rng := newRNG(seed)
	var games [][]xiangqi.Position
	buf := make([]xiangqi.Move, 0, xiangqi.MaxMoves)
	for range count {
		g := []xiangqi.Position{xiangqi.Start()}
		for len(g) <= plies {
			p := g[len(g)-1]
			buf = p.LegalMoves(buf[:0])
			if len(buf) == 0 {
				break
			}
			g = append(g, p.Play(pickXiangqiMove(rng, buf)))
		}
		games = append(games, g)
	}
	return games
}

// pickXiangqiMove returns a random move of moves, half the time a capture
// if there is one.
func pickXiangqiMove(rng *rand.Rand, moves []xiangqi.Move) xiangqi.Move {
	if rng.IntN(2) == 0 {
		n := 0
		for _, m := range moves {
			if m.IsCapture() {
				n++
			}
		}
		if n > 0 {
			k := rng.IntN(n)
			for _, m := range moves {
				if m.IsCapture() {
					if k == 0 {
						return m
					}
					k--
				}
			}
		}
	}
	return moves[rng.IntN(len(moves))]
}

// randomXiangqiPositions returns count positions from random games, about
// one ply in eight.
func randomXiangqiPositions(rng *rand.Rand, count int) []xiangqi.Position {
	var out []xiangqi.Position
	buf := make([]xiangqi.Move, 0, xiangqi.MaxMoves)
	for len(out) < count {
		p := xiangqi.Start()
		for ply := 0; ply < 200 && len(out) < count; ply++ {
			buf = p.LegalMoves(buf[:0])
			if len(buf) == 0 {
				break
			}
			p = p.Play(pickXiangqiMove(rng, buf))
			if rng.IntN(8) == 0 {
				out = append(out, p)
			}
		}
	}
	return out
}

// xiangqiWalk plays random legal moves from the start position, on a
// xiangqi.Game too, pushing each position on acc (with Push, PushMove or
// PushPlayed of the game's position, at random) and popping at
// random (and at the end of a game or beyond maxDepth), for steps steps
// per game. After every Reset, push and Pop it calls check with the path's
// current position. It returns the number of moves and of captures played.
func xiangqiWalk(rng *rand.Rand, acc *XiangqiAccumulator, games, steps, maxDepth int, check func(p xiangqi.Position)) (moves, captures int) {
	buf := make([]xiangqi.Move, 0, xiangqi.MaxMoves)
	for range games {
		path := []xiangqi.Position{xiangqi.Start()}
		played := xiangqi.NewGame(path[0], xiangqi.DefaultRules())
		acc.Reset(path[0])
		check(path[0])
		for range steps {
			top := path[len(path)-1]
			buf = top.LegalMoves(buf[:0])
			if len(path) > 1 && (len(buf) == 0 || len(path) > maxDepth || rng.IntN(4) == 0) {
				acc.Pop()
				played.Unmake()
				path = path[:len(path)-1]
			} else if len(buf) > 0 {
				m := pickXiangqiMove(rng, buf)
				moves++
				if m.IsCapture() {
					captures++
				}
				p := top.Play(m)
				played.Make(m)
				switch rng.IntN(3) {
				case 0:
					acc.Push(p)
				case 1:
					acc.PushMove(m)
				default:
					acc.PushPlayed(played.Current(), m)
				}
				path = append(path, p)
			}
			check(path[len(path)-1])
		}
	}
	return moves, captures
}

// mirrorXiangqi returns p with the board mirrored vertically and the
// colours swapped (and the side to move), built by rewriting its FEN.
func mirrorXiangqi(t testing.TB, p xiangqi.Position) xiangqi.Position {
	t.Helper()
	f := strings.Fields(p.FEN())
	ranks := strings.Split(f[0], "/")
	slices.Reverse(ranks)
	board := []byte(strings.Join(ranks, "/"))
	for i, c := range board {
		switch {
		case c >= 'a' && c <= 'z':
			board[i] = c - 'a' + 'A'
		case c >= 'A' && c <= 'Z':
			board[i] = c - 'A' + 'a'
		}
	}
	f[0], f[1] = string(board), map[string]string{"w": "b", "b": "w"}[f[1]]
	q, err := xiangqi.ParseFEN(strings.Join(f, " "))
	if err != nil {
		t.Fatalf("mirror of %s: %v", p.FEN(), err)
	}
	return q
}

// activeInputs returns the indices of the inputs that are 1, in order,
// and fails the test if any input is neither 0 nor 1.
func activeInputs(t *testing.T, in []float64) []int {
	t.Helper()
	var ones []int
	for i, v := range in {
		switch v {
		case 1:
			ones = append(ones, i)
		case 0:
		default:
			t.Fatalf("input %d = %v", i, v)
		}
	}
	return ones
}

// TestXiangqiInputsHandComputed checks the encoding on positions worked
// out by hand: every input that is 1, for both points of view.
func TestXiangqiInputsHandComputed(t *testing.T) {
	for _, c := range []struct {
		name string
		fen  string
		pov  game.Player
		ones []int // every input that is 1, in order
	}{
		// Red's view, as the board is (index side*630 + type*90 + point):
		// own general e1 (4) = 4, advisor e2 (13) = 90+13, elephant c1 (2)
		// = 180+2, horse g4 (33) = 270+33, cannon e3 (22) = 450+22; the
		// opponent's general d10 (84) = 630+84, advisor e9 (76) =
		// 630+90+76, chariot b8 (64) = 630+360+64, soldier c6 (47) =
		// 630+540+47.
		{"hand, red", xiangqiHandFEN, xiangqi.Red, []int{4, 103, 182, 303, 472, 714, 796, 1054, 1217}},
		// Black's view, mirrored (rank r -> 9-r): own general d10 on d1
		// (3) = 3, advisor e9 on e2 (13) = 90+13, chariot b8 on b3 (19) =
		// 360+19, soldier c6 on c5 (38) = 540+38; the opponent's general
		// e1 on e10 (85) = 630+85, advisor e2 on e9 (76) = 630+90+76,
		// elephant c1 on c10 (83) = 630+180+83, horse g4 on g7 (60) =
		// 630+270+60, cannon e3 on e8 (67) = 630+450+67.
		{"hand, black", xiangqiHandFEN, xiangqi.Black, []int{3, 103, 379, 578, 715, 796, 893, 960, 1147}},
		// The start position looks the same to both sides: own chariots
		// a1, i1 (360, 368), horses b1, h1 (271, 277), elephants c1, g1
		// (182, 186), advisors d1, f1 (93, 95), general e1 (4), cannons b3,
		// h3 (469, 475), soldiers a4, c4, e4, g4, i4 (567, 569, 571, 573,
		// 575); the opponent's the same on rank 10, 9-r for the others,
		// plus 630.
		{"start, red", xiangqi.StartFEN, xiangqi.Red, startInputs()},
		{"start, black", xiangqi.StartFEN, xiangqi.Black, startInputs()},
	} {
		in := XiangqiInputs(nil, parseXiangqi(t, c.fen), c.pov)
		if len(in) != NumXiangqiInputs {
			t.Fatalf("%s: %d inputs, want %d", c.name, len(in), NumXiangqiInputs)
		}
		if got := activeInputs(t, in); !slices.Equal(got, c.ones) {
			t.Errorf("%s: inputs %v are 1, want %v", c.name, got, c.ones)
		}
	}
	// The index function and the prefix of XiangqiInputs.
	if got := XiangqiInputIndex(1, xiangqi.Soldier, 47); got != 1217 {
		t.Errorf("XiangqiInputIndex(1, Soldier, c6) = %d, want 1217", got)
	}
	if in := XiangqiInputs([]float64{7}, xiangqi.Start(), xiangqi.Red); len(in) != 1+NumXiangqiInputs || in[0] != 7 || in[1+4] != 1 {
		t.Errorf("XiangqiInputs does not append")
	}
}

// startInputs returns the inputs that are 1 in the start position for
// either side, worked out by hand (see TestXiangqiInputsHandComputed).
func startInputs() []int {
	own := []int{
		4,      // general e1
		93, 95, // advisors d1, f1
		182, 186, // elephants c1, g1
		271, 277, // horses b1, h1
		360, 368, // chariots a1, i1
		469, 475, // cannons b3, h3
		567, 569, 571, 573, 575, // soldiers a4 .. i4
	}
	var ones []int
	ones = append(ones, own...)
	for _, i := range own {
		pt, s := i/90, i%90
		s = (9-s/9)*9 + s%9
		ones = append(ones, 630+pt*90+s)
	}
	slices.Sort(ones)
	return ones
}

// TestXiangqiMaterialHandComputed checks the material balance with the
// classic values on positions counted by hand.
func TestXiangqiMaterialHandComputed(t *testing.T) {
	classic := ClassicXiangqiPieceValues()
	if classic != [NumXiangqiPieceValues]float64{1.1, 1.1, 3, 6, 5, 0.7} {
		t.Fatalf("ClassicXiangqiPieceValues = %v", classic)
	}
	for _, c := range []struct {
		fen  string
		want float64 // for Red
	}{
		{xiangqi.StartFEN, 0},
		// Red: advisor, elephant, horse, cannon; Black: advisor, chariot,
		// soldier. 1.1 + 3 + 5 - 6 - 0.7 = 2.4.
		{xiangqiHandFEN, 2.4},
		// Red a chariot up, generals alone otherwise.
		{"3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", 6},
		// The start position without Black's left chariot, Red's right
		// cannon and two Red soldiers: 6 - 5 - 2*0.7 = -0.4.
		{"1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/4P1P1P/1C7/9/RNBAKABNR b - - 0 1", -0.4},
	} {
		p := parseXiangqi(t, c.fen)
		red, black := XiangqiMaterial(p, xiangqi.Red, classic), XiangqiMaterial(p, xiangqi.Black, classic)
		if math.Abs(red-c.want) > 1e-12 || black != -red {
			t.Errorf("%s: material %v for Red, %v for Black; want %v", c.fen, red, black, c.want)
		}
	}
	// Other values: each type counted with its own value.
	v := [NumXiangqiPieceValues]float64{1, 10, 100, 1000, 10000, 100000}
	if got := XiangqiMaterial(parseXiangqi(t, xiangqiHandFEN), xiangqi.Red, v); got != 10+100-1000+10000-100000 {
		t.Errorf("hand position with values %v: %v", v, got)
	}
}

// TestXiangqiEvalMatchesReference checks whole evaluations (sparse rounded
// columns, material) against the plain reference, with and without the
// extras, for both points of view, and the first-layer sums to their rounding.
func TestXiangqiEvalMatchesReference(t *testing.T) {
	positions := append(randomXiangqiPositions(newRNG(301), 300), xiangqi.Start(), parseXiangqi(t, xiangqiHandFEN))
	for _, flags := range []Flags{0, xiangqiExtras} {
		e := xiangqiTestEval(t, flags, 302)
		n := e.Net()
		acc, scanned := make([]int32, e.stride), make([]int32, e.stride)
		for _, p := range positions {
			for pov := xiangqi.Red; pov <= xiangqi.Black; pov++ {
				in := XiangqiInputs(nil, p, pov)
				var b xiangqiBoard
				b.read(&p)
				e.refresh(acc, &b, pov)
				// The two from-scratch paths agree exactly.
				if bal := e.scan(scanned, &p, pov); !slices.Equal(acc, scanned) || bal != b.balance {
					t.Fatalf("%s, pov %v: scan %v %v, refresh of the board %v %v", p.FEN(), pov, scanned, bal, acc, b.balance)
				}
				for h := range e.h1 {
					want := dot(n.w[n.WeightIndex(1, h, 0):][:NumXiangqiInputs], in)
					if math.Abs(sumOf(&e.head, acc, h)-want) > sumTolerance(&e.head, h) {
						t.Fatalf("flags %v, %s, pov %v: sum %d = %v, want %v", flags, p.FEN(), pov, h, sumOf(&e.head, acc, h), want)
					}
				}
				if got, want := b.balance.material(pov, &e.values), XiangqiMaterial(p, pov, e.values); got != want {
					t.Fatalf("%s, pov %v: material %v, XiangqiMaterial %v", p.FEN(), pov, got, want)
				}
				got, want := e.Evaluate(p, pov), xiangqiReference(n, p, pov)
				if math.Abs(got-want) > evalTolerance {
					t.Fatalf("flags %v, %s, pov %v: Evaluate = %v, reference %v", flags, p.FEN(), pov, got, want)
				}
			}
		}
	}
}

// TestXiangqiMirror checks that a position and its colour-flipped mirror
// look the same to the opposite players: same inputs, same value, bit for
// bit.
func TestXiangqiMirror(t *testing.T) {
	e := xiangqiTestEval(t, xiangqiExtras, 311)
	positions := append(randomXiangqiPositions(newRNG(312), 300), parseXiangqi(t, xiangqiHandFEN))
	for _, p := range positions {
		q := mirrorXiangqi(t, p)
		if back := mirrorXiangqi(t, q); back != p {
			t.Fatalf("mirroring %s twice gives %s", p.FEN(), back.FEN())
		}
		for pov := xiangqi.Red; pov <= xiangqi.Black; pov++ {
			if a, b := XiangqiInputs(nil, p, pov), XiangqiInputs(nil, q, pov^1); !slices.Equal(a, b) {
				t.Fatalf("%s pov %v: inputs differ from the mirror's %s", p.FEN(), pov, q.FEN())
			}
			if a, b := e.Evaluate(p, pov), e.Evaluate(q, pov^1); math.Float64bits(a) != math.Float64bits(b) {
				t.Fatalf("%s pov %v: Evaluate = %v, mirror %s: %v", p.FEN(), pov, a, q.FEN(), b)
			}
			// The net is not antisymmetric; the material is.
			if a, b := XiangqiMaterial(p, pov, e.values), XiangqiMaterial(p, pov^1, e.values); a != -b {
				t.Fatalf("%s: material %v for pov %v, %v for the other", p.FEN(), a, pov, b)
			}
		}
	}
	// The start position is its own mirror but for the side to move (the
	// tempo term counts it).
	p := xiangqi.Start()
	if a, b := e.Evaluate(p, xiangqi.Red), e.Evaluate(mirrorXiangqi(t, p), xiangqi.Black); a != b {
		t.Errorf("start: Evaluate(Red) = %v, with Black to move Evaluate(Black) = %v", a, b)
	}
}

// TestXiangqiGenerationZeroPrefersMaterial checks that random nets of
// generation 0 value a chariot up above 5 pawns, and order positions by
// classic material whenever it differs by more than 2*XiangqiNetWeight.
func TestXiangqiGenerationZeroPrefersMaterial(t *testing.T) {
	chariotUp := parseXiangqi(t, "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
	positions := randomXiangqiPositions(newRNG(321), 200)
	classic := round32Values(ClassicXiangqiPieceValues()) // Random's values are float32s
	for seed := range uint64(12) {
		flags := []Flags{0, xiangqiExtras, PieceDiff}[seed%3]
		n, err := RandomXiangqi(xiangqiHidden, flags, newRNG(seed))
		if err != nil {
			t.Fatal(err)
		}
		if n.XiangqiPieceValues() != classic {
			t.Fatalf("generation 0 piece values %v, want %v", n.XiangqiPieceValues(), classic)
		}
		e, err := NewXiangqiEval(n)
		if err != nil {
			t.Fatal(err)
		}
		if v := e.Evaluate(chariotUp, xiangqi.Red); v <= 5 {
			t.Errorf("seed %d: a chariot up = %v for Red, want > 5", seed, v)
		}
		if v := e.Evaluate(chariotUp, xiangqi.Black); v >= -5 {
			t.Errorf("seed %d: a chariot down = %v for Black, want < -5", seed, v)
		}
		for i := 1; i < len(positions); i++ {
			p, q := positions[i-1], positions[i]
			mp, mq := XiangqiMaterial(p, p.Side(), classic), XiangqiMaterial(q, q.Side(), classic)
			vp, vq := e.Evaluate(p, p.Side()), e.Evaluate(q, q.Side())
			if mp > mq+2*XiangqiNetWeight && vp <= vq || mq > mp+2*XiangqiNetWeight && vq <= vp {
				t.Fatalf("seed %d: material %v vs %v, values %v vs %v", seed, mp, mq, vp, vq)
			}
		}
	}
}

// TestXiangqiPieceValues checks the genome's xiangqi piece values: their
// number and place in storage, New's and Random's starting values and draw
// count, the accessors and their refusals, and that the evaluator counts
// with them.
func TestXiangqiPieceValues(t *testing.T) {
	n, err := New(XiangqiSizes(32, 8), PieceDiff|EvolvePieceValues)
	if err != nil {
		t.Fatal(err)
	}
	k := n.NumWeights()
	if want := 1260*32 + 32 + 32*8 + 8 + 8 + 1 + 1 + NumXiangqiPieceValues; k != want {
		t.Fatalf("NumWeights = %d, want %d", k, want)
	}
	if n.DirectIndex(0) != n.BiasIndex(3, 0)+1 || n.PieceValueIndex(0) != n.DirectIndex(0)+1 || n.PieceValueIndex(5) != k-1 {
		t.Errorf("direct weight at %d, piece values at %d..%d of %d", n.DirectIndex(0), n.PieceValueIndex(0), n.PieceValueIndex(5), k)
	}
	if n.XiangqiPieceValues() != ClassicXiangqiPieceValues() || n.Weights()[n.PieceValueIndex(3)] != 6 {
		t.Errorf("New: piece values %v, want %v", n.XiangqiPieceValues(), ClassicXiangqiPieceValues())
	}
	// Chess and draughts nets keep five values.
	for _, sizes := range [][]int{ChessSizes(32, 8), draughtsSizes} {
		c, err := New(sizes, EvolvePieceValues)
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := New(sizes, 0)
		if c.NumWeights() != plain.NumWeights()+NumPieceValues || c.PieceValues() != ClassicPieceValues() {
			t.Errorf("%v: %d weights (%d without piece values), piece values %v", sizes, c.NumWeights(), plain.NumWeights(), c.PieceValues())
		}
	}
	// Random draws one value per weight but the piece values.
	rng, replay := newRNG(331), newRNG(331)
	r, err := RandomXiangqi(xiangqiHidden, 0, rng)
	if err != nil {
		t.Fatal(err)
	}
	if r.Flags() != EvolvePieceValues || r.XiangqiPieceValues() != round32Values(ClassicXiangqiPieceValues()) {
		t.Fatalf("RandomXiangqi: flags %v, piece values %v", r.Flags(), r.XiangqiPieceValues())
	}
	for range r.NumWeights() - NumXiangqiPieceValues {
		replay.Float64()
	}
	if rng.Uint64() != replay.Uint64() {
		t.Error("RandomXiangqi did not draw NumWeights-NumXiangqiPieceValues values")
	}
	// Without the flag: classic values, fixed.
	plain := xiangqiTestNet(t, xiangqiHidden, 0, 332)
	if plain.XiangqiPieceValues() != ClassicXiangqiPieceValues() || plain.Mutated(newRNG(1)).XiangqiPieceValues() != ClassicXiangqiPieceValues() {
		t.Error("a net without EvolvePieceValues has non-classic piece values")
	}
	// Refusals: the wrong flags, values or game.
	if _, err := plain.WithXiangqiPieceValues(ClassicXiangqiPieceValues()); !errors.Is(err, ErrArchitecture) {
		t.Errorf("WithXiangqiPieceValues without the flag: error %v, want ErrArchitecture", err)
	}
	if _, err := r.WithXiangqiPieceValues([6]float64{1, 1, 3, math.Inf(1), 5, 1}); !errors.Is(err, ErrValue) {
		t.Errorf("WithXiangqiPieceValues(Inf): error %v, want ErrValue", err)
	}
	if _, err := r.WithPieceValues(ClassicPieceValues()); !errors.Is(err, ErrArchitecture) {
		t.Errorf("WithPieceValues of a xiangqi net: error %v, want ErrArchitecture", err)
	}
	chessNet, _ := RandomChess(chessHidden, 0, newRNG(333))
	if _, err := chessNet.WithXiangqiPieceValues(ClassicXiangqiPieceValues()); !errors.Is(err, ErrArchitecture) {
		t.Errorf("WithXiangqiPieceValues of a chess net: error %v, want ErrArchitecture", err)
	}
	for name, f := range map[string]func(){
		"PieceValues of a xiangqi net":       func() { r.PieceValues() },
		"XiangqiPieceValues of a chess net":  func() { chessNet.XiangqiPieceValues() },
		"XiangqiPieceValues of a plain net":  func() { testNet(t, draughtsSizes, 0, 1).XiangqiPieceValues() },
		"PieceValues of a plain xiangqi net": func() { plain.PieceValues() },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
	// The evaluator counts with them: a horse worth 10 pawns.
	v := [NumXiangqiPieceValues]float64{1.1, 1.1, 10, 6, 5, 0.7}
	r10, err := r.WithXiangqiPieceValues(v)
	if err != nil || r10.XiangqiPieceValues() != v || r.XiangqiPieceValues() != round32Values(ClassicXiangqiPieceValues()) {
		t.Fatalf("WithXiangqiPieceValues: %v, %v; receiver %v", r10.XiangqiPieceValues(), err, r.XiangqiPieceValues())
	}
	horseUp := parseXiangqi(t, "r1bakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
	e3, _ := NewXiangqiEval(r)
	e10, _ := NewXiangqiEval(r10)
	if e10.PieceValues() != v {
		t.Errorf("XiangqiEval.PieceValues = %v, want %v", e10.PieceValues(), v)
	}
	if a, b := e3.Evaluate(horseUp, xiangqi.Red), e10.Evaluate(horseUp, xiangqi.Red); a < 2 || a > 4 || b < 9 || b > 11 {
		t.Errorf("a horse up = %v with a horse of 3, %v with one of 10", a, b)
	}
}

// TestXiangqiPieceValuesEvolve checks that mutation moves the six piece
// values like any weight (uniform, or self-adaptive with their own
// sigmas) and no further, that crossover leaves them with the parent the
// child copies, and that both codecs carry them exactly.
func TestXiangqiPieceValuesEvolve(t *testing.T) {
	for _, flags := range []Flags{EvolvePieceValues, xiangqiExtras} {
		parent, err := RandomXiangqi(xiangqiHidden, flags, newRNG(341))
		if err != nil {
			t.Fatal(err)
		}
		child := parent.Mutated(newRNG(342))
		pv, cv := parent.XiangqiPieceValues(), child.XiangqiPieceValues()
		step := MutationStep(parent.NumWeights())
		for i := range pv {
			d := cv[i] - pv[i]
			if d == 0 || math.Abs(d) > 0.5 || flags&SelfAdaptive == 0 && math.Abs(d) > step {
				t.Errorf("flags %v: piece value %d: %v -> %v (step %v)", flags, i, pv[i], cv[i], step)
			}
		}
		if flags&SelfAdaptive == 0 {
			// The piece values take the last NumXiangqiPieceValues draws.
			replay := newRNG(342)
			for range parent.NumWeights() - NumXiangqiPieceValues {
				replay.Float64()
			}
			for i := range pv {
				m := float64(replay.Float64()*2) - 1
				if want := float64(float32(pv[i] + float64(m*step))); cv[i] != want {
					t.Errorf("piece value %d = %v, want %v", i, cv[i], want)
				}
			}
		} else if s := child.Sigmas()[child.PieceValueIndex(5)]; s == DefaultSigma {
			t.Errorf("the soldier's sigma did not mutate: %v", s)
		}
		// Many generations of mutation keep them finite and near their start.
		drift := child
		for i := range 50 {
			drift = drift.Mutated(newRNG(uint64(1000 + i)))
		}
		for i, v := range drift.XiangqiPieceValues() {
			if math.IsNaN(v) || math.Abs(v-pv[i]) > 3 {
				t.Errorf("flags %v: piece value %d drifted from %v to %v in 51 mutations", flags, i, pv[i], v)
			}
		}

		// Crossover: the piece values come with the copied parent, at
		// every hidden node.
		other, _ := RandomXiangqi(xiangqiHidden, flags, newRNG(343))
		other = other.Mutated(newRNG(344))
		for i := range child.HiddenNodes() {
			node := child.HiddenNode(i)
			c1, c2, err := CrossoverAt(child, other, node)
			if err != nil {
				t.Fatal(err)
			}
			if c1.XiangqiPieceValues() != child.XiangqiPieceValues() || c2.XiangqiPieceValues() != other.XiangqiPieceValues() {
				t.Fatalf("crossover at %v: piece values %v and %v, want %v and %v",
					node, c1.XiangqiPieceValues(), c2.XiangqiPieceValues(), child.XiangqiPieceValues(), other.XiangqiPieceValues())
			}
		}
		c1, _, _, err := Crossover(child, other, newRNG(345))
		if err != nil {
			t.Fatal(err)
		}

		// Codecs.
		b, err := c1.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var fromBinary, fromJSON Net
		if err := fromBinary.UnmarshalBinary(b); err != nil || !fromBinary.Equal(c1) || fromBinary.XiangqiPieceValues() != c1.XiangqiPieceValues() {
			t.Fatalf("flags %v: binary round trip: %v", flags, err)
		}
		read, err := ReadNet(bytes.NewReader(b))
		if err != nil || !read.Equal(c1) {
			t.Fatalf("flags %v: ReadNet: %v", flags, err)
		}
		j, err := json.Marshal(c1)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(j, []byte(`"evolve-piece-values"`)) || !bytes.Contains(j, []byte(`"sizes":[1260,32,8,1]`)) {
			t.Errorf("JSON: %s", j[:120])
		}
		if err := json.Unmarshal(j, &fromJSON); err != nil || !fromJSON.Equal(c1) || fromJSON.XiangqiPieceValues() != c1.XiangqiPieceValues() {
			t.Fatalf("flags %v: JSON round trip: %v", flags, err)
		}
		// A xiangqi genome with five piece values (as a chess one has) is
		// corrupt, in either format.
		var short Net
		if err := short.UnmarshalBinary(withWeightCount(t, b, c1.NumWeights()-1)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("binary xiangqi net one weight short: error %v, want ErrCorrupt", err)
		}
		var jj map[string]any
		if err := json.Unmarshal(j, &jj); err != nil {
			t.Fatal(err)
		}
		jj["weights"] = jj["weights"].([]any)[1:]
		if flags&SelfAdaptive != 0 {
			jj["sigmas"] = jj["sigmas"].([]any)[1:]
		}
		js, _ := json.Marshal(jj)
		if err := short.UnmarshalJSON(js); !errors.Is(err, ErrCorrupt) {
			t.Errorf("JSON xiangqi net one weight short: error %v, want ErrCorrupt", err)
		}

		e1, _ := NewXiangqiEval(c1)
		e2, _ := NewXiangqiEval(&fromJSON)
		e3, _ := NewXiangqiEval(&fromBinary)
		for _, p := range randomXiangqiPositions(newRNG(346), 5) {
			a, b, c := e1.Evaluate(p, xiangqi.Red), e2.Evaluate(p, xiangqi.Red), e3.Evaluate(p, xiangqi.Red)
			if math.Float64bits(a) != math.Float64bits(b) || math.Float64bits(a) != math.Float64bits(c) {
				t.Errorf("decoded nets evaluate %v (JSON), %v (binary), original %v", b, c, a)
			}
		}
	}
}

// withWeightCount returns the binary net b with its weights cut to count,
// the header and the checksum rewritten to match: well-framed, but with the
// wrong number of weights for its architecture.
func withWeightCount(t *testing.T, b []byte, count int) []byte {
	t.Helper()
	var n Net
	if err := n.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	width := 8
	if n.Float32Exact() {
		width = 4
	}
	head := 12 + 4*len(n.sizes) + width
	out := append([]byte(nil), b[:head]...)
	out = append(out, byte(count), byte(count>>8), byte(count>>16), byte(count>>24))
	out = append(out, b[head+4:head+4+width*count]...)
	if n.sigma != nil {
		sigmas := head + 4 + width*len(n.w)
		out = append(out, b[sigmas:sigmas+width*count]...)
	}
	return withCRC(append(out, 0, 0, 0, 0))
}

// TestNewXiangqiEvalErrors checks that nets of the wrong shape are
// refused, and that other shapes evaluate like the reference.
func TestNewXiangqiEvalErrors(t *testing.T) {
	for _, sizes := range [][]int{{1259, 32, 8, 1}, {1260, 32, 2}, ChessSizes(32, 8), draughtsSizes} {
		n, err := New(sizes, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewXiangqiEval(n); !errors.Is(err, ErrArchitecture) {
			t.Errorf("NewXiangqiEval(%v) error = %v, want ErrArchitecture", sizes, err)
		}
	}
	for _, hidden := range [][]int{nil, {100, 70}, {16}} {
		n := xiangqiTestNet(t, hidden, xiangqiExtras, 351)
		e, err := NewXiangqiEval(n)
		if err != nil {
			t.Fatalf("NewXiangqiEval(%v): %v", n.Sizes(), err)
		}
		for _, p := range randomXiangqiPositions(newRNG(352), 30) {
			if got, want := e.Evaluate(p, p.Side()), xiangqiReference(n, p, p.Side()); math.Abs(got-want) > evalTolerance {
				t.Fatalf("%v: Evaluate = %v, reference %v", n.Sizes(), got, want)
			}
		}
	}
}

// TestXiangqiAccumulatorMatchesFromScratch walks seeded random games from
// the start position (half the moves captures where there are any) and,
// after every push and every pop, compares the incremental value for both
// points of view (in random order) with the from-scratch one, which must
// be identical, and with the plain reference to evalTolerance. The walks go deeper
// than 128 plies, so the stack grows.
func TestXiangqiAccumulatorMatchesFromScratch(t *testing.T) {
	games, steps := 24, 700
	if testing.Short() {
		games = 6
	}
	for _, c := range []struct {
		hidden []int
		flags  Flags
	}{{xiangqiHidden, 0}, {xiangqiHidden, xiangqiExtras}, {[]int{48}, xiangqiPerspectiveExtras}, {[]int{16}, Perspective}} {
		flags := c.flags
		e, err := NewXiangqiEval(xiangqiTestNet(t, c.hidden, flags, 361))
		if err != nil {
			t.Fatal(err)
		}
		acc := e.NewAccumulator()
		rng := newRNG(362)
		checks := 0
		moves, captures := xiangqiWalk(rng, acc, games, steps, 300, func(p xiangqi.Position) {
			if acc.Position() != p {
				t.Fatalf("Position() = %s, want %s", acc.Position().FEN(), p.FEN())
			}
			var b xiangqiBoard
			if b.read(&p); *acc.board(acc.top) != b {
				t.Fatalf("%s: board %+v, read %+v", p.FEN(), *acc.board(acc.top), b)
			}
			first := game.Player(rng.IntN(2))
			for _, pov := range []game.Player{first, first ^ 1} {
				got, want := acc.Evaluate(pov), e.Evaluate(p, pov)
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("flags %v, ply %d, %s, pov %v: incremental %v, from scratch %v", flags, acc.Ply(), p.FEN(), pov, got, want)
				}
				if ref := xiangqiReference(e.Net(), p, pov); math.Abs(got-ref) > evalTolerance {
					t.Fatalf("flags %v, ply %d, %s, pov %v: incremental %v, reference %v", flags, acc.Ply(), p.FEN(), pov, got, ref)
				}
				checks++
			}
		})
		if checks < 2*games*steps || captures < moves/20 {
			t.Errorf("%d checks, %d moves, %d captures: want more", checks, moves, captures)
		}
		t.Logf("flags %v: %d checks, %d moves, %d captures", flags, checks, moves, captures)
	}
}

// TestXiangqiAccumulatorLazy evaluates only now and then, one point of
// view at a time, so that updates start from ancestors several plies up
// and from plies computed for the other point of view only, and boards are
// derived along several PushMoves at once.
func TestXiangqiAccumulatorLazy(t *testing.T) {
	for _, e := range []*XiangqiEval{xiangqiTestEval(t, xiangqiExtras, 371), xiangqiPerspectiveEval(t, 371)} {
		xiangqiAccumulatorLazy(t, e)
	}
}

// xiangqiAccumulatorLazy is TestXiangqiAccumulatorLazy with e.
func xiangqiAccumulatorLazy(t *testing.T, e *XiangqiEval) {
	acc := e.NewAccumulator()
	rng := newRNG(372)
	xiangqiWalk(rng, acc, 10, 600, 200, func(p xiangqi.Position) {
		if rng.IntN(5) != 0 {
			return
		}
		pov := game.Player(rng.IntN(2))
		if got, want := acc.Evaluate(pov), e.Evaluate(p, pov); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("ply %d, pov %v: incremental %v, from scratch %v", acc.Ply(), pov, got, want)
		}
		// The board, derived along several PushMoves or read.
		var b xiangqiBoard
		if b.read(&p); acc.pos[acc.top].board != b {
			t.Fatalf("%s: board %+v, read %+v", p.FEN(), acc.pos[acc.top].board, b)
		}
	})
}

// TestXiangqiAccumulatorUnrelated pushes unrelated positions far beyond
// the preallocated 128 plies and pops back, so updates also take the
// from-scratch branch and diffs of many points.
func TestXiangqiAccumulatorUnrelated(t *testing.T) {
	for _, e := range []*XiangqiEval{xiangqiTestEval(t, xiangqiExtras, 381), xiangqiPerspectiveEval(t, 381)} {
		xiangqiAccumulatorUnrelated(t, e)
	}
}

// xiangqiAccumulatorUnrelated is TestXiangqiAccumulatorUnrelated with e.
func xiangqiAccumulatorUnrelated(t *testing.T, e *XiangqiEval) {
	acc := e.NewAccumulator()
	rng := newRNG(382)
	path := randomXiangqiPositions(rng, 400)
	acc.Reset(path[0])
	for i, p := range path[1:] {
		acc.Push(p)
		if i%7 == 0 {
			pov := game.Player(rng.IntN(2))
			if got, want := acc.Evaluate(pov), e.Evaluate(p, pov); got != want {
				t.Fatalf("ply %d: incremental %v, from scratch %v", acc.Ply(), got, want)
			}
		}
	}
	for i := len(path) - 1; i >= 0; i-- {
		for pov := xiangqi.Red; pov <= xiangqi.Black; pov++ {
			if got, want := acc.Evaluate(pov), e.Evaluate(path[i], pov); got != want {
				t.Fatalf("ply %d: incremental %v, from scratch %v", i, got, want)
			}
		}
		if i > 0 {
			acc.Pop()
		}
	}
}

// TestXiangqiAccumulatorNoAllocs checks that Reset, Push, PushMove,
// Evaluate and Pop, and XiangqiEval.Evaluate, do not allocate.
func TestXiangqiAccumulatorNoAllocs(t *testing.T) {
	for _, e := range []*XiangqiEval{xiangqiTestEval(t, xiangqiExtras, 385), xiangqiPerspectiveEval(t, 385)} {
		xiangqiAccumulatorNoAllocs(t, e)
	}
}

// xiangqiAccumulatorNoAllocs is TestXiangqiAccumulatorNoAllocs with e.
func xiangqiAccumulatorNoAllocs(t *testing.T, e *XiangqiEval) {
	acc := e.NewAccumulator()
	positions := randomXiangqiGames(386, 1, 64)[0]
	buf := make([]xiangqi.Move, 0, xiangqi.MaxMoves)
	allocs := testing.AllocsPerRun(100, func() {
		acc.Reset(positions[0])
		for _, p := range positions[1:] {
			acc.Push(p)
			acc.Evaluate(p.Side())
			moves := p.LegalMoves(buf[:0])
			for _, m := range moves[:min(2, len(moves))] { // none when p is mate
				acc.PushMove(m)
				acc.Evaluate(p.Side())
				acc.Pop()
			}
		}
		for range positions[1:] {
			acc.Pop()
		}
		e.Evaluate(positions[0], xiangqi.Black)
	})
	if allocs != 0 {
		t.Errorf("%v: %v allocations per run, want 0", e.Net().Flags(), allocs)
	}
}

// TestXiangqiAccumulatorPopPanics checks that popping the root panics.
func TestXiangqiAccumulatorPopPanics(t *testing.T) {
	acc := xiangqiTestEval(t, 0, 387).NewAccumulator()
	acc.Reset(xiangqi.Start())
	defer func() {
		if recover() == nil {
			t.Error("Pop at the root did not panic")
		}
	}()
	acc.Pop()
}

// TestXiangqiEvalShared runs searches in several goroutines on one
// evaluator, each with its own accumulator (run with -race).
func TestXiangqiEvalShared(t *testing.T) {
	e := xiangqiTestEval(t, xiangqiExtras, 388)
	positions := randomXiangqiPositions(newRNG(389), 50)
	want := make([]float64, len(positions))
	for i, p := range positions {
		want[i] = e.Evaluate(p, p.Side())
	}
	done := make(chan error)
	for g := range 4 {
		go func() {
			acc := e.NewAccumulator()
			for i := range positions {
				j := (i + g*13) % len(positions)
				p := positions[j]
				acc.Reset(xiangqi.Start())
				acc.Push(p)
				if got := acc.Evaluate(p.Side()); got != want[j] {
					done <- fmt.Errorf("goroutine %d: %v, want %v", g, got, want[j])
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestXiangqiGoldenBits pins xiangqi results bit for bit, as
// TestGoldenBits does for draughts: the evaluations of a fixed seeded net
// on the start position and on xiangqiHandFEN for both sides, and the
// bytes of a xiangqi net made by RandomXiangqi, Mutated and Crossover. The
// constants were computed once on amd64, and checked with and without the
// AVX2 kernels (-tags purego).
func TestXiangqiGoldenBits(t *testing.T) {
	// The extras as they were when the constants were computed, before
	// EvolvePST took xiangqi nets: nets without tables keep their bits.
	e := xiangqiTestEval(t, PieceDiff|SelfAdaptive|EvolvePieceValues, 391)
	for _, c := range []struct {
		fen  string
		pov  game.Player
		want uint64
	}{
		{xiangqi.StartFEN, xiangqi.Red, 0x3fa32c14a0000000},   // 0.037445683032274246
		{xiangqi.StartFEN, xiangqi.Black, 0x3fa32c14a0000000}, // the same: the start is its own mirror
		{xiangqiHandFEN, xiangqi.Red, 0x4000d51e78000000},     // 2.104062020778656
		{xiangqiHandFEN, xiangqi.Black, 0xc002189708000000},   // -2.2620068192481995
	} {
		p := parseXiangqi(t, c.fen)
		if got := math.Float64bits(e.Evaluate(p, c.pov)); got != c.want {
			t.Errorf("%s, pov %v: Evaluate bits %#016x (%v), want %#016x", c.fen, c.pov, got, math.Float64frombits(got), c.want)
		}
	}
	a, err := RandomXiangqi(xiangqiHidden, PieceDiff|SelfAdaptive, newRNG(393))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := RandomXiangqi(xiangqiHidden, PieceDiff|SelfAdaptive, newRNG(394))
	child, _, _, err := Crossover(a.Mutated(newRNG(395)), b, newRNG(396))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := child.MarshalBinary()
	sum := sha256.Sum256(data)
	if got, want := hex.EncodeToString(sum[:]), "171a636d2bcb97367b6f35f3afa6524ef622894402448c375353a585c06ac9e8"; got != want {
		t.Errorf("SHA-256 of the child = %s, want %s", got, want)
	}
}

// round32Values returns the piece values rounded to float32, as Random
// rounds every value of a net it makes.
func round32Values(v [NumXiangqiPieceValues]float64) [NumXiangqiPieceValues]float64 {
	for i := range v {
		v[i] = round32(v[i])
	}
	return v
}
