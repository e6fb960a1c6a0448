package xiangqi

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"evolved/longtest"
)

func TestClassicSquare(t *testing.T) {
	for _, tc := range []struct {
		sq   string
		want string
	}{
		{"a10", "A1"}, {"i10", "A9"}, {"a1", "J1"}, {"i1", "J9"}, {"e1", "J5"}, {"h3", "H8"}, {"b8", "C2"},
	} {
		s, err := ParseSquare(tc.sq)
		if err != nil {
			t.Fatal(err)
		}
		if got := ClassicSquare(s); got != tc.want {
			t.Errorf("ClassicSquare(%s) = %s, want %s", tc.sq, got, tc.want)
		}
		back, ok := parseClassicSquare(strings.ToLower(tc.want))
		if !ok || back != s {
			t.Errorf("parseClassicSquare(%q) = %v, %v, want %s", tc.want, back, ok, tc.sq)
		}
	}
}

func TestParseClassic(t *testing.T) {
	p := Start()
	for _, tc := range []struct {
		in, want string // want: the move in coordinates, or "" for an error
		err      error
		text     string
	}{
		{"H8,H5", "h3e3", nil, ""},
		{"h8,h5", "h3e3", nil, ""},
		{"H8 - H5", "h3e3", nil, ""},
		{"J2,H3", "b1c3", nil, ""},
		{"J2,I4", "", ErrIllegalMove, "its leg c1 is blocked"},
		{"A2,C3", "", ErrIllegalMove, "is black's"},
		{"J2", "", ErrSyntax, "two points"},
		{"K1,J1", "", ErrSyntax, "two points"},
		{"J0,J1", "", ErrSyntax, "two points"},
		{"E5,E6", "", ErrIllegalMove, "no piece on e6"},
	} {
		m, err := p.ParseClassic(tc.in)
		if tc.want != "" {
			if err != nil || m.String() != tc.want {
				t.Errorf("ParseClassic(%q) = %v, %v, want %s", tc.in, m, err, tc.want)
			}
			continue
		}
		if m != NoMove || !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("ParseClassic(%q) = %v, %v, want an error wrapping %v that mentions %q", tc.in, m, err, tc.err, tc.text)
		}
	}
	m, _ := p.ParseUCI("h3e3")
	if got := FormatClassic(m); got != "H8,H5" {
		t.Errorf("FormatClassic(h3e3) = %s, want H8,H5", got)
	}
}

// TestWXF checks hand-written WXF moves, the common openings among them,
// and tandem pieces.
func TestWXF(t *testing.T) {
	for _, tc := range []struct {
		fen, uci, wxf string
	}{
		{StartFEN, "h3e3", "C2=5"},
		{StartFEN, "b1c3", "H8+7"},
		{StartFEN, "c1e3", "E7+5"},
		{StartFEN, "i1i2", "R1+1"},
		{StartFEN, "g4g5", "P3+1"},
		{StartFEN, "e1e2", "K5+1"},
		{StartFEN, "f1e2", "A4+5"},
		{"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1", "b10c8", "H2+3"},
		{"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1", "h10g8", "H8+7"},
		{"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1", "h8e8", "C8=5"},
		{"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1", "b8b1", "C2+7"},
		// Two red chariots on the e file: the front one is R+, the rear R-.
		{"3k5/9/9/9/9/4R4/9/9/4R4/5K3 w - - 0 1", "e5c5", "R+=7"},
		{"3k5/9/9/9/9/4R4/9/9/4R4/5K3 w - - 0 1", "e2e1", "R--1"},
		// Two black horses on the d file: for Black the front is the lower rank.
		{"3k5/9/9/3n5/9/3n5/9/9/9/4K4 b - - 0 1", "d5c3", "H++3"},
		{"3k5/9/9/3n5/9/3n5/9/9/9/4K4 b - - 0 1", "d7e9", "H--5"},
		// Three red soldiers on the c file: front P+, middle P7, rear P-.
		{"3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1", "c8d8", "P+=6"},
		{"3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1", "c7b7", "P7=8"},
		{"3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1", "c6b6", "P-=8"},
		// Tandem soldiers on two files: the file digit replaces the letter.
		{"3k5/9/2P3P2/2P3P2/9/9/9/9/9/4K4 w - - 0 1", "c8c9", "7++1"},
		{"3k5/9/2P3P2/2P3P2/9/9/9/9/9/4K4 w - - 0 1", "g7f7", "3-=4"},
	} {
		p := mustFEN(t, tc.fen)
		m, err := p.ParseUCI(tc.uci)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.FormatWXF(m); got != tc.wxf {
			t.Errorf("%s: FormatWXF(%s) = %s, want %s", tc.fen, tc.uci, got, tc.wxf)
		}
		alt := strings.ToLower(strings.ReplaceAll(tc.wxf, "=", "."))
		if back, err := p.ParseWXF(alt); err != nil || back != m {
			t.Errorf("%s: ParseWXF(%q) = %v, %v, want %s", tc.fen, alt, back, err, tc.uci)
		}
	}
	p := Start()
	for _, tc := range []struct {
		in   string
		err  error
		text string
	}{
		{"C2=9", ErrIllegalMove, "no legal move of red is written C2=9"},
		{"X2=5", ErrSyntax, "want a WXF move"},
		{"C2=", ErrSyntax, "want a WXF move"},
		{"C2*5", ErrSyntax, "want a WXF move"},
	} {
		if m, err := p.ParseWXF(tc.in); m != NoMove || !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("ParseWXF(%q) = %v, %v, want an error wrapping %v that mentions %q", tc.in, m, err, tc.err, tc.text)
		}
	}
}

// TestNotationsAgree checks, in the positions of random games, that every
// legal move reads back from each notation, that no two legal moves share
// a WXF or classic text, and that WhyIllegal is empty exactly for the
// legal moves among all 90x90 point pairs: in 6 random games of up to 150
// plies by default, 4 with -short and 20 with the long tests.
func TestNotationsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	games := 6
	switch {
	case longtest.Enabled():
		games = 20
	case testing.Short():
		games = 4
	}
	positions := 0
	for range games {
		randomWalk(rng, Start(), 150, func(p *Position, moves []Move) {
			positions++
			seen := map[string]bool{}
			legal := map[[2]Square]bool{}
			for _, m := range moves {
				legal[[2]Square{m.From(), m.To()}] = true
				w := p.FormatWXF(m)
				if seen[w] {
					t.Fatalf("%s: two moves are written %s", p.FEN(), w)
				}
				seen[w] = true
				if back, err := p.ParseWXF(w); err != nil || back != m {
					t.Fatalf("%s: ParseWXF(%s) = %v, %v, want %v", p.FEN(), w, back, err, m)
				}
				if back, err := p.ParseClassic(FormatClassic(m)); err != nil || back != m {
					t.Fatalf("%s: ParseClassic(%s) = %v, %v, want %v", p.FEN(), FormatClassic(m), back, err, m)
				}
			}
			for from := range Square(Squares) {
				for to := range Square(Squares) {
					why := p.WhyIllegal(from, to)
					if (why == "") != legal[[2]Square{from, to}] {
						t.Fatalf("%s: WhyIllegal(%s, %s) = %q, but legal is %v", p.FEN(), from, to, why, legal[[2]Square{from, to}])
					}
				}
			}
		})
	}
	t.Logf("%d positions", positions)
}

// TestWhyIllegal checks the reason given for each rule's illegal moves.
func TestWhyIllegal(t *testing.T) {
	for _, tc := range []struct {
		fen, from, to, want string
	}{
		{"3k5/9/9/9/2P6/2N6/9/9/9/4K4 w - - 0 1", "c5", "d7", "the horse on c5 cannot go to d7: its leg c6 is blocked (hobbled horse)"},
		{"3k5/9/9/9/9/9/9/9/3N5/2B1K4 w - - 0 1", "c1", "e3", "the elephant on c1 cannot go to e3: its eye d2 is blocked"},
		{"3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1", "c5", "a7", "the elephant on c5 cannot go to a7: the elephant may not cross the river"},
		{"3k5/9/n8/9/P8/C7r/9/9/9/4K4 w - - 0 1", "a5", "i5", "the cannon on a5 cannot go to i5: a cannon captures by jumping exactly one piece (the screen), and no piece stands between"},
		{"3k5/9/n8/9/P8/C7r/9/9/9/4K4 w - - 0 1", "a5", "a7", "the cannon on a5 cannot go to a7: a cannon moves without capturing only over empty points, and 1 piece stands in the way"},
		{"3k5/9/n8/p8/P8/C8/9/9/9/4K4 w - - 0 1", "a5", "a8", "the cannon on a5 cannot go to a8: a cannon captures by jumping exactly one piece (the screen), and 2 pieces stand between"},
		{"3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "e1", "d1", "the generals would face each other on an open file (the flying general)"},
		{"4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1", "e5", "a5", "the generals would face each other on an open file (the flying general)"},
		{"3k5/9/9/9/2P6/9/4P4/9/9/4K4 w - - 0 1", "e4", "d4", "the soldier on e4 cannot go to d4: a soldier moves sideways only after crossing the river"},
		{"3k5/9/9/9/2P6/9/4P4/9/9/4K4 w - - 0 1", "c6", "c5", "the soldier on c6 cannot go to c5: a soldier never moves backwards"},
		{"3k5/9/9/9/9/9/9/9/9/r3K4 w - - 0 1", "e1", "f1", "your general is in check, and e1-f1 does not parry it"},
		{"3k5/9/9/9/9/9/9/9/4A4/5K3 w - - 0 1", "e2", "e3", "the advisor on e2 cannot go to e3: the advisor moves one point diagonally"},
		{"3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "e1", "e4", "the general on e1 cannot go to e4: the general may not leave the palace"},
		{"3k5/9/9/9/9/9/9/r8/4R4/4K4 w - - 0 1", "e2", "e3", ""},
		{"4k4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1", "e2", "c3", "the generals would face each other on an open file (the flying general)"},
		{"3k5/9/9/9/9/9/9/9/3rR4/4K4 w - - 0 1", "e2", "e3", ""},
		{"3k5/9/9/9/9/4r4/9/9/4R4/4K4 w - - 0 1", "e2", "f2", "it would leave your general in check"},
	} {
		p := mustFEN(t, tc.fen)
		from, _ := ParseSquare(tc.from)
		to, _ := ParseSquare(tc.to)
		if got := p.WhyIllegal(from, to); got != tc.want {
			t.Errorf("%s: WhyIllegal(%s, %s) = %q, want %q", tc.fen, tc.from, tc.to, got, tc.want)
		}
	}
}
