package pgn

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

var errSyntax = errors.New("syntax")

func TestTags(t *testing.T) {
	tags := []Tag{{Name: "Event", Value: "e"}, {Name: "Site", Value: ""}}
	if got := TagValue(tags, "Event"); got != "e" {
		t.Errorf("TagValue(Event) = %q, want %q", got, "e")
	}
	if got := TagValue(tags, "Round"); got != "" {
		t.Errorf("TagValue(Round) = %q, want \"\"", got)
	}
	if !HasTag(tags, "Site") || HasTag(tags, "Round") {
		t.Errorf("HasTag(Site), HasTag(Round) = %v, %v, want true, false", HasTag(tags, "Site"), HasTag(tags, "Round"))
	}
	tags = SetTag(tags, "Site", "s")
	tags = SetTag(tags, "Round", "1")
	tags = AddMissing(tags, []Tag{{Name: "Event", Value: "?"}, {Name: "White", Value: "?"}, {Name: "Black", Value: "?"}})
	want := []Tag{{Name: "Event", Value: "e"}, {Name: "Site", Value: "s"}, {Name: "Round", Value: "1"},
		{Name: "White", Value: "?"}, {Name: "Black", Value: "?"}}
	if !slices.Equal(tags, want) {
		t.Errorf("after SetTag and AddMissing: %v, want %v", tags, want)
	}
}

func TestCheckTag(t *testing.T) {
	for _, tc := range []struct {
		tags []Tag
		err  string // "" for none
	}{
		{[]Tag{{Name: "A_1", Value: `x"\`}}, ""},
		{[]Tag{{Name: "1A", Value: ""}}, `tag name "1A" is not a letter followed by letters, digits and underscores`},
		{[]Tag{{Name: "A", Value: "x\ny"}}, "tag A: value has a line break"},
		{[]Tag{{Name: "A", Value: "x\ry"}}, "tag A: value has a line break"},
		{[]Tag{{Name: "B", Value: ""}, {Name: "A", Value: ""}, {Name: "A", Value: ""}}, "tag A given twice"},
	} {
		err := CheckTag(tc.tags, len(tc.tags)-1, errSyntax)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("CheckTag(%v) = %v, want nil", tc.tags, err)
		case tc.err != "" && (err == nil || err.Error() != tc.err || !errors.Is(err, errSyntax)):
			t.Errorf("CheckTag(%v) = %v, want %q wrapping the syntax error", tc.tags, err, tc.err)
		}
	}
}

func TestSetUp(t *testing.T) {
	for _, tc := range []struct {
		in, want []Tag
	}{
		{[]Tag{{Name: "Event", Value: "?"}}, []Tag{{Name: "Event", Value: "?"}, {Name: "SetUp", Value: "1"}, {Name: "FEN", Value: "f"}}},
		{[]Tag{{Name: "FEN", Value: "g"}, {Name: "Event", Value: "?"}}, []Tag{{Name: "SetUp", Value: "1"}, {Name: "FEN", Value: "g"}, {Name: "Event", Value: "?"}}},
		{[]Tag{{Name: "SetUp", Value: "0"}, {Name: "Event", Value: "?"}}, []Tag{{Name: "SetUp", Value: "1"}, {Name: "Event", Value: "?"}, {Name: "FEN", Value: "f"}}},
	} {
		if got := SetUp(slices.Clone(tc.in), "f"); !slices.Equal(got, tc.want) {
			t.Errorf("SetUp(%v, f) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestFormat(t *testing.T) {
	units := []string{"1.", strings.Repeat("a", 70), "b", "c", strings.Repeat("d", 85)}
	got := Format([]Tag{{Name: "Event", Value: `a "b" \c`}, {Name: "Result", Value: "*"}}, units, "*")
	want := `[Event "a \"b\" \\c"]` + "\n" + `[Result "*"]` + "\n\n" +
		"1. " + strings.Repeat("a", 70) + " b c\n" + strings.Repeat("d", 85) + "\n*\n\n"
	if got != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
	if got, want := Format(nil, nil, "1-0"), "\n1-0\n\n"; got != want {
		t.Errorf("Format(nil, nil, 1-0) = %q, want %q", got, want)
	}
	if got, want := MoveLines([]string{"1.", "e4", "e5"}), "1. e4 e5"; got != want {
		t.Errorf("MoveLines = %q, want %q", got, want)
	}
}

func TestError(t *testing.T) {
	e := &Error{Format: "chess: pgn", Game: 2, Line: 9, Err: errSyntax}
	if got, want := e.Error(), "chess: pgn game 2, line 9: syntax"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(e, errSyntax) {
		t.Errorf("errors.Is(%v, errSyntax) = false, want true", e)
	}
}

func TestOne(t *testing.T) {
	if g, err := One([]int{7}, nil, "x: parse", errSyntax); g != 7 || err != nil {
		t.Errorf("One([7], nil) = %d, %v, want 7, nil", g, err)
	}
	errRead := errors.New("read")
	if g, err := One([]int{7}, errRead, "x: parse", errSyntax); g != 0 || err != errRead {
		t.Errorf("One([7], errRead) = %d, %v, want 0, errRead", g, err)
	}
	g, err := One([]int{1, 2}, nil, "x: parse", errSyntax)
	if want := "x: parse: found 2 games, want exactly one"; g != 0 || err == nil || err.Error() != want || !errors.Is(err, errSyntax) {
		t.Errorf("One([1 2], nil) = %d, %v, want 0 and %q wrapping the syntax error", g, err, want)
	}
}
