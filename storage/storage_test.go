package storage_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"evolved/daemon"
	"evolved/game"
	"evolved/game/draughts"
	"evolved/games"
	"evolved/nnet"
	"evolved/population"
	"evolved/storage"
	"evolved/tournament"
)

// mustOpen opens a writer on a fresh database in t's temporary directory.
func mustOpen(t testing.TB, path string) *storage.DB {
	t.Helper()
	db, err := storage.Open(context.Background(), path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestOpenRefusesWhatIsNotOurs(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()

	text := filepath.Join(dir, "notes.db")
	content := []byte("these are my notes, not a database\n")
	os.WriteFile(text, content, 0o644)
	if _, err := storage.Open(ctx, text, storage.Options{}); !errors.Is(err, storage.ErrNotEvolved) {
		t.Errorf("text file: err = %v, want ErrNotEvolved", err)
	}
	if got, _ := os.ReadFile(text); !bytes.Equal(got, content) {
		t.Errorf("the text file was changed")
	}

	other := filepath.Join(dir, "other.db")
	raw, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("CREATE TABLE accounts (id INTEGER)"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	before, _ := os.ReadFile(other)
	if _, err := storage.Open(ctx, other, storage.Options{}); !errors.Is(err, storage.ErrNotEvolved) {
		t.Errorf("foreign SQLite database: err = %v, want ErrNotEvolved", err)
	}
	// Refused before anything was written: the same bytes, still in its
	// rollback journal mode, and nothing left beside it.
	if after, _ := os.ReadFile(other); !bytes.Equal(after, before) {
		t.Errorf("the foreign database's bytes changed")
	}
	for _, suffix := range []string{"-wal", "-shm", ".lock"} {
		if _, err := os.Stat(other + suffix); err == nil {
			t.Errorf("refusing the foreign database left %s behind", filepath.Base(other+suffix))
		}
	}
	raw, _ = sql.Open("sqlite", other)
	var mode string
	raw.QueryRow("PRAGMA journal_mode").Scan(&mode)
	raw.Close()
	if mode != "delete" {
		t.Errorf("the foreign database's journal mode is now %q, want delete as it was", mode)
	}
	// A database with another program's application id and no tables yet.
	stamped := filepath.Join(dir, "stamped.db")
	raw, _ = sql.Open("sqlite", stamped)
	raw.Exec("PRAGMA application_id = 42")
	raw.Close()
	before, _ = os.ReadFile(stamped)
	if _, err := storage.Open(ctx, stamped, storage.Options{}); !errors.Is(err, storage.ErrNotEvolved) {
		t.Errorf("another program's empty database: err = %v, want ErrNotEvolved", err)
	}
	if after, _ := os.ReadFile(stamped); !bytes.Equal(after, before) {
		t.Errorf("the stamped database's bytes changed")
	}

	newer := filepath.Join(dir, "newer.db")
	db := mustOpen(t, newer)
	db.Close()
	raw, _ = sql.Open("sqlite", newer)
	raw.Exec("PRAGMA user_version = 99")
	raw.Close()
	if _, err := storage.Open(ctx, newer, storage.Options{}); !errors.Is(err, storage.ErrTooNew) {
		t.Errorf("newer schema: err = %v, want ErrTooNew", err)
	}

	if _, err := storage.Open(ctx, filepath.Join(dir, "missing.db"), storage.Options{ReadOnly: true}); !errors.Is(err, storage.ErrNoDatabase) {
		t.Errorf("read-only open of a missing file: err = %v, want ErrNoDatabase", err)
	}
}

func TestOpenRefusesACorruptDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "evolved.db")
	db := mustOpen(t, path)
	st := newRun(t, db, 1)
	commitGenerations(t, db, st, 1)
	db.Close()
	// Overwrite everything after the first page with garbage.
	b, _ := os.ReadFile(path)
	for i := 4096; i < len(b); i++ {
		b[i] = byte(i * 7)
	}
	os.WriteFile(path, b, 0o644)
	os.Remove(path + "-wal")
	_, err := storage.Open(context.Background(), path, storage.Options{})
	if !errors.Is(err, storage.ErrCorrupt) {
		t.Errorf("corrupt database: err = %v, want ErrCorrupt", err)
	}
}

// TestSecondWriterIsRefused checks the writer's lock: a second writer is
// refused, by the file's name, through a hard link and through a symbolic
// link (the lock belongs to the file), and no lock file is left beside
// it; a reader is welcome; once the first closes, the second may write.
func TestSecondWriterIsRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "evolved.db")
	first := mustOpen(t, path)
	hard, soft := filepath.Join(dir, "hard.db"), filepath.Join(dir, "soft.db")
	if err := os.Link(path, hard); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(path, soft); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{path, hard, soft} {
		if _, err := storage.Open(context.Background(), name, storage.Options{}); !errors.Is(err, storage.ErrLocked) {
			t.Fatalf("second writer through %s: err = %v, want ErrLocked", filepath.Base(name), err)
		}
	}
	if _, err := os.Stat(path + ".lock"); err == nil {
		t.Error("a lock file was left beside the database")
	}
	// A reader is welcome.
	r, err := storage.Open(context.Background(), path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("reader next to the writer: %v", err)
	}
	r.Close()
	first.Close()
	second, err := storage.Open(context.Background(), hard, storage.Options{})
	if err != nil {
		t.Fatalf("a writer after the first closed: %v", err)
	}
	second.Close()
}

// species is a fast draughts Env for storage tests.
var species = population.LocalEnv(games.Draughts(), games.Setup{Depth: 1})

func testConfig() population.Config {
	cfg := population.DefaultConfig()
	cfg.Tournament = tournament.Config{Format: tournament.Blondie, Workers: 2}
	cfg.BaselineEvery, cfg.BaselineGames, cfg.Baselines = 2, 2, []string{"random"}
	// Steps that shrink with the generation: a genome rebuilt from its
	// lineage must be mutated by its own generation's steps.
	cfg.MutationHalfLife, cfg.MutationFloor = 40, 0.2
	// A title match: the champion leads the elite, which the genomes'
	// retention and the lineage must carry.
	cfg.ChampionGames = 2
	return cfg
}

func newRun(t testing.TB, db *storage.DB, seed uint64) *population.State {
	t.Helper()
	st, err := population.New("draughts", nnet.NumDraughtsInputs, testConfig(), seed)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CreateRun(context.Background(), storage.Run{Game: "draughts", Seed: seed, Config: "{}", CreatedAt: time.Now(), Steps: testConfig().Steps()}, daemon.PopulationRows(st)); err != nil {
		t.Fatal(err)
	}
	return st
}

// record converts a report the way the daemon does, in miniature.
func record(rep *population.Report[draughts.Move]) storage.Generation {
	g := storage.Generation{Game: "draughts", Generation: rep.Generation, ChampionID: rep.Champion.ID,
		Points: rep.Results.Points, Wins: rep.Results.Wins, Draws: rep.Results.Draws, Losses: rep.Results.Losses,
		Rank: make([]int, len(rep.Ranking)), LadderPlayed: rep.Ladder.Played, LadderMean: rep.Ladder.Mean, Improved: rep.Ladder.Improved,
		Seconds: rep.Elapsed.Seconds(), CreatedAt: time.Now()}
	for r, slot := range rep.Ranking {
		g.Rank[slot] = r + 1
	}
	for _, gr := range rep.Results.Games {
		text, _ := draughts.MoveText(draughts.Start(), gr.Moves)
		result := map[game.Result]string{game.FirstWins: "1-0", game.SecondWins: "0-1", game.Draw: "1/2-1/2"}[gr.Outcome.Result]
		champ := rep.Ranking[0]
		g.Games = append(g.Games, storage.GameRecord{Kind: "tournament", First: "a", Second: "b",
			Opening: gr.Opening, Result: result, Reason: gr.Outcome.Reason.String(), Moves: text,
			Champion: gr.First == champ || gr.Second == champ})
	}
	if c := rep.Challenge; c.Played {
		for _, gr := range c.Games {
			text, _ := draughts.MoveText(draughts.Start(), gr.Moves)
			result := map[game.Result]string{game.FirstWins: "1-0", game.SecondWins: "0-1", game.Draw: "1/2-1/2"}[gr.Outcome.Result]
			g.Games = append(g.Games, storage.GameRecord{Kind: "challenge", First: "a", Second: "b",
				Opening: gr.Opening, Result: result, Reason: gr.Outcome.Reason.String(), Moves: text, Champion: true})
		}
		g.Challenge = &storage.ChallengeRecord{IncumbentID: c.IncumbentID, ChallengerID: c.ChallengerID,
			Wins: c.Wins, Draws: c.Draws, Losses: c.Losses, Replaced: c.Replaced}
	}
	for _, l := range rep.Ladder.Opponents {
		g.Ladder = append(g.Ladder, storage.LadderRecord{OpponentGeneration: l.Generation, Wins: l.Wins, Draws: l.Draws, Losses: l.Losses, Mean: l.Mean})
	}
	for _, b := range rep.Baselines {
		g.Baselines = append(g.Baselines, storage.BaselineRecord{Opponent: b.Opponent, Wins: b.Wins, Draws: b.Draws, Losses: b.Losses, Score: b.Score, Elo: b.Elo, HalfWidth: b.HalfWidth})
	}
	return g
}

func commitGenerations(t testing.TB, db *storage.DB, st *population.State, n int) *population.State {
	t.Helper()
	env := species
	if slices.ContainsFunc(st.Champions, func(c population.Champion) bool { return c.Net == nil }) {
		env.ChampionNet = db.ChampionNet("draughts") // a state read back (loadState): its champions' nets are in db, as the daemon reads them
	}
	for range n {
		next, rep, err := population.Step(context.Background(), env, testConfig(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.CommitGeneration(context.Background(), record(rep), daemon.PopulationRows(next), storage.KeepEverything()); err != nil {
			t.Fatal(err)
		}
		st = next
	}
	return st
}

// loadState reads the draughts run's state back as the daemon does.
func loadState(ctx context.Context, db *storage.DB) (*population.State, error) {
	p, err := db.LoadPopulation(ctx, "draughts")
	if err != nil {
		return nil, err
	}
	return daemon.PopulationState(p), nil
}

func TestLoadStateEqualsTheStateInMemory(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "evolved.db")
	db := mustOpen(t, path)
	st := newRun(t, db, 42)
	loaded, err := loadState(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := mustJSON(t, st), mustJSON(t, loaded); !bytes.Equal(a, b) {
		t.Fatalf("generation 0 read back differs:\n%s\n%s", a, b)
	}
	st = commitGenerations(t, db, st, 3)
	db.Close()
	db = mustOpen(t, path)
	loaded, err = loadState(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	// The champions come back without their nets, which ChampionNet reads
	// bit for bit.
	for _, c := range loaded.Champions {
		if c.Net != nil {
			t.Errorf("champion %d was loaded with its net", c.Generation)
		}
		net, err := db.ChampionNet("draughts")(ctx, c.Generation)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := net.MarshalBinary()
		b, _ := st.Champions[c.Generation].Net.MarshalBinary()
		if !bytes.Equal(a, b) {
			t.Errorf("champion %d's net read back differs", c.Generation)
		}
	}
	withoutNets := *st
	withoutNets.Champions = slices.Clone(st.Champions)
	for i := range withoutNets.Champions {
		withoutNets.Champions[i].Net = nil
	}
	if a, b := mustJSON(t, &withoutNets), mustJSON(t, loaded); !bytes.Equal(a, b) {
		t.Errorf("state after 3 generations read back differs (%d vs %d bytes)", len(a), len(b))
	}
}

func mustJSON(t testing.TB, st *population.State) []byte {
	t.Helper()
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPublicViews(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "evolved.db")
	db := mustOpen(t, path)
	commitGenerations(t, db, newRun(t, db, 7), 3)
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var n, games int
	if err := raw.QueryRowContext(ctx, "SELECT count(*), sum(games) FROM generation_summary WHERE game = 'draughts'").Scan(&n, &games); err != nil {
		t.Fatal(err)
	}
	if n != 3 || games != 3*75 {
		t.Errorf("generation_summary: %d rows with %d games, want 3 rows of 75", n, games)
	}
	champs, err := db.Champions(ctx, "draughts")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := raw.QueryContext(ctx, "SELECT generation, agent_id, fitness FROM champion_history ORDER BY generation")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	i := 0
	for rows.Next() {
		var gen, fitness int
		var id int64
		rows.Scan(&gen, &id, &fitness)
		if c := champs[i]; c.Generation != gen || c.AgentID != id || c.Fitness != fitness {
			t.Errorf("champion_history row %d = (%d, %d, %d), Champions says %+v", i, gen, id, fitness, c)
		}
		i++
	}
	if i != 3 {
		t.Errorf("champion_history has %d rows, want 3", i)
	}
	c, err := db.Champion(ctx, "draughts", -1)
	if err != nil || c.Generation != 2 || c.Net == nil {
		t.Errorf("latest champion: %+v, %v", c.ChampionRow, err)
	}
	if _, err := db.Champion(ctx, "draughts", 9); !errors.Is(err, storage.ErrNoGeneration) {
		t.Errorf("generation 9: err = %v, want ErrNoGeneration", err)
	}
	if _, err := db.Champions(ctx, "chess"); !errors.Is(err, storage.ErrNoRun) {
		t.Errorf("chess: err = %v, want ErrNoRun", err)
	}
}

func TestReaderWhileWriting(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "evolved.db")
	db := mustOpen(t, path)
	st := newRun(t, db, 9)
	done := make(chan error)
	go func() {
		commitGenerations(t, db, st, 6)
		close(done)
	}()
	reader, err := storage.Open(ctx, path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	last := 0
	for reading := true; reading; {
		select {
		case <-done:
			reading = false
		default:
		}
		s, err := reader.Status(ctx)
		if err != nil {
			t.Fatalf("status while the writer commits: %v", err)
		}
		if len(s) != 1 || s[0].Generation < last {
			t.Fatalf("status went from %d generations to %+v", last, s)
		}
		last = s[0].Generation
		if _, err := reader.Champions(ctx, "draughts"); err != nil {
			t.Fatalf("champions while the writer commits: %v", err)
		}
	}
	if s, _ := reader.Status(ctx); s[0].Generation != 6 {
		t.Errorf("after the writer: %d generations, want 6", s[0].Generation)
	}
}

func TestOlderDatabaseUpgradesItself(t *testing.T) {
	// A version-1 database: the first migration only, as an evolved of that
	// schema wrote it, with a row in games.
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{storage.MigrationForTest(0), "PRAGMA user_version = 1", "PRAGMA application_id = 1163284300",
		`INSERT INTO runs VALUES ('draughts', 1, '{}', '2026-01-01T00:00:00.000Z')`,
		`INSERT INTO genomes VALUES ('draughts', 7, 0, 'random', '[]', NULL, X'45564E4E')`,
		`INSERT INTO members VALUES ('draughts', 0, 0, 7, 'random', NULL, NULL, NULL, NULL, NULL)`,
		`INSERT INTO generations VALUES ('draughts', 0, 28, 10, 1.5, 9, 7, 0.25, 1, 2.5, '2026-01-01T00:00:00.000Z')`} {
		if _, err := raw.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	raw.Close()
	db, err := storage.Open(context.Background(), path, storage.Options{})
	if err != nil {
		t.Fatalf("open a version-1 database: %v", err)
	}
	db.Close()
	raw, _ = sql.Open("sqlite", "file:"+path+"?mode=ro")
	defer raw.Close()
	var version int
	raw.QueryRow("PRAGMA user_version").Scan(&version)
	if want := storage.SchemaVersionForTest(); version != want || want < 11 {
		t.Errorf("user_version after open = %d, want %d (every migration, 11 or more)", version, want)
	}
	// Migration 4 rebuilt genomes: its rows kept, the blob now nullable,
	// and the members' foreign key still pointing at it.
	var blob []byte
	var notNull int
	if err := raw.QueryRow("SELECT genome FROM genomes WHERE agent_id = 7").Scan(&blob); err != nil || string(blob) != "EVNN" {
		t.Errorf("genome 7 after the rebuild: %q, %v", blob, err)
	}
	raw.QueryRow(`SELECT "notnull" FROM pragma_table_info('genomes') WHERE name = 'genome'`).Scan(&notNull)
	if notNull != 0 {
		t.Error("genomes.genome is still NOT NULL")
	}
	// Migration 12 relaxed the ladder's columns in place: the old row keeps
	// its values, and a generation without the ladder stores NULL.
	for _, col := range []string{"ladder_mean", "improved"} {
		notNull = -1
		raw.QueryRow(`SELECT "notnull" FROM pragma_table_info('generations') WHERE name = ?`, col).Scan(&notNull)
		if notNull != 0 {
			t.Errorf("generations.%s: notnull = %d, want 0", col, notNull)
		}
	}
	var ladder float64
	var improved int
	if err := raw.QueryRow("SELECT ladder_mean, improved FROM generations WHERE generation = 0").Scan(&ladder, &improved); err != nil || ladder != 0.25 || improved != 1 {
		t.Errorf("generation 0 after the upgrade: ladder_mean %v, improved %v, %v; want 0.25 and 1", ladder, improved, err)
	}
	var fkTable string
	raw.QueryRow(`SELECT "table" FROM pragma_foreign_key_list('members')`).Scan(&fkTable)
	if fkTable != "genomes" {
		t.Errorf("members refers to %q, want genomes", fkTable)
	}
	// Migration 13 widened the games' kinds in place, 14 added the title matches.
	var games string
	raw.QueryRow("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'games'").Scan(&games)
	if !strings.Contains(games, "CHECK (kind IN ('tournament', 'ladder', 'baseline', 'challenge'))") {
		t.Errorf("the games table after the upgrade:\n%s\nwant the kind 'challenge' allowed", games)
	}
	for _, q := range []string{"SELECT * FROM baseline_history", "SELECT db_bytes FROM generation_summary", "SELECT * FROM challenge_history"} {
		if _, err := raw.Exec(q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
	if _, err := raw.Exec("SELECT * FROM meta_summary"); err != nil {
		t.Errorf("the meta tables were not added: %v", err)
	}
	if _, err := raw.Exec("SELECT start FROM games"); err != nil {
		t.Errorf("the start column was not added: %v", err)
	}
	if run, err := func() (storage.Run, error) {
		d, err := storage.Open(context.Background(), path, storage.Options{ReadOnly: true})
		if err != nil {
			return storage.Run{}, err
		}
		defer d.Close()
		return d.LoadRun(context.Background(), "draughts")
	}(); err != nil || run.Seed != 1 {
		t.Errorf("the old run after the upgrade: %+v, %v", run, err)
	}
}

// TestReadOnlyFileIsRefusedUntouched opens a database whose file the
// writer may not write: refused before SQLite opens it, so that no
// write-ahead index of the file's mode is left to block the database once
// its mode is repaired. Root ignores file modes, so the test needs another
// user.
func TestReadOnlyFileIsRefusedUntouched(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes to read-only files: run as another user to test this")
	}
	path := filepath.Join(t.TempDir(), "evolved.db")
	mustOpen(t, path).Close()
	os.Remove(path + "-shm")
	os.Remove(path + "-wal")
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	if _, err := storage.Open(context.Background(), path, storage.Options{}); err == nil {
		t.Fatal("a writer opened a read-only file")
	}
	for _, suffix := range []string{"-shm", "-wal"} {
		if _, err := os.Stat(path + suffix); err == nil {
			t.Errorf("the refused open left %s behind", filepath.Base(path+suffix))
		}
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(context.Background(), path, storage.Options{})
	if err != nil {
		t.Fatalf("after the mode is repaired: %v", err)
	}
	db.Close()
}

// TestTitleMatchesAreStored commits generations of a run with a title
// match: each match is a row of challenge_history with its games of kind
// 'challenge', and every champion is a member of its generation, ranked
// first, as the champions' queries assume.
func TestTitleMatchesAreStored(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "evolved.db")
	db := mustOpen(t, path)
	st := newRun(t, db, 5)
	var want []string
	for range 6 {
		next, rep, err := population.Step(ctx, species, testConfig(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c := rep.Challenge; c.Played {
			want = append(want, fmt.Sprintf("%d %d %d %d-%d-%d %v", rep.Generation, c.IncumbentID, c.ChallengerID, c.Wins, c.Draws, c.Losses, c.Replaced))
		}
		if err := db.CommitGeneration(ctx, record(rep), daemon.PopulationRows(next), storage.KeepEverything()); err != nil {
			t.Fatal(err)
		}
		st = next
	}
	db.Close()
	if len(want) == 0 {
		t.Fatal("no generation played a title match")
	}
	got := query(t, path, `SELECT generation || ' ' || incumbent_id || ' ' || challenger_id || ' ' || wins || '-' || draws || '-' || losses || ' ' ||
		CASE replaced WHEN 1 THEN 'true' ELSE 'false' END FROM challenge_history WHERE game = 'draughts' ORDER BY generation`)
	if !slices.Equal(got, want) {
		t.Errorf("challenge_history:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := query(t, path, "SELECT count(*) FROM games WHERE kind = 'challenge'"); n[0] != strconv.Itoa(len(want)*testConfig().ChampionGames) {
		t.Errorf("%s challenge games stored, want %d", n[0], len(want)*testConfig().ChampionGames)
	}
	if bad := query(t, path, `SELECT g.generation FROM generations g WHERE NOT EXISTS (SELECT 1 FROM members m
		WHERE m.game = g.game AND m.generation = g.generation AND m.agent_id = g.champion_id AND m.rank = 1)`); len(bad) > 0 {
		t.Errorf("generations %v: the champion is not the member ranked first", bad)
	}
}
