package metaheuristic

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"evolved/game/chess"
)

func mustFEN(t testing.TB, fen string) chess.Position {
	t.Helper()
	p, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBoardOf(t *testing.T) {
	p := chess.Start()
	want := "RNBQKBNR" + "PPPPPPPP" + strings.Repeat("#", 32) + "pppppppp" + "rnbqkbnr"
	if got := BoardOf(&p).String(); got != want {
		t.Errorf("BoardOf(start) = %q, want %q", got, want)
	}
	b, err := parseBoard(want)
	if err != nil || b != BoardOf(&p) {
		t.Errorf("parseBoard(%q) = %q, %v", want, b, err)
	}
}

// smallFEN has few legal moves of every kind the file encodes: king moves,
// castling (written king takes rook), rook moves and the four promotions.
const smallFEN = "4k3/P7/8/8/8/8/8/4K2R w K - 0 1"

func TestWritePheromones(t *testing.T) {
	p := mustFEN(t, smallFEN)
	tab := NewPheromones()
	e := tab.ensure(&p)
	if len(e.slots) != 19 {
		t.Fatalf("%d moves, want 19", len(e.slots))
	}
	// Values that need the shortest round-trip formatting.
	e.slots[0].value = 0.1
	e.slots[1].value = -2.5
	e.slots[2].value = 1e-9
	e.slots[18].value = 12345678.9
	var buf bytes.Buffer
	if err := tab.Write(&buf); err != nil {
		t.Fatal(err)
	}
	// Moves from e1 (x 4, y 0): d1, f1, castling (h1, the rook's square),
	// d2, e2, f2; from h1: f1, g1, h2..h8; from a7 (0 6): a8 = n, b, r, q.
	want := "####K##R" + strings.Repeat("#", 40) + "P#######" + "####k###" + "\n" +
		"4 0 3 0 - 0.1 4 0 5 0 - -2.5 4 0 7 0 - 1e-09 4 0 3 1 - 1 4 0 4 1 - 1 4 0 5 1 - 1 " +
		"7 0 5 0 - 1 7 0 6 0 - 1 7 0 7 1 - 1 7 0 7 2 - 1 7 0 7 3 - 1 7 0 7 4 - 1 7 0 7 5 - 1 7 0 7 6 - 1 7 0 7 7 - 1 " +
		"0 6 0 7 n 1 0 6 0 7 b 1 0 6 0 7 r 1 0 6 0 7 q 1.23456789e+07\n"
	if got := buf.String(); got != want {
		t.Errorf("Write =\n%s\nwant\n%s", got, want)
	}
	back, err := ReadPheromones(strings.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := back.Write(&again); err != nil {
		t.Fatal(err)
	}
	if again.String() != want {
		t.Errorf("write, read, write gave\n%s\nwant\n%s", again.String(), want)
	}
	// The castling move reads back as the king's move to g1.
	var castle chess.Move
	for _, mv := range back.Values(&p) {
		if mv.Move.IsCastle() {
			castle = mv.Move
			if mv.Value != 1e-9 {
				t.Errorf("castling's value %v, want 1e-9", mv.Value)
			}
		}
	}
	if castle == chess.NoMove || p.FormatUCI(castle, false) != "e1g1" {
		t.Errorf("castling read back as %v", castle)
	}
}

func TestReadPheromonesErrors(t *testing.T) {
	board := "####K##R" + strings.Repeat("#", 40) + "P#######" + "####k###"
	tests := []struct {
		name, in string
		line     int
		what     string
	}{
		{"short board", "####\n1 1 1 2 - 1\n", 1, "this line has 4"},
		{"bad piece letter", strings.Replace(board, "K", "X", 1) + "\n\n", 1, `character 5, 'X'`},
		{"missing moves line", board + "\n", 2, "the file ends where the moves"},
		{"blank line for a board", board + "\n\n\n", 3, "this line has 0"},
		{"field count", board + "\n4 0 3 0 -\n", 2, "5 fields"},
		{"coordinate 8", board + "\n4 0 3 0 - 1 4 8 3 1 - 1\n", 2, `move 2: from-y "8" is not 0..7`},
		{"coordinate letter", board + "\n4 0 x 0 - 1\n", 2, `to-x "x"`},
		{"coordinate two digits", board + "\n4 0 3 00 - 1\n", 2, `to-y "00"`},
		{"same square", board + "\n4 0 4 0 - 1\n", 2, "from e1 to the same square"},
		{"promotion", board + "\n0 6 0 7 k 1\n", 2, `promotion "k"`},
		{"value", board + "\n4 0 3 0 - one\n", 2, `value "one"`},
		{"infinite value", board + "\n4 0 3 0 - +Inf\n", 2, `value "+Inf"`},
		{"duplicate move", board + "\n4 0 3 0 - 1 4 0 3 0 - 2\n", 2, "the move e1d1- is given twice"},
		{"duplicate board", board + "\n\n" + board + "\n\n", 3, "the board of line 1 again"},
		{"long line", board + "\n" + strings.Repeat("4 0 3 0 - 1 ", 7000) + "\n", 2, "longer than"},
	}
	for _, tt := range tests {
		_, err := ReadPheromones(strings.NewReader(tt.in))
		var le *LineError
		if !errors.As(err, &le) || !errors.Is(err, ErrPheromones) {
			t.Errorf("%s: error %v, want a *LineError", tt.name, err)
			continue
		}
		if le.Line != tt.line || !strings.Contains(le.What, tt.what) {
			t.Errorf("%s: line %d %q, want line %d with %q", tt.name, le.Line, le.What, tt.line, tt.what)
		}
	}
	// What is accepted: nothing at all, CRLF, runs of blanks, any move order.
	for _, in := range []string{"", board + "\r\n4 0 3 0 - 1\r\n", board + "\n  4  0 3\t0 - 1  \n", board + "\n4 0 4 1 - 1 4 0 3 0 - 2\n"} {
		if _, err := ReadPheromones(strings.NewReader(in)); err != nil {
			t.Errorf("ReadPheromones(%q): %v", in, err)
		}
	}
}

func FuzzReadPheromones(f *testing.F) {
	board := "####K##R" + strings.Repeat("#", 40) + "P#######" + "####k###"
	f.Add(board + "\n4 0 3 0 - 0.1 4 0 7 0 - -2.5 0 6 0 7 q 1e300\n")
	f.Add(board + "\n\n")
	f.Add("####\n")
	f.Add(board + "\n4 0 3 0 - 1 4 0 3 0 - 1\n" + board + "\n")
	f.Fuzz(func(t *testing.T, in string) {
		tab, err := ReadPheromones(strings.NewReader(in))
		if err != nil {
			var le *LineError
			if !errors.As(err, &le) || le.Line < 1 {
				t.Fatalf("ReadPheromones(%q) error %v: want a *LineError with a line", in, err)
			}
			return
		}
		var first, second bytes.Buffer
		if err := tab.Write(&first); err != nil {
			t.Fatal(err)
		}
		again, err := ReadPheromones(bytes.NewReader(first.Bytes()))
		if err != nil {
			t.Fatalf("reading what Write wrote: %v\n%s", err, first.String())
		}
		if err := again.Write(&second); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("write, read, write differ:\n%s\n%s", first.String(), second.String())
		}
	})
}

func TestPlayerGreedy(t *testing.T) {
	p := mustFEN(t, smallFEN)
	board := "####K##R" + strings.Repeat("#", 40) + "P#######" + "####k###"
	play := func(tab *Pheromones, seed uint64) string {
		t.Helper()
		pl := tab.Player()
		pl.NewGame(seed)
		res, err := pl.Move(context.Background(), chess.NewGame(p, chess.DefaultRules()))
		if err != nil {
			t.Fatal(err)
		}
		return p.FormatUCI(res.Move, false)
	}
	read := func(moves string) *Pheromones {
		t.Helper()
		tab, err := ReadPheromones(strings.NewReader(board + "\n" + moves + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		return tab
	}
	// The highest value wins; a7a8q beats everything.
	if got := play(read("4 0 3 0 - 1 0 6 0 7 q 3 7 0 7 7 - 2"), 1); got != "a7a8q" {
		t.Errorf("best move %s, want a7a8q", got)
	}
	// Ties go to the first in canonical order: e1 (4) before h1 (7).
	if got := play(read("7 0 7 7 - 5 4 0 4 1 - 5"), 1); got != "e1e2" {
		t.Errorf("tie broken to %s, want e1e2", got)
	}
	// A stored move that is not legal here (h1h8 with a piece in the way
	// is not the case; e1e3 is never legal) is ignored, even with the
	// higher value.
	if got := play(read("4 0 4 2 - 9 4 0 5 0 - 1"), 1); got != "e1f1" {
		t.Errorf("with an illegal stored move played %s, want e1f1", got)
	}
	// Castling is stored as king takes rook.
	if got := play(read("4 0 7 0 - 9 4 0 5 0 - 1"), 1); got != "e1g1" {
		t.Errorf("castling entry played %s, want e1g1", got)
	}
	// Unknown positions, or no legal stored move: seeded random moves.
	for _, tab := range []*Pheromones{NewPheromones(), read("4 0 4 2 - 9")} {
		seen := map[string]bool{}
		for seed := range uint64(40) {
			a, b := play(tab, seed), play(tab, seed)
			if a != b {
				t.Fatalf("seed %d played %s then %s", seed, a, b)
			}
			seen[a] = true
		}
		if len(seen) < 5 {
			t.Errorf("random fallback played only %v", seen)
		}
	}
}

func TestLegalKeysSorted(t *testing.T) {
	for _, fen := range []string{chess.StartFEN, smallFEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"} {
		p := mustFEN(t, fen)
		legal := p.LegalMoves(nil)
		keys := legalKeys(legal)
		if len(keys) != len(legal) || !slices.IsSorted(keys) {
			t.Errorf("%s: keys %v not sorted", fen, keys)
		}
	}
}
