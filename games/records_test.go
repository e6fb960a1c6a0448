package games

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"evolved/distill"
	"evolved/game"
	"evolved/game/pgn"
	"evolved/nnet"
	"evolved/tournament"
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

// TestDistillOf checks that distillOf hands fit one input a game, made
// from its start, moves and result, and a scorer of searchOf's for each
// worker, and that a start position that does not read names its game.
func TestDistillOf(t *testing.T) {
	type input struct {
		start int
		moves []int
		r     game.Result
	}
	searchOf := func(_ *nnet.Net, nodes int64) (func(context.Context, int) (float64, error), error) {
		return func(_ context.Context, p int) (float64, error) { return float64(p) + float64(nodes), nil }, nil
	}
	var got []input
	var scored float64
	fit := func(ctx context.Context, net *nnet.Net, in []input, newScorer func() func(context.Context, int) (float64, error), _ distill.Options) (*nnet.Net, distill.Report, error) {
		got = in
		v, err := newScorer()(ctx, 1)
		scored = v
		return net, distill.Report{Games: len(in)}, err
	}
	run := distillOf(testPosition, func(start int, moves []int, r game.Result) input { return input{start, moves, r} }, searchOf, fit)
	games := []tournament.Record[int]{
		{Start: "ab", Moves: []int{1}, Outcome: game.Outcome{Result: game.Draw}},
		{Start: "abc", Moves: []int{2, 3}, Outcome: game.Outcome{Result: game.FirstWins}},
	}
	_, rep, err := run(context.Background(), nil, games, 10, distill.Options{})
	want := []input{{2, []int{1}, game.Draw}, {3, []int{2, 3}, game.FirstWins}}
	if err != nil || rep.Games != 2 || !reflect.DeepEqual(got, want) || scored != 11 {
		t.Errorf("distillOf: fit saw %v, scored %g, reported %+v, %v; want %v, 11, 2 games, nil", got, scored, rep, err, want)
	}
	games[1].Start = "bad"
	if _, _, err := run(context.Background(), nil, games, 10, distill.Options{}); !errors.Is(err, errFEN) || err.Error() != "distill: game 1: fen" {
		t.Errorf("distillOf with a bad start = %v, want %q wrapping errFEN", err, "distill: game 1: fen")
	}
}
