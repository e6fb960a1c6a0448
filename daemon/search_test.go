package daemon

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"evolved/player"
	"evolved/storage"
)

// TestSearchKeyRoundTrips checks a section's search key through the
// configuration file, the settings a run stores (after nodes, as
// --print-config lists it) and the setup its games are played with.
func TestSearchKeyRoundTrips(t *testing.T) {
	c, err := ParseConfig(DefaultConfig(), strings.NewReader("[draughts]\nsearch = \"ept:50\"\n[chess]\nsearch = \"ept:7\"\n"), "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.Draughts.Search != "ept:50" || c.Chess.Search != "ept:7" || c.Xiangqi.Search != "" {
		t.Errorf("search keys %q, %q, %q; want ept:50, ept:7 and none", c.Draughts.Search, c.Chess.Search, c.Xiangqi.Search)
	}
	if c.Draughts.Nodes != 0 || c.Chess.Nodes != 0 || c.Xiangqi.Nodes != DefaultConfig().Xiangqi.Nodes {
		t.Errorf("node budgets %d, %d, %d; want none for MCTS-EPT, the default for alpha-beta", c.Draughts.Nodes, c.Chess.Nodes, c.Xiangqi.Nodes)
	}
	// An alpha-beta search with its settings keeps the default budget.
	withList, err := ParseConfig(DefaultConfig(), strings.NewReader("[chess]\nsearch = \"#-malus\"\n[xiangqi]\nsearch = \"#rfp_margin=80\"\nnodes = 500\n"), "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	if withList.Chess.Nodes != DefaultConfig().Chess.Nodes || withList.Chess.Nodes == 0 || withList.Xiangqi.Nodes != 500 {
		t.Errorf("with search = \"#LIST\": node budgets %d and %d, want the default %d and the file's 500",
			withList.Chess.Nodes, withList.Xiangqi.Nodes, DefaultConfig().Chess.Nodes)
	}
	// The distillation goes with MCTS-EPT, and stays with an alpha-beta
	// list (its searches are its own).
	if pc := c.Chess.population(1); pc.DistillEvery != 0 {
		t.Errorf("chess with search = \"ept:7\" distills every %d generations, want none", pc.DistillEvery)
	}
	if pc, want := withList.Chess.population(1), DefaultConfig().Chess.DistillEvery; pc.DistillEvery != want || want == 0 {
		t.Errorf("chess with search = \"#-malus\" distills every %d generations, want the default %d", pc.DistillEvery, want)
	}
	if s := c.Draughts.setup(); s.Search != "ept:50" || c.Chess.setup().Search != "ept:7" {
		t.Errorf("setups %+v and %+v, want their section's search", s, c.Chess.setup())
	}

	got, err := definingJSON(c.Draughts)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"depth":4,"nodes":0,"search":"ept:50","opening_plies":4,`; !strings.Contains(got, want) {
		t.Errorf("stored settings %s, want them to hold %s", got, want)
	}
	var stored DraughtsConfig
	if err := json.Unmarshal([]byte(got), &stored); err != nil {
		t.Fatal(err)
	}
	if again, _ := definingJSON(stored); again != got || stored.Search != "ept:50" {
		t.Errorf("settings read back as %s, want %s", again, got)
	}
	// A section without the key stores none (TestNewRunStoresTheSettingsOfMain
	// pins the bytes).
	if plain, _ := definingJSON(c.Xiangqi); strings.Contains(plain, "search") {
		t.Errorf("xiangqi settings without a search store one: %s", plain)
	}

	var b bytes.Buffer
	if err := c.Print(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "  nodes = 0\n  search = \"ept:50\"\n  opening_plies = 4\n") {
		t.Errorf("printed configuration lacks the draughts search after nodes:\n%s", b.String())
	}
	back, err := ParseConfig(Config{}, &b, "printed")
	if err != nil {
		t.Fatal(err)
	}
	if back.Draughts.Search != "ept:50" || back.Chess.Search != "ept:7" || !sameJSON(back, c) {
		t.Errorf("printed configuration reads back with searches %q, %q", back.Draughts.Search, back.Chess.Search)
	}

	// The key is part of the run: a file that changes it is refused.
	d := newTestDaemon(t)
	storeRun(t, d, "draughts", got)
	cfg, err := ParseConfig(d.config(), strings.NewReader("[draughts]\nsearch = \"ept:60\"\n"), "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	d.mu.Lock()
	d.cfg = cfg
	d.mu.Unlock()
	if _, err := runSettings(context.Background(), d, "draughts", cfg.Draughts); !errors.Is(err, ErrRunMismatch) || !strings.Contains(err.Error(), "draughts.search") {
		t.Errorf("a run of ept:50 configured with ept:60: %v, want ErrRunMismatch naming draughts.search", err)
	}
}

// TestBadSearchNamesTheKey checks the error of a search key ParseSearch
// does not read: the key, the value, and player.ErrSearch inside.
func TestBadSearchNamesTheKey(t *testing.T) {
	c, err := ParseConfig(DefaultConfig(), strings.NewReader("[chess]\nsearch = \"foo\"\n"), "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	err = c.Validate()
	if want := `config: chess.search = "foo": want "" (alpha-beta), "#LIST" (alpha-beta with the techniques and parameters of LIST, as "#rfp_margin=80") or "ept:N" (MCTS-EPT of N playouts a move, N from 1 to 10000000)`; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	if !errors.Is(err, ErrConfig) || !errors.Is(err, player.ErrSearch) {
		t.Errorf("err = %v, want ErrConfig and player.ErrSearch", err)
	}
}

// TestEPTRunIsReproducible runs one generation of draughts whose agents
// search by MCTS-EPT (20 playouts, games of at most 30 moves) twice in
// two databases, and once with alpha-beta: the two EPT runs store the
// same games move for move (the players are seeded per game from the run
// seed), and the alpha-beta run other games. The champion exported from
// an EPT run searches as it was evolved: its agent file says ept 20. A
// run of alpha-beta with other parameters (search = "#LIST") plays other
// games too, and its champion's file keeps LIST.
func TestEPTRunIsReproducible(t *testing.T) {
	const tuned = "rfp_margin=30,futility_margin=30,lmr_base=200"
	run := func(search string) map[string]string {
		cfg := fastDraughts()
		cfg.DB = filepath.Join(t.TempDir(), "evolved.db")
		cfg.Generations = 1
		cfg.Draughts.Search, cfg.Draughts.MaxMoves = search, 30
		if strings.HasPrefix(search, "#") || search == "" {
			cfg.Draughts.Depth = 4 // deep enough for the parameters to matter
		}
		if err := cfg.Validate(); err != nil {
			t.Fatal(err)
		}
		d := newDaemonWith(t, cfg)
		if err := d.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		f, err := d.db.ChampionAgent(context.Background(), "draughts", 0)
		if want := map[string]int{"ept:20": 20}[search]; err != nil || f.Search.EPT != want {
			t.Errorf("search %q: the champion's agent file says ept %d (%v), want %d", search, f.Search.EPT, err, want)
		}
		if want, _ := strings.CutPrefix(search, "#"); err == nil && search != "ept:20" && f.Search.Settings != want {
			t.Errorf("search %q: the champion's agent file says settings %q, want %q", search, f.Search.Settings, want)
		}
		return storedGames(t, d.db, "draughts", 0)
	}
	a, b, ab := run("ept:20"), run("ept:20"), run("")
	if other := run("#" + tuned); maps.Equal(other, ab) {
		t.Errorf("search #%s played the games of the default alpha-beta: the parameters did not reach the tournament", tuned)
	}
	if len(a) != 15*5+2 {
		t.Errorf("%d games stored, want the tournament's 75 and the baseline's 2", len(a))
	}
	same, differ := 0, 0
	for k, moves := range a {
		if b[k] != moves {
			t.Errorf("game %s: %q, then %q", k, moves, b[k])
		}
		if ab[k] == moves {
			same++
		} else {
			differ++
		}
	}
	if differ < len(a)/2 {
		t.Errorf("alpha-beta played %d of the EPT run's %d games the same: the search key did not reach the tournament", same, len(a))
	}
}

// newDaemonWith returns a daemon of cfg, closed at the test's end.
// runDaemon runs a daemon on cfg to its generations and returns it open.
func runDaemon(t *testing.T, ctx context.Context, cfg Config) *Daemon {
	t.Helper()
	d := newDaemonWith(t, cfg)
	if err := d.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return d
}

// copyDB copies the closed database at from, with its write-ahead log if
// one is left, to to: a run's start played once for two runs that then
// part (a run is deterministic: playing it again gives the same run).
func copyDB(t *testing.T, from, to string) {
	t.Helper()
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(from + suffix)
		if errors.Is(err, fs.ErrNotExist) && suffix != "" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to+suffix, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func newDaemonWith(t *testing.T, cfg Config) *Daemon {
	t.Helper()
	d, err := New(context.Background(), cfg, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Notifier: nopNotifier{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// storedGames returns the moves of every stored game of a generation, by
// kind and index.
func storedGames(t *testing.T, db *storage.DB, game string, generation int) map[string]string {
	t.Helper()
	list, err := db.GameList(context.Background(), game, generation)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, s := range list {
		g, err := db.StoredGameOf(context.Background(), game, generation, s.Kind, s.Index)
		if err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprintf("%s %d", s.Kind, s.Index)] = fmt.Sprintf("%s-%s %s %s: %s", s.First, s.Second, s.Result, g.Start, g.Moves)
	}
	return out
}

// TestCurriculumResumes runs a draughts population under 60 nodes a move
// with a curriculum check every 2 generations, to generation 5 in one go
// and to 3 then 5 in two, with a restart between: both store the same
// checks, the daemon reads the raised budget back when it resumes (the
// fifth generation's games are the same), and each champion's agent file
// records the budget its generation played under.
func TestCurriculumResumes(t *testing.T) {
	run := func(stops ...int) (*Daemon, map[string]string) {
		cfg := fastDraughts()
		cfg.DB = filepath.Join(t.TempDir(), "evolved.db")
		cfg.Draughts.Depth, cfg.Draughts.Nodes, cfg.Draughts.MaxMoves = 3, 60, 30
		cfg.Draughts.CurriculumEvery, cfg.Draughts.CurriculumGames = 2, 4
		// A run whose checks raise the budget (seeds 2 and 5 do not, in 5
		// generations), without the distillation.
		cfg.Seed = 3
		cfg.Draughts.DistillEvery, cfg.Draughts.DistillNodes = 0, 0
		var d *Daemon
		for _, stop := range stops {
			cfg.Generations = stop
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			if d != nil {
				d.Close()
			}
			d = newDaemonWith(t, cfg)
			if err := d.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		return d, storedGames(t, d.db, "draughts", 4)
	}
	straight, a := run(5)
	resumed, b := run(3, 5)
	for k, moves := range a {
		if b[k] != moves {
			t.Fatalf("generation 4 game %s: %q straight, %q resumed", k, moves, b[k])
		}
	}
	ctx := context.Background()
	raised := false
	for g := range 5 {
		x, err1 := straight.db.CurriculumNodes(ctx, "draughts", g)
		y, err2 := resumed.db.CurriculumNodes(ctx, "draughts", g)
		if err1 != nil || err2 != nil || x != y {
			t.Fatalf("generation %d: budgets %d (%v) and %d (%v)", g, x, err1, y, err2)
		}
		f, err := resumed.db.ChampionAgent(ctx, "draughts", g)
		if want := cmp.Or(x, 60); err != nil || f.Search.Nodes != want {
			t.Errorf("generation %d: the champion's agent file searches %d nodes (%v), want %d", g, f.Search.Nodes, err, want)
		}
		raised = raised || x > 60
	}
	if !raised {
		t.Error("no check raised the budget: the resume at a raised budget was not tested")
	}
	// The summary status shows, against the budgets generation by
	// generation: checks at generations 2 and 4, a raise wherever the
	// budget grows from one generation to the next.
	want := storage.CurriculumSummary{Checks: 2, LastRaise: -1, FirstNodes: 60}
	budget := func(g int) int64 {
		n, err := resumed.db.CurriculumNodes(ctx, "draughts", g)
		if err != nil {
			t.Fatal(err)
		}
		return cmp.Or(n, 60)
	}
	for g := range 5 {
		if budget(g+1) > budget(g) {
			want.Raises++
			want.LastRaise = g
		}
	}
	want.Nodes = budget(5)
	got, ok, err := resumed.db.Curriculum(ctx, "draughts")
	if err != nil || !ok || got != want {
		t.Errorf("Curriculum() = %+v, %v, %v; want %+v", got, ok, err, want)
	}
}

// TestCurriculumJoinsARun turns the curriculum on in a run that was
// started without it, as a user does whose run has stopped climbing: the
// change holds from the run's next generation, is recorded once, survives
// a resume (the run then plays the same games as one that went straight
// on), and can be turned off again. Other keys stay refused, and a change
// the run's settings cannot take leaves the database as it was.
func TestCurriculumJoinsARun(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	// The node budget is set in code, as a default is: a file that does
	// not set it leaves the run's own.
	conf := func(db string, generations int, nodes int64, section string) Config {
		t.Helper()
		base := fastDraughts()
		base.DB, base.Seed, base.Generations = filepath.Join(dir, db), 3, generations
		base.Draughts.Nodes = nodes
		cfg, err := ParseConfig(base, strings.NewReader("[draughts]\ndepth = 3\nmax_moves = 30\n"+section), "test.toml")
		if err != nil {
			t.Fatal(err)
		}
		if err := cfg.Validate(); err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	run := func(cfg Config) *Daemon { return runDaemon(t, ctx, cfg) }
	const curriculum = "curriculum_every = 2\ncurriculum_games = 4\n"
	run(conf("a.db", 3, 60, "")).Close()
	copyDB(t, filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")) // b's first three generations, as played
	straight := run(conf("a.db", 7, 60, curriculum))
	run(conf("b.db", 5, 60, curriculum)).Close()
	resumed := run(conf("b.db", 7, 60, curriculum))

	for _, g := range []int{4, 6} {
		a, b := storedGames(t, straight.db, "draughts", g), storedGames(t, resumed.db, "draughts", g)
		if len(a) == 0 || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("generation %d: %d games straight, %d resumed, or they differ", g, len(a), len(b))
		}
	}
	wantChanges := []storage.SettingChange{
		{Generation: 3, Key: "curriculum_every", Old: "0", New: "2"},
		{Generation: 3, Key: "curriculum_games", Old: "0", New: "4"},
	}
	changes := func(d *Daemon) []storage.SettingChange {
		t.Helper()
		got, err := d.db.SettingChanges(ctx, "draughts")
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if got[i].ChangedAt.IsZero() {
				t.Errorf("change %+v has no time", got[i])
			}
			got[i].ChangedAt = time.Time{}
		}
		return got
	}
	for name, d := range map[string]*Daemon{"straight": straight, "resumed": resumed} {
		if got := changes(d); !slices.Equal(got, wantChanges) {
			t.Errorf("%s: setting changes %+v, want %+v", name, got, wantChanges)
		}
		// Checks at generations 4 and 6 only: none before the change.
		sum, ok, err := d.db.Curriculum(ctx, "draughts")
		if err != nil || !ok || sum.Checks != 2 || sum.FirstNodes != 60 {
			t.Errorf("%s: curriculum %+v, %v, %v; want 2 checks from 60 nodes", name, sum, ok, err)
		}
		stored, err := d.db.LoadRun(ctx, "draughts")
		if err != nil || !strings.Contains(stored.Config, `"curriculum_every":2,"curriculum_games":4`) {
			t.Errorf("%s: the run's settings %s (%v) do not hold the curriculum", name, stored.Config, err)
		}
	}

	// Another key is refused still, naming the keys that may change, and
	// changes nothing.
	settings := func(cfg Config) error {
		d := newDaemonWith(t, cfg)
		defer d.Close()
		_, err := runSettings(ctx, d, "draughts", cfg.Draughts)
		return err
	}
	resumed.Close()
	err := settings(conf("b.db", 8, 60, curriculum+"mutation_scale = 0.5\n"))
	if !errors.Is(err, ErrRunMismatch) || !strings.Contains(err.Error(), "draughts.mutation_scale") || !strings.Contains(err.Error(), "draughts.curriculum_every") {
		t.Errorf("a run configured with another mutation_scale: %v, want ErrRunMismatch naming it and the keys that may change", err)
	}
	// A curriculum over a run without a node budget is no change the run
	// can take, even where the configuration's own budget would allow it
	// (a budget the file does not set is the run's).
	run(conf("c.db", 1, 0, "")).Close()
	err = settings(conf("c.db", 2, 60, "curriculum_every = 2\n"))
	if err == nil || !strings.Contains(err.Error(), "nodes > 0") || !strings.Contains(err.Error(), "draughts.curriculum_every") {
		t.Errorf("a curriculum over a run without a node budget: %v, want an error naming curriculum_every and nodes", err)
	}
	c := newDaemonWith(t, conf("c.db", 2, 0, ""))
	if stored, err := c.db.LoadRun(ctx, "draughts"); err != nil || strings.Contains(stored.Config, "curriculum") {
		t.Errorf("the refused change was stored: %s (%v)", stored.Config, err)
	}
	if got, err := c.db.SettingChanges(ctx, "draughts"); err != nil || len(got) != 0 {
		t.Errorf("the refused change was recorded: %+v (%v)", got, err)
	}
	// curriculum_every = 0 alone turns the curriculum off, its games with it.
	if err := settings(conf("b.db", 8, 60, "curriculum_every = 0\n")); err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(ctx, filepath.Join(dir, "b.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.SettingChanges(ctx, "draughts")
	if err != nil {
		t.Fatal(err)
	}
	wantChanges = append(wantChanges,
		storage.SettingChange{Generation: 7, Key: "curriculum_every", Old: "2", New: "0"},
		storage.SettingChange{Generation: 7, Key: "curriculum_games", Old: "4", New: "0"})
	for i := range got {
		got[i].ChangedAt = time.Time{}
	}
	if !slices.Equal(got, wantChanges) {
		t.Errorf("after turning the curriculum off: %+v, want %+v", got, wantChanges)
	}
}

// TestCurriculumJoinsAChessRun turns the curriculum on in stored chess
// runs: one with the default node budget takes it, one started with
// nodes = 0 refuses it through the chess section's own check, though the
// configuration's budget would allow it.
func TestCurriculumJoinsAChessRun(t *testing.T) {
	ctx := context.Background()
	for _, nodes := range []int64{800, 0} {
		d := newTestDaemon(t)
		stored := d.config().Chess
		stored.Nodes = nodes
		settings, err := definingJSON(stored)
		if err != nil {
			t.Fatal(err)
		}
		storeRun(t, d, "chess", settings)
		cfg, err := ParseConfig(d.config(), strings.NewReader("[chess]\ncurriculum_every = 50\n"), "test.toml")
		if err != nil {
			t.Fatal(err)
		}
		d.mu.Lock()
		d.cfg = cfg
		d.mu.Unlock()
		got, err := runSettings(ctx, d, "chess", cfg.Chess)
		changes, cerr := d.db.SettingChanges(ctx, "chess")
		if cerr != nil {
			t.Fatal(cerr)
		}
		switch {
		case nodes > 0 && (err != nil || got.CurriculumEvery != 50 || got.Nodes != nodes || len(changes) != 1 || changes[0].New != "50"):
			t.Errorf("a chess run of %d nodes: %+v, %v, changes %+v; want the curriculum every 50", nodes, got.PopulationConfig, err, changes)
		case nodes == 0 && (err == nil || !strings.Contains(err.Error(), "chess.curriculum_every") || !strings.Contains(err.Error(), "nodes > 0") || len(changes) != 0):
			t.Errorf("a chess run without a node budget: %v, changes %+v; want an error naming curriculum_every and nodes, nothing recorded", err, changes)
		}
	}
}
