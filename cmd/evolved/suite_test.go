package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"evolved/game/chess"
	"evolved/player"
	"evolved/search"
	"evolved/suite"
)

// handSuite is suite/testdata/hand.epd, hand-checked positions whose
// answer at depth 2 does not depend on how the search prunes (see that
// package's TestSolve): mate1 and two queens solved, WAC.002 and avoid
// failed, start neither.
const handSuite = "../../suite/testdata/hand.epd"

// handLines returns the lines of handSuite.
func handLines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(handSuite)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// writeSuite writes lines as an EPD file in dir and returns its name.
func writeSuite(t *testing.T, dir string, lines []string) string {
	t.Helper()
	path := filepath.Join(dir, "suite.epd")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// suiteRow matches a position's line: id, result, move, depth, nodes, time,
// expected.
var suiteRow = regexp.MustCompile(`^(.+?)\s+(solved|failed|-)\s+(\S+)\s+(\d+)\s+(\d+)\s+\d+\.\d+s(?:  (.*))?$`)

// suiteRows returns the position lines of a suite's output, by id.
func suiteRows(t *testing.T, out string) map[string][]string {
	t.Helper()
	rows := map[string][]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if m := suiteRow.FindStringSubmatch(sc.Text()); m != nil {
			rows[strings.TrimSpace(m[1])] = m[2:]
		}
	}
	return rows
}

// TestSuiteCountsSolvedPositions runs material:2 over handSuite and checks
// each verdict, the counts and the last line.
func TestSuiteCountsSolvedPositions(t *testing.T) {
	dir := t.TempDir()
	path := writeSuite(t, dir, handLines(t))
	out, err := evolvedIn(t, dir, "suite", "--player", "material:2", "--epd", path).Output()
	if err != nil {
		t.Fatalf("suite: %v\n%s", err, out)
	}
	rows := suiteRows(t, string(out))
	for id, want := range map[string][2]string{
		"mate1":       {"solved", "Ra8#"},
		"queen":       {"solved", "Rxd5"},
		"queen again": {"solved", "Rxd5"},
		"WAC.002":     {"failed", ""},
		"avoid":       {"failed", "Ra8#"},
		"start":       {"-", ""},
	} {
		row, ok := rows[id]
		if !ok {
			t.Errorf("no line for %s:\n%s", id, out)
			continue
		}
		if row[0] != want[0] || want[1] != "" && row[1] != want[1] || id == "WAC.002" && row[1] == "Rxb2" {
			t.Errorf("%s: %s %s, want %s %s", id, row[0], row[1], want[0], want[1])
		}
	}
	if got, want := rows["mate1"][4], "bm Ra8#"; got != want {
		t.Errorf("mate1 expects %q, want %q", got, want)
	}
	if got, want := rows["avoid"][4], "am Ra8#"; got != want {
		t.Errorf("avoid expects %q, want %q", got, want)
	}
	// The same position twice: the table is cleared between positions.
	if rows["queen"][3] != rows["queen again"][3] || rows["queen"][3] == "0" {
		t.Errorf("the same position searched twice: %s and %s nodes, want the same, not 0", rows["queen"][3], rows["queen again"][3])
	}
	if rows["start"][2] != "2" {
		t.Errorf("start position: depth %s, want 2 (material:2)", rows["start"][2])
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := lines[len(lines)-1]
	if !regexp.MustCompile(`^result solved=3 total=5 positions=6 nodes=[1-9]\d* time=\d+\.\d{3}$`).MatchString(last) {
		t.Errorf("last line %q, want result solved=3 total=5 positions=6 nodes=... time=...", last)
	}
}

// TestSuiteDepthNodes checks --depth on the start position and Kiwipete:
// each line reports that depth and the nodes a search of pst to that depth
// takes when run here directly; --concurrency 2 and --json give the same
// moves, depths and nodes in the file's order.
func TestSuiteDepthNodes(t *testing.T) {
	bench, err := filepath.Abs("../../docs/suites/bench.epd")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(bench)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := chess.ReadEPD(f)
	f.Close()
	if err != nil || len(recs) != 2 || recs[0].ID != "start" || recs[1].ID != "kiwipete" {
		t.Fatalf("bench.epd: %d records, %v; want start and kiwipete", len(recs), err)
	}
	const depth = 4
	spec, err := player.ParseChess("pst:1")
	if err != nil {
		t.Fatal(err)
	}
	var want []suite.Result
	for _, rec := range recs {
		p := spec.New()
		p.(search.Searcher[chess.Move, *chess.Game]).Limits(depth, 0, 0)
		g := chess.NewGame(rec.Position, chess.Rules{FiftyMoveRule: true})
		res, err := p.Move(t.Context(), g)
		if err != nil {
			t.Fatal(err)
		}
		pos := rec.Position
		want = append(want, suite.Result{ID: rec.ID, FEN: pos.FEN(), Move: pos.FormatSAN(res.Move), Depth: depth, Nodes: res.Nodes})
	}

	dir := t.TempDir()
	out, err := evolvedIn(t, dir, "suite", "--player", "pst:1", "--epd", bench, "--depth", fmt.Sprint(depth)).Output()
	if err != nil {
		t.Fatalf("suite --depth: %v\n%s", err, out)
	}
	rows := suiteRows(t, string(out))
	for _, w := range want {
		row := rows[w.ID]
		if row == nil || row[0] != "-" || row[1] != w.Move || row[2] != fmt.Sprint(w.Depth) || row[3] != fmt.Sprint(w.Nodes) {
			t.Errorf("%s: %q, want - %s depth %d nodes %d", w.ID, row, w.Move, w.Depth, w.Nodes)
		}
	}
	if !strings.Contains(string(out), fmt.Sprintf("result solved=0 total=0 positions=2 nodes=%d ", want[0].Nodes+want[1].Nodes)) {
		t.Errorf("last line does not sum the nodes %d and %d:\n%s", want[0].Nodes, want[1].Nodes, out)
	}

	out, err = evolvedIn(t, dir, "suite", "--player", "pst:1", "--epd", bench, "--depth", fmt.Sprint(depth), "--concurrency", "2", "--json").Output()
	if err != nil {
		t.Fatalf("suite --json: %v\n%s", err, out)
	}
	var rep suite.Report
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("suite --json: %v\n%s", err, out)
	}
	for i := range rep.Positions {
		rep.Positions[i].Time = 0
	}
	if !reflect.DeepEqual(rep.Positions, want) ||
		rep.Nodes != want[0].Nodes+want[1].Nodes || rep.Total != 0 || rep.Limit != "depth 4" {
		t.Errorf("--json --concurrency 2: %+v\nwant positions %+v", rep, want)
	}
}

// TestSuiteErrors checks the refusals: a malformed EPD names its line, id
// and move; limits that conflict or that the player cannot take, and
// missing flags, are usage errors.
func TestSuiteErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeSuite(t, dir, []string{handLines(t)[0], `6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Qz9; id "bad";`})
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--player", "material:2", "--epd", bad}, 1, `suite: ` + bad + `: chess: epd line 2 (id "bad"): bm move "Qz9"`},
		{[]string{"--player", "material:2", "--epd", filepath.Join(dir, "none.epd")}, 1, "no such file"},
		{[]string{"--player", "material:2"}, 2, "--player and --epd are required"},
		{[]string{"--player", "material:2", "--epd", bad, "--depth", "3", "--nodes", "100"}, 2, "give one limit"},
		{[]string{"--player", "material:2", "--epd", bad, "--depth", "65"}, 2, "--depth must be between 1 and 64"},
		{[]string{"--player", "mcts:10", "--epd", bad, "--depth", "3"}, 2, "player mcts:10 takes no search limit"},
		{[]string{"--player", "material:0", "--epd", bad}, 2, "material takes a whole number"},
	} {
		out, err := evolvedIn(t, dir, append([]string{"suite"}, tc.args...)...).CombinedOutput()
		if code := exitCodeOf(err); code != tc.code || !strings.Contains(string(out), tc.want) {
			t.Errorf("suite %q: status %d, want %d and %q:\n%s", tc.args, code, tc.code, tc.want, out)
		}
	}
}

// TestSuiteStockfish runs Stockfish at a node limit over two easy Win At
// Chess positions (WAC.004 Qxh7+ and WAC.005 Qc4+, both mating attacks
// it finds in a few thousand nodes) from docs/suites/wac.epd.
func TestSuiteStockfish(t *testing.T) {
	sf, err := exec.LookPath("/usr/games/stockfish")
	if err != nil {
		t.Skip("stockfish is not installed (Debian package stockfish; .ci/run installs it)")
	}
	wac, err := os.ReadFile("../../docs/suites/wac.epd")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(wac), "\n") {
		if strings.Contains(l, `id "WAC.004"`) || strings.Contains(l, `id "WAC.005"`) {
			lines = append(lines, l)
		}
	}
	dir := t.TempDir()
	path := writeSuite(t, dir, lines)
	out, err := evolvedIn(t, dir, "suite", "--player", "uci:"+sf+":Threads=1", "--epd", path, "--nodes", "20000").Output()
	if err != nil {
		t.Fatalf("suite with stockfish: %v\n%s", err, out)
	}
	rows := suiteRows(t, string(out))
	for id, move := range map[string]string{"WAC.004": "Qxh7+", "WAC.005": "Qc4+"} {
		row := rows[id]
		if row == nil || row[0] != "solved" || row[1] != move || row[2] == "0" || row[3] == "0" {
			t.Errorf("%s: %q, want solved %s with the engine's depth and nodes", id, row, move)
		}
	}
	if !strings.Contains(string(out), "result solved=2 total=2 positions=2 ") {
		t.Errorf("want 2 of 2 solved:\n%s", out)
	}
}

// TestSuiteStopped checks that a suite stopped in the middle of a search
// (Ctrl-C) fails instead of counting the cut search.
func TestSuiteStopped(t *testing.T) {
	bench, err := filepath.Abs("../../docs/suites/bench.epd")
	if err != nil {
		t.Fatal(err)
	}
	// Depth 64 from the start position: a search that runs until stopped.
	out, stop := evolvedIn(t, t.TempDir(), "suite", "--player", "pst:1", "--epd", bench, "--depth", "64").Start()
	for !strings.Contains(out.String(), "expected\n") {
		time.Sleep(10 * time.Millisecond)
	}
	err = stop()
	if exitCodeOf(err) != 1 || !strings.Contains(out.String(), "suite: context canceled") || strings.Contains(out.String(), "result solved=") {
		t.Errorf("stopped suite: status %d, want 1, context canceled and no result line:\n%s", exitCodeOf(err), out.String())
	}
}
