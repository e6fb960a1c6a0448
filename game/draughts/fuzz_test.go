package draughts

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// isNotationError reports whether err wraps one of the package's sentinels.
func isNotationError(err error) bool {
	for _, s := range []error{ErrSyntax, ErrIllegalMove, ErrAmbiguousMove, ErrInvalidPosition, ErrUnsupported} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{
		startFEN,
		"B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
		"W:W21-32:B1-12",
		"b:w:b1,2.",
		" W : WK1-4 , 5 : B 25-28 , k 9 ",
		"B:W1-32",
		"B:W5:B5",
		"B:W:B1-13",
		"B:W20:B30",
		"W:W3:B20",
		"B:W1,,2:B3",
		"B:W5-3",
		"B:W99999999999999999999",
		"B:WK:BK-",
		"X",
		"",
		":::",
		"B:W1:B2:W3",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			if !isNotationError(err) || !strings.HasPrefix(err.Error(), "draughts: parse FEN ") {
				t.Fatalf("ParseFEN(%q) error %v: want one wrapping a sentinel, with the prefix", s, err)
			}
			if p != (Position{}) {
				t.Fatalf("ParseFEN(%q) returned %s with its error", s, p.FEN())
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("ParseFEN(%q) = %s, which does not validate: %v", s, p.FEN(), err)
		}
		fen := p.FEN()
		back, err := ParseFEN(fen)
		if err != nil || back != p || back.FEN() != fen {
			t.Fatalf("ParseFEN(%q) = %s; ParseFEN of that = %s, %v", s, fen, back.FEN(), err)
		}
		_ = p.String()
	})
}

// fuzzPositions are the positions FuzzParseMove parses moves against: the
// start, branching multi-jumps, two captures with the same ends, kings in
// all directions, a ring, a crowning capture, and a position without moves.
var fuzzPositions = []string{
	startFEN,
	"B:W9,10,18,19:B6",
	"B:W18,19,26,27:B15",
	"W:WK15:B10,11,18,19",
	"B:W9,10,17,18:BK15",
	"B:W19,26,27:B15",
	"W:WK27:B14,15,23,24",
	"W:W:B1",
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{
		"11-15", " 9-14 ", "09-13", "22-18", "33-1", "0-4", "6x15x22", "6x22", "6-15-24",
		"6:15:24", "6X13", "6x15", "15x31", "15x22x31", "15x24x31x22", "15x6x13x22x15",
		"15x22x13x6x15", "15x15", "27x9", "e3-f4", "", "11", "11-", "-11", "11--15", "11-15!",
		"1-2-3-4-5-6-7-8-9-10-11-12-13-14-15-16-17-18-19-20", "99999999999999999999-1",
	} {
		for i := range fuzzPositions {
			f.Add(uint8(i), s, uint64(0))
		}
	}
	f.Add(uint8(0), "11-15", uint64(newMove(10, 14, 0)))
	f.Add(uint8(2), "15x31", uint64(newMove(14, 30, 1<<17|1<<25)))
	f.Add(uint8(1), "x", uint64(0xFFFF_FFFF_FFFF_FFFF))
	f.Fuzz(func(t *testing.T, index uint8, s string, raw uint64) {
		p, err := ParseFEN(fuzzPositions[int(index)%len(fuzzPositions)])
		if err != nil {
			t.Fatal(err)
		}
		legal := p.Moves(nil)
		m, err := p.ParseMove(s)
		if err != nil {
			if !isNotationError(err) || !strings.HasPrefix(err.Error(), "draughts: parse move ") {
				t.Fatalf("ParseMove(%q) error %v: want one wrapping a sentinel, with the prefix", s, err)
			}
			if m != NoMove {
				t.Fatalf("ParseMove(%q) returned %s with its error", s, rawMove(m))
			}
		} else {
			if !slices.Contains(legal, m) {
				t.Fatalf("ParseMove(%q) = %s, not a legal move in %s", s, rawMove(m), p.FEN())
			}
			text := p.FormatMove(m)
			if back, err := p.ParseMove(text); err != nil || back != m {
				t.Fatalf("ParseMove(%q) = %s, formatted %q, which parses to %s, %v", s, rawMove(m), text, rawMove(back), err)
			}
		}
		// Route and FormatMove must not panic on any move, legal or not.
		_ = p.Route(Move(raw))
		_ = p.FormatMove(Move(raw))
	})
}

func FuzzReadPDN(f *testing.F) {
	for _, s := range []string{
		"1. 11-15 23-19 2. 8-11 22-17 *",
		"[Event \"x\"]\n[Result \"1-0\"]\n1. 11-15 {c} (1. 9-13 $2) 23-19! ; c\n2. 8-11?! 22-17 1-0",
		"[FEN \"W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29\"]\n1... 10-14 2. 16-19 14-17 3. 22x13 *",
		"[FEN \"B:W18,19,26,27:B15\"] 1. 15x31 *",
		"[FEN \"B:W18,19,26,27:B15\"] 1. 15x22x31 0-2",
		"[FEN \"B:W9,10,17,18:BK15\"] 1. 15x22x13x6x15 2-0",
		"[Event \"a\\\"b\\\\c\"] [Result \"foo\"] *",
		"[SetUp \"0\"][FEN \"B:W21-32:B1-12\"] 1. 11-15 1-1",
		"[SetUp \"0\"][FEN \"B:W22-32:B1-12\"] 1. 11-15 0-0",
		"[Result \"1-0\"] 1. 11-15 0-1",
		"1. 11-15 {unclosed",
		"1. 11-15 (unclosed",
		"[Event \"unclosed",
		"[GameType \"20\"]",
		"1. 11-15 /setup/",
		"\uFEFF1.11-15 23-19\r\n2.8-11*\r[Event \"next\"]\r1... 9-13",
		"] ) } \" $",
	} {
		f.Add(s)
	}
	for _, name := range []string{"openings.pdn", "random.pdn"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Fuzz(func(t *testing.T, s string) {
		games, err := ReadPDN(strings.NewReader(s))
		if err != nil {
			var pe *PDNError
			if !errors.As(err, &pe) || !isNotationError(err) || pe.Game != len(games)+1 || pe.Line < 1 {
				t.Fatalf("ReadPDN error %#v after %d games: want a *PDNError wrapping a sentinel", err, len(games))
			}
		}
		for i, g := range games {
			var first strings.Builder
			if err := WritePDN(&first, g); err != nil {
				t.Fatalf("game %d: WritePDN of a game ReadPDN accepted: %v", i+1, err)
			}
			again, err := ParsePDN(first.String())
			if err != nil {
				t.Fatalf("game %d: ParsePDN(WritePDN(g)): %v\n%s", i+1, err, first.String())
			}
			if again.Start != g.Start || !slices.Equal(again.Moves, g.Moves) || again.Result != g.Result {
				t.Fatalf("game %d: round trip changed the game: %s\n%s", i+1, gameDiff(again, g), first.String())
			}
			// Tags other than those WritePDN reconciles with the game come
			// back in the same order with the same values.
			reconciled := func(tag Tag) bool { return tag.Name == "Result" || tag.Name == "FEN" || tag.Name == "SetUp" }
			var want, got []Tag
			for _, tag := range g.Tags {
				if !reconciled(tag) {
					want = append(want, tag)
				}
			}
			for _, tag := range again.Tags {
				if slices.ContainsFunc(want, func(w Tag) bool { return w.Name == tag.Name }) {
					got = append(got, tag)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("game %d: tags %q came back as %q", i+1, g.Tags, again.Tags)
			}
			// From then on writing and reading change nothing.
			var second strings.Builder
			if err := WritePDN(&second, again); err != nil {
				t.Fatalf("game %d: second WritePDN: %v", i+1, err)
			}
			if second.String() != first.String() {
				t.Fatalf("game %d: WritePDN is not stable:\n%s\nthen\n%s", i+1, first.String(), second.String())
			}
			third, err := ParsePDN(second.String())
			if err != nil || gameDiff(third, again) != "" {
				t.Fatalf("game %d: second round trip: %v %s", i+1, err, gameDiff(third, again))
			}
		}
	})
}
