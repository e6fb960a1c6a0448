package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"evolved/positions"
	"evolved/status"
	"evolved/storage"
)

// learningChess is a chess run of perspective nets that trains every 2
// generations, small enough for a test.
func learningChess(t *testing.T, db string, generations int) Config {
	t.Helper()
	return chessRunWith(t, db, generations, learnKeys)
}

// learnKeys are learningChess's learn keys.
const learnKeys = "learn_every = 2\nlearn_games = 3\nlearn_nodes = 120\n"

// learningChessWith is learningChess with the keys of extra in its chess
// section.
func learningChessWith(t *testing.T, db string, generations int, extra string) Config {
	t.Helper()
	return chessRunWith(t, db, generations, learnKeys+extra+"\n")
}

// chessRunWith returns learningChess's configuration with learn, the
// learn keys, in place of its own.
func chessRunWith(t *testing.T, db string, generations int, learn string) Config {
	t.Helper()
	return parsedConfig(t, DefaultConfig(), `
games = ["chess"]
workers = 2
[chess]
perspective = true
hidden = [8]
depth = 2
nodes = 120
max_moves = 25
format = "blondie"
ladder_games = 2
baseline_every = 0
distill_every = 0
`+learn+`[jobs]
backup = ""
prune = ""
rating_every = 0
`, db, generations)
}

// parsedConfig returns base with the TOML text over it, writing to db for
// generations, validated: a test's run.
func parsedConfig(t *testing.T, base Config, text, db string, generations int) Config {
	t.Helper()
	c, err := ParseConfig(base, strings.NewReader(text), "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	c.DB, c.Generations = db, generations
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	return c
}

// storeFiles returns the files of the position store of the database at
// db, by name.
func storeFiles(t *testing.T, db string) map[string][]byte {
	t.Helper()
	dir := positions.DirBeside(db, "chess")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		if e.Name() == "lock" || e.Name() == "backup.json" { // a restored backup's segment sums
			continue
		}
		if out[e.Name()], err = os.ReadFile(filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestLearningRunResumes runs a learning chess run for 3 generations
// straight, and another for 2, stopped, then resumed for its third: the
// store beside each database holds each generation's data games, and the
// resumed run's store and champions are the uninterrupted run's, byte for
// byte.
func TestLearningRunResumes(t *testing.T) {
	dir := t.TempDir()
	straight, resumed := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	ctx := context.Background()
	log := runLoggedJSON(t, ctx, learningChess(t, straight, 3))
	if !regexp.MustCompile(`"msg":"champion trained","game":"chess","generation":1,[^\n]*"positions":[1-9]`).Match(log) {
		t.Fatalf("no training at generation 1 in the log:\n%s", log)
	}
	runDaemon(t, ctx, learningChess(t, resumed, 2)).Close()
	restored := restoreBackup(t, resumed, filepath.Join(dir, "c.db"))
	runDaemon(t, ctx, learningChess(t, resumed, 3)).Close()
	runDaemon(t, ctx, learningChess(t, restored, 3)).Close()

	store, err := positions.Open(ctx, positions.DirBeside(straight, "chess"), positions.Options{Game: "chess", ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if store.Committed() != 2 || store.CommittedRecords() < 3*3*10 {
		t.Fatalf("the store holds generation %d and %d positions: want generation 2 and 10 a game at least", store.Committed(), store.CommittedRecords())
	}
	a := storeFiles(t, straight)
	for _, other := range []string{resumed, restored} {
		b := storeFiles(t, other)
		if len(a) != len(b) {
			t.Fatalf("the stores hold %d and %d files", len(a), len(b))
		}
		for name, data := range a {
			if !bytes.Equal(data, b[name]) {
				t.Fatalf("%s differs between the uninterrupted run and %s", name, other)
			}
		}
	}
	da, db := newDaemonWith(t, learningChess(t, straight, 3)), newDaemonWith(t, learningChess(t, resumed, 3))
	// status reports the store, read beside it.
	rep, err := status.Read(ctx, da.db, status.Options{DB: straight})
	if err != nil {
		t.Fatal(err)
	}
	if ps := rep.Populations[0].Positions; ps == nil || ps.Records != store.CommittedRecords() || ps.Generation != 2 || ps.Dir != positions.DirBeside(straight, "chess") {
		t.Fatalf("status says of the store %+v, want %d positions through generation 2", ps, store.CommittedRecords())
	}
	var text bytes.Buffer
	if err := status.Write(&text, rep, time.Now()); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("chess positions: %d through generation 2", store.CommittedRecords()); !strings.Contains(text.String(), want) {
		t.Fatalf("status text without %q:\n%s", want, text.String())
	}
	sameChampions(t, da, db, 3)
	t.Run("on workers", func(t *testing.T) { checkLearningOnWorkers(t, da, straight, filepath.Join(dir, "cluster.db")) })
}

// TestLearningJoinsARun turns learning on in a perspective run that has
// played two generations without it, through its file as a run may
// change it: to generation 5 in one go, and to 4 then 5 with a restart
// between. The store starts at the generation learning joined, both runs
// train at generation 3 and end with the same store, byte for byte, and
// the change is recorded with the run.
func TestLearningJoinsARun(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	runDaemon(t, ctx, chessRunWith(t, a, 2, "")).Close()
	copyDB(t, a, b)
	if _, err := os.Stat(positions.DirBeside(a, "chess")); err == nil {
		t.Fatal("a run without learning made a position store")
	}
	var log bytes.Buffer
	d, err := New(ctx, learningChess(t, a, 5), Options{Logger: slog.New(slog.NewJSONHandler(&log, nil)), Notifier: nopNotifier{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Run(ctx); err != nil {
		t.Fatal(err)
	}
	changes, err := d.db.SettingChanges(ctx, "chess")
	d.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(changes, func(c storage.SettingChange) bool {
		return c.Key == "learn_every" && c.Generation == 2 && c.New == "2"
	}) {
		t.Fatalf("recorded changes %+v, want learn_every = 2 from generation 2", changes)
	}
	if !regexp.MustCompile(`"msg":"champion trained","game":"chess","generation":3,`).Match(log.Bytes()) {
		t.Fatalf("no training at generation 3 in the log:\n%s", log.Bytes())
	}
	runDaemon(t, ctx, learningChess(t, b, 4)).Close()
	runDaemon(t, ctx, learningChess(t, b, 5)).Close()
	sa, sb := storeFiles(t, a), storeFiles(t, b)
	if len(sa) < 2 || len(sa) != len(sb) {
		t.Fatalf("the stores hold %d and %d files", len(sa), len(sb))
	}
	for name, data := range sa {
		if !bytes.Equal(data, sb[name]) {
			t.Fatalf("%s differs between the run in one go and the restarted one", name)
		}
	}
}

// restoreBackup backs up the run of db with the daemon's backup job, then
// restores the copy as a user would (the database and its positions
// directory, renamed to) and returns to.
func restoreBackup(t *testing.T, db, to string) string {
	t.Helper()
	d := newDaemonWith(t, learningChess(t, db, 2))
	backups := filepath.Join(filepath.Dir(to), "backups")
	msg, err := d.backup(context.Background(), backups, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`and chess's \d+ positions of generation 1 \(\d+ segments copied`).MatchString(msg) {
		t.Fatalf("the backup job says %q", msg)
	}
	d.Close()
	copies, _ := filepath.Glob(filepath.Join(backups, "b-*"))
	if len(copies) != 2 {
		t.Fatalf("backups %v, want a database and its positions", copies)
	}
	copyTree(t, copies[0], to)
	copyTree(t, copies[1], strings.TrimSuffix(to, ".db")+".positions")
	return to
}

// copyTree copies the file or directory tree from to to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if e.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestLearningRunRefusesAnotherRunsStore starts a learning run on a new
// database beside the position store of an earlier one, which it refuses
// to mix in, naming the store.
func TestLearningRunRefusesAnotherRunsStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "a.db")
	ctx := context.Background()
	runDaemon(t, ctx, learningChess(t, db, 1)).Close()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suffix)
	}
	d := newDaemonWith(t, learningChess(t, db, 2))
	err := d.Run(ctx)
	if err == nil || !strings.Contains(err.Error(), positions.DirBeside(db, "chess")) || !strings.Contains(err.Error(), "move or remove the store") {
		t.Fatalf("a new run beside an old store: %v", err)
	}
}

// learnersChess is learningChess with learn_explore: a run that evolves
// learners.
func learnersChess(t *testing.T, db string, generations int) Config {
	t.Helper()
	return learningChessWith(t, db, generations, "learn_explore = true")
}

// TestLearnersRunResumes runs a chess run that evolves learners for 3
// generations straight, and another for 2, stopped, then resumed for its
// third: generation 1 trains every elite member, one log line each with
// its settings; the resumed run's champions and its population, learning
// settings included as storage reads them back, are the uninterrupted
// run's; and the settings stored are the generation's, some of them
// perturbed away from the defaults by mutation.
func TestLearnersRunResumes(t *testing.T) {
	dir := t.TempDir()
	straight, resumed := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	ctx := context.Background()
	log := runLoggedJSON(t, ctx, learnersChess(t, straight, 3))
	elite := learnersChess(t, straight, 3).Chess.Elite
	trained := regexp.MustCompile(`"msg":"agent trained","game":"chess","generation":1,"agent":\d+,"rank":(\d),"rate":"[0-9.e-]+","results":"[0-9.e-]+","positions":[1-9]`).FindAllSubmatch(log, -1)
	if len(trained) != elite || bytes.Contains(log, []byte(`"champion trained"`)) {
		t.Fatalf("%d lines of agents trained at generation 1, want %d and no champion's line alone:\n%s", len(trained), elite, log)
	}
	for k, m := range trained {
		if string(m[1]) != fmt.Sprint(k+1) {
			t.Fatalf("the %d-th agent trained has rank %s", k+1, m[1])
		}
	}
	runDaemon(t, ctx, learnersChess(t, resumed, 2)).Close()
	runDaemon(t, ctx, learnersChess(t, resumed, 3)).Close()

	da, db := newDaemonWith(t, learnersChess(t, straight, 3)), newDaemonWith(t, learnersChess(t, resumed, 3))
	sameChampions(t, da, db, 3)
	pa, err := da.db.LoadPopulation(ctx, "chess")
	if err != nil {
		t.Fatal(err)
	}
	pb, err := db.db.LoadPopulation(ctx, "chess")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(PopulationState(pa))
	b, _ := json.Marshal(PopulationState(pb))
	if pa.Generation != 3 || !bytes.Equal(a, b) {
		t.Fatalf("generation %d's population of the resumed run differs from the uninterrupted run's", pa.Generation)
	}
	perturbed := 0
	for _, m := range pa.Agents {
		if m.Learner == nil {
			t.Fatalf("agent %d read back without its learning settings", m.ID)
		}
		if *m.Learner != (storage.Learner{Rate: 0.001, Results: 0}) {
			perturbed++
		}
	}
	if perturbed == 0 {
		t.Errorf("every agent of generation 3 holds the default settings: no mutant's were perturbed")
	}
}

// TestLearnersTurnedOn resumes a learning chess run of 2 generations with
// learn_explore turned on in its file: the change is recorded, generation
// 3 trains every elite member, one log line each, each with settings that
// started from the defaults (the agents stored without them) or came from
// generation 2's breeding, the first under learn_explore.
func TestLearnersTurnedOn(t *testing.T) {
	db := filepath.Join(t.TempDir(), "a.db")
	ctx := context.Background()
	runDaemon(t, ctx, learningChess(t, db, 2)).Close()
	log := runLoggedJSON(t, ctx, learnersChess(t, db, 4))
	elite := learnersChess(t, db, 4).Chess.Elite
	if n := len(regexp.MustCompile(`"msg":"agent trained","game":"chess","generation":3,`).FindAll(log, -1)); n != elite {
		t.Fatalf("%d lines of agents trained at generation 3, want %d:\n%s", n, elite, log)
	}
	if !bytes.Contains(log, []byte(`"msg":"the run's settings change","game":"chess","from_generation":2,"changes":"chess.learn_explore`)) {
		t.Errorf("the log does not say that learn_explore changed:\n%s", log)
	}
}

// runLoggedJSON runs a daemon of cfg to its end and returns its log, as
// JSON lines.
func runLoggedJSON(t *testing.T, ctx context.Context, cfg Config) []byte {
	t.Helper()
	var log bytes.Buffer
	d, err := New(ctx, cfg, Options{Logger: slog.New(slog.NewJSONHandler(&log, nil)), Notifier: nopNotifier{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Run(ctx); err != nil {
		t.Fatal(err)
	}
	d.Close()
	return log.Bytes()
}
