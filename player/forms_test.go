package player

import (
	"errors"
	"testing"
)

// TestForms checks that Forms lists what the parsers read: each form's
// example is read by the parser of every game the form names and refused
// as an unknown player by the others. A spec the parser reads may still
// fail (a missing file, a run that needs a database): the form is known.
func TestForms(t *testing.T) {
	examples := map[string]string{
		"random":                   "random",
		"material:D":               "material:2",
		"pst:D":                    "pst:2",
		"pesto:D":                  "pesto:2",
		"mcts:N":                   "mcts:8",
		"ept:N":                    "ept:8",
		"ept:N@FILE":               "ept:8@missing.json",
		"FILE.json":                "missing.json",
		"uci:PATH[:NAME=VALUE...]": "uci:/bin/true:depth=1", // a path: not an agent file to draughts
		"classic":                  "classic",
		"classic+[:MS]":            "classic+:100",
		"pheromones:FILE":          "pheromones:lab/missing.txt",
		"meta:RUN[@FILE.db]":       "meta:1",
		"SPEC#TECHNIQUES":          "material:2#-lmr",
	}
	parsers := map[string]func(string) error{
		"draughts": func(s string) error { _, err := ParseDraughts(s); return err },
		"chess":    func(s string) error { _, err := ParseChess(s); return err },
		"xiangqi":  func(s string) error { _, err := ParseXiangqi(s); return err },
	}
	t.Chdir(t.TempDir()) // no file of the working directory passes for an agent file
	for _, f := range Forms() {
		example, ok := examples[f.Spec]
		if !ok {
			t.Errorf("form %s has no example here", f.Spec)
			continue
		}
		for game, parse := range parsers {
			err := parse(example)
			if got, want := !errors.Is(err, errUnknownPlayer), f.ForGame(game); got != want {
				t.Errorf("the %s parser reads %s (%s): %t, want %t (err %v)", game, f.Spec, example, got, want, err)
			}
		}
	}
}

// TestUnknownPlayerListsTheGamesForms checks that the error of an unknown
// player names the forms its game's parser reads, and no other.
func TestUnknownPlayerListsTheGamesForms(t *testing.T) {
	cases := []struct {
		game, spec, want string
		parse            func(string) error
	}{
		{"draughts", "pst:3", `player: bad player spec "pst:3": unknown player for draughts (want random, material:D, mcts:N, ept:N, ept:N@FILE, FILE.json or SPEC#TECHNIQUES)`,
			func(s string) error { _, err := ParseDraughts(s); return err }},
		{"xiangqi", "alphazero", `player: bad player spec "alphazero": unknown player for xiangqi (want random, material:D, mcts:N, ept:N, ept:N@FILE, FILE.json, uci:PATH[:NAME=VALUE...], classic, classic+[:MS] or SPEC#TECHNIQUES)`,
			func(s string) error { _, err := ParseXiangqi(s); return err }},
	}
	for _, c := range cases {
		err := c.parse(c.spec)
		if err == nil || err.Error() != c.want || !errors.Is(err, ErrSpec) {
			t.Errorf("%s %q: err = %v, want %s (ErrSpec)", c.game, c.spec, err, c.want)
		}
	}
}
