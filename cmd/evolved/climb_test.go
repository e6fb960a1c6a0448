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

	"evolved/storage"
)

// TestClimbSummary checks the best point and the largest fall on curves
// worked out by hand.
func TestClimbSummary(t *testing.T) {
	pt := func(gen int, elo, ci float64) climbPoint { return climbPoint{Generation: gen, Elo: elo, CI: ci} }
	for _, tc := range []struct {
		name     string
		points   []climbPoint
		best     int
		fallFrom int // -1: no fall
		fallTo   int
		fallElo  float64
		beyond   bool
	}{
		{"one point", []climbPoint{pt(100, 50, 20)}, 100, -1, 0, 0, false},
		{"a steady climb", []climbPoint{pt(100, 50, 20), pt(200, 80, 20), pt(300, 80, 20)}, 300, -1, 0, 0, false},
		{"a dip inside its interval", []climbPoint{pt(100, 50, 20), pt(200, 90, 20), pt(300, 75, 20), pt(400, 100, 20)}, 400, 200, 300, 15, false},
		{"a fall beyond it", []climbPoint{pt(100, 50, 20), pt(200, 90, 20), pt(300, 60, 20)}, 200, 200, 300, 30, true},
		// The larger fall lies inside a wide interval, the smaller beyond a
		// narrow one: the one beyond is the one that counts.
		{"beyond outranks inside", []climbPoint{pt(100, 100, 20), pt(200, 60, 50), pt(300, 120, 20), pt(400, 95, 20)}, 300, 300, 400, 25, true},
		// Falls are measured from the best before the point, not the best of all.
		{"from the best before", []climbPoint{pt(100, 80, 10), pt(200, 60, 10), pt(300, 150, 10)}, 300, 100, 200, 20, true},
	} {
		best, fall := climbSummary(tc.points)
		if best.Generation != tc.best {
			t.Errorf("%s: best generation %d, want %d", tc.name, best.Generation, tc.best)
		}
		switch {
		case tc.fallFrom < 0 && fall != nil:
			t.Errorf("%s: fall %+v, want none", tc.name, *fall)
		case tc.fallFrom >= 0 && fall == nil:
			t.Errorf("%s: no fall, want %d -> %d", tc.name, tc.fallFrom, tc.fallTo)
		case tc.fallFrom >= 0 && (fall.From.Generation != tc.fallFrom || fall.To.Generation != tc.fallTo || fall.Elo != tc.fallElo || fall.Beyond != tc.beyond):
			t.Errorf("%s: fall %d -> %d by %g (beyond %v), want %d -> %d by %g (beyond %v)", tc.name,
				fall.From.Generation, fall.To.Generation, fall.Elo, fall.Beyond, tc.fallFrom, tc.fallTo, tc.fallElo, tc.beyond)
		}
	}
}

func TestClimbGenerations(t *testing.T) {
	for _, tc := range []struct {
		from, to, every, latest, skip int
		want                          []int
	}{
		{0, 10, 5, 10, 0, []int{5, 10}},
		{0, 12, 5, 12, 0, []int{5, 10, 12}},
		{0, 12, 5, 12, -1, []int{0, 5, 10, 12}},
		{3, 12, 5, 12, 0, []int{5, 10, 12}},
		{6, 9, 5, 12, 0, []int{9}},
		{0, 10, 5, 12, 10, []int{0, 5}}, // the opponent's own generation is left out
		{0, 1, 1, 1, 0, []int{1}},
	} {
		got, err := climbGenerations(tc.from, tc.to, tc.every, tc.latest, tc.skip)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("climbGenerations(%d, %d, %d, %d, %d) = %v, %v; want %v", tc.from, tc.to, tc.every, tc.latest, tc.skip, got, err, tc.want)
		}
	}
	for _, tc := range [][5]int{{0, 13, 5, 12, 0}, {13, 13, 5, 12, 0}, {0, 0, 5, 12, 0}} {
		if got, err := climbGenerations(tc[0], tc[1], tc[2], tc[3], tc[4]); err == nil {
			t.Errorf("climbGenerations%v = %v, want an error", tc, got)
		}
	}
}

// TestClimbGenerationsByHours checks --every-hours on a run whose
// generations took 0.5, 0.25, 0.25, 2.5, 0.1 and 0.4 hours (so they end
// at 0.5, 0.75, 1, 3.5, 3.6 and 4 hours of evolution), worked out by hand.
func TestClimbGenerationsByHours(t *testing.T) {
	var rows []storage.ChampionRow
	for g, h := range []float64{0.5, 0.25, 0.25, 2.5, 0.1, 0.4} {
		rows = append(rows, storage.ChampionRow{Generation: g, Seconds: h * 3600})
	}
	for _, tc := range []struct {
		from, to int
		step     float64
		skip     int
		want     []int
	}{
		{0, 5, 1, -1, []int{0, 2, 3, 5}}, // generation 3 crosses 2 and 3 hours: played once
		{0, 5, 1, 0, []int{2, 3, 5}},
		{0, 5, 0.5, 0, []int{2, 3, 5}},
		{1, 4, 1, 0, []int{2, 3, 4}}, // from 1 (0.5 hours ahead of it) the first multiple is 1 hour
		{3, 5, 2, -1, []int{3, 5}},   // 1 hour ahead of 3: the first multiple is 2 hours
		{0, 1, 1, 0, []int{1}},       // no generation reaches 1 hour: the last alone
		{0, 5, 100, 0, []int{5}},
	} {
		got, err := climbGenerationsByHours(rows, tc.from, tc.to, tc.step, tc.skip)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("climbGenerationsByHours(from %d, to %d, every %g hours, skip %d) = %v, %v; want %v", tc.from, tc.to, tc.step, tc.skip, got, err, tc.want)
		}
	}
	for _, tc := range [][2]int{{0, 6}, {5, 4}} {
		if got, err := climbGenerationsByHours(rows, tc[0], tc[1], 1, 0); err == nil {
			t.Errorf("climbGenerationsByHours(from %d, to %d) = %v, want an error", tc[0], tc[1], got)
		}
	}
}

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
	if out, err := evolved(dir, "run", "--config", config, "--generations", "5").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	for _, g := range []string{"0", "2", "4"} {
		if out, err := evolved(dir, "export", "--generation", g, "-o", "g"+g+".json").CombinedOutput(); err != nil {
			t.Fatalf("export %s: %v\n%s", g, err, out)
		}
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "evolved.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, against := range []struct{ flag, spec string }{{"0", "g0.json"}, {"material:1", "material:1"}} {
		out, err := evolved(dir, "climb", "--every", "2", "--against", against.flag, "--games", "20", "--seed", "3", "--json", "-o", "climb.png").Output()
		if err != nil {
			t.Fatalf("climb --against %s: %v\n%s", against.flag, err, out)
		}
		var r climbReport
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
			m, err := evolved(dir, "match", "--game", "draughts", "--a", "g"+strconv.Itoa(p.Generation)+".json", "--b", against.spec, "--games", "20", "--seed", "3").Output()
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
		if st, err := os.Stat(filepath.Join(dir, "climb.png")); err != nil || st.Size() == 0 {
			t.Errorf("climb -o climb.png wrote no picture: %v", err)
		}
	}
	// The text output ends with the summary line.
	out, err := evolved(dir, "climb", "--every", "2", "--games", "20", "--seed", "3").Output()
	if err != nil || !regexp.MustCompile(`(?m)^climb points=2 best=[24] elo=-?\d+ ci=\d+ last=4 elo=-?\d+ ci=\d+ fall=\d+ fell=(yes|no)$`).Match(out) {
		t.Errorf("climb: %v\n%s", err, out)
	}
}

func TestClimbRefusesBadInput(t *testing.T) {
	dir, config := setup(t)
	if out, err := evolved(dir, "run", "--config", config, "--generations", "3").CombinedOutput(); err != nil {
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
		out, err := evolved(dir, append([]string{"climb"}, c.args...)...).CombinedOutput()
		if code := exitCodeOf(err); code != c.code || !strings.Contains(string(out), c.want) {
			t.Errorf("evolved climb %s: exit %d, want %d with %q; output:\n%s", strings.Join(c.args, " "), code, c.code, c.want, out)
		}
	}
}
