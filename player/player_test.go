package player

import (
	"context"
	"errors"
	"testing"

	"evolved/game/draughts"
	"evolved/tournament"
)

func TestParseDraughtsRejectsBadSpecs(t *testing.T) {
	for _, spec := range []string{"", "material", "material:0", "material:31", "material:x", "mcts:-5", "random:3", "alphazero", "ept:"} {
		if _, err := ParseDraughts(spec); !errors.Is(err, ErrSpec) {
			t.Errorf("ParseDraughts(%q) err = %v, want ErrSpec", spec, err)
		}
	}
	for _, spec := range []string{"random", "material:4", "MCTS:100", "ept:50"} {
		if _, err := ParseDraughts(spec); err != nil {
			t.Errorf("ParseDraughts(%q): %v", spec, err)
		}
	}
}

func TestDraughtsMaterial(t *testing.T) {
	// Black: men on 1, 2 and a king on 3; White: a man on 32 and kings on 30, 31.
	p := draughts.NewPosition(0b111, 0b111<<29, 1<<2|1<<29|1<<30, draughts.Black)
	g := draughts.NewGame(p, draughts.DefaultRules())
	if got, want := (DraughtsMaterial{}).Evaluate(g), 2*100+150-(100+2*150); got != want {
		t.Errorf("Black to move: %d, want %d", got, want)
	}
}

// match plays a 100-game match between two specs.
func match(t *testing.T, a, b string) tournament.MatchResult[draughts.Move] {
	t.Helper()
	sa, err := ParseDraughts(a)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := ParseDraughts(b)
	if err != nil {
		t.Fatal(err)
	}
	arena := tournament.Arena[draughts.Move, *draughts.Game]{
		Name:         "draughts",
		NewGame:      func() *draughts.Game { return draughts.NewGame(draughts.Start(), draughts.DefaultRules()) },
		OpeningPlies: 4,
	}
	r, err := tournament.Match(context.Background(), arena, sa.New, sb.New, tournament.MatchOptions{Games: 100, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestMaterial4BeatsRandom(t *testing.T) {
	r := match(t, "material:4", "random")
	if r.Wins < 95 {
		t.Errorf("material:4 vs random: +%d =%d -%d, want at least 95 wins in 100", r.Wins, r.Draws, r.Losses)
	}
}

func TestMaterial6OutscoresMaterial2(t *testing.T) {
	r := match(t, "material:6", "material:2")
	if r.Score() <= 0.5 {
		t.Errorf("material:6 vs material:2: +%d =%d -%d (%.1f%%), want over 50%%", r.Wins, r.Draws, r.Losses, 100*r.Score())
	}
}

func TestMCTSBeatsRandom(t *testing.T) {
	for _, spec := range []string{"mcts:200", "ept:200"} {
		r := match(t, spec, "random")
		if r.Score() < 0.9 {
			t.Errorf("%s vs random: +%d =%d -%d, want at least 90%%", spec, r.Wins, r.Draws, r.Losses)
		}
	}
}
