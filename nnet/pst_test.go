package nnet

import (
	"errors"
	"math"
	"slices"
	"testing"

	"evolved/game"
	"evolved/game/chess"
	"evolved/game/xiangqi"
)

// TestPSTStartsClassicAndDrawsNothing checks EvolvePST's genome: the tables
// start at Michniewski's values (spot-checked by hand against the printed
// tables), Random draws no number for them nor for the terms after them,
// and only chess nets take them.
func TestPSTStartsClassicAndDrawsNothing(t *testing.T) {
	c := ClassicPST()
	for _, tc := range []struct {
		pt, s int // s: a1 = 0 .. h8 = 63, White's view
		want  float64
	}{
		{int(chess.Pawn), 12, -0.20},  // e2
		{int(chess.Pawn), 28, 0.20},   // e4
		{int(chess.Pawn), 48, 0.50},   // a7
		{int(chess.Knight), 0, -0.50}, // a1
		{int(chess.Knight), 27, 0.20}, // d4
		{int(chess.Bishop), 9, 0.05},  // b2
		{int(chess.Rook), 51, 0.10},   // d7
		{int(chess.Rook), 3, 0.05},    // d1
		{int(chess.Queen), 2, -0.10},  // c1
		{int(chess.King), 6, 0.30},    // g1
		{int(chess.King), 60, -0.50},  // e8
	} {
		if got := c[PSTIndex(tc.pt, tc.s)]; math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("piece %d on square %d: %v, want %v", tc.pt, tc.s, got, tc.want)
		}
	}
	flags := EvolvePieceValues | EvolvePST | EvolveTerms | EvolveMoreTerms
	n, err := Random(ChessSizes(4), flags, newRNG(5))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := n.PST()
	for i := range got {
		if !ok || got[i] != round32(c[i]) {
			t.Fatalf("a random net's table value %d is %v, want ClassicPST's %v rounded to float32", i, got[i], c[i])
		}
	}
	// The draws: one per weight except the tables and piece values.
	rng := newRNG(5)
	for range n.NumWeights() - NumPSTValues - n.TermCount() - NumPieceValues {
		rng.Float64()
	}
	after := newRNG(5)
	if _, err := Random(ChessSizes(4), flags, after); err != nil {
		t.Fatal(err)
	}
	if rng.Uint64() != after.Uint64() {
		t.Error("Random drew numbers for the piece-square tables")
	}
	for _, sizes := range [][]int{{NumDraughtsInputs, 4, 1}, {100, 1}} {
		if _, err := New(sizes, EvolvePST); !errors.Is(err, ErrArchitecture) {
			t.Errorf("EvolvePST on %v: %v, want ErrArchitecture", sizes, err)
		}
	}
	if _, ok := testNet(t, draughtsSizes, 0, 1).PST(); ok {
		t.Error("a net without EvolvePST has tables")
	}
}

// TestPSTEvaluation checks the value a net with EvolvePST gives, with a
// zero net (output 0), against sums worked out by hand from the tables.
func TestPSTEvaluation(t *testing.T) {
	n, err := New(ChessSizes(4), EvolvePST)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewChessEval(n)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		fen  string
		want float64 // pawns, for the side to move
	}{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0},
		// 1.e4: the e-pawn from e2 (-0.20) to e4 (+0.20).
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", -0.40},
		// White Kg1 (+0.30), pawn a7 (+0.50, and 1 of material); Black Ke8 (0).
		{"4k3/P7/8/8/8/8/8/6K1 w - - 0 1", 1.80},
		// Black's pawn on h2 is on its seventh rank (+0.50), with 1 of
		// material; White's Ka1 +0.20, Black's Ke8 0.
		{"4k3/8/8/8/8/8/7p/K7 b - - 0 1", 1 + 0.50 - 0.20},
	} {
		p, err := chess.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Evaluate(p, p.Side()); math.Abs(got-tc.want) > 16*e.balanceUnit {
			t.Errorf("%s: %v, want %v", tc.fen, got, tc.want)
		}
	}
}

// TestXiangqiPSTStartsClassicAndDrawsNothing checks EvolvePST's genome on
// a xiangqi net: the tables start at the classic program's position
// values less the home point's, in pawns of 600 evaluation units (values
// read by hand from ElephantEye's tables), Random draws no number for
// them nor for the terms after them (which once took the draws meant for
// the tables' first entries), and a chess accessor does not read them.
func TestXiangqiPSTStartsClassicAndDrawsNothing(t *testing.T) {
	c := ClassicXiangqiPST()
	for _, tc := range []struct {
		pt   xiangqi.PieceType
		sq   string
		want float64 // pawns
	}{
		{xiangqi.Chariot, "a1", 0},
		{xiangqi.Chariot, "e9", (4*233 + 4*20 - 4*194) / 600.0}, // across the river: +20 threat
		{xiangqi.Horse, "e2", (4*78 - 4*85) / 600.0},            // blocking its general
		{xiangqi.Cannon, "e3", (4*101 - 4*96) / 600.0},          // the central cannon
		{xiangqi.Soldier, "e4", (4*15 - 4*7) / 600.0},
		{xiangqi.Soldier, "e9", (4*89 + 4*10 - 4*7) / 600.0},
		{xiangqi.Advisor, "e2", (4*23 - 4*20) / 600.0},
		{xiangqi.Elephant, "e3", (4*23 - 4*20) / 600.0},
		{xiangqi.General, "e2", (4*2 - 4*15) / 600.0},
	} {
		s, err := xiangqi.ParseSquare(tc.sq)
		if err != nil {
			t.Fatal(err)
		}
		if got := c[XiangqiPSTIndex(tc.pt, s)]; math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("%v on %s: %v, want %v", tc.pt, tc.sq, got, tc.want)
		}
	}
	flags := EvolvePieceValues | EvolvePST | EvolveTerms
	n, err := Random(XiangqiSizes(4), flags, newRNG(5))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := n.XiangqiPST()
	for i := range got {
		if !ok || got[i] != round32(c[i]) {
			t.Fatalf("a random net's table value %d is %v, want ClassicXiangqiPST's %v rounded to float32", i, got[i], c[i])
		}
	}
	if _, ok := n.PST(); ok {
		t.Error("PST reads a xiangqi net's tables as chess tables")
	}
	if n.XiangqiPieceValues() != round32Values(ClassicXiangqiPieceValues()) {
		t.Errorf("piece values %v moved with the tables", n.XiangqiPieceValues())
	}
	rng := newRNG(5)
	for range n.NumWeights() - NumXiangqiPSTValues - n.TermCount() - NumXiangqiPieceValues {
		rng.Float64()
	}
	after := newRNG(5)
	if _, err := Random(XiangqiSizes(4), flags, after); err != nil {
		t.Fatal(err)
	}
	if rng.Uint64() != after.Uint64() {
		t.Error("Random drew numbers for the piece-square tables")
	}
	if _, ok := testNet(t, ChessSizes(4), EvolvePST, 1).XiangqiPST(); ok {
		t.Error("XiangqiPST reads a chess net's tables")
	}
}

// TestXiangqiPSTEvaluation checks the value a xiangqi net with EvolvePST
// gives, with a zero net (output 0), against sums worked out by hand from
// ElephantEye's tables.
func TestXiangqiPSTEvaluation(t *testing.T) {
	n, err := New(XiangqiSizes(4), EvolvePST)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewXiangqiEval(n)
	if err != nil {
		t.Fatal(err)
	}
	const u = 4 / 600.0 // a table unit in pawns
	for _, tc := range []struct {
		fen  string
		want float64 // pawns, for the side to move
	}{
		{xiangqi.StartFEN, 0},
		// 1. C2=5 (cannon h3-e3): from h3 (96) to e3 (101), for Black to move.
		{"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1", -5 * u},
		// Red: general e1 (15, home), chariot e9 (233 + 20 threat, home 194);
		// Black: general d10 (its d1: 11, home 15), soldier e5 (its e6:
		// 59 + 10 threat, home 7). Material: chariot 6 - soldier 0.7.
		{"3k5/4R4/9/9/9/4p4/9/9/9/4K4 w - - 0 1", 6 - 0.7 + (233+20-194)*u - (11-15)*u - (59+10-7)*u},
	} {
		p, err := xiangqi.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Evaluate(p, p.Side()); math.Abs(got-tc.want) > 16*e.balanceUnit {
			t.Errorf("%s: %v, want %v", tc.fen, got, tc.want)
		}
	}
}

// TestChessTaperedTables checks TaperedTables: twice the tables' weights,
// the middlegame's then the endgame's, on chess nets with EvolvePST only;
// the endgame half starting at Michniewski's tables with his endgame king
// (spot-checked by hand against the printed table), and Random drawing
// nothing for either half (nor for the terms, which start at 0); each
// piece worth (mg*phase + eg*(24-phase))/24 of its two entries, the phase
// counted here from the FEN's letters (fenPhase), along random games as
// the accumulator sums them and from scratch; hand-worked values at both
// ends of the phase and between; and equal halves evaluating as the
// untapered net.
func TestChessTaperedTables(t *testing.T) {
	flags := EvolvePST | EvolvePieceValues | EvolveTerms | EvolveMoreTerms | TaperedTerms
	newTapered(t, flags, TaperedTables, NumPSTValues)
	untapered, _ := New(ChessSizes(4), flags)
	for _, tc := range []struct {
		sizes []int
		flags Flags
	}{{ChessSizes(4), EvolveTerms | TaperedTables}, {XiangqiSizes(4), EvolvePST | TaperedTables}} {
		if _, err := New(tc.sizes, tc.flags); !errors.Is(err, ErrArchitecture) {
			t.Errorf("%v on %d inputs: error %v, want ErrArchitecture", tc.flags, tc.sizes[0], err)
		}
	}
	classic, eg := ClassicPST(), ClassicEndgamePST()
	for _, tc := range []struct {
		s    int // a1 = 0 .. h8 = 63, White's view
		want float64
	}{{0, -0.50}, {6, -0.30}, {4, -0.30}, {28, 0.40}, {35, 0.40}, {18, 0.20}, {14, -0.30}, {63, -0.50}, {59, -0.20}} {
		if got := eg[PSTIndex(int(chess.King), tc.s)]; math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("endgame king on square %d: %v, want %v", tc.s, got, tc.want)
		}
	}
	for i := range PSTIndex(int(chess.King), 0) {
		if eg[i] != classic[i] {
			t.Fatalf("endgame table value %d is %v, want ClassicPST's %v", i, eg[i], classic[i])
		}
	}
	r, err := Random(ChessSizes(4), flags|TaperedTables, newRNG(5))
	if err != nil {
		t.Fatal(err)
	}
	rmg, ok1 := r.PST()
	reg, ok2 := r.EndgamePST()
	for i := range rmg {
		if !ok1 || !ok2 || rmg[i] != round32(classic[i]) || reg[i] != round32(eg[i]) {
			t.Fatalf("a random net's tables at %d: %v and %v, want %v and %v rounded to float32", i, rmg[i], reg[i], classic[i], eg[i])
		}
	}
	if terms := r.ChessTerms(); terms != [NumChessTerms]float64{} {
		t.Errorf("a random net's terms are %v, want 0", terms)
	}
	if _, ok := untapered.EndgamePST(); ok {
		t.Error("an untapered net has endgame tables")
	}
	rng := newRNG(5)
	for range r.NumWeights() - 2*NumPSTValues - 2*r.TermCount() - NumPieceValues {
		rng.Float64()
	}
	after := newRNG(5)
	if _, err := Random(ChessSizes(4), flags|TaperedTables, after); err != nil {
		t.Fatal(err)
	}
	if rng.Uint64() != after.Uint64() {
		t.Error("Random drew numbers for the tapered tables")
	}

	// A net whose tables are random in both halves, and the same net with
	// its tables at 0, whose value the tables' blend is added to.
	base := chessTestNet(t, chessHidden, PieceDiff|flags|TaperedTables, 341)
	w := base.Weights()
	tables := len(w) - NumPieceValues - 2*base.TermCount() - 2*NumPSTValues
	zw := slices.Clone(w)
	clear(zw[tables : tables+2*NumPSTValues])
	trng := newRNG(342)
	for i := tables; i < tables+2*NumPSTValues; i++ {
		w[i] = float64(float32(trng.Float64() - 0.5))
	}
	zero, err := base.WithWeights(zw)
	if err != nil {
		t.Fatal(err)
	}
	tapered, err := base.WithWeights(w)
	if err != nil {
		t.Fatal(err)
	}
	mg, _ := tapered.PST()
	end, _ := tapered.EndgamePST()
	if mg != [NumPSTValues]float64(w[tables:]) || end != [NumPSTValues]float64(w[tables+NumPSTValues:]) {
		t.Fatal("PST and EndgamePST do not read the two halves")
	}
	// The same net untapered, with the middlegame tables; and tapered with
	// the middlegame tables in both halves.
	same, err := New(base.Sizes(), base.Flags()&^TaperedTables)
	if err != nil {
		t.Fatal(err)
	}
	if same, err = same.WithWeights(slices.Concat(w[:tables+NumPSTValues], w[tables+2*NumPSTValues:])); err != nil {
		t.Fatal(err)
	}
	fw := slices.Clone(w)
	copy(fw[tables+NumPSTValues:], w[tables:tables+NumPSTValues])
	flat, err := base.WithWeights(fw)
	if err != nil {
		t.Fatal(err)
	}
	eZero, _ := NewChessEval(zero)
	eTapered, _ := NewChessEval(tapered)
	eFlat, _ := NewChessEval(flat)
	eSame, _ := NewChessEval(same)
	// balance sums the table entries of p's pieces for pov, square by square.
	balance := func(tab *[NumPSTValues]float64, p chess.Position, pov game.Player) float64 {
		v := 0.0
		for s := range chess.Square(64) {
			pt, c := p.PieceAt(s)
			if pt == chess.NoPieceType {
				continue
			}
			own := int(s)
			if c == chess.Black {
				own ^= 56
			}
			if c == pov {
				v += tab[PSTIndex(int(pt), own)]
			} else {
				v -= tab[PSTIndex(int(pt), own)]
			}
		}
		return v
	}
	phases := map[int]bool{}
	check := func(p chess.Position, got func(pov game.Player) float64) {
		t.Helper()
		phase := fenPhase(p)
		phases[phase] = true
		for pov := chess.White; pov <= chess.Black; pov++ {
			want := eZero.Evaluate(p, pov) + (balance(&mg, p, pov)*float64(phase)+balance(&end, p, pov)*float64(24-phase))/24
			if g := got(pov); math.Abs(g-want) > evalTolerance {
				t.Fatalf("%s pov %v (phase %d): %v, want %v", p.FEN(), pov, phase, g, want)
			}
			if a, b := eFlat.Evaluate(p, pov), eSame.Evaluate(p, pov); math.Abs(a-b) > evalTolerance {
				t.Fatalf("%s pov %v: equal halves give %v, the untapered net %v", p.FEN(), pov, a, b)
			}
		}
	}
	for _, p := range randomChessPositions(t, newRNG(343), 300) {
		check(p, func(pov game.Player) float64 { return eTapered.Evaluate(p, pov) })
	}
	acc := eTapered.NewAccumulator()
	chessWalk(t, newRNG(344), acc, 3, 300, 40, func(p chess.Position) {
		check(p, func(pov game.Player) float64 { return acc.Evaluate(pov) })
	})
	if len(phases) < 15 {
		t.Errorf("the positions had %d phases, want the range covered", len(phases))
	}

	// By hand, with the net at 0 and the tables classic: the start (phase
	// 24) counts the middlegame tables only, a pawn ending (phase 0) the
	// endgame ones only.
	c, err := New(ChessSizes(4), EvolvePST|TaperedTables)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewChessEval(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		fen  string
		want float64 // pawns, for the side to move
	}{
		// 1.e4, phase 24: the e-pawn from e2 (-0.20) to e4 (+0.20).
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", -0.40},
		// Phase 0. White Ke4 (+0.40) and pawn a7 (+0.50, and 1 of
		// material); Black Ke8 (its e1: -0.30).
		{"4k3/P7/8/8/4K3/8/8/8 w - - 0 1", 1 + 0.50 + 0.40 + 0.30},
		// Phase 4 (two rooks): a rook each on their first ranks' corners
		// (0 in both phases), kings g1 (mg +0.30, eg -0.30) and e8 (its
		// e1: mg 0, eg -0.30): White's tables (4*0.30 + 20*-0.30)/24 =
		// -0.20, Black's 20*-0.30/24 = -0.25.
		{"r3k3/8/8/8/8/8/8/R5K1 w - - 0 1", 0.05},
	} {
		p, err := chess.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Evaluate(p, p.Side()); math.Abs(got-tc.want) > 32*max(e.balanceUnit, e.endgameUnit) {
			t.Errorf("%s: %v, want %v", tc.fen, got, tc.want)
		}
	}
}
