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
	// With --nodes every player searches that budget, as match --nodes has
	// them do.
	out, err := evolvedIn(t, dir, "climb", "--every", "4", "--from", "4", "--against", "material:1", "--nodes", "300", "--games", "20", "--seed", "3", "--json").Output()
	if err != nil {
		t.Fatalf("climb --nodes: %v\n%s", err, out)
	}
	var r climb.Report
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("climb --nodes --json: %v\n%s", err, out)
	}
	if r.Nodes != 300 || len(r.Points) != 1 || r.Points[0].Generation != 4 || r.Points[0].Nodes != 0 {
		t.Fatalf("climb --nodes 300 --json: nodes %d, points %+v; want nodes 300 and generation 4 alone, without a budget of its own", r.Nodes, r.Points)
	}
	m, err := evolvedIn(t, dir, "match", "--game", "draughts", "--a", "g4.json", "--b", "material:1", "--nodes", "300", "--games", "20", "--seed", "3").Output()
	if err != nil {
		t.Fatalf("match --nodes: %v\n%s", err, m)
	}
	p := r.Points[0]
	if c := matchResult.FindStringSubmatch(string(m)); c == nil || !reflect.DeepEqual([]string{"20", strconv.Itoa(p.Wins), strconv.Itoa(p.Draws), strconv.Itoa(p.Losses)}, c[1:]) {
		t.Errorf("climb --nodes 300 played %d, %d, %d (wins, draws, losses); match --nodes 300:\n%s", p.Wins, p.Draws, p.Losses, m)
	}
	// The text output ends with the summary line, the level's fields with it.
	out, err = evolvedIn(t, dir, "climb", "--every", "2", "--games", "20", "--seed", "3").Output()
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
		{[]string{"--nodes", "-1"}, 2, "--nodes must be positive and does not go with --tc, got -1"},
		{[]string{"--nodes", "500", "--tc", "1+0.1"}, 2, "--nodes must be positive and does not go with --tc, got 500"},
		{[]string{"--db", "none.db"}, 1, "no database"},
	} {
		out, err := evolvedIn(t, dir, append([]string{"climb"}, c.args...)...).CombinedOutput()
		if code := exitCodeOf(err); code != c.code || !strings.Contains(string(out), c.want) {
			t.Errorf("evolved climb %s: exit %d, want %d with %q; output:\n%s", strings.Join(c.args, " "), code, c.code, c.want, out)
		}
	}
}

// readOnlyDB opens dir's evolved.db read-only for SQL of the test's own,
// closed when the test ends.
func readOnlyDB(t *testing.T, dir string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "evolved.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestGenerationsNamedByHours checks generations named by the hours of
// evolution behind them (export and show --generation, climb --from, --to
// and --against) against the generations SQL names: the first whose
// seconds, summed with those of the generations before it, reach the mark.
func TestGenerationsNamedByHours(t *testing.T) {
	dir, config := setup(t)
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "5").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	rows, err := readOnlyDB(t, dir).Query("SELECT seconds FROM generations ORDER BY generation")
	if err != nil {
		t.Fatal(err)
	}
	var ends []float64 // the seconds of evolution at each generation's end
	for rows.Next() {
		var s float64
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		if len(ends) > 0 {
			s += ends[len(ends)-1]
		}
		ends = append(ends, s)
	}
	if err := rows.Err(); err != nil || len(ends) != 5 {
		t.Fatalf("read %d generations' seconds: %v", len(ends), err)
	}
	// within generation g: past the end of g-1, before the end of g
	within := func(g int) string {
		return strconv.FormatFloat((ends[g-1]+ends[g])/2/3600, 'g', -1, 64) + "h"
	}

	if out, err := evolvedIn(t, dir, "export", "--generation", within(2), "-o", "at.json").CombinedOutput(); err != nil {
		t.Fatalf("export --generation %s: %v\n%s", within(2), err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "at.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exported struct {
		Provenance struct{ Generation int } `json:"provenance"`
	}
	if err := json.Unmarshal(data, &exported); err != nil || exported.Provenance.Generation != 2 {
		t.Errorf("export --generation %s exported generation %d (%v), want 2", within(2), exported.Provenance.Generation, err)
	}
	if out, err := evolvedIn(t, dir, "show", "--db", "evolved.db", "--generation", "0h").Output(); err != nil || !strings.Contains(string(out), "generation 0 champion") {
		t.Errorf("show --generation 0h: %v\n%s", err, out)
	}

	out, err := evolvedIn(t, dir, "climb", "--every", "1", "--from", within(1), "--to", within(4), "--against", within(2), "--games", "2", "--json").Output()
	if err != nil {
		t.Fatalf("climb: %v\n%s", err, out)
	}
	var r climb.Report
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("climb --json: %v\n%s", err, out)
	}
	var gens []int
	for _, p := range r.Points {
		gens = append(gens, p.Generation)
	}
	if want := []int{1, 3, 4}; !reflect.DeepEqual(gens, want) || !strings.Contains(r.Against, "generation 2") {
		t.Errorf("climb --from %s --to %s --against %s played %v against %q, want %v against generation 2",
			within(1), within(4), within(2), gens, r.Against, want)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "--generation", "1000h"}, "export: --generation 1000h: the run has evolved "},
		{[]string{"show", "--db", "evolved.db", "--generation", "1000h"}, "show: --generation 1000h: the run has evolved "},
		{[]string{"climb", "--to", "1000h"}, "climb: --to 1000h: the run has evolved "},
		{[]string{"climb", "--from", within(3), "--to", within(1)}, "climb: --to (1) must not be before --from (3)"},
		{[]string{"climb", "--against", "1000h"}, "climb: --against 1000h: the run has evolved "},
		{[]string{"export", "--generation", "1.5"}, "not a whole number, nor hours of evolution (6h)"},
		{[]string{"export", "--generation", "-1h"}, "not a number of hours of evolution"},
	} {
		out, err := evolvedIn(t, dir, c.args...).CombinedOutput()
		if code := exitCodeOf(err); code != 2 || !strings.Contains(string(out), c.want) {
			t.Errorf("evolved %s: exit %d, want 2 with %q; output:\n%s", strings.Join(c.args, " "), code, c.want, out)
		}
	}
}
