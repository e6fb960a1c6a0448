package play

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evolved/game"
	"evolved/game/xiangqi"
	"evolved/games"
)

func runXiangqi(t *testing.T, human game.Player, ascii bool, lines ...string) string {
	t.Helper()
	return runSession(t, games.Xiangqi(), XiangqiUI(), "material:1", human, xiangqi.DefaultRules().MaxMoves, ascii, lines...)
}

func TestXiangqiBoard(t *testing.T) {
	got := xiangqiUI{}.draw(xiangqi.NewGame(xiangqi.Start(), xiangqi.DefaultRules()), false, xiangqi.Red)
	want := `     1    2    3    4    5    6    7    8    9
 A  (車) (馬) (象) (士) (將) (士) (象) (馬) (車)
 B   .    .    .    x    x    x    .    .    .
 C   .   (炮)  .    x    x    x    .   (炮)  .
 D  (卒)  .   (卒)  .   (卒)  .   (卒)  .   (卒)
 E   .    .    .    .    .    .    .    .    .
    --------------------------------------------
 F   .    .    .    .    .    .    .    .    .
 G  <兵>  .   <兵>  .   <兵>  .   <兵>  .   <兵>
 H   .   <砲>  .    x    x    x    .   <砲>  .
 I   .    .    .    x    x    x    .    .    .
 J  <車> <馬> <相> <仕> <帥> <仕> <相> <馬> <車>
`
	if got != want {
		t.Errorf("start position drawn as\n%s\nwant\n%s", got, want)
	}
	ascii := xiangqiUI{}.draw(xiangqi.NewGame(xiangqi.Start(), xiangqi.DefaultRules()), true, xiangqi.Red)
	if !strings.Contains(ascii, " J  <R>  <H>  <E>  <A>  <K>  <A>  <E>  <H>  <R>\n") || !strings.Contains(ascii, " B   .    .    .    x    x    x    .    .    .\n") {
		t.Errorf("ASCII start position drawn as\n%s", ascii)
	}
}

func TestXiangqiSession(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(dir, "game.pgn")
	out := runXiangqi(t, xiangqi.Red, false,
		"H8,H5", "J2,I4", "b1d2", "J1", "capture", "history", "save "+record, "undo", "history", "load "+record, "fen", "quit")
	for _, want := range []string{
		"Xiangqi against material:1. You play Red.",
		"Black to move, last move H8,H5 (h3e3)",
		"illegal move: the horse on b1 cannot go to d2: its leg c1 is blocked (hobbled horse)", "legal moves: G1,F1 (a4a5), G3,F3 (c4c5), ", // sorted
		"cannot read the move: want a move as H8,H5",
		"Red has captured nothing",
		"  1. H8,H5 h3e3 C2=5",
		"saved 2 moves",
		"loaded 2 moves",
		"no moves yet",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(record)
	if err != nil || !strings.Contains(string(data), "[White \"You\"]") || !strings.Contains(string(data), "1. h3e3 {C2=5}") {
		t.Errorf("saved record: %v\n%s", err, data)
	}
}

// TestXiangqiCaptured plays into a capture and checks the capture command.
func TestXiangqiCaptured(t *testing.T) {
	g := xiangqi.NewGame(xiangqi.Start(), xiangqi.DefaultRules())
	for _, s := range []string{"h3h10", "i10h10"} {
		m, err := g.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		g.Make(m)
	}
	got := xiangqiUI{}.captured(g, false)
	if want := "Red has captured 馬\nBlack has captured 砲\n"; got != want {
		t.Errorf("captured = %q, want %q", got, want)
	}
}
