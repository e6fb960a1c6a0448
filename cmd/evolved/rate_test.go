package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"evolved/rating"
)

func TestRateRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	badLadder := filepath.Join(dir, "bad.toml")
	os.WriteFile(badLadder, []byte("game = \"draughts\"\nscale = \"x\"\n[[anchor]]\nplayer = \"random\"\n"), 0o644)
	chessLadder := filepath.Join(dir, "chess.toml")
	os.WriteFile(chessLadder, []byte("game = \"chess\"\nscale = \"x\"\norigin = \"random\"\n[[anchor]]\nplayer = \"random\"\n[[anchor]]\nplayer = \"material:1\"\nelo = 100.0\n"), 0o644)
	notUCI := filepath.Join(dir, "not-an-engine")
	os.WriteFile(notUCI, []byte("#!/bin/sh\necho hello\n"), 0o755)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"rate", "--game", "draughts"}, 2, "give exactly one of --agent FILE, --db FILE or --player SPEC"},
		{[]string{"rate", "--player", "material:4"}, 2, "--player needs --game"},
		{[]string{"rate", "--game", "go", "--player", "random"}, 2, `unknown game "go"`},
		{[]string{"rate", "--game", "draughts", "--player", "material:99"}, 2, "material takes a whole number"},
		{[]string{"rate", "--game", "draughts", "--player", "random", "--generation", "3"}, 2, "--generation goes with --db"},
		{[]string{"rate", "--game", "draughts", "--player", "random", "--tc", "soon"}, 2, `"soon"`},
		{[]string{"rate", "--game", "draughts", "--player", "random", "--ladder", badLadder}, 1, "bad.toml: 1 anchors: a ladder needs at least two"},
		{[]string{"rate", "--game", "draughts", "--player", "random", "--ladder", chessLadder}, 2, "rates chess, not draughts"},
		{[]string{"rate", "--game", "chess", "--player", "random", "--engine", filepath.Join(dir, "no-such-engine")}, 1, "needs the engine"},
		{[]string{"rate", "--game", "chess", "--player", "random", "--engine", notUCI}, 1, "rating: engine " + notUCI},
		{[]string{"rate", "--agent", filepath.Join(dir, "missing.json")}, 1, "rate: agent"},
		{[]string{"rate", "--db", filepath.Join(dir, "none.db")}, 1, "no database"},
		{[]string{"ladder", "--game", "draughts", "--pairs", "0"}, 2, "--pairs must be between 1 and 10000"},
		{[]string{"ladder", "--game", "go"}, 2, `unknown game "go"`},
	} {
		out, code := exitStatus(t, c.args...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("evolved %s: exit %d, want %d with %q; output:\n%s", strings.Join(c.args, " "), code, c.code, c.want, out)
		}
	}
}

// TestRateFindsAnAnchorOnItsOwnLadder rates one of the draughts ladder's
// own players on the built-in ladder: its interval must hold the rating the
// ladder file gives it. The games are seeded and untimed, so the outcome is
// fixed and the same at any concurrency (checked with 1 and 2 workers).
func TestRateFindsAnAnchorOnItsOwnLadder(t *testing.T) {
	l, err := rating.DefaultLadder("draughts")
	if err != nil {
		t.Fatal(err)
	}
	want := math.NaN()
	for _, a := range l.Anchors {
		if a.Player == "material:4#none" {
			want = a.Elo
		}
	}
	if math.IsNaN(want) {
		t.Fatal("the draughts ladder has no material:4")
	}
	var got []ratingJSON
	for _, workers := range []string{"1", "2"} {
		out, err := evolvedIn(t, t.TempDir(), "rate", "--game", "draughts", "--player", "material:4#none", "--games", "48",
			"--concurrency", workers, "--json").Output()
		if err != nil {
			t.Fatalf("rate: %v\n%s", err, out)
		}
		var r ratingJSON
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("rate --json printed %q: %v", out, err)
		}
		r.Seconds = 0
		got = append(got, r)
	}
	r := got[0]
	if math.Abs(r.Elo-want) > r.CI || r.Games != 48 || r.Scale != l.Scale || r.TC != "untimed" {
		t.Errorf("material:4 rated %+v; the ladder says %.1f", r, want)
	}
	a, _ := json.Marshal(got[0])
	b, _ := json.Marshal(got[1])
	if string(a) != string(b) {
		t.Errorf("1 worker: %s\n2 workers: %s", a, b)
	}
}

// TestLadderIsIndependentOfFileOrder fits the same players from two files
// that list them in different orders: the fitted files are identical, byte
// for byte, which is what lets a ladder file's recorded command regenerate
// it from the file itself.
func TestLadderIsIndependentOfFileOrder(t *testing.T) {
	dir := t.TempDir()
	head := "game = \"draughts\"\nscale = \"t\"\norigin = \"random\"\nabout = \"a test\"\n"
	anchor := func(spec string, elo int) string {
		return "[[anchor]]\nplayer = \"" + spec + "\"\nelo = " + strconv.Itoa(elo) + ".0\n"
	}
	files := []string{
		head + anchor("random", 0) + anchor("mcts:10", 100) + anchor("material:1", 200) + anchor("material:2", 300),
		head + anchor("random", 0) + anchor("material:2", 10) + anchor("material:1", 20) + anchor("mcts:10", 30),
	}
	var outs []string
	for i, text := range files {
		from := filepath.Join(dir, strconv.Itoa(i)+".toml")
		os.WriteFile(from, []byte(text), 0o644)
		out, err := evolvedIn(t, dir, "ladder", "--from", from, "--pairs", "3").Output()
		if err != nil {
			t.Fatalf("ladder --from %d: %v", i, err)
		}
		outs = append(outs, string(out))
	}
	if outs[0] != outs[1] {
		t.Errorf("the two orders fit different ladders:\n%s\n---\n%s", outs[0], outs[1])
	}
	l, err := rating.ReadLadder(strings.NewReader(outs[0]), "fitted")
	if err != nil {
		t.Fatalf("the fitted ladder does not read back: %v\n%s", err, outs[0])
	}
	if l.Command != "evolved ladder --game draughts --pairs 3" || l.Games != 36 || l.Anchors[0].Player != "random" {
		t.Errorf("fitted ladder: command %q, %d games, weakest %q", l.Command, l.Games, l.Anchors[0].Player)
	}
}

func TestRateReportsTheClock(t *testing.T) {
	// A timed rating says how much of its clock each side used: a share of
	// the time given, which a player that searches by the clock spends in
	// part and never beyond.
	out, err := evolvedIn(t, t.TempDir(), "rate", "--game", "draughts", "--player", "material:2#none", "--games", "2",
		"--tc", "5+0.05", "--concurrency", "1", "--json").Output()
	if err != nil {
		t.Fatalf("rate: %v\n%s", err, out)
	}
	var r ratingJSON
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("rate --json printed %q: %v", out, err)
	}
	if r.Time == nil || r.AnchorsTime == nil || r.Time.Share <= 0 || r.Time.Share > 1 || r.Time.SecondsLeft <= 0 {
		t.Errorf("timed rating's clocks: %+v and anchors' %+v", r.Time, r.AnchorsTime)
	}
	out, err = evolvedIn(t, t.TempDir(), "rate", "--game", "draughts", "--player", "material:2#none", "--games", "2", "--json").Output()
	if err != nil || strings.Contains(string(out), `"time"`) {
		t.Errorf("untimed rating: %v\n%s", err, out)
	}
}
