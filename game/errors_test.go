package game

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorf(t *testing.T) {
	errSyntax := errors.New("test: syntax error")
	errIllegal := errors.New("test: illegal move")
	for _, tc := range []struct {
		err     error
		wantMsg string
		kind    error
	}{
		{Errorf(errSyntax, "square %q out of range", "z9"), `square "z9" out of range`, errSyntax},
		{Errorf(errIllegal, "illegal in this position"), "illegal in this position", errIllegal},
		{fmt.Errorf("test: parse move %q: %w", "e2e5", Errorf(errIllegal, "no piece moves so")),
			`test: parse move "e2e5": no piece moves so`, errIllegal},
	} {
		if got := tc.err.Error(); got != tc.wantMsg {
			t.Errorf("Error() = %q, want %q", got, tc.wantMsg)
		}
		for _, kind := range []error{errSyntax, errIllegal} {
			if got, want := errors.Is(tc.err, kind), kind == tc.kind; got != want {
				t.Errorf("%q: errors.Is(%v) = %v, want %v", tc.wantMsg, kind, got, want)
			}
		}
		var e *Error
		if !errors.As(tc.err, &e) || e.Kind != tc.kind {
			t.Errorf("%q: errors.As did not find an *Error of kind %v", tc.wantMsg, tc.kind)
		}
	}
}

func TestParsed(t *testing.T) {
	errKind := errors.New("kind")
	if v, err := Parsed("g: parse X", "in", 7, nil); v != 7 || err != nil {
		t.Errorf("Parsed(7, nil) = %d, %v, want 7, nil", v, err)
	}
	v, err := Parsed("g: parse X", "in", 7, Errorf(errKind, "bad %d", 1))
	if want := `g: parse X "in": bad 1`; v != 0 || err == nil || err.Error() != want || !errors.Is(err, errKind) {
		t.Errorf("Parsed(7, Errorf) = %d, %v, want 0 and %q wrapping the kind", v, err, want)
	}
}

func TestParsedIn(t *testing.T) {
	errKind := errors.New("kind")
	calls := 0
	fen := func() string { calls++; return "8/8 w" }
	if v, err := ParsedIn("g: parse move", "e4", fen, 7, nil); v != 7 || err != nil || calls != 0 {
		t.Errorf("ParsedIn(7, nil) = %d, %v with %d FEN calls, want 7, nil and none", v, err, calls)
	}
	v, err := ParsedIn("g: parse move", "e4", fen, 7, Errorf(errKind, "no"))
	if want := `g: parse move "e4" in 8/8 w: no`; v != 0 || err == nil || err.Error() != want || !errors.Is(err, errKind) {
		t.Errorf("ParsedIn(7, Errorf) = %d, %v, want 0 and %q wrapping the kind", v, err, want)
	}
}
