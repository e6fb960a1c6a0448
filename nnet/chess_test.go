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

	"evolved/cputime"
	"evolved/game"
	"evolved/game/chess"
)

// chessHidden is the default chess architecture's hidden layers: 768-32-8-1.
var chessHidden = []int{32, 8}

// chessExtras turns on every extra a chess net can use.
const chessExtras = PieceDiff | SelfAdaptive | EvolvePieceValues | EvolvePST | EvolveTerms | EvolveMoreTerms

// chessTestNet returns a random chess net; with EvolvePieceValues it is
// mutated once, so that its piece values are not round numbers.
func chessTestNet(t testing.TB, hidden []int, flags Flags, seed uint64) *Net {
	t.Helper()
	rng := newRNG(seed)
	n, err := Random(ChessSizes(hidden...), flags, rng)
	if err != nil {
		t.Fatal(err)
	}
	if flags&(EvolvePieceValues|EvolvePST|EvolveTerms) != 0 {
		n = n.Mutated(rng)
	}
	return n
}

// chessTestEval returns the evaluator of chessTestNet(chessHidden, flags, seed).
func chessTestEval(t testing.TB, flags Flags, seed uint64) *ChessEval {
	t.Helper()
	e, err := NewChessEval(chessTestNet(t, chessHidden, flags, seed))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// chessReference evaluates p with the plain definition: the 768 inputs,
// Net.Forward and the material with the net's piece values.
//
// With Perspective, the net's part is its quantized value from scratch
// (QuantizedPerspective.Evaluate, which TestPerspectiveQuantization holds
// to the float definition) for the side to move, negated for the other.
func chessReference(n *Net, p chess.Position, pov game.Player) float64 {
	m := ChessMaterial(p, pov, n.PieceValues())
	inputs := ChessInputs(nil, p, pov)
	var v float64
	if n.Flags()&Perspective != 0 {
		v = m + perspectivePawns(n, p, pov)
	} else {
		v = m + ChessNetWeight*n.Forward(nil, inputs, m)[0]
	}
	if t, ok := n.PST(); ok {
		// From the inputs: pov's piece on (its) square s adds t[pt][s],
		// the opponent's on pov's square s sits on its own square s^56.
		pst := 0.0
		for i, x := range inputs {
			if x == 0 {
				continue
			}
			side, pt, s := i/384, i%384/64, i%64
			if side == 0 {
				pst += t[PSTIndex(pt, s)]
			} else {
				pst -= t[PSTIndex(pt, s^56)]
			}
		}
		v += pst
	}
	if n.Flags()&EvolveTerms != 0 {
		// Counted square by square, not with the evaluator's bitboards.
		f, w, units := naiveTermFeatures(p, pov), n.ChessTerms(), ChessTermUnits()
		for i := range f {
			v += w[i] * units[i] * float64(f[i])
		}
	}
	return v
}

// chessStart returns the standard start position for i == 0 and a random
// Chess960 one otherwise.
func chessStart(t testing.TB, rng *rand.Rand, i int) chess.Position {
	t.Helper()
	if i == 0 {
		return chess.Start()
	}
	p, err := chess.Chess960(rng.IntN(960))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// chessPusher is what chessWalk plays on: a ChessAccumulator or a
// PerspectiveAccumulator.
type chessPusher interface {
	Reset(p chess.Position)
	Push(p chess.Position)
	PushRef(p *chess.Position)
	Pop()
}

// moveKinds counts the kinds of moves a walk played.
type moveKinds struct{ moves, captures, promotions, castles, enPassant int }

// count records m, played in p.
func (k *moveKinds) count(p *chess.Position, m chess.Move) {
	k.moves++
	switch {
	case m.IsCastle():
		k.castles++
	case m.IsEnPassant():
		k.enPassant++
	case p.Occupied().Has(m.To()):
		k.captures++
	}
	if m.Promotion() != chess.NoPieceType {
		k.promotions++
	}
}

// chessWalk plays random legal moves from the standard and random Chess960
// start positions, pushing each position on acc and popping at random (and
// at the end of a game or beyond maxDepth), for steps steps per game. After
// every Reset, Push and Pop it calls check with the path's current position.
// Uniformly random play seldom castles or captures en passant, so half the
// time it plays one of the legal castlings, en passant captures, promotions
// and double pawn pushes, if there are any. It plays the moves on a
// chess.Game too, and pushes either a copy of the position (Push) or the
// game's own (PushRef), at random; the game's history grows past its
// first storage in walks deeper than 128 plies, which PushRef's pointers
// into the old storage must survive.
func chessWalk(t testing.TB, rng *rand.Rand, acc chessPusher, games, steps, maxDepth int, check func(p chess.Position)) moveKinds {
	var kinds moveKinds
	buf := make([]chess.Move, 0, chess.MaxMoves)
	special := make([]chess.Move, 0, chess.MaxMoves)
	for g := range games {
		path := []chess.Position{chessStart(t, rng, g)}
		played := chess.NewGame(path[0], chess.Rules{Chess960: !path[0].ClassicalCastling()})
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
				special = special[:0]
				for _, m := range buf {
					if m.IsCastle() || m.IsEnPassant() || m.IsDoublePush() || m.Promotion() != chess.NoPieceType {
						special = append(special, m)
					}
				}
				m := buf[rng.IntN(len(buf))]
				if len(special) > 0 && rng.IntN(2) == 0 {
					m = special[rng.IntN(len(special))]
				}
				kinds.count(&top, m)
				p := top.Play(m)
				played.Make(m)
				if *played.Current() != p {
					t.Fatalf("Game.Current() = %s after %v, want %s", played.Current().FEN(), m, p.FEN())
				}
				if rng.IntN(2) == 0 {
					acc.Push(p)
				} else {
					acc.PushRef(played.Current())
				}
				path = append(path, p)
			}
			check(path[len(path)-1])
		}
	}
	return kinds
}

// randomChessPositions returns count positions from random games started
// at the standard and random Chess960 start positions.
func randomChessPositions(t testing.TB, rng *rand.Rand, count int) []chess.Position {
	t.Helper()
	var out []chess.Position
	buf := make([]chess.Move, 0, chess.MaxMoves)
	for g := 0; len(out) < count; g++ {
		p := chessStart(t, rng, g)
		for ply := 0; ply < 300 && len(out) < count; ply++ {
			buf = p.LegalMoves(buf[:0])
			if len(buf) == 0 {
				break
			}
			p = p.Play(buf[rng.IntN(len(buf))])
			if rng.IntN(8) == 0 {
				out = append(out, p)
			}
		}
	}
	return out
}

// mirrorFEN returns p with the board mirrored vertically and the colours
// swapped (and the side to move), built by rewriting its FEN. Castling
// rights and the en passant square are dropped: they are not inputs.
func mirrorFEN(t testing.TB, p chess.Position) chess.Position {
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
	side := map[string]string{"w": "b", "b": "w"}[f[1]]
	q, err := chess.ParseFEN(fmt.Sprintf("%s %s - - %s %s", board, side, f[4], f[5]))
	if err != nil {
		t.Fatalf("mirror of %s: %v", p.FEN(), err)
	}
	return q
}

// TestChessInputsHandComputed checks the encoding on positions worked out
// by hand.
func TestChessInputsHandComputed(t *testing.T) {
	start := chess.Start()
	for _, c := range []struct {
		name string
		pov  game.Player
		ones []int // some inputs that must be 1
	}{
		// White's view: own pawn a2 (square 8), own king e1 (4), the
		// opponent's queen d8 (59) and pawn h7 (55).
		{"white", chess.White, []int{8, 5*64 + 4, 384 + 4*64 + 59, 384 + 55}},
		// Black's view, mirrored: own pawn a7 (48) is seen on 48^56 = 8,
		// own king e8 (60) on 4, the opponent's queen d1 (3) on 59 and
		// pawn h2 (15) on 55: the same inputs as White's.
		{"black", chess.Black, []int{8, 5*64 + 4, 384 + 4*64 + 59, 384 + 55}},
	} {
		in := ChessInputs(nil, start, c.pov)
		if len(in) != NumChessInputs {
			t.Fatalf("%s: %d inputs, want %d", c.name, len(in), NumChessInputs)
		}
		sum, own := 0.0, 0.0
		for i, v := range in {
			sum += v
			if i < 384 {
				own += v
			}
		}
		if sum != 32 || own != 16 {
			t.Errorf("%s: %v inputs set, %v own; want 32 and 16", c.name, sum, own)
		}
		for _, i := range c.ones {
			if in[i] != 1 {
				t.Errorf("%s: input %d = %v, want 1", c.name, i, in[i])
			}
		}
	}
	if got := ChessInputIndex(1, chess.Queen, 59); got != 384+4*64+59 {
		t.Errorf("ChessInputIndex(1, Queen, d8) = %d", got)
	}
	// Black's pawn on e4 (28), seen by Black on e5 (28^56 = 36).
	p, err := chess.ParseFEN("4k3/8/8/8/4p3/8/8/4K3 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if in := ChessInputs(nil, p, chess.Black); in[36] != 1 || in[28] != 0 {
		t.Errorf("Black's pawn on e4 seen on inputs 36 = %v and 28 = %v, want 1 and 0", in[36], in[28])
	}
	if in := ChessInputs(nil, p, chess.White); in[384+28] != 1 {
		t.Errorf("White sees the opponent's pawn on e4 as input %d = %v, want 1", 384+28, in[384+28])
	}
}

// TestChessEvalMatchesReference checks whole evaluations (sparse rounded
// columns, material) against the plain reference, with and without the
// extras, for both points of view, and the first-layer sums to their rounding.
func TestChessEvalMatchesReference(t *testing.T) {
	positions := append(randomChessPositions(t, newRNG(101), 300), chess.Start())
	for _, flags := range []Flags{0, chessExtras} {
		e := chessTestEval(t, flags, 102)
		n := e.Net()
		acc := make([]int32, e.h1)
		for _, p := range positions {
			for pov := chess.White; pov <= chess.Black; pov++ {
				in := ChessInputs(nil, p, pov)
				e.refresh(acc, &p, pov)
				for h := range e.h1 {
					want := 0.0
					for i, w := range n.w[n.WeightIndex(1, h, 0):][:NumChessInputs] {
						want += w * in[i]
					}
					if math.Abs(sumOf(&e.head, acc, h)-want) > sumTolerance(&e.head, h) {
						t.Fatalf("flags %v, %s, pov %v: sum %d = %v, want %v", flags, p.FEN(), pov, h, sumOf(&e.head, acc, h), want)
					}
				}
				got, want := e.Evaluate(p, pov), chessReference(n, p, pov)
				if math.Abs(got-want) > evalTolerance {
					t.Fatalf("flags %v, %s, pov %v: Evaluate = %v, reference %v", flags, p.FEN(), pov, got, want)
				}
			}
		}
	}
}

// TestChessMirror checks that a position and its colour-flipped mirror
// look the same to the opposite players: same inputs, same value, bit for bit.
func TestChessMirror(t *testing.T) {
	e := chessTestEval(t, chessExtras, 111)
	rng := newRNG(112)
	positions := randomChessPositions(t, rng, 300)
	for i := range 5 {
		positions = append(positions, chessStart(t, rng, i))
	}
	for _, p := range positions {
		q := mirrorFEN(t, p)
		if back := mirrorFEN(t, q); back.Occupied() != p.Occupied() {
			t.Fatalf("mirroring %s twice gives %s", p.FEN(), back.FEN())
		}
		for pov := chess.White; pov <= chess.Black; pov++ {
			if a, b := ChessInputs(nil, p, pov), ChessInputs(nil, q, pov^1); !slices.Equal(a, b) {
				t.Fatalf("%s pov %v: inputs differ from the mirror's %s", p.FEN(), pov, q.FEN())
			}
			if a, b := e.Evaluate(p, pov), e.Evaluate(q, pov^1); a != b {
				t.Fatalf("%s pov %v: Evaluate = %v, mirror %s: %v", p.FEN(), pov, a, q.FEN(), b)
			}
			// A value for one side is not the negated value for the other:
			// the net is not antisymmetric. The material is.
			if a, b := ChessMaterial(p, pov, e.values), ChessMaterial(p, pov^1, e.values); a != -b {
				t.Fatalf("%s: material %v for pov %v, %v for the other", p.FEN(), a, pov, b)
			}
		}
	}
	// Start positions are their own mirrors but for the side to move (the
	// tempo term counts it).
	for i := range 5 {
		p := chessStart(t, rng, i)
		q, err := chess.ParseFEN(strings.Replace(p.FEN(), " w ", " b ", 1))
		if err != nil {
			t.Fatal(err)
		}
		if a, b := e.Evaluate(p, chess.White), e.Evaluate(q, chess.Black); a != b {
			t.Errorf("%s: Evaluate(White) = %v, with Black to move Evaluate(Black) = %v", p.FEN(), a, b)
		}
	}
}

// TestChessGenerationZeroPrefersMaterial checks that random nets of
// generation 0 value a queen up above 5 pawns, and order positions by
// classic material whenever it differs by more than 2*ChessNetWeight.
func TestChessGenerationZeroPrefersMaterial(t *testing.T) {
	queenUp, err := chess.ParseFEN("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	positions := randomChessPositions(t, newRNG(121), 200)
	for seed := range uint64(20) {
		flags := []Flags{0, chessExtras, PieceDiff}[seed%3]
		n, err := RandomChess(chessHidden, flags, newRNG(seed))
		if err != nil {
			t.Fatal(err)
		}
		if n.PieceValues() != ClassicPieceValues() {
			t.Fatalf("generation 0 piece values %v, want %v", n.PieceValues(), ClassicPieceValues())
		}
		e, err := NewChessEval(n)
		if err != nil {
			t.Fatal(err)
		}
		if v := e.Evaluate(queenUp, chess.White); v <= 5 {
			t.Errorf("seed %d: a queen up = %v for White, want > 5", seed, v)
		}
		if v := e.Evaluate(queenUp, chess.Black); v >= -5 {
			t.Errorf("seed %d: a queen down = %v for Black, want < -5", seed, v)
		}
		classic := ClassicPieceValues()
		for i := 1; i < len(positions); i++ {
			p, q := positions[i-1], positions[i]
			mp, mq := ChessMaterial(p, p.Side(), classic), ChessMaterial(q, q.Side(), classic)
			vp, vq := e.Evaluate(p, p.Side()), e.Evaluate(q, q.Side())
			if mp > mq+2*ChessNetWeight && vp <= vq || mq > mp+2*ChessNetWeight && vq <= vp {
				t.Fatalf("seed %d: material %v vs %v, values %v vs %v", seed, mp, mq, vp, vq)
			}
		}
	}
}

// TestChessPieceValues checks the genome's piece values: their place in
// storage, New's and Random's starting values and draw count, the
// accessors, and that the evaluator counts with them.
func TestChessPieceValues(t *testing.T) {
	n, err := New(ChessSizes(32, 8), PieceDiff|EvolvePieceValues)
	if err != nil {
		t.Fatal(err)
	}
	k := n.NumWeights()
	if want := 768*32 + 32 + 32*8 + 8 + 8 + 1 + 1 + NumPieceValues; k != want {
		t.Fatalf("NumWeights = %d, want %d", k, want)
	}
	if n.DirectIndex(0) != n.BiasIndex(3, 0)+1 || n.PieceValueIndex(0) != n.DirectIndex(0)+1 || n.PieceValueIndex(4) != k-1 {
		t.Errorf("direct weight at %d, piece values at %d..%d of %d", n.DirectIndex(0), n.PieceValueIndex(0), n.PieceValueIndex(4), k)
	}
	if n.PieceValues() != ClassicPieceValues() || n.Weights()[n.PieceValueIndex(3)] != 5 {
		t.Errorf("New: piece values %v, want %v", n.PieceValues(), ClassicPieceValues())
	}
	// Random draws one value per weight but the piece values.
	rng, replay := newRNG(131), newRNG(131)
	r, err := RandomChess(chessHidden, 0, rng)
	if err != nil {
		t.Fatal(err)
	}
	if r.Flags() != EvolvePieceValues || r.PieceValues() != ClassicPieceValues() {
		t.Fatalf("RandomChess: flags %v, piece values %v", r.Flags(), r.PieceValues())
	}
	for range r.NumWeights() - NumPieceValues {
		replay.Float64()
	}
	if rng.Uint64() != replay.Uint64() {
		t.Error("RandomChess did not draw NumWeights-NumPieceValues values")
	}
	// Without the flag: classic values, fixed.
	plain := chessTestNet(t, chessHidden, 0, 132)
	if plain.PieceValues() != ClassicPieceValues() || plain.Mutated(newRNG(1)).PieceValues() != ClassicPieceValues() {
		t.Error("a net without EvolvePieceValues has non-classic piece values")
	}
	if _, err := plain.WithPieceValues(ClassicPieceValues()); !errors.Is(err, ErrArchitecture) {
		t.Errorf("WithPieceValues without the flag: error %v, want ErrArchitecture", err)
	}
	if _, err := r.WithPieceValues([5]float64{1, math.NaN(), 3, 5, 9}); !errors.Is(err, ErrValue) {
		t.Errorf("WithPieceValues(NaN): error %v, want ErrValue", err)
	}
	// The evaluator counts with them: a knight worth 10 pawns.
	v := [NumPieceValues]float64{1, 10, 3, 5, 9}
	r10, err := r.WithPieceValues(v)
	if err != nil || r10.PieceValues() != v || r.PieceValues() != ClassicPieceValues() {
		t.Fatalf("WithPieceValues: %v, %v; receiver %v", r10.PieceValues(), err, r.PieceValues())
	}
	knightUp, err := chess.ParseFEN("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	e3, _ := NewChessEval(r)
	e10, _ := NewChessEval(r10)
	if e10.PieceValues() != v {
		t.Errorf("ChessEval.PieceValues = %v, want %v", e10.PieceValues(), v)
	}
	if a, b := e3.Evaluate(knightUp, chess.White), e10.Evaluate(knightUp, chess.White); a < 2 || a > 4 || b < 9 || b > 11 {
		t.Errorf("a knight up = %v with a knight of 3, %v with one of 10", a, b)
	}
}

// TestChessPieceValuesEvolve checks that mutation moves the piece values
// like any weight (uniform, or self-adaptive with their own sigmas), that
// crossover leaves them with the parent the child copies, and that both
// codecs carry them exactly.
func TestChessPieceValuesEvolve(t *testing.T) {
	for _, flags := range []Flags{EvolvePieceValues, chessExtras} {
		parent, err := RandomChess(chessHidden, flags, newRNG(141))
		if err != nil {
			t.Fatal(err)
		}
		child := parent.Mutated(newRNG(142))
		pv, cv := parent.PieceValues(), child.PieceValues()
		step := MutationStep(parent.NumWeights())
		for i := range pv {
			d := cv[i] - pv[i]
			if d == 0 || flags&SelfAdaptive == 0 && math.Abs(d) > step {
				t.Errorf("flags %v: piece value %d: %v -> %v (step %v)", flags, i, pv[i], cv[i], step)
			}
		}
		if flags&SelfAdaptive == 0 {
			// The piece values take the last NumPieceValues draws.
			replay := newRNG(142)
			for range parent.NumWeights() - NumPieceValues {
				replay.Float64()
			}
			for i := range pv {
				m := float64(replay.Float64()*2) - 1
				if want := round32(pv[i] + float64(m*step)); cv[i] != want {
					t.Errorf("piece value %d = %v, want %v", i, cv[i], want)
				}
			}
		} else if s := child.Sigmas()[child.PieceValueIndex(0)]; s == DefaultSigma {
			t.Errorf("the pawn's sigma did not mutate: %v", s)
		}

		// Crossover: the piece values come with the copied parent.
		other, _ := RandomChess(chessHidden, flags, newRNG(143))
		other = other.Mutated(newRNG(144))
		c1, c2, node, err := Crossover(child, other, newRNG(145))
		if err != nil {
			t.Fatal(err)
		}
		if c1.PieceValues() != child.PieceValues() || c2.PieceValues() != other.PieceValues() {
			t.Errorf("crossover at %v: piece values %v and %v, want %v and %v",
				node, c1.PieceValues(), c2.PieceValues(), child.PieceValues(), other.PieceValues())
		}

		// Codecs.
		b, err := c1.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var fromBinary, fromJSON Net
		if err := fromBinary.UnmarshalBinary(b); err != nil || !fromBinary.Equal(c1) || fromBinary.PieceValues() != c1.PieceValues() {
			t.Fatalf("flags %v: binary round trip: %v", flags, err)
		}
		j, err := json.Marshal(c1)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(j, []byte(`"evolve-piece-values"`)) {
			t.Errorf("JSON flags: %s", j[:120])
		}
		if err := json.Unmarshal(j, &fromJSON); err != nil || !fromJSON.Equal(c1) || fromJSON.PieceValues() != c1.PieceValues() {
			t.Fatalf("flags %v: JSON round trip: %v", flags, err)
		}
		e1, _ := NewChessEval(c1)
		e2, _ := NewChessEval(&fromJSON)
		p := randomChessPositions(t, newRNG(146), 1)[0]
		if a, b := e1.Evaluate(p, chess.White), e2.Evaluate(p, chess.White); a != b {
			t.Errorf("decoded net evaluates %v, original %v", b, a)
		}
	}
}

// TestNewChessEvalErrors checks that nets of the wrong shape are refused,
// and that other shapes evaluate like the reference.
func TestNewChessEvalErrors(t *testing.T) {
	for _, sizes := range [][]int{{767, 32, 8, 1}, {768, 32, 2}, draughtsSizes} {
		n, err := New(sizes, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := NewChessEval(n); !errors.Is(err, ErrArchitecture) {
			t.Errorf("NewChessEval(%v) error = %v, want ErrArchitecture", sizes, err)
		}
	}
	for _, hidden := range [][]int{nil, {100, 70}, {16}} {
		n := chessTestNet(t, hidden, chessExtras, 151)
		e, err := NewChessEval(n)
		if err != nil {
			t.Fatalf("NewChessEval(%v): %v", n.Sizes(), err)
		}
		for _, p := range randomChessPositions(t, newRNG(152), 30) {
			if got, want := e.Evaluate(p, p.Side()), chessReference(n, p, p.Side()); math.Abs(got-want) > evalTolerance {
				t.Fatalf("%v: Evaluate = %v, reference %v", n.Sizes(), got, want)
			}
		}
	}
}

// TestChessEvalLargeWeights checks the columns' unit with weights far
// beyond anything evolution produces: the sparse sums stay accurate.
func TestChessEvalLargeWeights(t *testing.T) {
	n := chessTestNet(t, chessHidden, PieceDiff, 161)
	w := n.Weights()
	for i := range w {
		w[i] *= 1e6
	}
	n, err := n.WithWeights(w)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewChessEval(n)
	if err != nil {
		t.Fatal(err)
	}
	acc := make([]int32, e.h1)
	for _, p := range randomChessPositions(t, newRNG(162), 50) {
		in := ChessInputs(nil, p, p.Side())
		e.refresh(acc, &p, p.Side())
		for h := range e.h1 {
			want := dot(n.w[n.WeightIndex(1, h, 0):][:NumChessInputs], in)
			if got := sumOf(&e.head, acc, h); math.Abs(got-want) > sumTolerance(&e.head, h) {
				t.Fatalf("first-layer sum %d = %v, want %v", h, got, want)
			}
		}
	}
}

// TestChessAccumulatorMatchesFromScratch walks random games from the
// standard and Chess960 start positions (captures, promotions, castling and
// en passant all occur) and, after every push and every pop, compares the
// incremental value for both points of view (in random order) with the
// from-scratch one, which must be identical, and with the plain reference
// to evalTolerance. The walks go deeper than 128 plies, so the stack grows.
func TestChessAccumulatorMatchesFromScratch(t *testing.T) {
	games, steps := 24, 700
	if testing.Short() {
		games = 6
	}
	for _, c := range []struct {
		hidden []int
		flags  Flags
	}{{chessHidden, 0}, {chessHidden, chessExtras}, {[]int{48}, perspectiveExtras}, {[]int{16}, Perspective}} {
		flags := c.flags
		e, err := NewChessEval(chessTestNet(t, c.hidden, flags, 171))
		if err != nil {
			t.Fatal(err)
		}
		acc := e.NewAccumulator()
		rng := newRNG(172)
		checks := 0
		kinds := chessWalk(t, rng, acc, games, steps, 300, func(p chess.Position) {
			if acc.Position() != p {
				t.Fatalf("Position() = %s, want %s", acc.Position().FEN(), p.FEN())
			}
			first := game.Player(rng.IntN(2))
			for _, pov := range []game.Player{first, first ^ 1} {
				got, want := acc.Evaluate(pov), e.Evaluate(p, pov)
				if got != want {
					t.Fatalf("flags %v, ply %d, %s, pov %v: incremental %v, from scratch %v", flags, acc.Ply(), p.FEN(), pov, got, want)
				}
				if ref := chessReference(e.Net(), p, pov); math.Abs(got-ref) > evalTolerance {
					t.Fatalf("flags %v, ply %d, %s, pov %v: incremental %v, reference %v", flags, acc.Ply(), p.FEN(), pov, got, ref)
				}
				checks++
			}
		})
		if checks < 2*games*steps || kinds.captures == 0 || kinds.promotions == 0 || kinds.castles == 0 || kinds.enPassant == 0 {
			t.Errorf("%d checks, moves %+v: want every kind of move", checks, kinds)
		}
		t.Logf("flags %v: %d checks, moves %+v", flags, checks, kinds)
	}
}

// TestChessAccumulatorLazy evaluates only now and then, one point of view
// at a time, so that updates start from ancestors several plies up and
// from plies computed for the other point of view only.
func TestChessAccumulatorLazy(t *testing.T) {
	e := chessTestEval(t, chessExtras, 181)
	acc := e.NewAccumulator()
	rng := newRNG(182)
	chessWalk(t, rng, acc, 10, 600, 200, func(p chess.Position) {
		if rng.IntN(5) != 0 {
			return
		}
		pov := game.Player(rng.IntN(2))
		if got, want := acc.Evaluate(pov), e.Evaluate(p, pov); got != want {
			t.Fatalf("ply %d, pov %v: incremental %v, from scratch %v", acc.Ply(), pov, got, want)
		}
	})
}

// TestChessAccumulatorDeepPaths walks paths deeper than a chess.Game's
// first history storage (256 plies), so that the positions PushRef holds
// outlive the storage they were written in, and checks the accumulator
// against evaluations from scratch all the way.
func TestChessAccumulatorDeepPaths(t *testing.T) {
	e := chessTestEval(t, chessExtras, 189)
	acc := e.NewAccumulator()
	rng := newRNG(190)
	deepest := 0
	chessWalk(t, rng, acc, 3, 1500, 600, func(p chess.Position) {
		deepest = max(deepest, acc.Ply())
		if rng.IntN(3) != 0 {
			return
		}
		pov := game.Player(rng.IntN(2))
		if got, want := acc.Evaluate(pov), e.Evaluate(p, pov); got != want {
			t.Fatalf("ply %d, pov %v: incremental %v, from scratch %v", acc.Ply(), pov, got, want)
		}
	})
	if deepest <= 300 {
		t.Errorf("the walks reached ply %d, want paths deeper than 300", deepest)
	}
}

// TestChessAccumulatorUnrelated pushes unrelated positions far beyond the
// preallocated 128 plies and pops back, so updates also take the
// from-scratch branch and diffs of many squares.
func TestChessAccumulatorUnrelated(t *testing.T) {
	e := chessTestEval(t, chessExtras, 183)
	acc := e.NewAccumulator()
	rng := newRNG(184)
	path := randomChessPositions(t, rng, 400)
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
		for pov := chess.White; pov <= chess.Black; pov++ {
			if got, want := acc.Evaluate(pov), e.Evaluate(path[i], pov); got != want {
				t.Fatalf("ply %d: incremental %v, from scratch %v", i, got, want)
			}
		}
		if i > 0 {
			acc.Pop()
		}
	}
}

// TestChessAccumulatorNoAllocs checks that Reset, Push, Evaluate and Pop,
// and ChessEval.Evaluate, do not allocate.
func TestChessAccumulatorNoAllocs(t *testing.T) {
	for _, flags := range []Flags{chessExtras, perspectiveExtras} {
		chessAccumulatorNoAllocs(t, flags)
	}
}

// chessAccumulatorNoAllocs is TestChessAccumulatorNoAllocs for a net of
// the given flags (a perspective net 64 wide).
func chessAccumulatorNoAllocs(t *testing.T, flags Flags) {
	hidden := chessHidden
	if flags&Perspective != 0 {
		hidden = []int{64}
	}
	e, err := NewChessEval(chessTestNet(t, hidden, flags, 185))
	if err != nil {
		t.Fatal(err)
	}
	acc := e.NewAccumulator()
	positions := randomChessPositions(t, newRNG(186), 64)
	start := chess.Start() // Start itself allocates
	allocs := testing.AllocsPerRun(100, func() {
		acc.Reset(start)
		for _, p := range positions {
			acc.Push(p)
			acc.Evaluate(p.Side())
		}
		for range positions {
			acc.Pop()
		}
		e.Evaluate(positions[0], chess.Black)
	})
	if allocs != 0 {
		t.Errorf("flags %v: %v allocations per run, want 0", flags, allocs)
	}
}

// TestChessAccumulatorPopPanics checks that popping the root panics.
func TestChessAccumulatorPopPanics(t *testing.T) {
	acc := chessTestEval(t, 0, 187).NewAccumulator()
	acc.Reset(chess.Start())
	defer func() {
		if recover() == nil {
			t.Error("Pop at the root did not panic")
		}
	}()
	acc.Pop()
}

// TestChessEvalShared runs searches in several goroutines on one
// evaluator, each with its own accumulator (run with -race).
func TestChessEvalShared(t *testing.T) {
	e := chessTestEval(t, chessExtras, 188)
	positions := randomChessPositions(t, newRNG(189), 50)
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
				acc.Reset(chess.Start())
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

// TestChessGoldenBits pins chess results bit for bit, as TestGoldenBits
// does for draughts: evaluations of a fixed net, and the bytes of a chess
// net made by RandomChess, Mutated and Crossover. The constants were
// computed on amd64 with and without the AVX2 kernels (-tags purego).
func TestChessGoldenBits(t *testing.T) {
	e := chessTestEval(t, PieceDiff|SelfAdaptive|EvolvePieceValues, 191)
	want := []uint64{0xbfa6ed3280000000, 0xc01c4896ac000000, 0xc023c04c7a000000, 0x4023c9f3d0000000}
	for i, p := range randomChessPositions(t, newRNG(192), len(want)) {
		if got := math.Float64bits(e.Evaluate(p, p.Side())); got != want[i] {
			t.Errorf("position %d: Evaluate bits %#016x, want %#016x", i, got, want[i])
		}
	}
	a, err := RandomChess(chessHidden, PieceDiff|SelfAdaptive, newRNG(193))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := RandomChess(chessHidden, PieceDiff|SelfAdaptive, newRNG(194))
	child, _, _, err := Crossover(a.Mutated(newRNG(195)), b, newRNG(196))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := child.MarshalBinary()
	sum := sha256.Sum256(data)
	if got, want := hex.EncodeToString(sum[:]), "36815dfb27a63c4d266fef9d9ec69944fa25fef7f09c6d5b4017f2fa7b4314a8"; got != want {
		t.Errorf("SHA-256 of the child = %s, want %s", got, want)
	}
}

// randomChessGames returns count random games from the standard and
// Chess960 start positions, each the list of its positions, at most 200
// plies.
func randomChessGames(t testing.TB, seed uint64, count int) [][]chess.Position {
	rng := newRNG(seed)
	var games [][]chess.Position
	buf := make([]chess.Move, 0, chess.MaxMoves)
	for i := range count {
		g := []chess.Position{chessStart(t, rng, i)}
		for len(g) <= 200 {
			p := g[len(g)-1]
			buf = p.LegalMoves(buf[:0])
			if len(buf) == 0 {
				break
			}
			g = append(g, p.Play(buf[rng.IntN(len(buf))]))
		}
		games = append(games, g)
	}
	return games
}

// BenchmarkChessEvaluateFull evaluates positions of random games from
// scratch, from the side to move's point of view, with a 768-32-8-1 net.
func BenchmarkChessEvaluateFull(b *testing.B) {
	e := chessTestEval(b, chessExtras, 31)
	var positions []chess.Position
	for _, g := range randomChessGames(b, 32, 20) {
		positions = append(positions, g...)
	}
	i := 0
	cpu0 := cputime.Seconds()
	for b.Loop() {
		p := &positions[i%len(positions)]
		sinkF = e.Evaluate(*p, p.Side())
		i++
	}
	reportEvals(b, i, cpu0)
}

// BenchmarkChessEvaluateIncremental pushes the next position of a random
// game and evaluates it, per iteration, resetting at the start of each
// game: "pov=fixed" always for White (one update per ply), "pov=side" for
// the side to move (along a single line two updates per ply; see
// BenchmarkEvaluateIncremental).
func BenchmarkChessEvaluateIncremental(b *testing.B) {
	games := randomChessGames(b, 32, 20)
	for _, bc := range []struct {
		name  string
		fixed bool
		flags Flags
	}{
		{"pov=fixed", true, chessExtras}, {"pov=side", false, chessExtras},
		{"pov=side/tables=no", false, chessExtras &^ (EvolvePST | EvolveTerms | EvolveMoreTerms)}, // what the piece-square tables cost
		{"pov=side/terms=basic", false, chessExtras &^ EvolveMoreTerms},                           // what the more terms cost
		{"pov=side/terms=no", false, chessExtras &^ (EvolveTerms | EvolveMoreTerms)},              // what the positional terms cost
		{"pov=side/tables=tapered", false, chessExtras | TaperedTables},                           // what the tables' second phase costs
	} {
		e := chessTestEval(b, bc.flags, 31)
		b.Run(bc.name, func(b *testing.B) {
			acc := e.NewAccumulator()
			g, ply := 0, len(games[0])
			evals := 0
			cpu0 := cputime.Seconds()
			for b.Loop() {
				if ply == len(games[g]) {
					g = (g + 1) % len(games)
					acc.Reset(games[g][0])
					ply = 1
				}
				p := &games[g][ply]
				acc.Push(*p)
				pov := p.Side()
				if bc.fixed {
					pov = chess.White
				}
				sinkF = acc.Evaluate(pov)
				ply++
				evals++
			}
			reportEvals(b, evals, cpu0)
		})
	}
}
