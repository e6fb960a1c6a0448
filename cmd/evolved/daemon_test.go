package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"evolved/agent"
	"evolved/cmd/evolved/internal/stopsignal"
	"evolved/game/chess"
	"evolved/longtest"
	"evolved/storage"
)

// binary is the evolved binary built once for the integration tests.
var binary string

func TestMain(m *testing.M) {
	stopsignal.Reset() // a test binary does not run main: let Ctrl-C kill it
	dir, err := os.MkdirTemp("", "evolved-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "evolved")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build evolved: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fastConfig is a run small enough for tests: depth-1 agents, the Blondie
// format, a short ladder and baselines every other generation, the
// default distillation every other generation at 100 nodes a search (its
// searches go to the workers in the runs with workers), short retention
// windows so that every run also prunes, and a 4-game rating of every
// other champion on the built-in draughts ladder.
const fastConfig = `
workers = 2
log_format = "json"
[draughts]
depth = 1
format = "blondie"
ladder_games = 2
baseline_every = 2
baselines = ["random"]
baseline_games = 2
distill_nodes = 100
[jobs]
backup = ""
prune = ""
prune_keep = 8
genome_keep = 3
keyframe_every = 4
members_keep = 5
rating_every = 2
rating_games = 4
rating_share = 1
`

// setup writes the config into a fresh directory and returns both paths.
func setup(t *testing.T) (dir, config string) {
	t.Helper()
	dir = t.TempDir()
	config = filepath.Join(dir, "evolved.toml")
	if err := os.WriteFile(config, []byte(fastConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, config
}

// evolved returns a command running the binary in dir.
func evolved(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "EVOLVED_DB=")
	return cmd
}

// fingerprint hashes everything a run decides (populations, genomes,
// scores, games, ladders, baselines), leaving out the wall-clock columns.
func fingerprint(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h := sha256.New()
	for _, q := range []string{
		"SELECT game, seed, config, steps FROM runs ORDER BY game",
		"SELECT * FROM lineage ORDER BY game, agent_id",
		"SELECT game, agent_id, born, origin, parents, coalesce(node, ''), hex(genome) FROM genomes ORDER BY game, agent_id",
		"SELECT game, generation, slot, agent_id, origin, coalesce(points, ''), coalesce(rank, '') FROM members ORDER BY 1, 2, 3",
		"SELECT game, generation, games, draws, mean_fitness, best_fitness, champion_id, ladder_mean, improved FROM generations ORDER BY 1, 2",
		"SELECT game, generation, kind, idx, first, second, opening, result, reason, moves FROM games ORDER BY 1, 2, 3, 4",
		"SELECT * FROM ladder ORDER BY 1, 2, 3",
		"SELECT * FROM baselines ORDER BY 1, 2, 3",
	} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			rows.Scan(ptrs...)
			fmt.Fprintln(h, vals...)
		}
		rows.Close()
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// generations returns the number of committed generations.
func generations(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM generations").Scan(&n); err != nil {
		return 0
	}
	return n
}

func TestKilledDaemonResumesBitIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("long: several daemon runs (skipped with -short)")
	}
	// Long enough to be killed four times (each kill costs one to three
	// generations), at least three of them mid-way, to the target the
	// other resume tests compare with; the long tests kill it six times in
	// 40 generations, at least five of them mid-way.
	n, most, least := resumeGenerations, 4, 3
	if longtest.Enabled() {
		n, most, least = 40, 6, 5
	}
	target := strconv.Itoa(n)
	ref := localRun(t, n)
	// The kills below are timed in units of this machine's generation, so
	// that a fast machine does not finish the run before it has been killed
	// often enough, and a slow one is still killed inside generations.
	perGeneration, want := ref.perGeneration, ref.fingerprint

	dir, config := setup(t)
	db := filepath.Join(dir, "evolved.db")
	rng := rand.New(rand.NewPCG(2026, 11))
	kills := 0
	// Each trial waits until the run has committed one more generation, so
	// that it makes progress however fast or loaded the machine is, then
	// kills it a random moment later, up to two generations on: inside a
	// generation, at its commit, or in the next one.
	for trial := 0; trial < 40 && kills < most; trial++ {
		before := generations(t, db)
		cmd := evolved(dir, "run", "--config", config, "--generations", target)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		var err error
		killed := false
		deadline := time.After(2 * time.Minute)
	wait:
		for {
			select {
			case err = <-exited:
				break wait
			case <-deadline:
				cmd.Process.Kill()
				<-exited
				t.Fatalf("trial %d: no generation committed in 2 minutes\n%s", trial, out.String())
			case <-time.After(10 * time.Millisecond):
				if !killed && generations(t, db) > before {
					time.Sleep(time.Duration(rng.Int64N(int64(2*perGeneration) + 1)))
					cmd.Process.Signal(syscall.SIGKILL)
					killed = true
				}
			}
		}
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signaled() {
			kills++
			continue
		}
		if err != nil {
			t.Fatalf("trial %d: %v\n%s", trial, err, out.String())
		}
		if generations(t, db) >= n {
			break
		}
	}
	if kills < least {
		t.Fatalf("only %d of the runs were killed mid-way; the test needs at least %d", kills, least)
	}
	// Finish the run, then compare.
	if out, err := evolved(dir, "run", "--config", config, "--generations", target).CombinedOutput(); err != nil {
		t.Fatalf("final run: %v\n%s", err, out)
	}
	if got := fingerprint(t, db); got != want {
		t.Errorf("after %d kills the database differs from the uninterrupted run's", kills)
	}
	t.Logf("%d SIGKILLs, final state identical", kills)
}

func TestSIGTERMStopsCleanly(t *testing.T) {
	dir, config := setup(t)
	cmd := evolved(dir, "run", "--config", config)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "evolved.db")
	deadline := time.Now().Add(30 * time.Second)
	for generations(t, db) < 1 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(150 * time.Millisecond) // somewhere inside the next generation
	start := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v\n%s", err, out.String())
		}
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still running 5 s after SIGTERM\n%s", out.String())
	}
	t.Logf("stopped %v after SIGTERM", time.Since(start).Round(time.Millisecond))
	raw, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var check string
	if err := raw.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check = %q, %v", check, err)
	}
	if !strings.Contains(out.String(), "stopped") {
		t.Errorf("no stop message in the log:\n%s", out.String())
	}
}

func TestSqlite3ReadsWhileTheDaemonWrites(t *testing.T) {
	sqlite3, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("sqlite3 is not installed (Debian package sqlite3; .ci/run installs it)")
	}
	dir, config := setup(t)
	cmd := evolved(dir, "run", "--config", config, "--generations", "5")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	db := filepath.Join(dir, "evolved.db")
	last, reads := -1, 0
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("daemon: %v\n%s", err, out.String())
			}
			running = false
		default:
		}
		if _, err := os.Stat(db); err != nil {
			continue
		}
		// As docs/daemon.md tells sqlite3 users: a busy timeout covers the
		// instant the daemon's last connection closes (SQLite then
		// checkpoints under an exclusive lock); while it runs, readers
		// never wait.
		got, err := exec.Command(sqlite3, "-readonly", "-cmd", ".timeout 5000", db,
			// One statement, so one snapshot: two statements are two read
			// transactions, and a generation may commit between them.
			"SELECT (SELECT count(*) FROM generation_summary), (SELECT count(*) FROM champion_history);").CombinedOutput()
		if err != nil {
			if strings.Contains(string(got), "no such table") {
				continue // the schema is being created
			}
			t.Fatalf("sqlite3 while the daemon writes (after %d reads, %d generations seen): %v: %s", reads, last, err, got)
		}
		var a, b int
		if _, err := fmt.Sscanf(strings.TrimSpace(string(got)), "%d|%d", &a, &b); err != nil {
			t.Fatalf("sqlite3 printed %q: %v", got, err)
		}
		if a != b || a < last {
			t.Fatalf("inconsistent read: %d summaries, %d champions, %d before", a, b, last)
		}
		last = a
		reads++
	}
	if last != 5 || reads < 3 {
		t.Errorf("read %d times, last saw %d generations; want several reads ending at 5", reads, last)
	}
}

func TestRunFailsClearly(t *testing.T) {
	cases := []struct {
		name    string
		prepare func(t *testing.T, dir string) []string
		code    int
		want    string
	}{
		{"unknown config key", func(t *testing.T, dir string) []string {
			os.WriteFile(filepath.Join(dir, "c.toml"), []byte("workerz = 3\n"), 0o644)
			return []string{"run", "--config", "c.toml"}
		}, 2, "unknown key workerz"},
		{"out of range value", func(t *testing.T, dir string) []string {
			os.WriteFile(filepath.Join(dir, "c.toml"), []byte("[draughts]\ndepth = 99\n"), 0o644)
			return []string{"run", "--config", "c.toml"}
		}, 2, "draughts.depth = 99"},
		{"bad flag value", func(t *testing.T, dir string) []string {
			return []string{"run", "--workers", "many"}
		}, 2, "workers = \"many\": not a whole number"},
		{"database under a file", func(t *testing.T, dir string) []string {
			os.WriteFile(filepath.Join(dir, "file"), nil, 0o644)
			return []string{"run", "--db", filepath.Join(dir, "file", "evolved.db")}
		}, 2, "is not a directory"},
		{"corrupt database", func(t *testing.T, dir string) []string {
			os.WriteFile(filepath.Join(dir, "evolved.db"), append([]byte("SQLite format 3\x00"), bytes.Repeat([]byte{0xAB}, 8192)...), 0o644)
			return []string{"run", "--db", "evolved.db"}
		}, 1, "corrupt"},
		{"not a database", func(t *testing.T, dir string) []string {
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("my notes"), 0o644)
			return []string{"run", "--db", "notes.txt"}
		}, 1, "not an evolved database"},
	}
	if os.Getuid() != 0 { // root writes anywhere
		cases = append(cases, struct {
			name    string
			prepare func(t *testing.T, dir string) []string
			code    int
			want    string
		}{"unwritable directory", func(t *testing.T, dir string) []string {
			ro := filepath.Join(dir, "ro")
			os.Mkdir(ro, 0o555)
			return []string{"run", "--db", filepath.Join(ro, "evolved.db")}
		}, 1, "evolved.db"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := c.prepare(t, dir)
			before := snapshot(dir)
			out, err := evolvedIn(t, dir, args...).CombinedOutput()
			if exitCodeOf(err) != c.code {
				t.Fatalf("exit %v, want status %d\n%s", err, c.code, out)
			}
			if !strings.Contains(string(out), c.want) {
				t.Errorf("message %q does not mention %q", out, c.want)
			}
			for name, content := range before {
				if got, _ := os.ReadFile(filepath.Join(dir, name)); !bytes.Equal(got, content) {
					t.Errorf("%s was changed", name)
				}
			}
		})
	}
}

func TestSecondDaemonIsRefused(t *testing.T) {
	dir, config := setup(t)
	first := evolved(dir, "run", "--config", config)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		first.Process.Signal(syscall.SIGTERM)
		first.Wait()
	}()
	db := filepath.Join(dir, "evolved.db")
	for deadline := time.Now().Add(20 * time.Second); generations(t, db) < 1 && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, binary, "run", "--config", config, "--db", db).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("second daemon: %v, want exit status 1\n%s", err, out)
	}
	if !strings.Contains(string(out), "in use by another evolved process") {
		t.Errorf("message %q does not say the database is in use", out)
	}
}

// snapshot reads every regular file of dir.
func snapshot(dir string) map[string][]byte {
	out := map[string][]byte{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Type().IsRegular() {
			b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
			out[e.Name()] = b
		}
	}
	return out
}

func TestExportTwiceGivesIdenticalBytes(t *testing.T) {
	dir, config := setup(t)
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "3").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	var files [2][]byte
	for i := range files {
		out, err := evolvedIn(t, dir, "export", "--game", "draughts").Output()
		if err != nil {
			t.Fatalf("export: %v", err)
		}
		files[i] = out
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Errorf("two exports differ")
	}
	// The exported agent plays: a short match against random.
	os.WriteFile(filepath.Join(dir, "champion.json"), files[0], 0o644)
	out, err := evolvedIn(t, dir, "match", "--game", "draughts", "--a", "champion.json", "--b", "random", "--games", "4").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "result games=4") {
		t.Errorf("match with the exported agent: %v\n%s", err, out)
	}
	// It is rated, the game read from the file; so is a champion of the
	// database; as a chess agent it is refused, naming the mismatch.
	out, err = evolvedIn(t, dir, "rate", "--agent", "champion.json", "--games", "4").CombinedOutput()
	if err != nil || !regexp.MustCompile(`\nrating game=draughts elo=-?\d+ ci=\d+ games=4 scale=evolved-draughts-1 tc=untimed\n`).Match(out) {
		t.Errorf("rate the exported agent: %v\n%s", err, out)
	}
	// A champion of the database is rated and its rating stored there,
	// also while a writer (the daemon) holds the database.
	writer, err := storage.Open(context.Background(), filepath.Join(dir, "evolved.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err = evolvedIn(t, dir, "rate", "--db", "evolved.db", "--generation", "1", "--games", "4").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "champion of generation 1 on evolved-draughts-1") ||
		!strings.Contains(string(out), "\nstored in evolved.db as generation 1's rating on evolved-draughts-1 (tc untimed)\n") {
		t.Errorf("rate a champion of the database beside its writer: %v\n%s", err, out)
	}
	rated, ok, err := writer.LatestRating(context.Background(), "draughts")
	writer.Close()
	if err != nil || !ok || rated.Generation != 1 || rated.Games != 4 || rated.Wins+rated.Draws+rated.Losses != 4 {
		t.Errorf("the database's latest rating: %+v, %v, %v; want generation 1's, 4 games", rated, ok, err)
	}
	out, err = evolvedIn(t, dir, "rate", "--agent", "champion.json", "--game", "chess").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "is a draughts agent, not chess") {
		t.Errorf("rate a draughts agent as chess: %v\n%s", err, out)
	}
	// Generation 1's champion, and a generation not yet played.
	if _, err := evolvedIn(t, dir, "export", "--game", "draughts", "--generation", "1").Output(); err != nil {
		t.Errorf("export --generation 1: %v", err)
	}
	out, err = evolvedIn(t, dir, "export", "--game", "draughts", "--generation", "7").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no such generation") {
		t.Errorf("export --generation 7: %v, %s; want a failure naming the generation", err, out)
	}
	// Any agent by its id: the champion exported by id is the champion's
	// net, a member that was never champion exports and plays, and an id
	// the run never had is named.
	db, err := storage.Open(context.Background(), filepath.Join(dir, "evolved.db"), storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	champ, err := db.Champion(context.Background(), "draughts", 1)
	if err != nil {
		t.Fatal(err)
	}
	if champ.AgentID != rated.AgentID {
		t.Errorf("the rating is of agent %d, generation 1's champion is %d", rated.AgentID, champ.AgentID)
	}
	members, err := db.Members(context.Background(), "draughts", 2)
	db.Close()
	if err != nil || len(members) == 0 {
		t.Fatalf("members of generation 2: %v", err)
	}
	other := members[len(members)-1]
	out, err = evolvedIn(t, dir, "export", "--agent", strconv.FormatInt(champ.AgentID, 10), "-o", "byid.json").CombinedOutput()
	if err != nil {
		t.Fatalf("export --agent %d: %v\n%s", champ.AgentID, err, out)
	}
	byGen, _ := evolvedIn(t, dir, "export", "--generation", "1").Output()
	byID, _ := os.ReadFile(filepath.Join(dir, "byid.json"))
	var a, b agent.File
	if err := json.Unmarshal(byGen, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(byID, &b); err != nil {
		t.Fatal(err)
	}
	if !a.Net.Equal(b.Net) || a.Search != b.Search || b.Provenance.AgentID != champ.AgentID {
		t.Errorf("agent %d exported by id differs from generation 1's champion: %+v against %+v", champ.AgentID, b.Provenance, a.Provenance)
	}
	out, err = evolvedIn(t, dir, "export", "--agent", strconv.FormatInt(other.AgentID, 10), "-o", "other.json").CombinedOutput()
	if err != nil || !strings.Contains(string(out), fmt.Sprintf("draughts agent %d, born in generation %d", other.AgentID, other.Born)) {
		t.Fatalf("export --agent %d: %v\n%s", other.AgentID, err, out)
	}
	out, err = evolvedIn(t, dir, "match", "--game", "draughts", "--a", "other.json", "--b", "byid.json", "--games", "2").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "result games=2") {
		t.Errorf("match with an agent exported by id: %v\n%s", err, out)
	}
	out, err = evolvedIn(t, dir, "export", "--agent", "999999").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "agent 999999: storage: no such agent") {
		t.Errorf("export --agent 999999: %v, %s; want a failure naming the agent", err, out)
	}
}

// TestStatusOfAYoungRun: a run younger than the generations whose game
// records it keeps (prune_keep) keeps all it plays, so status gives its
// growth with that said and forecasts no full disk from it; once the run
// is as old as its window (here a config keeping 2 generations), it
// forecasts again.
func TestStatusOfAYoungRun(t *testing.T) {
	dir, config := setup(t) // prune_keep = 8
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "2").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	// The generations spread over two minutes, so that a growth is measured.
	raw, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "evolved.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`UPDATE generations SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '-' || (60 * (1 - generation)) || ' seconds')`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	text, err := evolvedIn(t, dir, "status", "--config", config).Output()
	if err != nil || !strings.Contains(string(text), "/hour over the last 1m") || !strings.Contains(string(text), "a run younger than the 8 generations whose game records it keeps") ||
		strings.Contains(string(text), "full in") || strings.Contains(string(text), "warning") {
		t.Errorf("status of a run of 2 generations keeping 8: %v\n%s\nwant its growth, said to be a young run's, and no forecast", err, text)
	}
	var status struct {
		Database struct {
			GrowthPerHour *float64 `json:"growth_bytes_per_hour"`
			FullInHours   *float64 `json:"full_in_hours"`
			Filling       bool     `json:"filling_game_window"`
		} `json:"database"`
	}
	out, err := evolvedIn(t, dir, "status", "--config", config, "--json").Output()
	if err := errors.Join(err, json.Unmarshal(out, &status)); err != nil || status.Database.GrowthPerHour == nil || !status.Database.Filling || status.Database.FullInHours != nil {
		t.Errorf("status --json: %v, %+v; want a growth, filling and no forecast", err, status.Database)
	}
	older := filepath.Join(dir, "older.toml")
	if err := os.WriteFile(older, []byte(strings.Replace(fastConfig, "prune_keep = 8", "prune_keep = 2", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	text, err = evolvedIn(t, dir, "status", "--config", older).Output()
	if err != nil || strings.Contains(string(text), "younger") || !strings.Contains(string(text), "full in") {
		t.Errorf("status of a run of 2 generations keeping 2: %v\n%s\nwant a forecast", err, text)
	}
}

func TestStatusAndChampionsJSON(t *testing.T) {
	dir, config := setup(t)
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "2").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	out, err := evolvedIn(t, dir, "status", "--json", "--generations", "10").Output()
	if err != nil {
		t.Fatalf("status: %v", err)
	}
	var status struct {
		Database struct {
			Bytes         int64    `json:"bytes"`
			GrowthPerHour *float64 `json:"growth_bytes_per_hour"`
		} `json:"database"`
		Populations []struct {
			Game        string   `json:"game"`
			Generation  int      `json:"generation"`
			BestFitness *int     `json:"best_fitness"`
			GensPerHour float64  `json:"gens_per_hour"`
			Hours       float64  `json:"hours"`
			ETASeconds  *float64 `json:"eta_seconds"`
			Rating      *struct {
				Generation int     `json:"generation"`
				Elo        float64 `json:"elo"`
				CI         float64 `json:"ci"`
				Games      int     `json:"games"`
				Scale      string  `json:"scale"`
				TC         string  `json:"tc"`
			} `json:"rating"`
		} `json:"populations"`
	}
	if err := json.Unmarshal(out, &status); err != nil {
		t.Fatalf("status --json is not JSON: %v\n%s", err, out)
	}
	if len(status.Populations) != 1 {
		t.Fatalf("status: %+v, want one population", status)
	}
	p := status.Populations[0]
	if p.Game != "draughts" || p.Generation != 2 || p.BestFitness == nil || p.GensPerHour <= 0 || p.ETASeconds == nil || *p.ETASeconds <= 0 {
		t.Errorf("status: %+v, want draughts at generation 2 with fitness, a rate and an ETA to 10", p)
	}
	// The hours of evolution are the generations' seconds, read with SQL.
	var seconds float64
	if err := readOnlyDB(t, dir).QueryRow("SELECT sum(seconds) FROM generations").Scan(&seconds); err != nil {
		t.Fatal(err)
	}
	if p.Hours <= 0 || math.Abs(p.Hours-seconds/3600) > 1e-9*p.Hours {
		t.Errorf("status hours %g, want the generations' %g seconds in hours", p.Hours, seconds)
	}
	// Generation 0's champion was rated (rating_every = 2) before the run
	// ended, on the built-in draughts ladder.
	if r := p.Rating; r == nil || r.Generation != 0 || r.Games != 4 || r.Scale != "evolved-draughts-1" || r.TC != "untimed" || r.CI <= 0 {
		t.Errorf("status rating: %+v, want generation 0's 4-game rating", p.Rating)
	}
	// The database's size is the file's: pages of 4096 bytes, as ls sees
	// it after the daemon's last checkpoint; two generations in seconds
	// span less than the minute a growth rate needs.
	info, err := os.Stat(filepath.Join(dir, "evolved.db"))
	if err != nil {
		t.Fatal(err)
	}
	if status.Database.Bytes != info.Size() || status.Database.GrowthPerHour != nil {
		t.Errorf("status database %+v; the file has %d bytes; want that size and no growth yet", status.Database, info.Size())
	}
	text, err := evolvedIn(t, dir, "status").Output()
	if err != nil || !strings.Contains(string(text), "database evolved.db: ") || !strings.Contains(string(text), "growth not measured yet") ||
		!regexp.MustCompile(`RATING[^\n]*\ndraughts .* -?\d+ ± \d+ \(gen 0\)`).Match(text) {
		t.Errorf("status: %v\n%s\nwant the database line", err, text)
	}
	out, err = evolvedIn(t, dir, "champions", "--game", "draughts", "--json").Output()
	if err != nil {
		t.Fatalf("champions: %v", err)
	}
	var champs []struct {
		Generation int   `json:"generation"`
		AgentID    int64 `json:"agent_id"`
	}
	if err := json.Unmarshal(out, &champs); err != nil || len(champs) != 2 || champs[1].Generation != 1 {
		t.Errorf("champions --json: %v, %s", err, out)
	}
	// No database: a clear error.
	out, err = evolvedIn(t, t.TempDir(), "status").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no database") {
		t.Errorf("status without a database: %v, %s", err, out)
	}
}

func TestPlotLearningCurves(t *testing.T) {
	dir, config := setup(t)
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "4").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	for _, name := range []string{"curves.svg", "curves.png"} {
		out, err := evolvedIn(t, dir, "plot", "--game", "draughts", "-o", name).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "4 generations") {
			t.Fatalf("plot %s: %v\n%s", name, err, out)
		}
		if info, err := os.Stat(filepath.Join(dir, name)); err != nil || info.Size() < 1000 {
			t.Errorf("%s: %v", name, err)
		}
	}
	// The ratings of generations 0 and 2 are drawn, by generation and by
	// hours of evolution.
	svg, err := os.ReadFile(filepath.Join(dir, "curves.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"champion&#39;s rating, with 95% intervals", "hours of evolution", "evolved-draughts-1"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("curves.svg lacks %q", want)
		}
	}
	if out, err := evolvedIn(t, dir, "plot", "--game", "draughts", "-o", "x.gif").CombinedOutput(); err == nil || !strings.Contains(string(out), "must end in .svg or .png") {
		t.Errorf("plot to .gif: %v, %s", err, out)
	}
	// --compare draws one rating curve per run, named by its file.
	db, err := os.ReadFile(filepath.Join(dir, "evolved.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "other.db"), db, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := evolvedIn(t, dir, "plot", "--compare", "evolved.db,other.db", "-o", "compare.svg").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "2 runs, 4 ratings") {
		t.Fatalf("plot --compare: %v\n%s", err, out)
	}
	svg, err = os.ReadFile(filepath.Join(dir, "compare.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">evolved<", ">other<", "evolved-draughts-1)"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("compare.svg lacks %q", want)
		}
	}
	if out, err := evolvedIn(t, dir, "plot", "--compare", "evolved.db,missing.db", "-o", "c.svg").CombinedOutput(); exitCodeOf(err) != 1 || !strings.Contains(string(out), "missing.db") {
		t.Errorf("plot --compare with a missing file: %v, %s", err, out)
	}
}

func TestChessPopulationEndToEnd(t *testing.T) {
	t.Parallel() // its own directory and database: nothing shared, nothing timed
	dir := t.TempDir()
	config := filepath.Join(dir, "chess.toml")
	os.WriteFile(config, []byte(`
games = ["chess"]
workers = 2
log_format = "json"
[chess]
depth = 1
format = "blondie"
ladder_games = 2
baseline_every = 1
baselines = ["random"]
baseline_games = 2
adjudicate_material = 10
chess960 = true
[jobs]
backup = ""
prune = ""
rating_every = 0
`), 0o644)
	if out, err := evolved(dir, "run", "--config", config, "--generations", "2").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	out, err := evolved(dir, "status", "--json").Output()
	if err != nil || !strings.Contains(string(out), `"game": "chess"`) || !strings.Contains(string(out), `"generation": 2`) {
		t.Fatalf("status: %v\n%s", err, out)
	}
	agent, err := evolved(dir, "export", "--game", "chess").Output()
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "champion.json"), agent, 0o644)
	// Without --game, match and play take the game from the agent file or
	// the database's only run (they assumed draughts).
	out, err = evolved(dir, "match", "--a", "champion.json", "--b", "random", "--games", "4", "--pgn", "games.pgn").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "result games=4") {
		t.Fatalf("match with the exported chess agent: %v\n%s", err, out)
	}
	for _, source := range [][]string{{"--agent", "champion.json"}, {"--db", "evolved.db"}} {
		cmd := evolved(dir, append([]string{"play", "--as", "black", "--max-moves", "1"}, source...)...)
		cmd.Stdin = strings.NewReader("e5\n")
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "White to move, last move e5") {
			t.Errorf("play %v without --game: %v\n%s", source, err, out)
		}
	}
	if pgn, err := os.ReadFile(filepath.Join(dir, "games.pgn")); err != nil || !strings.Contains(string(pgn), "1. ") {
		t.Errorf("games.pgn: %v", err)
	}
	// The exported agent as a UCI engine playing whole games against
	// Stockfish under a clock: no illegal move (the match fails on one), no
	// loss on time, and every engine process gone at the end.
	if sf, err := exec.LookPath("/usr/games/stockfish"); err == nil {
		wrapper := filepath.Join(dir, "evolved-engine.sh")
		os.WriteFile(wrapper, []byte("#!/bin/sh\nexec "+binary+" uci --agent "+filepath.Join(dir, "champion.json")+"\n"), 0o755)
		// Margins for a loaded machine: one game at a time, and Stockfish
		// told to keep 250 ms a move for the latency of a busy scheduler
		// (its Move Overhead, 10 ms by default, is meant for a GUI's lag).
		out, err := evolved(dir, "match", "--game", "chess", "--a", "uci:"+wrapper, "--b", "uci:"+sf+":Skill Level=0:Threads=1:Move Overhead=250",
			"--games", "2", "--concurrency", "1", "--tc", "3+0.05", "--pgn", "uci-games.pgn").CombinedOutput()
		if err != nil || !strings.Contains(string(out), "result games=2") || !strings.Contains(string(out), " (A) used ") || !strings.Contains(string(out), " (B) used ") {
			t.Fatalf("evolved uci against stockfish (the result and each side's clock): %v\n%s", err, out)
		}
		pgn, _ := os.ReadFile(filepath.Join(dir, "uci-games.pgn"))
		if strings.Contains(string(pgn), "lost on time") {
			t.Errorf("a game was lost on time:\n%s", pgn)
		}
		if procs, _ := exec.Command("pgrep", "-f", "uci --agent "+filepath.Join(dir, "champion.json")).Output(); len(procs) > 0 {
			t.Errorf("evolved uci still running after the match: %s", procs)
		}
	} else {
		t.Log("stockfish is not installed: the game against it is skipped (.ci/run installs it)")
	}
	// The exported agent as a UCI engine, as a GUI would start it.
	engine := evolved(dir, "uci", "--agent", "champion.json")
	engine.Stdin = strings.NewReader("uci\nisready\nposition startpos moves e2e4\ngo depth 2\n")
	out, err = engine.Output()
	if err != nil || !strings.Contains(string(out), "uciok") || !strings.Contains(string(out), "readyok") || !strings.Contains(string(out), "\nbestmove ") {
		t.Errorf("evolved uci: %v\n%s", err, out)
	}
	// The games are stored as PGN move text.
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "evolved.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var moves, start string
	if err := db.QueryRow("SELECT moves, start FROM games WHERE game = 'chess' AND kind = 'tournament' LIMIT 1").Scan(&moves, &start); err != nil || !strings.HasPrefix(moves, "1. ") {
		t.Errorf("stored chess moves %q, %v", moves, err)
	}
	if _, err := chess.ParseFEN(start); err != nil {
		t.Errorf("stored Chess960 start %q: %v", start, err)
	}
}

// TestXiangqiPopulationEndToEnd evolves two xiangqi generations with the
// classic baseline (the Blondie format, as fastConfig's: a third of a
// round robin's games), exports the champion and plays it against
// Fairy-Stockfish when that is installed.
func TestXiangqiPopulationEndToEnd(t *testing.T) {
	t.Parallel() // its own directory and database: nothing shared, nothing timed
	dir := t.TempDir()
	config := filepath.Join(dir, "xiangqi.toml")
	os.WriteFile(config, []byte(`
games = ["xiangqi"]
workers = 2
log_format = "json"
[xiangqi]
depth = 1
format = "blondie"
ladder_games = 2
baseline_every = 1
baselines = ["random", "classic"]
baseline_games = 2
adjudicate_material = 15
[jobs]
backup = ""
prune = ""
rating_every = 0
`), 0o644)
	if out, err := evolved(dir, "run", "--config", config, "--generations", "2").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "evolved.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var moves string
	var baselines int
	if err := db.QueryRow("SELECT moves FROM games WHERE game = 'xiangqi' AND kind = 'tournament' LIMIT 1").Scan(&moves); err != nil || !strings.HasPrefix(moves, "1. ") {
		t.Errorf("stored xiangqi moves %q, %v", moves, err)
	}
	if err := db.QueryRow("SELECT count(*) FROM baselines WHERE game = 'xiangqi' AND opponent = 'classic'").Scan(&baselines); err != nil || baselines != 2 {
		t.Errorf("classic baseline rows: %d, %v; want 2", baselines, err)
	}
	agent, err := evolved(dir, "export", "--game", "xiangqi").Output()
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "champion.json"), agent, 0o644)
	out, err := evolved(dir, "match", "--game", "xiangqi", "--a", "champion.json", "--b", "random", "--games", "2").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "result games=2") {
		t.Fatalf("match with the exported xiangqi agent: %v\n%s", err, out)
	}
	fsf, err := exec.LookPath("fairy-stockfish")
	if err != nil {
		if _, err = os.Stat("/usr/games/fairy-stockfish"); err != nil {
			t.Skip("fairy-stockfish is not installed (Debian package fairy-stockfish; .ci/run installs it)")
		}
		fsf = "/usr/games/fairy-stockfish"
	}
	out, err = evolved(dir, "match", "--game", "xiangqi", "--a", "champion.json", "--b", "uci:"+fsf+":depth=1:Threads=1", "--games", "2").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "result games=2") {
		t.Fatalf("the champion against Fairy-Stockfish: %v\n%s", err, out)
	}
}

func TestPausesWhenTheDiskIsNearlyFull(t *testing.T) {
	dir, config := setup(t)
	// No disk has a petabyte free: the daemon must pause before its first
	// generation, skip its backups, and still stop cleanly.
	full := strings.Replace(fastConfig, "[jobs]\nbackup = \"\"", "[jobs]\nmin_free_mb = 1073741824\nbackup = \"@every 1s\"", 1)
	if err := os.WriteFile(config, []byte(full), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stop := evolvedIn(t, dir, "run", "--config", config).Start()
	waitFor(time.Minute, func() bool {
		return strings.Contains(out.String(), "disk nearly full") && strings.Contains(out.String(), "backup: skipped")
	})
	if err := stop(); err != nil {
		t.Fatalf("stop while paused: %v\n%s", err, out.String())
	}
	log := out.String()
	if !strings.Contains(log, "disk nearly full") || !strings.Contains(log, "backup: skipped") {
		t.Fatalf("no pause or no skipped backup in the log:\n%s", log)
	}
	if n := generations(t, filepath.Join(dir, "evolved.db")); n != 0 {
		t.Errorf("%d generations committed while paused", n)
	}
	if backups, _ := filepath.Glob(filepath.Join(dir, "backups", "*.db")); len(backups) > 0 {
		t.Errorf("backups written on a full disk: %v", backups)
	}
}

// TestCtrlCStopsCleanly interrupts the daemon as a terminal's Ctrl-C does:
// SIGINT to its whole process group, twice (an impatient user), while a
// generation is in flight. It must exit 0 with the stop message. (Under
// `go run` the go command receives the same SIGINT and exits 1 whatever
// the daemon does, golang/go#40467; README's set-up runs the binary.)
func TestCtrlCStopsCleanly(t *testing.T) {
	dir, config := setup(t)
	cmd := evolved(dir, "run", "--config", config)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "evolved.db")
	for deadline := time.Now().Add(30 * time.Second); generations(t, db) < 1 && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(150 * time.Millisecond)
	syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	time.Sleep(20 * time.Millisecond)
	syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after Ctrl-C: %v\n%s", err, out.String())
		}
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still running 5 s after Ctrl-C\n%s", out.String())
	}
	if !strings.Contains(out.String(), "stopped") {
		t.Errorf("no stop message in the log:\n%s", out.String())
	}
}

// TestREADMEExplainsTheGenerationLine checks that README's table names
// every field of the "generation committed" log line (vs_* as vs_OPPONENT),
// with the fields of a decaying mutation step too.
func TestREADMEExplainsTheGenerationLine(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir, config := setup(t)
	// A decaying step and a title match, so that their fields are logged too.
	more := strings.Replace(fastConfig, "[draughts]\n", "[draughts]\nmutation_half_life = 10\nmutation_floor = 0.5\nchampion_games = 2\n", 1)
	if err := os.WriteFile(config, []byte(more), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "8").CombinedOutput()
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	fields := map[string]any{} // every generation's, together
	for _, line := range strings.Split(string(out), "\n") {
		if !strings.Contains(line, `"msg":"generation committed"`) {
			continue
		}
		var one map[string]any
		if err := json.Unmarshal([]byte(line), &one); err != nil {
			t.Fatal(err)
		}
		if one["generation"] == 0.0 && one["mutation_scale"] != 0.1 {
			t.Errorf("generation 0 logged mutation_scale %v, want 0.1 (the default step, not decayed yet)", one["mutation_scale"])
		}
		maps.Copy(fields, one)
	}
	for _, key := range []string{"vs_random", "title"} {
		if fields[key] == nil {
			t.Fatalf("no generation logged %s:\n%s", key, out)
		}
	}
	for key := range fields {
		switch key {
		case "time", "level", "msg":
			continue
		}
		if strings.HasPrefix(key, "vs_") {
			key = "vs_OPPONENT"
		}
		if !regexp.MustCompile("(?m)^\\| [^|]*`" + regexp.QuoteMeta(key) + "`[^|]*\\| ").Match(readme) {
			t.Errorf("README's generation table does not explain %q", key)
		}
	}
}

// TestRunStoppedWhileOpeningExitsCleanly runs the daemon with its context
// already cancelled, as a SIGTERM a few milliseconds after start leaves
// it while the database opens: a clean stop (nil, exit 0), not "context
// canceled" and exit 1.
func TestRunStoppedWhileOpeningExitsCleanly(t *testing.T) {
	t.Chdir(t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stderr bytes.Buffer
	if err := run(ctx, []string{"run", "--generations", "1"}, strings.NewReader(""), io.Discard, &stderr); err != nil {
		t.Errorf("run stopped while opening: %v (exit %d), want a clean stop\n%s", err, exitCode(err, io.Discard), stderr.String())
	}
}

// TestExportBestSaysWhatIsNewer exports the best rated champion of a run
// whose only rating is generation 0's: the report names the latest
// champion and how to export it, rather than exporting generation 0
// silently.
func TestExportBestSaysWhatIsNewer(t *testing.T) {
	dir, config := setup(t)
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "3").CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	db, err := storage.Open(context.Background(), filepath.Join(dir, "evolved.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := db.Champion(context.Background(), "draughts", 0)
	if err == nil {
		err = db.AddRating(context.Background(), storage.Rating{Game: "draughts", Generation: 0, AgentID: c.AgentID, Scale: "test", TC: "untimed",
			Elo: 500, CI: 50, Games: 10, Wins: 5, Draws: 0, Losses: 5, CreatedAt: time.Now()})
	}
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	out, err := evolvedIn(t, dir, "export", "--best", "-o", "best.json").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "generation 0 champion") ||
		!strings.Contains(string(out), "the latest champion is generation 2, not rated yet or rated lower (--generation 2 exports it)") {
		t.Errorf("export --best: %v\n%s", err, out)
	}
}

// TestRunWritesACPUProfile checks --cpuprofile: a generation's profile,
// gzipped as pprof writes it, that names the search it sampled.
func TestRunWritesACPUProfile(t *testing.T) {
	dir, config := setup(t)
	prof := filepath.Join(dir, "run.prof")
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "2", "--cpuprofile", prof).CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	b, err := os.ReadFile(prof)
	if err != nil || len(b) < 100 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("profile %s: %d bytes, %v", prof, len(b), err)
	}
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--cpuprofile", filepath.Join(dir, "no", "such", "dir.prof")).CombinedOutput(); err == nil ||
		!strings.Contains(string(out), "cpu profile") {
		t.Errorf("an unwritable profile: %v\n%s", err, out)
	}
}
