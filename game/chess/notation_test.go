package chess

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"evolved/game"
)

func TestFormatSAN(t *testing.T) {
	tests := []struct {
		name, fen, uci, san string
	}{
		{"pawn push", StartFEN, "e2e4", "e4"},
		{"knight", StartFEN, "g1f3", "Nf3"},
		{"pawn capture", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "e4d5", "exd5"},
		{"en passant", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6", "exf6"},
		{"file disambiguation", "4k3/8/8/8/8/8/K7/R6R w - - 0 1", "a1d1", "Rad1"},
		{"rank disambiguation", "7k/8/8/R7/8/8/7K/R7 w - - 0 1", "a1a3", "R1a3"},
		{"square disambiguation", "6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1", "a1b2", "Qa1b2"},
		{"file beats rank", "6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1", "c1b2", "Qcb2"},
		{"rank when files agree", "6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1", "a3b2", "Q3b2"},
		{"a pinned rival needs no disambiguation", "4k3/4r3/8/1N6/8/8/4N3/4K3 w - - 0 1", "b5c3", "Nc3"},
		{"promotion", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q", "e8=Q"},
		{"capture promotion with check", "5r2/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7f8n", "exf8=N"},
		{"check", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", "Ra8+"},
		{"mate", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#"},
		{"short castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O"},
		{"long castling with check", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O+"},
		{"960 castling, king stays", "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", "g1h1", "O-O"},
		{"960 long castling", "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", "g1b1", "O-O-O"},
	}
	for _, tc := range tests {
		p := mustFEN(t, tc.fen)
		m, err := p.ParseUCI(tc.uci, strings.Contains(tc.name, "960"))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := p.FormatSAN(m); got != tc.san {
			t.Errorf("%s: FormatSAN(%s) in %s = %q, want %q", tc.name, tc.uci, tc.fen, got, tc.san)
		}
		if got, err := p.ParseSAN(tc.san); err != nil || got != m {
			t.Errorf("%s: ParseSAN(%q) = %v, %v; want %v", tc.name, tc.san, got, err, m)
		}
	}
}

func TestParseSAN(t *testing.T) {
	tests := []struct {
		fen, in, uci string
		err          error
	}{
		{StartFEN, "Nf3!?", "g1f3", nil},
		{StartFEN, "Ngf3", "g1f3", nil},
		{StartFEN, "Ng1f3", "g1f3", nil},
		{StartFEN, "e2e4", "e2e4", nil},
		{"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "ed5", "e4d5", nil},
		{"8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8Q", "e7e8q", nil},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0", "e1c1", nil},
		{StartFEN, "Nf4", "", ErrIllegalMove},
		{StartFEN, "O-O", "", ErrIllegalMove},
		{"4k3/8/8/8/8/8/K7/R6R w - - 0 1", "Rd1", "", ErrAmbiguousMove},
		{"8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8", "", ErrIllegalMove},
		{StartFEN, "", "", ErrSyntax},
		{StartFEN, "+", "", ErrSyntax},
		{StartFEN, "Nz9", "", ErrSyntax},
		{StartFEN, "Nf3=Q", "", ErrSyntax},
		{StartFEN, "Nabcf3", "", ErrSyntax},
	}
	for _, tc := range tests {
		p := mustFEN(t, tc.fen)
		got, err := p.ParseSAN(tc.in)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("ParseSAN(%q) in %s error %v, want one wrapping %v", tc.in, tc.fen, err, tc.err)
			}
			continue
		}
		if want := mustUCI(t, p, tc.uci, false); err != nil || got != want {
			t.Errorf("ParseSAN(%q) in %s = %v, %v; want %s", tc.in, tc.fen, got, err, tc.uci)
		}
	}
}

func TestParseUCIErrors(t *testing.T) {
	tests := []struct {
		in  string
		err error
	}{
		{"", ErrSyntax},
		{"e2e", ErrSyntax},
		{"e2e4qq", ErrSyntax},
		{"i2e4", ErrSyntax},
		{"e2e9", ErrSyntax},
		{"e7e8k", ErrSyntax},
		{"e2e5", ErrIllegalMove},
		{"e2e4q", ErrIllegalMove},
		{"e1g1", ErrIllegalMove},
	}
	p := Start()
	for _, tc := range tests {
		if _, err := p.ParseUCI(tc.in, false); !errors.Is(err, tc.err) {
			t.Errorf("ParseUCI(%q) error %v, want one wrapping %v", tc.in, err, tc.err)
		}
	}
}

// TestNotationRoundTrip checks along random games that every legal move
// reads back from its SAN and its UCI text.
func TestNotationRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	games := 60
	if testing.Short() {
		games = 15
	}
	for i := range games {
		start := mustFEN(t, walkFENs[i%len(walkFENs)])
		if i%2 == 1 {
			start, _ = Chess960(rng.IntN(960))
		}
		randomWalk(rng, start, 150, func(p *Position, moves []Move) {
			for _, m := range moves {
				san := p.FormatSAN(m)
				if got, err := p.ParseSAN(san); err != nil || got != m {
					t.Fatalf("%s: ParseSAN(%q) = %v, %v; want %v", p.FEN(), san, got, err, m)
				}
				uci := p.FormatUCI(m, true)
				if got, err := p.ParseUCI(uci, true); err != nil || got != m {
					t.Fatalf("%s: ParseUCI(%q, true) = %v, %v; want %v", p.FEN(), uci, got, err, m)
				}
			}
		})
	}
}

// operaGame is Morphy's Opera Game (Paris, 1858) with a comment, a NAG, a
// variation and move suffixes for the reader to skip.
const operaGame = `[Event "A Night at the Opera"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[Round "?"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 $2 {This is a weak move already.} 4. dxe5 Bxf3
5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 (8. Qxb7 Qb4+ 9. Qxb4 Bxb4+) 8... c6
9. Bg5 b5? 10. Nxb5! cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1
Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0
`

func TestReadPGN(t *testing.T) {
	games, err := ReadPGN(strings.NewReader(operaGame + "\n" + operaGame))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 {
		t.Fatalf("ReadPGN read %d games, want 2", len(games))
	}
	g := games[0]
	if len(g.Moves) != 33 || g.Result != ResultWhiteWins || g.Tag("White") != "Paul Morphy" {
		t.Fatalf("ReadPGN: %d moves, result %q, White %q; want 33, 1-0, Paul Morphy", len(g.Moves), g.Result, g.Tag("White"))
	}
	final := NewGame(g.Start, Rules{})
	for _, m := range g.Moves {
		final.Make(m)
	}
	if o, want := final.Outcome(), (game.Outcome{Result: game.FirstWins, Reason: game.Checkmate}); o != want {
		t.Errorf("the Opera Game ends in %v, want checkmate", o)
	}
	text, err := MoveText(g.Start, g.Moves[:6])
	if err != nil || text != "1. e4 e5 2. Nf3 d6 3. d4 Bg4" {
		t.Errorf("MoveText = %q, %v; want 1. e4 e5 2. Nf3 d6 3. d4 Bg4", text, err)
	}
}

func TestWritePGNRoundTrip(t *testing.T) {
	opera, err := ParsePGN(operaGame)
	if err != nil {
		t.Fatal(err)
	}
	start960, _ := Chess960(0)
	g960 := PGNGame{Start: start960, Result: ResultUnknown}
	pos := start960
	rng := rand.New(rand.NewPCG(9, 10))
	var buf [MaxMoves]Move
	for range 60 {
		moves := pos.LegalMoves(buf[:0])
		if len(moves) == 0 {
			break
		}
		m := moves[rng.IntN(len(moves))]
		g960.Moves = append(g960.Moves, m)
		pos = pos.Play(m)
	}
	for _, g := range []PGNGame{opera, g960} {
		var sb strings.Builder
		if err := WritePGN(&sb, g); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(sb.String(), "\n") {
			if len(line) > 79 {
				t.Errorf("WritePGN wrote a line of %d columns: %q", len(line), line)
			}
		}
		back, err := ParsePGN(sb.String())
		if err != nil {
			t.Fatalf("ParsePGN(WritePGN output): %v\n%s", err, sb.String())
		}
		if back.Start != g.Start || len(back.Moves) != len(g.Moves) || back.Result != g.Result {
			t.Fatalf("round trip changed the game:\n%s", sb.String())
		}
		for i := range g.Moves {
			if back.Moves[i] != g.Moves[i] {
				t.Fatalf("round trip changed move %d:\n%s", i, sb.String())
			}
		}
		if g.Start != Start() && (back.Tag("SetUp") != "1" || back.Tag("Variant") != "Chess960") {
			t.Errorf("a Chess960 game was written without SetUp and Variant tags:\n%s", sb.String())
		}
	}
}

func TestReadPGNErrors(t *testing.T) {
	tests := []struct {
		in  string
		err error
	}{
		{"1. e4 e5 2. Ke3", ErrIllegalMove},
		{"1. e4 {unclosed", ErrSyntax},
		{"1. e4 (1. d4", ErrSyntax},
		{`[Event "x"`, ErrSyntax},
		{`[Event x]`, ErrSyntax},
		{`[Event "a"] [Event "b"] 1. e4 *`, ErrSyntax},
		{`[Result "0-1"] 1. e4 1-0`, ErrSyntax},
		{`[Variant "Crazyhouse"] 1. e4 *`, ErrUnsupported},
		{`[FEN "8/8/8/8/8/8/8/8 w - - 0 1"] *`, ErrInvalidPosition},
		{"1. e4 $ e5", ErrSyntax},
		{"1. e4 ] e5", ErrSyntax},
	}
	for _, tc := range tests {
		_, err := ReadPGN(strings.NewReader(tc.in))
		var pe *PGNError
		if !errors.Is(err, tc.err) || !errors.As(err, &pe) {
			t.Errorf("ReadPGN(%q) error %v, want a *PGNError wrapping %v", tc.in, err, tc.err)
		}
	}
}
