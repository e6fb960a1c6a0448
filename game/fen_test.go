package game

import (
	"errors"
	"testing"
)

func TestParseFENClocks(t *testing.T) {
	syntax := errors.New("syntax")
	board := []string{"b", "w", "-", "-"}
	for _, tc := range []struct {
		clocks     []string
		half, full uint16
		err        string // "" for none
	}{
		{nil, 0, 1, ""},
		{[]string{"7"}, 7, 1, ""},
		{[]string{"7", "42"}, 7, 42, ""},
		{[]string{"0", "0"}, 0, 1, ""},
		{[]string{"65535", "65535"}, 65535, 65535, ""},
		{[]string{"65536"}, 0, 0, `halfmove clock "65536" is not a number 0..65535`},
		{[]string{"-1", "3"}, 0, 0, `halfmove clock "-1" is not a number 0..65535`},
		{[]string{"3", "x"}, 0, 0, `move no. "x" is not a number 0..65535`},
	} {
		half, full, err := ParseFENClocks(append(board[:4:4], tc.clocks...), syntax, "move no.")
		if half != tc.half || full != tc.full {
			t.Errorf("ParseFENClocks(%q) = %d, %d, want %d, %d", tc.clocks, half, full, tc.half, tc.full)
		}
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("ParseFENClocks(%q) error %v, want none", tc.clocks, err)
		case tc.err != "" && (err == nil || err.Error() != tc.err || !errors.Is(err, syntax)):
			t.Errorf("ParseFENClocks(%q) error %v, want %q wrapping the syntax error", tc.clocks, err, tc.err)
		}
	}
}
