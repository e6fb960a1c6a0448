package main

import (
	"database/sql"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"evolved/climb"
)

// matchResult reads the counts of match's last line.
var matchResult = regexp.MustCompile(`result games=(\d+) wins=(\d+) draws=(\d+) losses=(\d+)`)

// TestClimbAgreesWithMatch checks climb against the commands it saves
// typing: each point's wins, draws and losses are those of `evolved match`
// between the champion exported from that generation and the opponent
// (generation 0's exported champion, or a built-in player), with the same
// seed and games; and each point's hours are the sum of the generations'
// seconds up to it, read with SQL.
func TestClimbAgreesWithMatch(t *testing.T) {
	dir, config := setup(t)
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "5").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	for _, g := range []string{"0", "2", "4"} {
		if out, err := evolvedIn(t, dir, "export", "--generation", g, "-o", "g"+g+".json").CombinedOutput(); err != nil {
			t.Fatalf("export %s: %v\n%s", g, err, out)
		}
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "evolved.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, against := range []struct{ flag, spec string }{{"0", "g0.json"}, {"material:1", "material:1"}} {
		out, err := evolvedIn(t, dir, "climb", "--every", "2", "--against", against.flag, "--games", "20", "--seed", "3", "--json", "-o", "climb.png").Output()
		if err != nil {
			t.Fatalf("climb --against %s: %v\n%s", against.flag, err, out)
		}
		var r climb.Report
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("climb --json: %v\n%s", err, out)
		}
		wantGens := []int{2, 4}
		if against.flag != "0" {
			wantGens = []int{0, 2, 4}
		}
		var gens []int
		for _, p := range r.Points {
			gens = append(gens, p.Generation)
		}
		if !reflect.DeepEqual(gens, wantGens) {
			t.Fatalf("climb --against %s played generations %v, want %v", against.flag, gens, wantGens)
		}
		for _, p := range r.Points {
			if p.Generation == 0 {
				continue
			}
			m, err := evolvedIn(t, dir, "match", "--game", "draughts", "--a", "g"+strconv.Itoa(p.Generation)+".json", "--b", against.spec, "--games", "20", "--seed", "3").Output()
			if err != nil {
				t.Fatalf("match: %v\n%s", err, m)
			}
			c := matchResult.FindStringSubmatch(string(m))
			if c == nil {
				t.Fatalf("match printed no result line:\n%s", m)
			}
			if got := []string{strconv.Itoa(p.Wins + p.Draws + p.Losses), strconv.Itoa(p.Wins), strconv.Itoa(p.Draws), strconv.Itoa(p.Losses)}; !reflect.DeepEqual(got, c[1:]) {
				t.Errorf("against %s, generation %d: climb played %v (games, wins, draws, losses), match %v", against.flag, p.Generation, got, c[1:])
			}
			var seconds float64
			if err := db.QueryRow("SELECT SUM(seconds) FROM generations WHERE generation <= ?", p.Generation).Scan(&seconds); err != nil {
				t.Fatal(err)
			}
			if math.Abs(p.Hours-seconds/3600) > 1e-12 {
				t.Errorf("generation %d: %g hours, want %g", p.Generation, p.Hours, seconds/3600)
			}
		}
		if want := climb.NewLevel(r.Points); r.Level == nil || *r.Level != *want {
			t.Errorf("against %s: climb --json's level %+v, want the level of its points", against.flag, r.Level)
		}
		if st, err := os.Stat(filepath.Join(dir, "climb.png")); err != nil || st.Size() == 0 {
			t.Errorf("climb -o climb.png wrote no picture: %v", err)
		}
	}
	// The text output ends with the summary line, the level's fields with it.
	out, err := evolvedIn(t, dir, "climb", "--every", "2", "--games", "20", "--seed", "3").Output()
	if err != nil || !regexp.MustCompile(`(?m)^climb points=2 best=[24] elo=-?\d+ ci=\d+ last=4 elo=-?\d+ ci=\d+ fall=\d+ fell=(yes|no) level=\d+\.\d level_ci=\d+\.\d$`).Match(out) {
		t.Errorf("climb: %v\n%s", err, out)
	}
}

func TestClimbRefusesBadInput(t *testing.T) {
	dir, config := setup(t)
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "3").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--every", "0"}, 2, "--every must be at least 1"},
		{[]string{"--every-hours", "-1"}, 2, "--every-hours must be a positive number of hours, got -1"},
		{[]string{"--every-hours", "0"}, 2, "--every-hours must be a positive number of hours, got 0"},
		{[]string{"--every-hours", "NaN"}, 2, "--every-hours must be a positive number of hours"},
		{[]string{"--every", "5", "--every-hours", "1"}, 2, "--every and --every-hours choose the generations two ways; give one"},
		{[]string{"--games", "3"}, 2, "--games must be an even number"},
		{[]string{"--from", "-1"}, 2, "--from must be 0 or more"},
		{[]string{"--from", "2", "--to", "1"}, 2, "--to (1) must not be before --from (2)"},
		{[]string{"--to", "9"}, 2, "--to 9: the run has played generations 0 to 2"},
		{[]string{"--against", "7"}, 2, "--against 7: the run has played generations 0 to 2"},
		{[]string{"--against", "material:99"}, 2, "climb: --player: "},
		{[]string{"--against", "0", "--to", "0"}, 2, "no generation to play from 0 to 0 but the opponent's own"},
		{[]string{"-o", "curve.txt"}, 2, `-o must end in .svg or .png, got "curve.txt"`},
		{[]string{"--tc", "soon"}, 2, `"soon"`},
		{[]string{"--db", "none.db"}, 1, "no database"},
	} {
		out, err := evolvedIn(t, dir, append([]string{"climb"}, c.args...)...).CombinedOutput()
		if code := exitCodeOf(err); code != c.code || !strings.Contains(string(out), c.want) {
			t.Errorf("evolved climb %s: exit %d, want %d with %q; output:\n%s", strings.Join(c.args, " "), code, c.code, c.want, out)
		}
	}
}
