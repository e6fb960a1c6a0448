package chess

import (
	"errors"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestMagicAttacks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for s := A1; s <= H8; s++ {
		for i := range 2000 {
			occ := Bitboard(rng.Uint64() & rng.Uint64())
			if i%2 == 0 {
				occ &= Bitboard(rng.Uint64())
			}
			if got, want := rookAttacks(s, occ), slide(s, occ, &rookDirs); got != want {
				t.Fatalf("rookAttacks(%s, %#x) = %#x, want %#x", s, occ, got, want)
			}
			if got, want := bishopAttacks(s, occ), slide(s, occ, &bishopDirs); got != want {
				t.Fatalf("bishopAttacks(%s, %#x) = %#x, want %#x", s, occ, got, want)
			}
		}
	}
}

func TestBetweenAndLine(t *testing.T) {
	tests := []struct {
		a, b          Square
		between, line Bitboard
	}{
		{A1, H8, 0x0040201008040200, 0x8040201008040201},
		{A1, A3, bit(A2), fileA},
		{E1, H1, bit(F1) | bit(G1), rank1},
		{B1, C3, 0, 0}, // a knight's step: not aligned
		{D4, D5, 0, fileA << 3},
	}
	for _, tc := range tests {
		if got := tab.between[tc.a][tc.b]; got != tc.between {
			t.Errorf("between[%s][%s] = %#x, want %#x", tc.a, tc.b, got, tc.between)
		}
		if got := tab.line[tc.a][tc.b]; got != tc.line {
			t.Errorf("line[%s][%s] = %#x, want %#x", tc.a, tc.b, got, tc.line)
		}
	}
}

// walkFENs are start positions for the random walks of the consistency
// tests: castling, en passant, promotions and Chess960 castling all occur.
var walkFENs = []string{
	StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
	"1rqbkrbn/pppppppp/1n6/8/8/1N6/PPPPPPPP/1RQBKRBN w FBfb - 0 1",
	"2k5/8/8/8/8/8/8/1RK4R w HB - 0 1",
	"4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
}

// randomWalk plays up to plies random legal moves from p, calling visit
// with each position before its move, and stops early at a game's end.
func randomWalk(rng *rand.Rand, p Position, plies int, visit func(p *Position, moves []Move)) {
	var buf [MaxMoves]Move
	for range plies {
		moves := p.LegalMoves(buf[:0])
		visit(&p, moves)
		if len(moves) == 0 {
			return
		}
		p = p.Play(moves[rng.IntN(len(moves))])
	}
}

// TestPlayConsistency checks, along random games, that the incremental
// hash equals a full recompute, that FEN round-trips, that CountMoves agrees
// with LegalMoves, that LegalMoves never repeats a move, and that Play does
// not change its receiver (copy-make).
func TestPlayConsistency(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	games := 200
	if testing.Short() {
		games = 40
	}
	for i := range games {
		start, err := ParseFEN(walkFENs[i%len(walkFENs)])
		if err != nil {
			t.Fatal(err)
		}
		if i%3 == 2 {
			start, _ = Chess960(rng.IntN(960))
		}
		randomWalk(rng, start, 200, func(p *Position, moves []Move) {
			if got, want := p.hash, p.computeHash(); got != want {
				t.Fatalf("%s: incremental hash %#x, recomputed %#x", p.FEN(), got, want)
			}
			back, err := ParseFEN(p.FEN())
			if err != nil {
				t.Fatalf("ParseFEN(%q): %v", p.FEN(), err)
			}
			if back != *p {
				t.Fatalf("ParseFEN(%q) = %s, a different position", p.FEN(), back.FEN())
			}
			if got, want := p.CountMoves(), len(moves); got != want {
				t.Fatalf("%s: CountMoves = %d, len(LegalMoves) = %d", p.FEN(), got, want)
			}
			sorted := slices.Clone(moves)
			slices.Sort(sorted)
			if len(slices.Compact(sorted)) != len(moves) {
				t.Fatalf("%s: LegalMoves repeats a move: %v", p.FEN(), moves)
			}
			if !p.InCheck() {
				if null := p.PlayNull(); null.hash != null.computeHash() || null.side == p.side {
					t.Fatalf("%s: PlayNull gives %s with a wrong hash or side", p.FEN(), null.FEN())
				}
			}
			before := *p
			for _, m := range moves {
				p.Play(m)
			}
			if *p != before {
				t.Fatalf("%s: Play changed its receiver", before.FEN())
			}
		})
	}
}

func TestChess960(t *testing.T) {
	tests := []struct {
		n    int
		fen  string
		want string
	}{
		{0, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", ""},
		{518, StartFEN, ""},
		{959, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1", ""},
		{-1, "", "not in 0..959"},
		{960, "", "not in 0..959"},
	}
	for _, tc := range tests {
		p, err := Chess960(tc.n)
		if tc.want != "" {
			if !errors.Is(err, ErrInvalidPosition) {
				t.Errorf("Chess960(%d) error %v, want one wrapping ErrInvalidPosition", tc.n, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Chess960(%d): %v", tc.n, err)
			continue
		}
		if got := p.FEN(); got != tc.fen {
			t.Errorf("Chess960(%d) = %s, want %s", tc.n, got, tc.fen)
		}
	}
	if Start() != mustFEN(t, StartFEN) {
		t.Errorf("Start() = %s, want %s", Start().FEN(), StartFEN)
	}
	seen := map[string]int{}
	for n := range 960 {
		p, err := Chess960(n)
		if err != nil {
			t.Fatal(err)
		}
		back := p.FEN()[:8]
		if prev, dup := seen[back]; dup {
			t.Fatalf("Chess960(%d) and Chess960(%d) are both %s", prev, n, back)
		}
		seen[back] = n
		b := p.Pieces(White, Bishop)
		k := p.King(White)
		rooks := p.Pieces(White, Rook)
		if popcount(b&darkSquares) != 1 || lsb(rooks) > k || msb(rooks) < k || p.castling != rooks|rooks<<56 {
			t.Fatalf("Chess960(%d) = %s breaks the set-up rules", n, p.FEN())
		}
		if got := Perft(p, 1); got < 18 || got > 21 {
			t.Fatalf("Perft(Chess960(%d), 1) = %d, want 18..21", n, got)
		}
	}
}

// mustFEN parses fen or fails the test.
func mustFEN(tb testing.TB, fen string) Position {
	tb.Helper()
	p, err := ParseFEN(fen)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func TestParseFEN(t *testing.T) {
	tests := []struct {
		in, out string // out "" means the same as in
	}{
		{StartFEN, ""},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", StartFEN},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", StartFEN},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w AHah - 0 1", StartFEN},
		// X-FEN: K and Q mean the outermost rooks of a Chess960 position.
		{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"},
		// X-FEN names an inner rook by its file.
		{"4k3/8/8/8/8/8/8/4KR1R w F - 0 1", ""},
		// An en passant square nobody can use is dropped.
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
		{"rnbqkbnr/ppp1pppp/8/8/2Pp4/8/PP1PPPPP/RNBQKBNR b KQkq c3 0 3", ""},
		{"8/8/8/8/8/8/8/K6k b - - 120 0", "8/8/8/8/8/8/8/K6k b - - 120 1"},
	}
	for _, tc := range tests {
		p, err := ParseFEN(tc.in)
		if err != nil {
			t.Errorf("ParseFEN(%q): %v", tc.in, err)
			continue
		}
		want := tc.out
		if want == "" {
			want = tc.in
		}
		if got := p.FEN(); got != want {
			t.Errorf("ParseFEN(%q).FEN() = %q, want %q", tc.in, got, want)
		}
	}
}

func TestParseFENErrors(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{"", ErrSyntax},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", ErrSyntax},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", ErrSyntax},
		{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ErrSyntax},
		{"rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ErrSyntax},
		{"rnbqkbnx/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ErrSyntax},
		{StartFEN + " extra", ErrSyntax},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", ErrSyntax},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1", ErrSyntax},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1", ErrSyntax},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", ErrSyntax},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", ErrSyntax},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999", ErrSyntax},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1", ErrInvalidPosition},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1", ErrInvalidPosition},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w - - 0 1", ErrInvalidPosition},
		{"4k3/8/8/8/8/8/PPPPPPPP/QQQQKQQQ w - - 0 1", ErrInvalidPosition},
		{"4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", ErrInvalidPosition}, // Black, not to move, is in check
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w K - 0 1", ErrInvalidPosition},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w B - 0 1", ErrInvalidPosition},
		{"4k3/8/8/8/8/8/8/R3K1RR w GH - 0 1", ErrInvalidPosition}, // two rooks on one side
		{"4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1", ErrInvalidPosition},  // king off its first rank
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", ErrInvalidPosition},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", ErrInvalidPosition},
	}
	for _, tc := range tests {
		p, err := ParseFEN(tc.in)
		if !errors.Is(err, tc.want) {
			t.Errorf("ParseFEN(%q) error %v, want one wrapping %v", tc.in, err, tc.want)
		}
		if err != nil && p != (Position{}) {
			t.Errorf("ParseFEN(%q) returned %s with its error", tc.in, p.FEN())
		}
	}
}

// TestEnPassantPins checks en passant captures that are illegal because
// the two pawns leaving one rank, or the captured pawn leaving a diagonal,
// uncover the capturer's king, and one that answers a check.
func TestEnPassantPins(t *testing.T) {
	tests := []struct {
		name, fen string
		move      string
		legal     bool
	}{
		{"horizontal pin", "8/8/8/KPp4r/8/8/8/7k w - c6 0 2", "b5c6", false},
		{"horizontal pin, rook behind the capturer", "8/8/8/rpP4K/8/8/8/k7 w - b6 0 2", "c5b6", false},
		{"no pin: a second pawn stays on the rank", "8/8/8/KPpP3r/8/8/8/7k w - c6 0 2", "b5c6", true},
		{"diagonal pin of the captured pawn", "8/8/8/2k5/3Pp3/8/8/6BK b - d3 0 2", "e4d3", false},
	}
	for _, tc := range tests {
		p := mustFEN(t, tc.fen)
		m, err := p.ParseUCI(tc.move, false)
		if got := err == nil; got != tc.legal {
			t.Errorf("%s: %s in %s legal = %v, want %v (err %v)", tc.name, tc.move, tc.fen, got, tc.legal, err)
		}
		if err == nil && !m.IsEnPassant() {
			t.Errorf("%s: %s parsed as %v, not en passant", tc.name, tc.move, m)
		}
	}
	// After d2d4, which gives check, the black pawn on c4 may take en
	// passant, removing the checking pawn.
	p := mustFEN(t, "8/8/8/4k3/2p5/8/3P4/4K3 w - - 0 1")
	p = p.Play(mustUCI(t, p, "d2d4", false))
	if !p.InCheck() {
		t.Fatalf("%s: want Black in check", p.FEN())
	}
	if _, err := p.ParseUCI("c4d3", false); err != nil {
		t.Errorf("%s: c4d3 (en passant out of check): %v", p.FEN(), err)
	}
}

// mustUCI parses a UCI move or fails the test.
func mustUCI(tb testing.TB, p Position, s string, chess960 bool) Move {
	tb.Helper()
	m, err := p.ParseUCI(s, chess960)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

func TestCastling960(t *testing.T) {
	tests := []struct {
		name, fen string
		uci960    string // the castling move, king takes rook
		uci       string // the same in classical notation
		legal     bool
		after     string // FEN after the move, when legal
	}{
		{"classical short", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1", "e1g1", true,
			"r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"},
		{"classical long", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1a1", "e1c1", true,
			"r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1"},
		{"king stays on g1", "4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", "g1g1", true,
			"4k3/8/8/8/8/8/8/5RK1 b - - 1 1"},
		{"king lands on the rook's square", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1", "f1g1", "", true,
			"4k3/8/8/8/8/8/8/5RK1 b - - 1 1"},
		{"rook shields the king's destination", "4k3/8/8/8/8/8/8/rRK5 w B - 0 1", "c1b1", "", false, ""},
		{"king path attacked", "4k3/8/8/8/8/8/5r2/1RK4R w HB - 0 1", "c1h1", "", false, ""},
		{"long castle from c1, king stays", "4k3/8/8/8/8/8/8/1RK4R w HB - 0 1", "c1b1", "", true,
			"4k3/8/8/8/8/8/8/2KR3R b - - 1 1"},
		{"rook's path blocked", "4k3/8/8/8/8/8/8/RN2K3 w A - 0 1", "e1a1", "e1c1", false, ""},
		{"rook destination occupied by another piece", "4k3/8/8/8/8/8/8/R2BK3 w A - 0 1", "e1a1", "e1c1", false, ""},
	}
	for _, tc := range tests {
		p := mustFEN(t, tc.fen)
		m, err := p.ParseUCI(tc.uci960, true)
		if got := err == nil; got != tc.legal {
			t.Errorf("%s: %s in %s legal = %v, want %v (err %v)", tc.name, tc.uci960, tc.fen, got, tc.legal, err)
			continue
		}
		if !tc.legal {
			continue
		}
		if !m.IsCastle() {
			t.Errorf("%s: %s parsed as a non-castling move", tc.name, tc.uci960)
		}
		if got := p.Play(m).FEN(); got != tc.after {
			t.Errorf("%s: after %s: %s, want %s", tc.name, tc.uci960, got, tc.after)
		}
		if got := p.FormatUCI(m, true); got != tc.uci960 {
			t.Errorf("%s: FormatUCI(chess960) = %s, want %s", tc.name, got, tc.uci960)
		}
		if tc.uci != "" {
			if got := p.FormatUCI(m, false); got != tc.uci {
				t.Errorf("%s: FormatUCI = %s, want %s", tc.name, got, tc.uci)
			}
			if back, err := p.ParseUCI(tc.uci, false); err != nil || back != m {
				t.Errorf("%s: ParseUCI(%s, false) = %v, %v; want the castling move", tc.name, tc.uci, back, err)
			}
		}
	}
}

// TestChanged checks Position.Changed on hand-checked moves of each kind,
// and against a square-by-square comparison of PieceAt between unrelated
// positions.
func TestChanged(t *testing.T) {
	squares := func(b Bitboard) []string {
		var out []string
		for ; b != 0; b &= b - 1 {
			out = append(out, Square(bits.TrailingZeros64(uint64(b))).String())
		}
		return out
	}
	tests := []struct {
		fen, move string
		want      []string // in square order, a1 first
	}{
		{StartFEN, "e2e4", []string{"e2", "e4"}},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", []string{"e1", "f1", "g1", "h1"}},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", []string{"a8", "c8", "d8", "e8"}},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", []string{"d5", "e5", "d6"}},
		{"4k3/8/8/3n4/8/2N5/8/4K3 w - - 0 1", "c3d5", []string{"c3", "d5"}}, // a knight takes a knight: only colours change on d5
		{"3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", []string{"e7", "d8"}},
	}
	for _, tt := range tests {
		p := mustFEN(t, tt.fen)
		m, err := p.ParseUCI(tt.move, false)
		if err != nil {
			t.Fatalf("%s: %v", tt.move, err)
		}
		q := p.Play(m)
		if got := squares(p.Changed(&q)); !slices.Equal(got, tt.want) {
			t.Errorf("%s after %s: Changed = %v, want %v", tt.fen, tt.move, got, tt.want)
		}
		if got := squares(q.Changed(&p)); !slices.Equal(got, tt.want) {
			t.Errorf("%s after %s, the other way: Changed = %v, want %v", tt.fen, tt.move, got, tt.want)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var positions []Position
	buf := make([]Move, 0, MaxMoves)
	p := Start()
	for len(positions) < 200 {
		buf = p.LegalMoves(buf[:0])
		if len(buf) == 0 || p.HalfmoveClock() >= 100 {
			p = Start()
			continue
		}
		p = p.Play(buf[rng.IntN(len(buf))])
		positions = append(positions, p)
	}
	for i := range positions {
		a, b := &positions[i], &positions[rng.IntN(len(positions))]
		var want Bitboard
		for s := Square(0); s < 64; s++ {
			ta, ca := a.PieceAt(s)
			tb, cb := b.PieceAt(s)
			if ta != tb || (ta != NoPieceType && ca != cb) {
				want |= Bitboard(1) << s
			}
		}
		if got := a.Changed(b); got != want {
			t.Fatalf("Changed(%s, %s) = %v, want %v", a.FEN(), b.FEN(), squares(got), squares(want))
		}
	}
}
