package play

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"evolved/game"
	"evolved/game/draughts"
	"evolved/games"
	"evolved/player"
)

// session runs a scripted session against material:2 and returns its output.
func runScript(t *testing.T, human string, lines ...string) string {
	t.Helper()
	side := draughts.Black
	if human == "white" {
		side = draughts.White
	}
	return runSession(t, games.Draughts(), DraughtsUI(), "material:2", side, draughts.DefaultRules().MaxMoves, true, lines...)
}

// runSession runs a scripted terminal session of k against engine, seeded
// with 1, the person playing human, and returns its output.
func runSession[M comparable, S Playable[M]](t *testing.T, k games.Kind[M, S], ui UI[M, S], engine string, human game.Player, maxMoves int, ascii bool, lines ...string) string {
	t.Helper()
	spec, err := k.Parse(engine)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	err = Terminal(context.Background(), k, ui, strings.NewReader(strings.Join(lines, "\n")+"\n"), &out,
		Options[M, S]{Engine: spec, Human: human, MaxMoves: maxMoves, ASCII: ascii, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestBoardDrawing(t *testing.T) {
	got := drawDraughts(draughts.Start(), true)
	want := `     a b c d e f g h
  8    b   b   b   b     1  2  3  4
  7  b   b   b   b       5  6  7  8
  6    b   b   b   b     9 10 11 12
  5  .   .   .   .      13 14 15 16
  4    .   .   .   .    17 18 19 20
  3  w   w   w   w      21 22 23 24
  2    w   w   w   w    25 26 27 28
  1  w   w   w   w      29 30 31 32
`
	if got != want {
		t.Errorf("start position drawn as\n%s\nwant\n%s", got, want)
	}
}

func TestSessionPlaysAndExplains(t *testing.T) {
	out := runScript(t, "black", "11-15", "12-17", "history", "fen", "quit")
	for _, want := range []string{
		"You play Black",
		"White to move, last move 11-15",
		"engine: depth 2",
		"12-17 is not a legal move here\nlegal moves: ",
		"1. 11-15 ",
		"B:W",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The illegal move changed nothing: exactly one engine reply happened.
	if n := strings.Count(out, "engine: depth"); n != 1 {
		t.Errorf("the engine moved %d times, want once", n)
	}
}

func TestUndoSwapSaveLoad(t *testing.T) {
	dir := t.TempDir()
	game := filepath.Join(dir, "game.pdn")
	out := runScript(t, "black", "11-15", "undo", "fen", "9-13", "save "+game, "load "+game, "swap", "quit")
	if !strings.Contains(out, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12") {
		t.Errorf("undo did not return to the start position:\n%s", out)
	}
	data, err := os.ReadFile(game)
	if err != nil || !strings.Contains(string(data), "1. 9-13") {
		t.Fatalf("saved game: %v\n%s", err, data)
	}
	if day := time.Now().Format("2006.01.02"); !strings.Contains(string(data), `[Date "`+day+`"]`) &&
		!strings.Contains(string(data), `[Date "`+time.Now().Add(-time.Minute).Format("2006.01.02")+`"]`) { // saved just before midnight
		t.Errorf("saved game without today's date %s:\n%s", day, data)
	}
	if !strings.Contains(out, "loaded 2 moves") || !strings.Contains(out, "You now play White") {
		t.Errorf("load or swap missing:\n%s", out)
	}
}

func TestEngineMovesFirstForWhite(t *testing.T) {
	out := runScript(t, "white", "quit")
	if !strings.Contains(out, "You play White") || !strings.Contains(out, "White to move (you), last move") {
		t.Errorf("the engine did not open as Black:\n%s", out)
	}
}

func TestUnknownCommand(t *testing.T) {
	out := runScript(t, "black", "castle", "quit")
	if !strings.Contains(out, `unknown command "castle"`) {
		t.Errorf("no unknown-command message:\n%s", out)
	}
}

func TestCoordinatesAndSquareNumbers(t *testing.T) {
	// Hand-checked against the board as drawn (TestBoardDrawing): square 1
	// is b8, 4 h8, 5 a7, 12 g6, 21 a3, 23 e3, 19 f4, 32 g1.
	for _, c := range []struct{ in, want string }{
		{"b8-a7", "1-5"}, {"h8-g7", "4-8"}, {"a3-b4", "21-17"}, {"e3-f4", "23-19"}, {"E3-F4", "23-19"},
		{"e3f4", "23-19"}, {"h6xf4", "12x19"}, {"c3xe5xg7", "22x15x8"}, {"g1-h2", "32-28"}, {"11-15", "11-15"},
	} {
		got, err := squareNumbers(c.in)
		if err != nil || got != c.want {
			t.Errorf("squareNumbers(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"a8-b7", "g6-h5", "i3-h4", "e9-f8"} {
		if got, err := squareNumbers(in); err == nil {
			t.Errorf("squareNumbers(%q) = %q, want an error", in, got)
		}
	}
}

func TestMovesInCoordinatesAndOneIllegalMessage(t *testing.T) {
	// h6-g5 is 12-16; then 12-19 and h6-f4 (the same move) are illegal,
	// and get the same message and list.
	out := runScript(t, "black", "h6-g5", "12-19", "h6-f4", "hint", "quit")
	if !strings.Contains(out, "White to move, last move 12-16") {
		t.Errorf("h6-g5 was not played as 12-16:\n%s", out)
	}
	byNumber := "12-19 is not a legal move here\nlegal moves: "
	byCoordinate := "h6-f4 (12-19) is not a legal move here\nlegal moves: "
	i, j := strings.Index(out, byNumber), strings.Index(out, byCoordinate)
	if i < 0 || j < 0 {
		t.Fatalf("the illegal moves' messages are missing:\n%s", out)
	}
	list := func(at int) string {
		rest := out[at:]
		rest = rest[strings.Index(rest, "legal moves: "):]
		return rest[:strings.Index(rest, "\n")]
	}
	if list(i) != list(j) || !strings.Contains(list(i), "9-13, 9-14, 10-14") {
		t.Errorf("lists %q and %q; want one list, sorted", list(i), list(j))
	}
	if !strings.Contains(out, "hint: ") || !strings.Contains(out, " for Black: positive is good for Black, in material units (100 a man))") {
		t.Errorf("the hint does not say whose score it is and in what unit:\n%s", out)
	}
	// The unit is the engine's, and only its: MCTS scores in wins.
	out = runSession(t, games.Draughts(), DraughtsUI(), "mcts:50", draughts.Black, draughts.DefaultRules().MaxMoves, true, "hint", "quit")
	if !strings.Contains(out, "in per mille of wins)") || strings.Contains(out, "a man") {
		t.Errorf("an MCTS engine's hint is not in wins alone:\n%s", out)
	}
}

// TestMustCapture: a step when a capture is compulsory says so and names
// a capture, however it is typed; in a browser too.
func TestMustCapture(t *testing.T) {
	engine, err := player.ParseDraughts("material:2")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	err = Terminal(context.Background(), games.Draughts(), DraughtsUI(), strings.NewReader("14-18\nc5-d4\n14x23\nquit\n"), &out,
		Options[draughts.Move, *draughts.Game]{Engine: engine, Human: draughts.Black, Start: "B:W18:B14", ASCII: true, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"14-18 is not a legal move here: you must capture (e.g. 14x23)\nlegal moves: 14x23\n",
		"c5-d4 (14-18) is not a legal move here: you must capture (e.g. 14x23)\nlegal moves: 14x23\n",
		"Game over: Black wins, no legal move",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	err = newDraughts(t, "B:W18:B14", "random", draughts.Black).Play("14-18")
	if want := `play: bad move "14-18": 14-18 is not a legal move here: you must capture (e.g. 14x23); legal moves: 14x23`; err == nil || err.Error() != want {
		t.Errorf("Play(14-18) = %v, want %s", err, want)
	}
}
