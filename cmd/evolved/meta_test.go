package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"evolved/storage"
)

const mateInTwo = "k7/8/2K5/8/8/8/8/7R w - - 0 1"

// TestMetaACOMateInTwo is the check: the colony with the
// tolerance variant, classic weights, finds a mate from a mate in two
// against material:1, and its greedy player, as White from there, wins at
// least 90 of 100. (With 30 iterations of 10 ants instead of 100 of 20,
// only some seeds find the mate: every game that keeps the rook scores +7
// and feeds the first lines the ants tried.)
func TestMetaACOMateInTwo(t *testing.T) {
	dir := t.TempDir()
	out, err := evolvedIn(t, dir, "meta", "--method", "aco", "--opponent", "material:1", "--fen", mateInTwo,
		"--turns", "4", "--iterations", "100", "--ants", "20", "--tolerance", "0.1", "-o", "table.txt").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "best cost 1007 ") || !strings.Contains(string(out), "stored as run 1 in evolved.db") {
		t.Fatalf("meta aco: %v\n%s", err, out)
	}
	for _, spec := range []string{"meta:1", "meta:1@evolved.db", "pheromones:table.txt"} {
		out, err = evolvedIn(t, dir, "match", "--game", "chess", "--a", spec, "--b", "material:1", "--fen", mateInTwo,
			"--colors", "fixed", "--games", "100").CombinedOutput()
		m := regexp.MustCompile(`result games=100 wins=(\d+) `).FindStringSubmatch(string(out))
		wins := -1
		if m != nil {
			wins, _ = strconv.Atoi(m[1])
		}
		if err != nil || wins < 90 {
			t.Errorf("%s as White against material:1: %v\n%s", spec, err, out)
		}
	}
	out, err = evolvedIn(t, dir, "meta", "--list").CombinedOutput()
	if err != nil || !regexp.MustCompile(`\n +1  aco +material:1 +100 +1007 .* finished\n`).Match(out) {
		t.Errorf("meta --list: %v\n%s", err, out)
	}
	out, err = evolvedIn(t, dir, "meta", "--show", "1", "--plot", "cost.svg").CombinedOutput()
	if err != nil || !strings.Contains(string(out), `[FEN "k7/8/2K5/8/8/8/8/7R w - - 0 1"]`) || !strings.Contains(string(out), "1-0") ||
		!strings.Contains(string(out), "wrote cost.svg") {
		t.Errorf("meta --show: %v\n%s", err, out)
	}
	if svg, err := os.ReadFile(filepath.Join(dir, "cost.svg")); err != nil || !strings.Contains(string(svg), "<svg") {
		t.Errorf("the plot: %v", err)
	}
}

func TestMetaErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bad.txt"), []byte("RNBQKBNRPPPPPPPP################################pppppppprnbqkbnr\n6 0 5 2 - x\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "empty.txt"), nil, 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"meta", "--method", "x", "--opponent", "random"}, 2, "--method"},
		{[]string{"meta", "--method", "sa"}, 2, "--opponent is required"},
		{[]string{"meta", "--method", "sa", "--opponent", "random", "--ants", "3"}, 2, "--ants is for method aco, not sa"},
		{[]string{"meta", "--method", "aco", "--opponent", "random", "--weights", "z=3"}, 2, "--weights"},
		{[]string{"meta", "--method", "aco", "--opponent", "random", "--from", "e2e5"}, 2, "e2e5"},
		{[]string{"meta", "--method", "aco", "--opponent", "random", "--from", "1. e4 e5 2. Ke3"}, 2, `--from "Ke3": chess: parse SAN move "Ke3"`},
		{[]string{"meta", "--method", "aco", "--opponent", "random", "--from", "1. e4 {open"}, 2, "--from"},
		{[]string{"meta", "--method", "aco", "--opponent", "random", "--turns", "0"}, 2, "--turns 0: want at least 1"},
		{[]string{"meta", "--show", "7"}, 1, "storage: no database"},
		{[]string{"match", "--game", "chess", "--a", "pheromones:bad.txt", "--b", "random"}, 2, "line 2"},
		{[]string{"match", "--game", "chess", "--a", "pheromones:none.txt", "--b", "random"}, 2, "no such pheromone file"},
		{[]string{"match", "--game", "chess", "--a", "pheromones:empty.txt", "--b", "random"}, 2, "holds no position"},
		{[]string{"match", "--game", "chess", "--a", "random", "--b", "random", "--concurrency", "-3"}, 2, "must not be negative"},
		{[]string{"play", "--game", "chess", "--player", "random", "--max-moves", "-1"}, 2, "must not be negative"},
		{[]string{"run", "--game", "draughts,draughts", "--generations", "1"}, 2, "listed twice"},
		{[]string{"run", "--db", "typo/evolved.db", "--generations", "1"}, 2, "its directory typo does not exist"},
		{[]string{"match", "--game", "chess", "--a", "meta:x", "--b", "random"}, 2, "want meta:RUN"},
	} {
		out, err := evolvedIn(t, dir, c.args...).CombinedOutput()
		code := exitCodeOf(err)
		if code != c.code || !strings.Contains(string(out), c.want) {
			t.Errorf("evolved %v: status %d, output %q; want status %d and %q", c.args, code, out, c.code, c.want)
		}
	}
}

// TestMetaInterrupted stops a run with SIGINT: what it learnt so far is
// stored, and the run is listed as stopped.
func TestMetaInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for a couple of seconds")
	}
	dir := t.TempDir()
	out, stop := evolvedIn(t, dir, "meta", "--method", "sa", "--opponent", "material:2", "--turns", "10", "--iterations", "1000000").Start()
	time.Sleep(3 * time.Second)
	if err := stop(); err != nil || !strings.Contains(out.String(), "meta run 1 stopped after") {
		t.Fatalf("interrupted run: %v\n%s", err, out.String())
	}
	show, err := evolvedIn(t, dir, "meta", "--show", "1").CombinedOutput()
	if err != nil || !strings.Contains(string(show), "stopped (stopped before its last iteration)") || !strings.Contains(string(show), "best line:") ||
		!strings.Contains(string(show), "learned table:") {
		t.Errorf("the stopped run: %v\n%s", err, show)
	}
}

// TestMetaNamesItsDatabase checks the closing hint: a run stored in the
// default database plays as meta:RUN, one stored elsewhere as
// meta:RUN@FILE, because meta:RUN alone reads the default database.
func TestMetaNamesItsDatabase(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		db, spec string
	}{
		{"", "meta:1"},
		{"evolved.db", "meta:2"},
		{"lab.db", "meta:1@lab.db"},
	} {
		args := []string{"meta", "--method", "sa", "--opponent", "random", "--turns", "2", "--iterations", "2"}
		if c.db != "" {
			args = append(args, "--db", c.db)
		}
		out, err := evolvedIn(t, dir, args...).CombinedOutput()
		if err != nil || !strings.HasSuffix(string(out), "; play it as "+c.spec+"\n") {
			t.Errorf("meta --db %q: %v\n%s\nwant it to end with play it as %s", c.db, err, out, c.spec)
			continue
		}
		out, err = evolvedIn(t, dir, "match", "--game", "chess", "--a", c.spec, "--b", "random", "--games", "2").CombinedOutput()
		if err != nil || !strings.Contains(string(out), "result games=2 ") {
			t.Errorf("match --a %s: %v\n%s", c.spec, err, out)
		}
	}
}

// TestWriterBesideADaemonSuggestsDB checks that the commands that write
// the database, refused because another process holds it, point to --db.
func TestWriterBesideADaemonSuggestsDB(t *testing.T) {
	dir := t.TempDir()
	db, err := storage.Open(context.Background(), filepath.Join(dir, "evolved.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"meta", "--method", "sa", "--opponent", "random", "--turns", "2", "--iterations", "2"},
			"in use by another evolved process (another process writes to this file, perhaps under another name); store this run in another database with --db FILE (it then plays as meta:RUN@FILE)"},
		{[]string{"run", "--generations", "1"},
			"in use by another evolved process (another process writes to this file, perhaps under another name); stop the daemon that holds it, or evolve in another database with --db FILE"},
	} {
		out, err := evolvedIn(t, dir, c.args...).CombinedOutput()
		if code := exitCodeOf(err); code != 1 || !strings.Contains(string(out), c.want) {
			t.Errorf("evolved %v beside a writer: status %d, %s; want status 1 and %q", c.args, code, out, c.want)
		}
	}
}
