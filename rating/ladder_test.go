package rating

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestBuiltInLaddersAreValid(t *testing.T) {
	games := LadderGames()
	if !slices.Equal(games, []string{"chess", "draughts", "xiangqi"}) {
		t.Errorf("built-in ladders: %v, want chess, draughts, xiangqi", games)
	}
	for _, g := range games {
		l, err := DefaultLadder(g)
		if err != nil {
			t.Errorf("%s: %v", g, err)
			continue
		}
		own := false
		for _, a := range l.Anchors {
			own = own || a.EngineElo == 0
		}
		if l.About == "" || own && (l.Command == "" || l.Games == 0) {
			t.Errorf("%s: the ladder does not say how it was made (command %q, games %d)", g, l.Command, l.Games)
		}
		// Round trip: what Write writes, ReadLadder reads back the same.
		var buf bytes.Buffer
		if err := l.Write(&buf, "a header\nof two lines"); err != nil {
			t.Fatal(err)
		}
		back, err := ReadLadder(&buf, "round trip")
		if err != nil {
			t.Fatalf("%s: %v\n%s", g, err, buf.String())
		}
		if back.Scale != l.Scale || !slices.Equal(back.Elos(), l.Elos()) || back.Command != l.Command {
			t.Errorf("%s: round trip changed the ladder", g)
		}
	}
	if _, err := DefaultLadder("go"); err == nil {
		t.Error("a ladder for go: no error")
	}
}

func TestReadLadderRefusesMalformedFiles(t *testing.T) {
	const head = "game = \"draughts\"\nscale = \"s\"\norigin = \"random\"\n"
	for _, tc := range []struct{ name, text, want string }{
		{"syntax", "game = ", "ladder t"},
		{"unknown key", head + "colour = 1\n[[anchor]]\nplayer = \"random\"\n[[anchor]]\nplayer = \"material:1\"\nelo = 5\n", "unknown keys colour"},
		{"game", strings.Replace(head, "draughts", "go", 1), `game "go"`},
		{"scale", strings.Replace(head, `"s"`, `""`, 1) + "[[anchor]]\nplayer = \"random\"\n[[anchor]]\nplayer = \"material:1\"\n", "no scale"},
		{"one anchor", head + "[[anchor]]\nplayer = \"random\"\n", "at least two"},
		{"both kinds", head + "[[anchor]]\nplayer = \"random\"\nengine_elo = 1350\nelo = 1350\n[[anchor]]\nplayer = \"material:1\"\nelo = 1400\n", "exactly one"},
		{"neither kind", head + "[[anchor]]\nelo = 1\n[[anchor]]\nplayer = \"material:1\"\nelo = 2\n", "exactly one"},
		{"engine missing", head + "[[anchor]]\nplayer = \"random\"\n[[anchor]]\nengine_elo = 1350\nelo = 1350\n", "needs the ladder's engine"},
		{"engine elo", "engine = \"stockfish\"\n" + head + "[[anchor]]\nplayer = \"random\"\n[[anchor]]\nengine_elo = 1350\nelo = 1300\n", "not 1300"},
		{"order", head + "[[anchor]]\nplayer = \"random\"\nelo = 10\n[[anchor]]\nplayer = \"material:1\"\nelo = 5\n", "weakest first"},
		{"twice", head + "[[anchor]]\nplayer = \"random\"\n[[anchor]]\nplayer = \"random\"\nelo = 5\n", "twice"},
		{"origin", strings.Replace(head, "random", "mcts:5", 1) + "[[anchor]]\nplayer = \"random\"\n[[anchor]]\nplayer = \"material:1\"\nelo = 5\n", `origin "mcts:5"`},
		{"ci", head + "[[anchor]]\nplayer = \"random\"\n[[anchor]]\nplayer = \"material:1\"\nelo = 5\nci = -1\n", "negative"},
		{"engine option", "engine = \"sf\"\nengine_options = { \"a:b\" = \"1\" }\n" + head + "[[anchor]]\nplayer = \"random\"\n[[anchor]]\nplayer = \"material:1\"\nelo = 5\n", "cannot hold"},
		{"tc", head + "tc = \"fast\"\n[[anchor]]\nplayer = \"random\"\n[[anchor]]\nplayer = \"material:1\"\nelo = 5\n", `"fast"`},
	} {
		_, err := ReadLadder(strings.NewReader(tc.text), "t")
		if !errors.Is(err, ErrLadder) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want ErrLadder naming %q", tc.name, err, tc.want)
		}
	}
}

func TestAnchorSpecAndName(t *testing.T) {
	sf := Anchor{EngineElo: 1500, Elo: 1500}
	if got := sf.Spec("/usr/games/stockfish", nil); got != "uci:/usr/games/stockfish:UCI_LimitStrength=true:UCI_Elo=1500" {
		t.Errorf("Spec = %q", got)
	}
	if got := sf.Name("/usr/games/stockfish"); got != "stockfish@1500" {
		t.Errorf("Name = %q", got)
	}
	own := Anchor{Player: "material:3", Elo: 900}
	if own.Spec("x", nil) != "material:3" || own.Name("stockfish") != "material:3" {
		t.Errorf("own anchor: %q, %q", own.Spec("x", nil), own.Name("stockfish"))
	}
	opts := map[string]string{"Threads": "1", "Move Overhead": "100"}
	if got := sf.Spec("sf", opts); got != "uci:sf:UCI_LimitStrength=true:UCI_Elo=1500:Move Overhead=100:Threads=1" {
		t.Errorf("Spec with options = %q", got)
	}
}

func TestPlan(t *testing.T) {
	elos := []float64{0, 100, 200, 300, 400, 500, 600, 700, 800}
	// No estimate: spread evenly over the ladder.
	if got := Plan(elos, 0, 0, false, 4); !slices.Equal(got, []int{1, 3, 5, 7}) {
		t.Errorf("first round = %v, want [1 3 5 7]", got)
	}
	// A narrow estimate: the anchors next to it, symmetric around it.
	got := Plan(elos, 410, 20, true, 8)
	for _, a := range got {
		if math.Abs(elos[a]-410) > 110 {
			t.Errorf("narrow estimate 410: anchor at %v", elos[a])
		}
	}
	// A wide estimate reaches further, up to maxSpread·Φ⁻¹(1/16) ≈ 600.
	wide := Plan(elos, 400, 2000, true, 8)
	if elos[wide[0]] > 100 || elos[wide[7]] < 700 {
		t.Errorf("wide estimate: anchors %v", wide)
	}
	// Estimates beyond the ladder stay on it.
	if got := Plan(elos, -500, 10, true, 2); !slices.Equal(got, []int{0, 0}) {
		t.Errorf("below the ladder: %v", got)
	}
}

// TestChessLadderReaches checks that the chess ladder has Stockfish
// levels every 100 from 2,100 to 2,700 (issue 62), so that a rating there
// plays its games against anchors near it: with an estimate of ± 60 (some
// 150 games) from 2,150 to 2,650, every anchor Plan chooses is within 130
// of it, where the ladder with 2,100, 2,400 and 2,850 alone sent a player
// of 2,550 to 2,400 only.
func TestChessLadderReaches(t *testing.T) {
	l, err := DefaultLadder("chess")
	if err != nil {
		t.Fatal(err)
	}
	elos := l.Elos()
	for level := 2100.0; level <= 2700; level += 100 {
		if !slices.Contains(elos, level) {
			t.Errorf("the chess ladder has no anchor at %v: %v", level, elos)
		}
	}
	for estimate := 2150.0; estimate <= 2650; estimate += 50 {
		for _, a := range Plan(elos, estimate, 60, true, DefaultRoundPairs) {
			if math.Abs(elos[a]-estimate) > 130 {
				t.Errorf("estimate %v ± 60: anchor at %v", estimate, elos[a])
			}
		}
	}
}
