package games

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"evolved/game/pgn"
)

func TestTagPairs(t *testing.T) {
	tags := []pgn.Tag{{Name: "Event", Value: "e"}, {Name: "FEN", Value: "f"}}
	pairs := [][2]string{{"Event", "e"}, {"FEN", "f"}}
	if got := tagPairs(tags); !reflect.DeepEqual(got, pairs) {
		t.Errorf("tagPairs(%v) = %v, want %v", tags, got, pairs)
	}
	if got := pgnTags(pairs); !reflect.DeepEqual(got, tags) {
		t.Errorf("pgnTags(%v) = %v, want %v", pairs, got, tags)
	}
	if got := tagPairs(nil); got != nil {
		t.Errorf("tagPairs(nil) = %v, want nil", got)
	}
	if got := pgnTags(nil); got != nil {
		t.Errorf("pgnTags(nil) = %v, want nil", got)
	}
}

// errFEN is the error of testPosition.
var errFEN = errors.New("fen")

// testPosition is a game's FEN reader for the tests of the helpers: the
// FEN's length, or errFEN for "bad".
func testPosition(fen string) (int, error) {
	if fen == "bad" {
		return 0, errFEN
	}
	return len(fen), nil
}

func TestReadRecordsOf(t *testing.T) {
	errRead := errors.New("read")
	read := func(r io.Reader) ([]int, error) { return []int{3, 4}, errRead }
	got, err := readRecordsOf(read, func(n int) Record[int] { return Record[int]{Moves: []int{n}, Result: "*"} })(nil)
	want := []Record[int]{{Moves: []int{3}, Result: "*"}, {Moves: []int{4}, Result: "*"}}
	if !reflect.DeepEqual(got, want) || err != errRead {
		t.Errorf("readRecordsOf(...)(nil) = %v, %v, want %v, %v", got, err, want, errRead)
	}
}

func TestWriteRecordOf(t *testing.T) {
	write := writeRecordOf(testPosition, func(w io.Writer, start int, rec Record[int]) error {
		_, err := fmt.Fprintf(w, "%d %v %s", start, rec.Moves, rec.Result)
		return err
	})
	var b strings.Builder
	if err := write(&b, Record[int]{Start: "abcd", Moves: []int{1, 2}, Result: "1-0"}); err != nil || b.String() != "4 [1 2] 1-0" {
		t.Errorf("writeRecordOf wrote %q, %v, want %q, nil", b.String(), err, "4 [1 2] 1-0")
	}
	if err := write(&b, Record[int]{Start: "bad"}); !errors.Is(err, errFEN) || err.Error() != "start: fen" {
		t.Errorf("writeRecordOf of a bad start = %v, want %q wrapping errFEN", err, "start: fen")
	}
}

func TestMoveTextOf(t *testing.T) {
	moveText := func(p int, moves []int) (string, error) { return strconv.Itoa(p) + ":" + strconv.Itoa(len(moves)), nil }
	text := moveTextOf(testPosition, moveText)
	if got, err := text("abc", []int{1, 2}); got != "3:2" || err != nil {
		t.Errorf(`moveTextOf(...)("abc", [1 2]) = %q, %v, want "3:2", nil`, got, err)
	}
	if got, err := text("bad", nil); got != "" || err != errFEN {
		t.Errorf(`moveTextOf(...)("bad", nil) = %q, %v, want "", errFEN`, got, err)
	}
}

func TestPositionOr(t *testing.T) {
	start := func() int { return -1 }
	for _, c := range []struct {
		fen  string
		want int
		err  error
	}{{"", -1, nil}, {"abc", 3, nil}, {"bad", 0, errFEN}} {
		if got, err := positionOr(c.fen, start, testPosition); got != c.want || err != c.err {
			t.Errorf("positionOr(%q) = %d, %v, want %d, %v", c.fen, got, err, c.want, c.err)
		}
	}
}

func TestNewGameOf(t *testing.T) {
	newGame := newGameOf(testPosition, func(p int, s Setup) *[2]int { return &[2]int{p, s.MaxMoves} })
	if got, err := newGame("abcd", Setup{MaxMoves: 7}); err != nil || got == nil || *got != [2]int{4, 7} {
		t.Errorf(`newGameOf(...)("abcd", MaxMoves 7) = %v, %v, want &[4 7], nil`, got, err)
	}
	if got, err := newGame("bad", Setup{}); got != nil || err != errFEN {
		t.Errorf(`newGameOf(...)("bad") = %v, %v, want nil, errFEN`, got, err)
	}
}
