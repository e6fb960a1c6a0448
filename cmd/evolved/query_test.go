package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"evolved/agent"
	"evolved/storage"
)

// xiangqiConfig is fastConfig's xiangqi counterpart, to put a second run
// in a database.
const xiangqiConfig = `
games = ["xiangqi"]
workers = 2
log_format = "json"
[xiangqi]
depth = 1
format = "blondie"
ladder_games = 2
baseline_every = 2
baselines = ["random"]
baseline_games = 2
adjudicate_material = 15
[jobs]
backup = ""
prune = ""
rating_every = 0
`

// TestGameInferredFromTheDatabase checks that champions and export need
// no --game when the database holds exactly one run, and say what to do
// when it holds none or several.
func TestGameInferredFromTheDatabase(t *testing.T) {
	dir, config := setup(t)
	// An empty database: open it as the daemon would, then close.
	db, err := storage.Open(context.Background(), filepath.Join(dir, "evolved.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, cmd := range []string{"champions", "export"} {
		out, err := evolvedIn(t, dir, cmd).CombinedOutput()
		if code := exitCodeOf(err); code != 1 || !strings.Contains(string(out), cmd+": evolved.db holds no run yet (start one with `evolved run --db evolved.db`)") {
			t.Errorf("%s on an empty database: status %d, %s", cmd, code, out)
		}
	}

	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "1").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	out, err := evolvedIn(t, dir, "champions").CombinedOutput()
	if err != nil || !regexp.MustCompile(`(?m)^0\s+\d+\s`).Match(out) {
		t.Errorf("champions with one run: %v\n%s\nwant generation 0's champion", err, out)
	}
	agentFile, err := evolvedIn(t, dir, "export").Output()
	if err != nil || !bytes.Contains(agentFile, []byte(`"game": "draughts"`)) {
		t.Errorf("export with one run: %v\n%s", err, agentFile)
	}

	xconfig := filepath.Join(dir, "xiangqi.toml")
	if err := os.WriteFile(xconfig, []byte(xiangqiConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := evolvedIn(t, dir, "run", "--config", xconfig, "--generations", "1").CombinedOutput(); err != nil {
		t.Fatalf("run xiangqi: %v\n%s", err, out)
	}
	for _, cmd := range []string{"champions", "export"} {
		out, err := evolvedIn(t, dir, cmd).CombinedOutput()
		if code := exitCodeOf(err); code != 2 || !strings.Contains(string(out), cmd+": evolved.db holds runs of draughts, xiangqi; choose one with --game") {
			t.Errorf("%s with two runs: status %d, %s; want a usage error listing them", cmd, code, out)
		}
	}
	if out, err := evolvedIn(t, dir, "export", "--game", "xiangqi").Output(); err != nil || !bytes.Contains(out, []byte(`"game": "xiangqi"`)) {
		t.Errorf("export --game xiangqi with two runs: %v\n%.200s", err, out)
	}
}

// TestExportReportsWhatItWrote checks export's report on standard error:
// file, game, generation, agent and size, and that standard output holds
// the agent alone when the agent goes there.
func TestExportReportsWhatItWrote(t *testing.T) {
	dir, config := setup(t)
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "2").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	report := regexp.MustCompile(`^export: wrote (.+): draughts generation (\d+) champion, agent (\d+), (\d+) bytes\n$`)

	cmd := evolvedIn(t, dir, "export", "-o", "champion.json")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("export -o: %v\n%s", err, stderr.String())
	}
	info, err := os.Stat(filepath.Join(dir, "champion.json"))
	if err != nil {
		t.Fatal(err)
	}
	m := report.FindStringSubmatch(stderr.String())
	if stdout.Len() != 0 || m == nil || m[1] != "champion.json" || m[2] != "1" || m[4] != fmt.Sprint(info.Size()) {
		t.Errorf("export -o champion.json: stdout %q, stderr %q; want nothing on stdout and a report of generation 1, %d bytes",
			stdout.String(), stderr.String(), info.Size())
	}
	agentID := m[3]

	cmd = evolvedIn(t, dir, "export", "--generation", "0")
	stdout.Reset()
	stderr.Reset()
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("export: %v\n%s", err, stderr.String())
	}
	m = report.FindStringSubmatch(stderr.String())
	if m == nil || m[1] != "standard output" || m[2] != "0" || m[4] != fmt.Sprint(stdout.Len()) || !bytes.HasPrefix(stdout.Bytes(), []byte("{")) {
		t.Errorf("export to stdout: stderr %q, %d bytes on stdout; want a report of generation 0 and its size, and the agent alone on stdout",
			stderr.String(), stdout.Len())
	}
	if !strings.Contains(stdout.String(), `"agent_id": `) || agentID == "" {
		t.Errorf("exported agent lacks its provenance:\n%.300s", stdout.String())
	}
}

// exitCodeOf returns the exit status of a finished command's error: an
// *exec.ExitError of the binary, or an *exitError of an in-process run.
func exitCodeOf(err error) int {
	var exit interface{ ExitCode() int }
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	return -1
}

// TestBestRated checks the champion export --best chooses: the highest
// rating less its interval on the latest rating's scale and time control.
func TestBestRated(t *testing.T) {
	at := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	r := func(gen int, elo, ci float64, scale string, hours int) storage.Rating {
		return storage.Rating{Generation: gen, Elo: elo, CI: ci, Scale: scale, TC: "untimed", CreatedAt: at.Add(time.Duration(hours) * time.Hour)}
	}
	for _, tc := range []struct {
		name    string
		ratings []storage.Rating
		want    int // generation; -1 for none
	}{
		{"none", nil, -1},
		{"one", []storage.Rating{r(7, 900, 40, "s", 0)}, 7},
		{"the surest, not the highest", []storage.Rating{r(1, 1000, 30, "s", 0), r(2, 1060, 100, "s", 1), r(3, 1020, 31, "s", 2)}, 3},
		{"a tie goes to the later generation", []storage.Rating{r(4, 1000, 30, "s", 0), r(5, 1010, 40, "s", 1)}, 5},
		{"only the latest scale", []storage.Rating{r(1, 2000, 10, "old", 0), r(2, 900, 30, "s", 1), r(3, 950, 30, "s", 2)}, 3},
	} {
		got, ok := bestRated(tc.ratings)
		if (tc.want < 0) == ok || (ok && got.Generation != tc.want) {
			t.Errorf("%s: generation %d (ok %v), want %d", tc.name, got.Generation, ok, tc.want)
		}
	}
}

// TestExportKeepsTheNodeBudget checks that a run evolved at a node budget
// exports its champion with that budget, so that the agent plays as it
// was evolved, and that play and match accept the file.
func TestExportKeepsTheNodeBudget(t *testing.T) {
	dir, config := setup(t)
	budget := strings.Replace(fastConfig, "depth = 1\n", "depth = 6\nnodes = 300\n", 1)
	if err := os.WriteFile(config, []byte(budget), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "1").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if out, err := evolvedIn(t, dir, "export", "-o", "champion.json").CombinedOutput(); err != nil {
		t.Fatalf("export: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "champion.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f agent.File
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if f.Search.Depth != 6 || f.Search.Nodes != 300 {
		t.Errorf("exported search %+v, want depth 6 and 300 nodes", f.Search)
	}
	out, err := evolvedIn(t, dir, "match", "--a", "champion.json", "--b", "random", "--games", "2").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "result games=2") {
		t.Errorf("match with the exported agent: %v\n%s", err, out)
	}
}

// TestStatusCountsTheBackups checks that status finds the backup job's
// copies where the job writes them, and only those.
func TestStatusCountsTheBackups(t *testing.T) {
	dir, config := setup(t)
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "1").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	withBackups := strings.Replace(fastConfig, "backup = \"\"", "backup = \"@daily\"\nbackup_keep = 4", 1)
	if err := os.WriteFile(config, []byte(withBackups), 0o644); err != nil {
		t.Fatal(err)
	}
	backups := filepath.Join(dir, "backups")
	if err := os.MkdirAll(backups, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, size := range map[string]int{"evolved-20261101T000000Z.db": 3000, "evolved-20261102T000000Z.db": 5000, "other-20261102T000000Z.db": 700, "notes.txt": 10} {
		if err := os.WriteFile(filepath.Join(backups, name), make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := evolvedIn(t, dir, "status", "--config", config, "--json").Output()
	if err != nil {
		t.Fatalf("status: %v\n%s", err, out)
	}
	var st struct {
		Database struct {
			Backups struct {
				Dir    string `json:"dir"`
				Copies int    `json:"copies"`
				Bytes  int64  `json:"bytes"`
				Keep   int    `json:"keep"`
			} `json:"backups"`
		} `json:"database"`
	}
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if b := st.Database.Backups; b.Copies != 2 || b.Bytes != 8000 || b.Keep != 4 || b.Dir != "backups" {
		t.Errorf("backups %+v, want the 2 copies of evolved.db (8000 bytes) in backups, keep 4", b)
	}
	text, err := evolvedIn(t, dir, "status", "--config", config).Output()
	if err != nil || !strings.Contains(string(text), "backups: 2 copies in backups, 7.81 KiB (backup_keep = 4") {
		t.Errorf("status: %v\n%s", err, text)
	}
}

// TestStatusShowsTheRunningDaemonsETA starts a daemon with a generation
// target given on its command line only: status, in another process that
// knows nothing of it, shows the target and an ETA; once the daemon has
// stopped cleanly, neither.
func TestStatusShowsTheRunningDaemonsETA(t *testing.T) {
	dir, config := setup(t)
	out, stop := evolvedIn(t, dir, "run", "--config", config, "--generations", "100000").Start()
	db := filepath.Join(dir, "evolved.db")
	if !waitFor(time.Minute, func() bool { return generations(t, db) >= 3 }) {
		stop()
		t.Fatalf("no 3 generations in a minute:\n%s", out.String())
	}
	type row struct {
		Target     int     `json:"target"`
		ETASeconds float64 `json:"eta_seconds"`
	}
	statusRow := func() row {
		b, err := evolvedIn(t, dir, "status", "--json").Output()
		if err != nil {
			t.Fatalf("status: %v\n%s", err, b)
		}
		var st struct{ Populations []row }
		if err := json.Unmarshal(b, &st); err != nil || len(st.Populations) != 1 {
			t.Fatalf("status: %v\n%s", err, b)
		}
		return st.Populations[0]
	}
	if r := statusRow(); r.Target != 100000 || r.ETASeconds <= 0 {
		t.Errorf("status beside a daemon run with --generations 100000: target %d, ETA %v s", r.Target, r.ETASeconds)
	}
	if err := stop(); err != nil {
		t.Fatalf("stop: %v\n%s", err, out.String())
	}
	if r := statusRow(); r.Target != 0 || r.ETASeconds != -1 {
		t.Errorf("status after the daemon stopped: target %d, ETA %v s; want none", r.Target, r.ETASeconds)
	}
}

// TestCurriculumJoinsARunShown turns the curriculum on in a draughts run
// started without it, through the configuration file, and checks that
// status names the change, in text and in JSON.
func TestCurriculumJoinsARunShown(t *testing.T) {
	dir, config := setup(t)
	write := func(section string) {
		t.Helper()
		text := strings.Replace(fastConfig, "[draughts]\n", "[draughts]\nnodes = 40\n"+section, 1)
		if err := os.WriteFile(config, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("")
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "2").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	write("curriculum_every = 2\ncurriculum_games = 2\n")
	out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "3").CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"from_generation":2`) || !strings.Contains(string(out), "draughts.curriculum_every 0 -> 2") {
		t.Fatalf("run with the curriculum: %v\n%s\nwant the change logged from generation 2", err, out)
	}
	text, err := evolvedIn(t, dir, "status").Output()
	if err != nil || !strings.Contains(string(text), "draughts settings: curriculum_every 0 -> 2 from generation 2 (changed ") ||
		!strings.Contains(string(text), "draughts settings: curriculum_games 0 -> 2 from generation 2") ||
		!strings.Contains(string(text), "draughts curriculum: 1 checks") {
		t.Errorf("status: %v\n%s\nwant the change and the check at generation 2", err, text)
	}
	js, err := evolvedIn(t, dir, "status", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var status struct {
		Populations []struct {
			SettingChanges []struct {
				Generation int    `json:"generation"`
				Key        string `json:"key"`
				Old, New   string
			} `json:"setting_changes"`
		} `json:"populations"`
	}
	if err := json.Unmarshal(js, &status); err != nil || len(status.Populations) != 1 {
		t.Fatalf("status --json: %v\n%s", err, js)
	}
	got := fmt.Sprint(status.Populations[0].SettingChanges)
	if want := "[{2 curriculum_every 0 2} {2 curriculum_games 0 2}]"; got != want {
		t.Errorf("status --json setting_changes: %s, want %s", got, want)
	}

	// climb shows the budget each champion played under: 40 nodes up to
	// the check of generation 2, what it left after.
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "4").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "evolved.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var after int64
	if err := db.QueryRow("SELECT next_nodes FROM curriculum WHERE generation = 2").Scan(&after); err != nil {
		t.Fatal(err)
	}
	js, err = evolvedIn(t, dir, "climb", "--every", "1", "--games", "2", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var climbed struct {
		Points []struct {
			Generation int   `json:"generation"`
			Nodes      int64 `json:"nodes"`
		} `json:"points"`
	}
	if err := json.Unmarshal(js, &climbed); err != nil {
		t.Fatalf("climb --json: %v\n%s", err, js)
	}
	want := fmt.Sprintf("[{1 40} {2 40} {3 %d}]", after)
	if got := fmt.Sprint(climbed.Points); got != want {
		t.Errorf("climb points %s, want %s (generation, nodes)", got, want)
	}
	text, err = evolvedIn(t, dir, "climb", "--every", "1", "--games", "2").Output()
	if err != nil || !regexp.MustCompile(`score +Elo +nodes\n +1 .* 40\n`).Match(text) {
		t.Errorf("climb: %v\n%s\nwant a nodes column", err, text)
	}
}
