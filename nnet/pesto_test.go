package nnet

import (
	"math"
	"strings"
	"testing"

	"evolved/game/chess"
)

// TestPeSTOTables checks entries of PeSTO's tables, piece value
// included, on named squares against the numbers printed on
// chessprogramming.org (rank 8 first): a wrong number or a board turned
// the wrong way fails.
func TestPeSTOTables(t *testing.T) {
	sq := func(name string) int { return int(name[0]-'a') + 8*int(name[1]-'1') }
	for _, c := range []struct {
		pt             int
		square         string
		wantMG, wantEG int
	}{
		{0, "e2", 82 - 15, 94 + 13},    // mg_pawn_table rank 2 "-35, -1, -20, -23, -15", eg "13, 8, 8, 10, 13"
		{0, "a7", 82 + 98, 94 + 178},   // rank 7: 98 and 178
		{1, "a8", 337 - 167, 281 - 58}, // the tables' first numbers
		{1, "b1", 337 - 21, 281 - 51},  // rank 1: "-105, -21", "-29, -51"
		{2, "c8", 365 - 82, 297 - 11},  // "-29, 4, -82", "-14, -21, -11"
		{3, "h2", 477 - 71, 512 - 3},   // mg_rook_table rank 2 ends -71, eg -3
		{4, "e5", 1025 - 1, 936 + 57},  // rank 5: "-27, -27, -16, -16, -1", "3, 22, 24, 45, 57"
		{5, "g1", 24, -24},             // the king has no value: rank 1 "... 24, 14", "... -24, -43"
		{5, "h1", 14, -43},             // the tables' last numbers
	} {
		mg, eg := PeSTOCentipawns(c.pt, sq(c.square))
		if mg != c.wantMG || eg != c.wantEG {
			t.Errorf("piece %d on %s: (%d, %d), want (%d, %d)", c.pt, c.square, mg, eg, c.wantMG, c.wantEG)
		}
	}
}

// pestoReference returns PeSTO's evaluation of the position of fen for
// its side to move, computed as the page's C code does: from the board
// as printed in the FEN (rank 8 first), White's pieces read at their
// square's printed index and Black's at the mirrored one, the sums
// tapered by the phase and truncated by integer division; exact is the
// same value before the truncation.
func pestoReference(t *testing.T, fen string) (truncated int, exact float64) {
	t.Helper()
	fields := strings.Fields(fen)
	var mg, eg [2]int
	phase := 0
	for row, rank := range strings.Split(fields[0], "/") {
		file := 0
		for _, c := range rank {
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				continue
			}
			pt := strings.IndexRune("pnbrqk", c|0x20)
			side, i := 0, row*8+file // White: the printed index
			if c >= 'a' {
				side, i = 1, (7-row)*8+file // Black: the square mirrored
			}
			mg[side] += int(pestoMiddlegameValue[pt] + pestoMiddlegame[pt][i])
			eg[side] += int(pestoEndgameValue[pt] + pestoEndgame[pt][i])
			phase += []int{0, 1, 1, 2, 4, 0}[pt]
			file++
		}
	}
	us := 0
	if fields[1] == "b" {
		us = 1
	}
	phase = min(phase, 24)
	num := (mg[us]-mg[1-us])*phase + (eg[us]-eg[1-us])*(24-phase)
	return num / 24, float64(num) / 24
}

// TestPeSTO checks PeSTO's net against hand-computed values and against
// pestoReference on random positions: the net's value, in centipawns, is
// PeSTO's before truncation (within the tables' quantization, far below a
// centipawn), and rounded it is PeSTO's or one away.
func TestPeSTO(t *testing.T) {
	n, err := PeSTO()
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewChessEval(n)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fen            string
		want, truncate int // the net's rounded value and PeSTO's, centipawns for the side to move
	}{
		// Symmetric: 0 at phase 24.
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0, 0},
		// 1.e4, phase 24: White's e-pawn from e2 (mg -15) to e4 (+17),
		// for Black -32.
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", -32, -32},
		// Phase 0, the endgame tables only. White: pawn a7 94+178 = 272,
		// Ke4 27; Black: Ke8, its e1, -28. 272+27+28 = 327.
		{"4k3/P7/8/8/4K3/8/8/8 w - - 0 1", 327, 327},
		// Phase 4 (two rooks). White: Ra1 mg 477-19 = 458, eg 512-9 =
		// 503, Kg1 mg 24, eg -24: mg 482, eg 479. Black: Ra8 and Ke8
		// mirror to a1 and e1: mg 458+8 = 466, eg 503-28 = 475.
		// (16*4 + 4*20)/24 = 144/24 = 6.
		{"r3k3/8/8/8/8/8/8/R5K1 w - - 0 1", 6, 6},
		// Phase 1 (a knight). White: Nb1 mg 337-21 = 316, eg 281-51 =
		// 230, Ke1 mg 8, eg -28; Black's Ke8 the same as White's king.
		// (316*1 + 230*23)/24 = 5606/24 = 233.58: PeSTO truncates to
		// 233, the net rounds to 234.
		{"4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", 234, 233},
	} {
		p, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		got := int(math.Round(e.Evaluate(p, p.Side()) * 100))
		truncated, _ := pestoReference(t, c.fen)
		if got != c.want || truncated != c.truncate {
			t.Errorf("%s: the net %d and the reference %d centipawns, want %d and %d", c.fen, got, truncated, c.want, c.truncate)
		}
	}
	// Each table entry is within half a unit of its channel (see
	// withBalanceChannel), and a position sums at most 32 of each.
	tol := 100 * 32 * max(e.balanceUnit, e.endgameUnit)
	acc := e.NewAccumulator()
	for _, p := range randomChessPositions(t, newRNG(62), 500) {
		truncated, exact := pestoReference(t, p.FEN())
		v := e.Evaluate(p, p.Side()) * 100
		if math.Abs(v-exact) > tol || math.Abs(math.Round(v)-float64(truncated)) > 1 {
			t.Fatalf("%s: the net %v centipawns, PeSTO %v (truncated %d)", p.FEN(), v, exact, truncated)
		}
		if other := e.Evaluate(p, p.Side().Other()) * 100; math.Abs(other+v) > 2*tol {
			t.Fatalf("%s: %v for the side to move, %v for the other", p.FEN(), v, other)
		}
		acc.Reset(p)
		if a := acc.Evaluate(p.Side()) * 100; a != v {
			t.Fatalf("%s: the accumulator %v, from scratch %v", p.FEN(), a, v)
		}
	}
}
