package xiangqi

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestRecordRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for i := range 20 {
		start := Start()
		if i%2 == 1 {
			start = mustFEN(t, "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/4P4/P1P3P1P/1C2C4/9/RNBAKABNR b - - 3 2")
		}
		var moves []Move
		p := start
		for range rng.IntN(120) {
			legal := p.LegalMoves(nil)
			if len(legal) == 0 {
				break
			}
			m := legal[rng.IntN(len(legal))]
			moves = append(moves, m)
			p = p.Play(m)
		}
		rec := Record{Tags: [][2]string{{"Event", "test"}, {"White", "Red player"}, {"Annotator", "evolved"}}, Start: start, Moves: moves, Result: "1/2-1/2"}
		var buf bytes.Buffer
		if err := WriteRecord(&buf, rec); err != nil {
			t.Fatal(err)
		}
		back, err := ReadRecords(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("%v\n%s", err, buf.String())
		}
		if len(back) != 1 || back[0].Start != start || len(back[0].Moves) != len(moves) || back[0].Result != "1/2-1/2" ||
			back[0].Tag("White") != "Red player" || back[0].Tag("Annotator") != "evolved" || back[0].Tag("Variant") != "xiangqi" {
			t.Fatalf("read back %+v from\n%s", back, buf.String())
		}
		for j := range moves {
			if back[0].Moves[j] != moves[j] {
				t.Fatalf("move %d: read %v, wrote %v", j+1, back[0].Moves[j], moves[j])
			}
		}
	}
}

func TestWriteRecord(t *testing.T) {
	p := Start()
	m1, _ := p.ParseUCI("h3e3")
	q := p.Play(m1)
	m2, _ := q.ParseUCI("h10g8")
	var buf bytes.Buffer
	if err := WriteRecord(&buf, Record{Start: p, Moves: []Move{m1, m2}, Result: "*"}); err != nil {
		t.Fatal(err)
	}
	want := `[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]
[Variant "xiangqi"]

1. h3e3 {C2=5} h10g8 {H8+7} *

`
	if buf.String() != want {
		t.Errorf("WriteRecord wrote\n%s\nwant\n%s", buf.String(), want)
	}
	if err := WriteRecord(&buf, Record{Start: p, Moves: []Move{m2}}); err == nil || !strings.Contains(err.Error(), "move 1 (h10g8) is not legal") {
		t.Errorf("WriteRecord of an illegal move: %v, want an error naming the move", err)
	}
}

func TestReadRecords(t *testing.T) {
	games, err := ReadRecords(strings.NewReader(`[Event "mixed notations"]

1. C2=5 H8+7 2. J2,H3 {a comment
over two lines} i10h10 ; to the end of the line
3. a1b1 $1 1-0

1. h3e3 *
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 || len(games[0].Moves) != 5 || games[0].Result != "1-0" || len(games[1].Moves) != 1 {
		t.Fatalf("got %+v", games)
	}
	for _, tc := range []struct{ in, want string }{
		{"1. h3e3 h3e4", "line 1: move 2: xiangqi: parse move \"h3e4\""},
		{"1. h3e3 (1. b1c3) *", "line 1: variations are not supported"},
		{"[Variant \"chess\"]\n1. e2e4", "not xiangqi"},
		{"[FEN \"9/9 w\"]\n", "FEN tag"},
		{"[Event unquoted]\n", "line 1: tag Event: value must be a quoted string"},
		{"1. h3e3 {open", "line 1: comment opened on line 1 is not closed"},
		{"", "no game"},
		{"1. C2=9", "no legal move of red is written C2=9"},
	} {
		_, err := ReadRecords(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadRecords(%q) = %v, want an error containing %q", tc.in, err, tc.want)
		}
	}
	_, err = ReadRecords(strings.NewReader("1. h3e3 h3e4"))
	if !errors.Is(err, ErrIllegalMove) {
		t.Errorf("error %v does not wrap ErrIllegalMove", err)
	}
}

func FuzzReadRecords(f *testing.F) {
	for _, s := range []string{
		"1. h3e3 h10g8 *", "[Event \"x\"]\n1. C2=5 {c} H8+7 1-0", "1. J2,H3 ;x\n", "{", "[", "[FEN \"\"]", "1... h10g8",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		games, err := ReadRecords(strings.NewReader(s))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "xiangqi: read record") {
				t.Fatalf("ReadRecords(%q): error %v without the prefix", s, err)
			}
			return
		}
		for _, g := range games {
			var buf bytes.Buffer
			if err := WriteRecord(&buf, g); err != nil {
				t.Fatalf("ReadRecords(%q) gave a game that does not write: %v", s, err)
			}
		}
	})
}

func TestMoveText(t *testing.T) {
	p := Start()
	m1, _ := p.ParseUCI("h3e3")
	q := p.Play(m1)
	m2, _ := q.ParseUCI("h10g8")
	r := q.Play(m2)
	m3, _ := r.ParseUCI("b1c3")
	if got, err := MoveText(p, []Move{m1, m2, m3}); err != nil || got != "1. h3e3 h10g8 2. b1c3" {
		t.Errorf("MoveText from the start = %q, %v", got, err)
	}
	if got, err := MoveText(q, []Move{m2, m3}); err != nil || got != "1... h10g8 2. b1c3" {
		t.Errorf("MoveText from Black's move = %q, %v", got, err)
	}
	if _, err := MoveText(p, []Move{m2}); err == nil || !strings.Contains(err.Error(), "xiangqi: move text: move 1 (h10g8) is not legal") {
		t.Errorf("MoveText of an illegal move: %v", err)
	}
}
