package nnet

import (
	"errors"
	"math"
	"testing"

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
