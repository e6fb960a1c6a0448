package pgn

import (
	"errors"
	"strings"
	"testing"
)

var errTest = errors.New("test: syntax error")

// tokens scans src as the game packages do and lists what it read, a
// token a line: tags as name=value, words as they are, skipped parts not.
func tokens(src string) ([]string, error) {
	s := NewScanner([]byte(src), errTest)
	var out []string
	for {
		s.SkipSpace()
		c, ok := s.Peek()
		if !ok {
			return out, nil
		}
		var err error
		switch c {
		case '[':
			var name, value string
			name, value, err = s.Tag()
			out = append(out, name+"="+value)
		case '{':
			err = s.Comment()
		case ';', '%':
			s.SkipLine()
		case '(':
			err = s.Variation()
		case '$':
			err = s.NAG()
		default:
			out = append(out, s.Word()+"@"+string(rune('0'+s.Line())))
		}
		if err != nil {
			return out, err
		}
	}
}

func TestScanner(t *testing.T) {
	got, err := tokens("\uFEFF[Event \"a \\\"b\\\" c\\d\"]\r\n[Site \"x\"]\n\n1. e4 {a\ncomment} e5 (1... c5 {x} (1... e6) 2. Nf3) $14 ; rest\n% escape\n2. Nf3 1-0\r")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`Event=a "b" c\d`, "Site=x", "1.@4", "e4@4", "e5@5", "2.@7", "Nf3@7", "1-0@7"}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("tokens:\n got %q\nwant %q", got, want)
	}
}

func TestScannerErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"[ \"v\"]", `tag name expected after [, found "\"v\"]"`},
		{"[Event v]", "tag Event: value must be a quoted string"},
		{"[Event \"v\"", "tag Event: missing ] after the value"},
		{"[Event \"v\n\"]", "tag Event: value not closed on its line"},
		{"[Event \"v", "tag Event: value not closed"},
		{"\n{open", "comment opened on line 2 is not closed"},
		{"e4 (e5 (d5)", "variation opened on line 1 is not closed"},
		{"e4 $x", "$ without a number (want a NAG like $1)"},
	} {
		_, err := tokens(tc.src)
		if !errors.Is(err, errTest) || err.Error() != tc.want {
			t.Errorf("tokens(%q) error %v, want %q wrapping the scanner's kind", tc.src, err, tc.want)
		}
	}
	for name, want := range map[string]bool{"Event": true, "e_2": true, "White_Elo": true, "": false, "1a": false, "_a": false, "a-b": false} {
		if IsTagName(name) != want {
			t.Errorf("IsTagName(%q) = %v, want %v", name, !want, want)
		}
	}
}
