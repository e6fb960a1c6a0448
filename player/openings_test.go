package player

import (
	"strings"
	"testing"

	"evolved/game/draughts"
	"evolved/game/xiangqi"
	"evolved/seed"
)

func TestReadDraughtsOpenings(t *testing.T) {
	fens := "# openings\n\nB:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n" +
		"W:W18,21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,15\n"
	got, err := ReadDraughtsOpenings(strings.NewReader(fens), false)
	if err != nil || len(got) != 2 || got[0].Start != draughts.Start() || got[1].Start.FEN() != "W:W18,21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,15" {
		t.Fatalf("FEN lines: %d openings, %v", len(got), err)
	}
	pdn := "[Event \"a\"]\n\n1. 11-15 23-19 *\n\n[Event \"b\"]\n\n1. 9-13 *\n"
	got, err = ReadDraughtsOpenings(strings.NewReader(pdn), true)
	if err != nil || len(got) != 2 || len(got[0].Moves) != 2 || len(got[1].Moves) != 1 {
		t.Fatalf("PDN: %+v, %v", got, err)
	}
	// An arena with openings starts each pairing from one of them, its
	// moves played, and names the start by its FEN.
	arena := WithDraughtsOpenings(DraughtsArena(draughts.Rules{MaxMoves: 100}, 0), draughts.Rules{MaxMoves: 100}, got)
	g := arena.Start(seed.Rand(1, "draughts", 0, seed.Opening, 0))
	if n := len(g.Moves(nil)); n != 1 && n != 2 {
		t.Errorf("the start has %d moves played, want the opening's 1 or 2", n)
	}
	if want := g.Position().FEN(); arena.Describe(g) != want {
		t.Errorf("Describe = %q, want %q", arena.Describe(g), want)
	}
	for _, c := range []struct{ text, want string }{
		{"B:W21:B1\nnonsense\n", "line 2"},
		{"# nothing\n\n", "holds no opening"},
	} {
		if _, err := ReadDraughtsOpenings(strings.NewReader(c.text), false); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error naming %q", c.text, err, c.want)
		}
	}
}

func TestReadXiangqiOpenings(t *testing.T) {
	start := xiangqi.Start().FEN()
	got, err := ReadXiangqiOpenings(strings.NewReader(start+"\n"), false)
	if err != nil || len(got) != 1 || got[0].Start != xiangqi.Start() {
		t.Fatalf("FEN line: %+v, %v", got, err)
	}
	if _, err := ReadXiangqiOpenings(strings.NewReader("\n"+start+"\nrnbakabnr/9 w\n"), false); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("a bad third line: %v", err)
	}
	arena := WithXiangqiOpenings(XiangqiArena(xiangqi.Rules{}, xiangqi.Position{}, 0), xiangqi.Rules{}, got)
	g := arena.Start(seed.Rand(1, "xiangqi", 0, seed.Opening, 0))
	if arena.Describe(g) != start {
		t.Errorf("Describe = %q", arena.Describe(g))
	}
}
