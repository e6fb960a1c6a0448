package chess

import (
	"errors"
	"strings"
	"testing"
)

// isChessError reports whether err wraps one of the package's sentinels.
func isChessError(err error) bool {
	for _, s := range []error{ErrSyntax, ErrInvalidPosition, ErrIllegalMove, ErrAmbiguousMove, ErrUnsupported} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

func FuzzParseFEN(f *testing.F) {
	for _, s := range append(walkFENs,
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
		"rnbqkbnr/ppp1pppp/8/8/2Pp4/8/PP1PPPPP/RNBQKBNR b KQkq c3 0 3",
		"4k3/8/8/8/8/8/8/4KR1R w F - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1",
		"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
		"8/8/8/8/8/8/8/8 w - - 0 1",
		"", "w", "////////", "8/8/8/8/8/8/8/8/8 w - - 0 1",
		"4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1",
	) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			if !isChessError(err) || !strings.HasPrefix(err.Error(), "chess: parse FEN ") {
				t.Fatalf("ParseFEN(%q) error %v: want one wrapping a sentinel, with the prefix", s, err)
			}
			if p != (Position{}) {
				t.Fatalf("ParseFEN(%q) returned %s with its error", s, p.FEN())
			}
			return
		}
		fen := p.FEN()
		back, err := ParseFEN(fen)
		if err != nil || back != p || back.FEN() != fen {
			t.Fatalf("ParseFEN(%q) = %s, which does not read back (%v)", s, fen, err)
		}
		if got, want := p.CountMoves(), len(p.LegalMoves(nil)); got != want {
			t.Fatalf("%s: CountMoves = %d, len(LegalMoves) = %d", fen, got, want)
		}
	})
}

// fuzzPositions are the positions the move parsers are fuzzed in.
var fuzzPositions = append(walkFENs,
	"5r2/4P3/8/8/8/8/k7/4K3 w - - 0 1",
	"6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
)

func FuzzParseUCI(f *testing.F) {
	for i, s := range []string{"e2e4", "e1g1", "e1h1", "e7e8q", "e7f8N", "0000", "", "a9a1", "g1h1", "b7b8r"} {
		f.Add(s, uint8(i), i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, s string, which uint8, chess960 bool) {
		p := mustFEN(t, fuzzPositions[int(which)%len(fuzzPositions)])
		m, err := p.ParseUCI(s, chess960)
		if err != nil {
			if !isChessError(err) || m != NoMove {
				t.Fatalf("ParseUCI(%q) = %v, %v: want NoMove and an error wrapping a sentinel", s, m, err)
			}
			return
		}
		if back, err := p.ParseUCI(p.FormatUCI(m, chess960), chess960); err != nil || back != m {
			t.Fatalf("%s: ParseUCI(%q) = %v, but its formatting %q reads back as %v, %v", p.FEN(), s, m, p.FormatUCI(m, chess960), back, err)
		}
	})
}

func FuzzParseSAN(f *testing.F) {
	for i, s := range []string{"e4", "Nf3", "O-O", "0-0-0", "exf6", "e8=Q", "exf8=N+", "Qa1b2", "Q3b2", "Rd1", "", "+", "Nz9", "Kxe2#!?"} {
		f.Add(s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, s string, which uint8) {
		p := mustFEN(t, fuzzPositions[int(which)%len(fuzzPositions)])
		m, err := p.ParseSAN(s)
		if err != nil {
			if !isChessError(err) || m != NoMove {
				t.Fatalf("ParseSAN(%q) = %v, %v: want NoMove and an error wrapping a sentinel", s, m, err)
			}
			return
		}
		if back, err := p.ParseSAN(p.FormatSAN(m)); err != nil || back != m {
			t.Fatalf("%s: ParseSAN(%q) = %v, but its SAN %q reads back as %v, %v", p.FEN(), s, m, p.FormatSAN(m), back, err)
		}
	})
}

func FuzzReadPGN(f *testing.F) {
	for _, s := range []string{
		operaGame,
		"1. e4 e5 2. Nf3 *",
		"[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. g3 g6 2. Nf3 0-1\n",
		"1. e4 {unclosed",
		"1. e4 (1. d4 (1. c4)) e5 $1 ; comment\n% escape\n2. Ke2 1/2-1/2",
		"[Result \"0-1\"] 1. e4 1-0",
		"1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6?? 4.Qxf7# 1-0",
		"[", "]", "(", "$", "\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		games, err := ReadPGN(strings.NewReader(s))
		if err != nil {
			var pe *PGNError
			if !isChessError(err) || !errors.As(err, &pe) {
				t.Fatalf("ReadPGN(%q) error %v: want a *PGNError wrapping a sentinel", s, err)
			}
		}
		for _, g := range games {
			var sb strings.Builder
			if err := WritePGN(&sb, g); err != nil {
				t.Fatalf("WritePGN of a game read from %q: %v", s, err)
			}
			back, err := ParsePGN(sb.String())
			if err != nil || back.Start != g.Start || len(back.Moves) != len(g.Moves) || back.Result != g.Result {
				t.Fatalf("game read from %q does not round-trip (%v):\n%s", s, err, sb.String())
			}
		}
	})
}
