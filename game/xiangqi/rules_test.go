package xiangqi

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"evolved/game"
)

// ruleCase is a position built to show one rule, with moves that must be
// legal and moves that must not. The oracle test also plays random games
// from these positions.
type ruleCase struct {
	name    string
	fen     string
	legal   []string
	illegal []string
}

var ruleCases = []ruleCase{
	{"horse leg blocked by a soldier on c6", "3k5/9/9/9/2P6/2N6/9/9/9/4K4 w - - 0 1",
		[]string{"c5e6", "c5a6", "c5e4", "c5a4", "c5b3", "c5d3"}, []string{"c5b7", "c5d7"}},
	{"elephant eye blocked on d2", "3k5/9/9/9/9/9/9/9/3N5/2B1K4 w - - 0 1",
		[]string{"c1a3"}, []string{"c1e3"}},
	{"elephant at the river does not cross", "3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1",
		[]string{"c5a3", "c5e3"}, []string{"c5a7", "c5e7"}},
	{"cannon captures over one screen, not without", "3k5/9/n8/9/P8/C7r/9/9/9/4K4 w - - 0 1",
		[]string{"a5a8", "a5h5", "a5a4"}, []string{"a5i5", "a5a6", "a5a7", "a5a9"}},
	{"cannon does not capture over two screens", "3k5/9/n8/p8/P8/C8/9/9/9/4K4 w - - 0 1",
		[]string{"a5a7"}, []string{"a5a8", "a5a6"}},
	{"general may not face the other general", "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
		[]string{"e1f1", "e1e2"}, []string{"e1d1", "e1e0", "e1f2"}},
	{"a piece between the generals stays on the file", "4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1",
		[]string{"e5e6", "e5e2"}, []string{"e5a5", "e5f5"}},
	{"soldier before the river only advances, after it also sideways", "3k5/9/9/9/2P6/9/4P4/9/9/4K4 w - - 0 1",
		[]string{"e4e5", "c6c7", "c6b6", "c6d6"}, []string{"e4d4", "e4f4", "e4e3", "c6c5"}},
	{"black soldier after the river", "3k5/9/9/9/9/9/9/4p4/9/4K4 b - - 0 1",
		[]string{"e3e2", "e3d3", "e3f3"}, []string{"e3e4"}},
	{"a check must be answered", "3k5/9/9/9/9/9/9/9/9/r3K4 w - - 0 1",
		[]string{"e1e2"}, []string{"e1d1", "e1f1"}},
	{"advisor stays on the palace diagonals", "3k5/9/9/9/9/9/9/9/4A4/5K3 w - - 0 1",
		[]string{"e2d3", "e2f3", "e2d1"}, []string{"e2e3", "e2d2", "e2f1"}},
}

func TestRules(t *testing.T) {
	for _, tc := range ruleCases {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			var moves []string
			for _, m := range p.LegalMoves(nil) {
				moves = append(moves, m.String())
			}
			for _, s := range tc.legal {
				if !slices.Contains(moves, s) {
					t.Errorf("%s: %s is not among the legal moves %v, want it legal", tc.fen, s, moves)
				}
			}
			for _, s := range tc.illegal {
				if slices.Contains(moves, s) {
					t.Errorf("%s: %s is legal, want it illegal", tc.fen, s)
				}
			}
		})
	}
}

func TestNoMovesLoses(t *testing.T) {
	tests := []struct {
		name    string
		fen     string
		inCheck bool
	}{
		{"checkmate by two chariots", "R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1", true},
		{"stalemate: the general's points are covered", "3k5/8R/9/9/9/9/9/9/9/4K4 b - - 0 1", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen)
			if got := p.InCheck(); got != tc.inCheck {
				t.Errorf("InCheck() = %v, want %v", got, tc.inCheck)
			}
			if got := p.LegalMoves(nil); len(got) != 0 {
				t.Errorf("LegalMoves = %v, want none", got)
			}
			g := NewGame(p, DefaultRules())
			want := game.Outcome{Result: game.FirstWins, Reason: game.NoMoves}
			if got := g.Outcome(); got != want {
				t.Errorf("Outcome() = %v, want %v", got, want)
			}
		})
	}
}

func TestParseFENErrors(t *testing.T) {
	tests := []struct {
		in   string
		err  error
		text string // a part of the message
	}{
		{"", ErrSyntax, "0 fields"},
		{"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", ErrSyntax, "9 ranks"},
		{"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", ErrSyntax, `side to move "x"`},
		{"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", ErrSyntax, "has 8 points"},
		{"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w", ErrSyntax, "longer than 9"},
		{"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABQR w", ErrSyntax, "'Q'"},
		{"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ - 0 1", ErrSyntax, "castling"},
		{"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", ErrSyntax, "halfmove"},
		{"3k5/9/9/9/9/9/9/9/9/9 w", ErrInvalidPosition, "no red general"},
		{"3k5/9/9/9/9/9/9/9/9/K8 w", ErrInvalidPosition, "general cannot stand on a1"},
		{"3k5/9/9/9/9/9/9/4A4/9/4K4 w", ErrInvalidPosition, "advisor cannot stand on e3"},
		{"3k5/9/9/9/B8/9/9/9/9/4K4 w", ErrInvalidPosition, "elephant cannot stand on a6"},
		{"3k5/9/9/9/9/9/9/9/P8/4K4 w", ErrInvalidPosition, "soldier cannot stand on a2"},
		{"3k5/9/9/9/9/RRR6/9/9/9/4K4 w", ErrInvalidPosition, "more than 2 red chariots"},
		{"4k4/9/9/9/9/9/9/9/9/4K4 w", ErrInvalidPosition, "face each other"},
		{"3k5/9/9/9/9/9/9/9/9/r3K4 b", ErrInvalidPosition, "not to move (red) is in check"},
	}
	for _, tc := range tests {
		p, err := ParseFEN(tc.in)
		if !errors.Is(err, tc.err) || err == nil || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("ParseFEN(%q) = %v, want an error wrapping %v that mentions %q", tc.in, err, tc.err, tc.text)
		}
		if p != (Position{}) {
			t.Errorf("ParseFEN(%q) returned %s with its error", tc.in, p.FEN())
		}
	}
}

func TestParseFEN(t *testing.T) {
	tests := []struct {
		in, out string // out "" means the same as in
	}{
		{StartFEN, ""},
		{"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", StartFEN},
		{"rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1", StartFEN},
		{"rnbakab1r/9/1c4nc1/p1p1p1p1p/9/4P4/P1P3P1P/1C2C4/9/RNBAKABNR b - - 3 2", ""},
		{"3k5/9/9/9/9/9/9/9/9/4K4 b - - 7 0", "3k5/9/9/9/9/9/9/9/9/4K4 b - - 7 1"},
	}
	for _, tc := range tests {
		want := tc.out
		if want == "" {
			want = tc.in
		}
		p, err := ParseFEN(tc.in)
		if err != nil {
			t.Errorf("ParseFEN(%q): %v", tc.in, err)
			continue
		}
		if got := p.FEN(); got != want {
			t.Errorf("ParseFEN(%q).FEN() = %q, want %q", tc.in, got, want)
		}
	}
}

func TestParseUCI(t *testing.T) {
	p := Start()
	tests := []struct {
		in   string
		want string // "" for an error
		err  error
		text string
	}{
		{"h3e3", "h3e3", nil, ""},
		{"H3E3", "h3e3", nil, ""},
		{"b1c3", "b1c3", nil, ""},
		{"h3h10", "h3h10", nil, ""},
		{"h3h", "", ErrSyntax, "two squares"},
		{"j1j2", "", ErrSyntax, "two squares"},
		{"a11a2", "", ErrSyntax, "two squares"},
		{"a0a1", "", ErrSyntax, "two squares"},
		{"h3e3x", "", ErrSyntax, "two squares"},
		{"e5e6", "", ErrIllegalMove, "no piece on e5"},
		{"h10g8", "", ErrIllegalMove, "is black's, and red is to move"},
		{"b1b3", "", ErrIllegalMove, "your own cannon stands on b3"},
		{"b1d2", "", ErrIllegalMove, "horse on b1 cannot go to d2: its leg c1 is blocked"},
		{"b1b2", "", ErrIllegalMove, "the horse moves one point along a line and one diagonally"},
		{"c1e3", "c1e3", nil, ""},
		{"c1e5", "", ErrIllegalMove, "elephant on c1 cannot go to e5"},
	}
	for _, tc := range tests {
		m, err := p.ParseUCI(tc.in)
		if tc.want != "" {
			if err != nil || m.String() != tc.want {
				t.Errorf("ParseUCI(%q) = %v, %v, want %s", tc.in, m, err, tc.want)
			}
			continue
		}
		if m != NoMove || !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("ParseUCI(%q) = %v, %v, want an error wrapping %v that mentions %q", tc.in, m, err, tc.err, tc.text)
		}
	}
}

func TestRepetition(t *testing.T) {
	// The red chariot checks along ranks 10 and 9 while the black general
	// steps between e10 and e9: a draw, or under PerpetualCheckLoses a loss
	// for Red, the third time the position occurs.
	const fen = "4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1"
	moves := []string{"i1i10", "e10e9", "i10i9", "e9e10", "i9i10", "e10e9", "i10i9", "e9e10", "i9i10"}
	for _, tc := range []struct {
		rules Rules
		want  game.Outcome
	}{
		{DefaultRules(), game.Outcome{Result: game.Draw, Reason: game.Repetition}},
		{Rules{PerpetualCheckLoses: true}, game.Outcome{Result: game.SecondWins, Reason: game.Repetition}},
	} {
		g := NewGame(mustFEN(t, fen), tc.rules)
		for i, s := range moves {
			if got := g.Outcome(); got.Over() {
				t.Fatalf("%+v: over after %d moves: %v", tc.rules, i, got)
			}
			m, err := g.ParseMove(s)
			if err != nil {
				t.Fatal(err)
			}
			g.Make(m)
		}
		if got := g.Outcome(); got != tc.want {
			t.Errorf("%+v: Outcome() after %v = %v, want %v", tc.rules, moves, got, tc.want)
		}
		if got, want := g.Drawn(), tc.want.Result == game.Draw; got != want {
			t.Errorf("%+v: Drawn() = %v, want %v", tc.rules, got, want)
		}
	}
}

func TestMoveLimit(t *testing.T) {
	g := NewGame(Start(), Rules{MaxMoves: 2})
	for _, s := range []string{"h1g3", "h10g8", "g3h1", "g8h10"} {
		m, err := g.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		g.Make(m)
	}
	want := game.Outcome{Result: game.Draw, Reason: game.MoveLimit}
	if got := g.Outcome(); got != want {
		t.Errorf("Outcome() = %v, want %v", got, want)
	}
	if !g.Drawn() {
		t.Errorf("Drawn() = false, want true")
	}
}
