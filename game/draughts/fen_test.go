package draughts

import (
	"errors"
	"testing"

	"evolved/game"
)

const startFEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"

func TestPosition_FEN(t *testing.T) {
	tests := []struct {
		name string
		pos  Position
		want string
	}{
		{"start", Start(), startFEN},
		{
			// The example of the PDN standard.
			"pdn example",
			NewPosition(squareBits(12, 16, 20, 22, 25, 29), squareBits(18, 24, 27, 28, 10, 15), squareBits(10, 15, 22, 25, 29), Black),
			"B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
		},
		{"empty board, white to move", NewPosition(0, 0, 0, White), "W:W:B"},
		{"kings only", NewPosition(squareBits(32), squareBits(1), squareBits(1, 32), White), "W:WK1:BK32"},
	}
	for _, tt := range tests {
		if got := tt.pos.FEN(); got != tt.want {
			t.Errorf("%s: FEN() = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestParseFEN(t *testing.T) {
	example := NewPosition(squareBits(12, 16, 20, 22, 25, 29), squareBits(18, 24, 27, 28, 10, 15), squareBits(10, 15, 22, 25, 29), Black)
	tests := []struct {
		in   string
		want Position
	}{
		{startFEN, Start()},
		{"B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29", example},
		// Sections in the other order, squares in any order.
		{"B:BK29,K25,12,K22,16,20:WK15,28,27,18,24,K10", example},
		// Ranges, lower case, spaces around tokens, a trailing dot.
		{"B:W21-32:B1-12", Start()},
		{"b:w21-32:b1-12", Start()},
		{" B : W 21-24 , 25 - 32 : B 1-12 . ", Start()},
		{"B:W21-32,:B1-12.", Start()},
		{"W:WK1-4:B25-28,k5", NewPosition(squareBits(25, 26, 27, 28, 5), squareBits(1, 2, 3, 4), squareBits(1, 2, 3, 4, 5), White)},
		{"w:wk 1 - 4:b", NewPosition(0, squareBits(1, 2, 3, 4), squareBits(1, 2, 3, 4), White)},
		{"B:W09,10:B05", NewPosition(squareBits(5), squareBits(9, 10), 0, Black)},
		// Empty and missing sections.
		{"B:W:B1,2", NewPosition(squareBits(1, 2), 0, 0, Black)},
		{"B:B1,2", NewPosition(squareBits(1, 2), 0, 0, Black)},
		{"W:W30", NewPosition(0, squareBits(30), 0, White)},
	}
	for _, tt := range tests {
		got, err := ParseFEN(tt.in)
		if err != nil {
			t.Errorf("ParseFEN(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParseFEN(%q) = %s, want %s", tt.in, got.FEN(), tt.want.FEN())
		}
		if err := got.Validate(); err != nil {
			t.Errorf("ParseFEN(%q).Validate(): %v", tt.in, err)
		}
		// Canonical output reads back to the same position and is stable.
		back, err := ParseFEN(got.FEN())
		if err != nil || back != got || back.FEN() != got.FEN() {
			t.Errorf("ParseFEN(%q).FEN() = %q does not read back: %s, %v", tt.in, got.FEN(), back.FEN(), err)
		}
	}
}

func TestParseFEN_Errors(t *testing.T) {
	tests := []struct {
		in  string
		err error
		msg string
	}{
		{"", ErrSyntax, `draughts: parse FEN "": missing side to move (want B or W)`},
		{"X:W1:B2", ErrSyntax, `draughts: parse FEN "X:W1:B2": unknown side to move "X" (want B or W)`},
		{"?:W1:B2", ErrSyntax, ""},
		{"B", ErrSyntax, `draughts: parse FEN "B": no piece sections after the side to move`},
		{"B:W1:B2:W3", ErrSyntax, `draughts: parse FEN "B:W1:B2:W3": 3 piece sections (want a W and a B section)`},
		{"B:W1:W2", ErrSyntax, `draughts: parse FEN "B:W1:W2": two white sections`},
		{"B:X1:B2", ErrSyntax, `draughts: parse FEN "B:X1:B2": section "X1": unknown colour (want W or B)`},
		{"B::B2", ErrSyntax, ""},
		{"B:W33:B1", ErrSyntax, `draughts: parse FEN "B:W33:B1": square 33 out of range 1..32`},
		{"B:W0:B1", ErrSyntax, `draughts: parse FEN "B:W0:B1": square 0 out of range 1..32`},
		{"B:W1-99999999999999999999:B1", ErrSyntax, ""},
		{"B:W1,x:B2", ErrSyntax, `draughts: parse FEN "B:W1,x:B2": malformed token "x" (want a square number, K for a king, or a range like 1-12)`},
		{"B:W1,,2:B3", ErrSyntax, `draughts: parse FEN "B:W1,,2:B3": section "W1,,2": empty square between commas`},
		{"B:W1-:B3", ErrSyntax, ""},
		{"B:WK:B3", ErrSyntax, ""},
		{"B:WKK5:B3", ErrSyntax, ""},
		{"B:W5-3:B1", ErrSyntax, `draughts: parse FEN "B:W5-3:B1": range "5-3" runs backwards`},
		{"B:W1 2:B3", ErrSyntax, ""},
		{"B:Wa1:B3", ErrSyntax, ""},
		{"B:W5:B5", ErrInvalidPosition, `draughts: parse FEN "B:W5:B5": square 5 given twice`},
		{"B:W5,K5:B1", ErrInvalidPosition, `draughts: parse FEN "B:W5,K5:B1": square 5 given twice`},
		{"B:W5-8,7:B1", ErrInvalidPosition, ""},
		{"B:W:B1-13", ErrInvalidPosition, `draughts: parse FEN "B:W:B1-13": 13 black pieces (at most 12)`},
		{"B:W5-17:B", ErrInvalidPosition, `draughts: parse FEN "B:W5-17:B": 13 white pieces (at most 12)`},
		{"B:W20:B30", ErrInvalidPosition, `draughts: parse FEN "B:W20:B30": black man on 30, its own crowning row (it would be a king)`},
		{"W:W3:B20", ErrInvalidPosition, `draughts: parse FEN "W:W3:B20": white man on 3, its own crowning row (it would be a king)`},
	}
	for _, tt := range tests {
		p, err := ParseFEN(tt.in)
		if !errors.Is(err, tt.err) {
			t.Errorf("ParseFEN(%q) = %s, %v; want an error wrapping %v", tt.in, p.FEN(), err, tt.err)
			continue
		}
		if tt.msg != "" && err.Error() != tt.msg {
			t.Errorf("ParseFEN(%q) error\n got %s\nwant %s", tt.in, err, tt.msg)
		}
		if p != (Position{}) {
			t.Errorf("ParseFEN(%q) returned %s with its error, want the zero Position", tt.in, p.FEN())
		}
	}
}

func TestPosition_Validate(t *testing.T) {
	tests := []struct {
		name string
		pos  Position
		msg  string // "" for a valid position
	}{
		{"start", Start(), ""},
		{"zero position", Position{}, ""},
		{"kings on any row", NewPosition(squareBits(1), squareBits(32), squareBits(1, 32), White), ""},
		{"men on the far rows are fine", NewPosition(squareBits(1), squareBits(32), 0, Black), ""},
		{"overlap", NewPosition(squareBits(5, 6), squareBits(6), 0, Black), "draughts: invalid position: square 6 holds both a black and a white piece"},
		{"stray king", NewPosition(squareBits(5), squareBits(6), squareBits(7), Black), "draughts: invalid position: square 7 holds a king of neither side"},
		{"13 black", NewPosition(0x1FFF, 0, 0, Black), "draughts: invalid position: 13 black pieces (at most 12)"},
		{"13 white kings", NewPosition(0, 0x1FFF, 0x1FFF, White), "draughts: invalid position: 13 white pieces (at most 12)"},
		{"black man crowned", NewPosition(squareBits(29), 0, 0, White), "draughts: invalid position: black man on 29, its own crowning row (it would be a king)"},
		{"white man crowned", NewPosition(0, squareBits(4), 0, Black), "draughts: invalid position: white man on 4, its own crowning row (it would be a king)"},
		{"side", NewPosition(squareBits(5), 0, 0, game.Player(2)), "draughts: invalid position: side to move 2 is neither Black nor White"},
		{"struct literal without hash", Position{Black: squareBits(5)}, "draughts: invalid position: hash does not match the pieces (build positions with NewPosition)"},
	}
	for _, tt := range tests {
		err := tt.pos.Validate()
		switch {
		case tt.msg == "" && err != nil:
			t.Errorf("%s: Validate() = %v, want nil", tt.name, err)
		case tt.msg != "" && err == nil:
			t.Errorf("%s: Validate() = nil, want %q", tt.name, tt.msg)
		case tt.msg != "" && (err.Error() != tt.msg || !errors.Is(err, ErrInvalidPosition)):
			t.Errorf("%s: Validate() = %v, want %q wrapping ErrInvalidPosition", tt.name, err, tt.msg)
		}
	}
}
