package xiangqi

import (
	"errors"
	"strings"
	"testing"
)

// isXiangqiError reports whether err wraps one of the package's sentinels.
func isXiangqiError(err error) bool {
	return errors.Is(err, ErrSyntax) || errors.Is(err, ErrInvalidPosition) || errors.Is(err, ErrIllegalMove)
}

func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{
		StartFEN,
		"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
		"rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b - - 3 7",
		"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
		"3k5/9/9/9/9/9/9/9/9/r3K4 b",
		"R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1",
		"", "w", "/////////", "9/9/9/9/9/9/9/9/9/9 w",
		"3k5/9/9/9/9/9/9/9/9/4K4 w - - 99999999999 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			if !isXiangqiError(err) || !strings.HasPrefix(err.Error(), "xiangqi: parse FEN ") {
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

// fuzzPositions are the positions the move parser is fuzzed in.
var fuzzPositions = []string{
	StartFEN,
	"3k5/9/n8/9/P8/C7r/9/9/9/4K4 w - - 0 1",
	"rnbakab1r/9/1c4nc1/p1p1p1p1p/9/4P4/P1P3P1P/1C2C4/9/RNBAKABNR b - - 3 2",
	"3k5/8R/9/9/9/9/9/9/9/4K4 b - - 0 1",
}

func FuzzParseUCI(f *testing.F) {
	for i, s := range []string{"h3e3", "h10g8", "b1c3", "a5a8", "", "0000", "j1j2", "a10a11", "e1e0", "H3E3", "a1a10x"} {
		f.Add(s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, s string, which uint8) {
		p := mustFEN(t, fuzzPositions[int(which)%len(fuzzPositions)])
		m, err := p.ParseUCI(s)
		if err != nil {
			if !isXiangqiError(err) || m != NoMove {
				t.Fatalf("ParseUCI(%q) = %v, %v: want NoMove and an error wrapping a sentinel", s, m, err)
			}
			return
		}
		if back, err := p.ParseUCI(m.String()); err != nil || back != m {
			t.Fatalf("%s: ParseUCI(%q) = %v, but its formatting reads back as %v, %v", p.FEN(), s, m, back, err)
		}
	})
}

func FuzzParseClassic(f *testing.F) {
	for i, s := range []string{"H8,H5", "J2,H3", "j2-h3", "A1,A3", "", ",", "K1,J1", "J0,J1", "H8,H5,", "J2 , H3"} {
		f.Add(s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, s string, which uint8) {
		p := mustFEN(t, fuzzPositions[int(which)%len(fuzzPositions)])
		m, err := p.ParseClassic(s)
		if err != nil {
			if !isXiangqiError(err) || m != NoMove {
				t.Fatalf("ParseClassic(%q) = %v, %v: want NoMove and an error wrapping a sentinel", s, m, err)
			}
			return
		}
		if back, err := p.ParseClassic(FormatClassic(m)); err != nil || back != m {
			t.Fatalf("%s: ParseClassic(%q) = %v, but its formatting reads back as %v, %v", p.FEN(), s, m, back, err)
		}
	})
}

func FuzzParseWXF(f *testing.F) {
	for i, s := range []string{"C2=5", "H8+7", "h2.3", "R+=3", "P-+1", "++=4", "7++1", "", "C2", "C2=55", "X2=5"} {
		f.Add(s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, s string, which uint8) {
		p := mustFEN(t, fuzzPositions[int(which)%len(fuzzPositions)])
		m, err := p.ParseWXF(s)
		if err != nil {
			if !isXiangqiError(err) || m != NoMove {
				t.Fatalf("ParseWXF(%q) = %v, %v: want NoMove and an error wrapping a sentinel", s, m, err)
			}
			return
		}
		if back, err := p.ParseWXF(p.FormatWXF(m)); err != nil || back != m {
			t.Fatalf("%s: ParseWXF(%q) = %v, but its formatting reads back as %v, %v", p.FEN(), s, m, back, err)
		}
	})
}
