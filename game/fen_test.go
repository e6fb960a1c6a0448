package game

import (
	"errors"
	"strconv"
	"strings"
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

// TestFENBoard writes and reads the placement field of a board of 3 files
// and 2 ranks whose pieces are the letters x and y, and checks every error
// ParseFENBoard reports itself, and one of put's.
func TestFENBoard(t *testing.T) {
	syntax, badPlace := errors.New("syntax"), errors.New("place")
	board := [2][3]byte{{'x', 0, 0}, {0, 'y', 0}} // by rank, then file
	var sb strings.Builder
	WriteFENBoard(&sb, 3, 2, func(f, r int) byte { return board[r][f] })
	if got, want := sb.String(), "1y1/x2"; got != want {
		t.Errorf("WriteFENBoard = %q, want %q", got, want)
	}
	isPiece := func(ch byte) bool { return ch == 'x' || ch == 'y' }
	for _, tc := range []struct {
		field string
		want  string // what put saw, or the error
		kind  error
	}{
		{"1y1/x2", "y1,1 x0,0", nil},
		{"3/3", "", nil},
		{"3", "board has 1 ranks, want 2", syntax},
		{"3/4", `rank 1 "4": '4' is not a piece letter or digit 1..3`, syntax},
		{"3/2x1", `rank 1 "2x1" is longer than 3 cells`, syntax},
		{"3/xxxx", `rank 1 "xxxx" is longer than 3 cells`, syntax},
		{"3/zx1", `rank 1 "zx1": 'z' is not a piece letter or digit 1..3`, syntax},
		{"x/3", `rank 2 "x" has 1 cells, want 3`, syntax},
		{"3/1yy", "y may not stand on 2,0", badPlace},
	} {
		var seen []string
		err := ParseFENBoard(tc.field, 3, 2, "cells", syntax, isPiece, func(ch byte, f, r int) *Error {
			if ch == 'y' && r == 0 && f == 2 {
				return Errorf(badPlace, "y may not stand on %d,%d", f, r)
			}
			seen = append(seen, string(ch)+strconv.Itoa(f)+","+strconv.Itoa(r))
			return nil
		})
		switch {
		case tc.kind == nil && (err != nil || strings.Join(seen, " ") != tc.want):
			t.Errorf("ParseFENBoard(%q) put %v, error %v; want %q and no error", tc.field, seen, err, tc.want)
		case tc.kind != nil && (err == nil || err.Error() != tc.want || !errors.Is(err, tc.kind)):
			t.Errorf("ParseFENBoard(%q) error %v, want %q wrapping %v", tc.field, err, tc.want, tc.kind)
		}
	}
}

func TestParseFENSide(t *testing.T) {
	syntax := errors.New("syntax")
	for _, tc := range []struct {
		field string
		want  Player
		err   string // "" for none
	}{
		{"w", First, ""}, {"W", First, ""}, {"b", Second, ""}, {"B", Second, ""},
		{"r", First, `side to move "r", want w or b`},
		{"", First, `side to move "", want w or b`},
	} {
		got, err := ParseFENSide(tc.field, syntax, "want w or b")
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("ParseFENSide(%q) = %v, %v, want %v, nil", tc.field, got, err, tc.want)
		case tc.err != "" && (err == nil || err.Error() != tc.err || !errors.Is(err, syntax)):
			t.Errorf("ParseFENSide(%q) error %v, want %q wrapping the syntax error", tc.field, err, tc.err)
		}
	}
}
