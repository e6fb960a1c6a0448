package pgn

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// logReader returns a Reader whose callbacks log what they are given, and
// reject the move "bad" with errBad.
func logReader(log *[]string, marks string, setUp bool) *Reader {
	r := &Reader{
		Syntax: errTest,
		Marks:  marks,
		Result: func(s string) int {
			switch s {
			case "*":
				return 1
			case "1-0", "2-0":
				return 2
			case "0-1", "0-2":
				return 3
			case "1/2-1/2":
				return 4
			}
			return 0
		},
		Begin: func() { *log = append(*log, "begin") },
		Tag: func(name, value string) error {
			*log = append(*log, "tag "+name+"="+value)
			return nil
		},
		Move: func(text string) error {
			if text == "bad" {
				return errBad
			}
			*log = append(*log, "move "+text)
			return nil
		},
		End: func(result string) { *log = append(*log, "end "+result) },
	}
	if setUp {
		r.SetUp = func(word string) error { return fmt.Errorf("set-up %s: %w", word, errBad) }
	}
	return r
}

var errBad = errors.New("bad move")

func TestReader(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		marks string
		setUp bool
		want  []string // the callbacks' log
		line  int      // of the error, 0 for none
		err   error    // what it wraps
		msg   string   // its message
	}{
		{
			name: "comments, variations and NAGs skipped",
			in: `[Event "x \"quoted\""]
[Result "1-0"]
; a comment to the end of the line
1. e4 {a comment
over two lines} e5 $1 (1... c5 {inside} (1... e6) 2. Nf3 $14) 2. Nf3!? Nc6??
% an escaped line
3.Bb5 1-0
`,
			marks: "!?",
			want:  []string{"begin", `tag Event=x "quoted"`, "tag Result=1-0", "move e4", "move e5", "move Nf3", "move Nc6", "move Bb5", "end 1-0"},
		},
		{
			name:  "a tag after move text starts the next game, the Result tag settles the first",
			in:    "[Result \"0-1\"]\n1. d4\n\n[Event \"b\"]\n1. c4 *\n",
			marks: "!?",
			want:  []string{"begin", "tag Result=0-1", "move d4", "end 0-1", "begin", "tag Event=b", "move c4", "end *"},
		},
		{
			name: "a decided Result tag beats * in the move text",
			in:   `[Result "1/2-1/2"] 1. e4 *`,
			want: []string{"begin", "tag Result=1/2-1/2", "move e4", "end 1/2-1/2"},
		},
		{
			name: "a result that means the same as the tag's",
			in:   `[Result "2-0"] 1. e4 1-0`,
			want: []string{"begin", "tag Result=2-0", "move e4", "end 1-0"},
		},
		{
			name: "no result: *",
			in:   "1. e4 e5",
			want: []string{"begin", "move e4", "move e5", "end *"},
		},
		{
			name:  "numbers glued to moves and results, ellipses, lone suffixes",
			in:    "12...Nf6 13.Ne5 ... !? 14.0-1",
			marks: "!?",
			want:  []string{"begin", "move Nf6", "move Ne5", "end 0-1"},
		},
		{
			name:  "marks strip only what they hold",
			in:    "1. e4!! e5* 2. Nf3*",
			marks: "!?",
			want:  []string{"begin", "move e4", "move e5*", "move Nf3*", "end *"},
		},
		{
			name:  "PDN's marks",
			in:    "1. 11-15* 23-19!? 2-0",
			marks: "!?*",
			want:  []string{"begin", "move 11-15", "move 23-19", "end 2-0"},
		},
		{
			name: "games one after another",
			in:   "1. a3 1-0 1. b3 0-1\n1. c3 1/2-1/2",
			want: []string{"begin", "move a3", "end 1-0", "begin", "move b3", "end 0-1", "begin", "move c3", "end 1/2-1/2"},
		},
		{
			name: "a set-up read as a move",
			in:   "1. /W:W1:B2/ *",
			want: []string{"begin", "move /W:W1:B2/", "end *"},
		},
		{name: "empty"},
		{
			name:  "a set-up with its callback",
			in:    "[Event \"x\"]\n/W:W1:B2/",
			setUp: true,
			want:  []string{"begin", "tag Event=x"},
			line:  2, err: errBad, msg: "set-up /W:W1:B2/: bad move",
		},
		{
			name: "a result that contradicts the Result tag",
			in:   "[Result \"0-1\"]\n\n1. e4 1-0",
			want: []string{"begin", "tag Result=0-1", "move e4"},
			line: 3, err: errTest, msg: `result 1-0 in the move text contradicts [Result "0-1"]`,
		},
		{
			name: "a contradiction found at the next game's tags",
			in:   "[Result \"0-1\"]\n1. e4 1-0\n[Result \"1-0\"]\n1. d4\n[Result \"0-1\"]",
			want: []string{"begin", "tag Result=0-1", "move e4"},
			line: 2, err: errTest, msg: `result 1-0 in the move text contradicts [Result "0-1"]`,
		},
		{
			name: "a tag given twice",
			in:   "[A \"1\"]\n[B \"2\"]\n[A \"3\"]",
			want: []string{"begin", "tag A=1", "tag B=2"},
			line: 3, err: errTest, msg: "tag A given twice",
		},
		{
			name: "a move the game rejects",
			in:   "1. e4 e5\n2. bad",
			want: []string{"begin", "move e4", "move e5"},
			line: 2, err: errBad, msg: "bad move",
		},
		{
			name: "an unexpected closing parenthesis",
			in:   "1. e4 )",
			want: []string{"begin", "move e4"},
			line: 1, err: errTest, msg: "unexpected ')'",
		},
		{
			name: "a variation not closed",
			in:   "1. e4\n(1. d4",
			want: []string{"begin", "move e4"},
			line: 2, err: errTest, msg: "variation opened on line 2 is not closed",
		},
	} {
		var log []string
		line, err := logReader(&log, tc.marks, tc.setUp).Read([]byte(tc.in))
		if !slices.Equal(log, tc.want) {
			t.Errorf("%s: callbacks\n%s\nwant\n%s", tc.name, strings.Join(log, "\n"), strings.Join(tc.want, "\n"))
		}
		switch {
		case tc.err == nil && err != nil:
			t.Errorf("%s: error %v (line %d), want none", tc.name, err, line)
		case tc.err != nil && (!errors.Is(err, tc.err) || err.Error() != tc.msg || line != tc.line):
			t.Errorf("%s: error %v at line %d, want %q wrapping %v at line %d", tc.name, err, line, tc.msg, tc.err, tc.line)
		}
	}
}
