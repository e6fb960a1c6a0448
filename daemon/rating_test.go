package daemon

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"evolved/game/chess"
	"evolved/games"
	"evolved/player"
	"evolved/population"
	"evolved/rating"
	"evolved/search"
	"evolved/storage"
)

// fakeEngineEnv, set in the environment, makes this test binary a fake UCI
// chess engine (see TestMain): "ok" plays, "noelo" lacks UCI_Elo, "crash"
// dies when asked for a move.
const fakeEngineEnv = "EVOLVED_FAKE_UCI"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEngineEnv); mode != "" {
		os.Exit(fakeEngine(mode, os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// fakeEngine speaks just enough UCI to be a ladder's engine: it declares
// UCI_LimitStrength and UCI_Elo and answers every go with the first legal
// move (a capture when there is one), instantly. Its strength is nothing
// like the UCI_Elo it claims: it stands in for Stockfish where a test must
// not wait for real games.
func fakeEngine(mode string, in io.Reader, out io.Writer) int {
	sc := bufio.NewScanner(in)
	pos := chess.Start()
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "uci":
			fmt.Fprintln(out, "id name fake")
			fmt.Fprintln(out, "option name UCI_LimitStrength type check default false")
			if mode != "noelo" {
				fmt.Fprintln(out, "option name UCI_Elo type spin default 1350 min 1350 max 2850")
			}
			fmt.Fprintln(out, "uciok")
		case "isready":
			fmt.Fprintln(out, "readyok")
		case "position":
			var err error
			if pos, err = fakePosition(fields[1:]); err != nil {
				fmt.Fprintln(os.Stderr, "fake engine:", err)
				return 2
			}
		case "go":
			if mode == "crash" {
				return 3
			}
			moves := pos.LegalMoves(nil)
			best := moves[0]
			for _, m := range moves {
				if pos.Occupied().Has(m.To()) {
					best = m
					break
				}
			}
			fmt.Fprintln(out, "bestmove", pos.FormatUCI(best, false))
		case "quit":
			return 0
		}
	}
	return 0
}

// fakePosition reads the arguments of a position command.
func fakePosition(args []string) (chess.Position, error) {
	pos := chess.Start()
	i := 0
	if len(args) > 0 && args[0] == "fen" {
		end := 1
		for end < len(args) && args[end] != "moves" {
			end++
		}
		var err error
		if pos, err = chess.ParseFEN(strings.Join(args[1:end], " ")); err != nil {
			return pos, err
		}
		i = end
	} else if len(args) > 0 && args[0] == "startpos" {
		i = 1
	}
	if i < len(args) && args[i] == "moves" {
		for _, text := range args[i+1:] {
			m, err := pos.ParseUCI(text, false)
			if err != nil {
				return pos, err
			}
			pos = pos.Play(m)
		}
	}
	return pos, nil
}

// seedRun creates game's run in the daemon's database, which ratings
// refer to.
func seedRun(t *testing.T, d *Daemon, game string) {
	t.Helper()
	cc := d.config().Chess
	species := games.Chess().Species(games.Setup{Depth: cc.Depth})
	st, err := population.New(game, species.Inputs, cc.population(0), 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.db.CreateRun(context.Background(), storage.Run{Game: game, Seed: 1, Config: "{}", CreatedAt: time.Now()}, PopulationRows(st)); err != nil {
		t.Fatal(err)
	}
}

// writeLadder writes a ladder file into dir and returns its path.
func writeLadder(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := rating.LoadLadder(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDaemonRatesChampions runs a short draughts evolution that rates its
// champions every other generation on a small ladder, and reads the
// ratings back from the documented view.
func TestDaemonRatesChampions(t *testing.T) {
	dir := t.TempDir()
	cfg := fastDraughts()
	cfg.DB = filepath.Join(dir, "evolved.db")
	cfg.Generations = 4
	cfg.Jobs.RatingEvery, cfg.Jobs.RatingGames, cfg.Jobs.RatingMinutes = 2, 8, 5
	cfg.Jobs.RatingShare = 1 // every due generation
	cfg.Jobs.RatingLadders = map[string]string{"draughts": smallDraughtsLadder(t, dir)}
	d, logs := runLogged(t, cfg, 0)
	// Run waits for the rating of generation 2, due as the target is
	// reached, rather than cutting it.
	rs, err := d.db.Ratings(context.Background(), "draughts")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Generation != 0 || rs[1].Generation != 2 {
		t.Fatalf("ratings %+v, want generations 0 and 2\n%s", rs, logs.String())
	}
	for _, r := range rs {
		if r.Scale != "test-scale" || r.TC != "untimed" || r.Games != 8 || r.Wins+r.Draws+r.Losses != 8 || r.CI <= 0 || r.Hours <= 0 {
			t.Errorf("rating %+v", r)
		}
		c, err := d.db.Champion(context.Background(), "draughts", r.Generation)
		if err != nil || c.AgentID != r.AgentID {
			t.Errorf("generation %d: rated agent %d, champion %d (%v)", r.Generation, r.AgentID, c.AgentID, err)
		}
	}
	if n := strings.Count(logs.String(), "msg=\"champion rated\""); n != 2 {
		t.Errorf("%d champion rated lines in the log:\n%s", n, logs.String())
	}
}

// runLogged runs a daemon on cfg to its generation target, logging as text
// into the buffer it returns; grace, when not zero, replaces ratingGrace.
func runLogged(t *testing.T, cfg Config, grace time.Duration) (*Daemon, *syncBuffer) {
	t.Helper()
	logs := new(syncBuffer)
	d, err := New(context.Background(), cfg, Options{Logger: slog.New(slog.NewTextHandler(logs, nil)), Notifier: nopNotifier{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if grace > 0 {
		d.ratingGrace = grace
	}
	if err := d.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return d, logs
}

// syncBuffer is a bytes.Buffer safe for the daemon's concurrent logging.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestRatingWithAnEngineLadder rates a chess player on a ladder of a fake
// engine process at two UCI_Elo levels and one own player, as the daemon's
// job does, and checks what is stored; then engines that lack UCI_Elo or
// crash: the job fails with a message naming the cause and stores nothing.
func TestRatingWithAnEngineLadder(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	d := newTestDaemon(t)
	dir := filepath.Dir(d.db.Path())
	ladder := writeLadder(t, dir, "c.toml", fmt.Sprintf("game = \"chess\"\nscale = \"fake-elo\"\nengine = %q\nmax_moves = 40\n", self)+
		"[[anchor]]\nplayer = \"random\"\nelo = 900.0\n"+
		"[[anchor]]\nengine_elo = 1350\nelo = 1350.0\n[[anchor]]\nengine_elo = 1500\nelo = 1500.0\n")
	d.cfg.Jobs.RatingLadders = map[string]string{"chess": ladder}
	jobs := d.config().Jobs
	jobs.RatingGames = 6
	// The run the rating belongs to (ratings refer to runs).
	ctx := context.Background()
	seedRun(t, d, "chess")
	material, err := player.ParseChess("material:1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode, wantErr string
	}{
		{"ok", ""},
		{"noelo", `no option "UCI_Elo"`},
		{"crash", "round 1"},
	} {
		t.Setenv(fakeEngineEnv, tc.mode)
		before, _ := d.db.Ratings(ctx, "chess")
		r, err := rateChampion(ctx, d, games.Chess(), len(before), 1, 7, func() search.Player[chess.Move, *chess.Game] { return material.New() }, jobs, ratingWorkers(d.workers()))
		after, _ := d.db.Ratings(ctx, "chess")
		if tc.wantErr == "" {
			if err != nil {
				t.Fatalf("%s: %v", tc.mode, err)
			}
			if len(after) != 1 || after[0].Scale != "fake-elo" || after[0].Games != 6 || after[0].TC != "untimed" || r.Elo != after[0].Elo {
				t.Errorf("%s: stored %+v", tc.mode, after)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s engine: err = %v, want it to name %q", tc.mode, err, tc.wantErr)
		}
		if len(after) != len(before) {
			t.Errorf("%s engine: a failed rating stored a row", tc.mode)
		}
	}
}

// TestFailingRatingsDoNotStopTheEvolution gives the daemon a ladder whose
// engine does not exist: every rating fails, is logged with its cause,
// stores nothing, and the evolution reaches its target regardless.
func TestFailingRatingsDoNotStopTheEvolution(t *testing.T) {
	dir := t.TempDir()
	cfg := fastDraughts()
	cfg.DB = filepath.Join(dir, "evolved.db")
	cfg.Generations = 4
	cfg.Jobs.RatingEvery, cfg.Jobs.RatingGames, cfg.Jobs.RatingMinutes = 2, 4, 5
	cfg.Jobs.RatingLadders = map[string]string{"draughts": writeLadder(t, dir, "d.toml",
		"game = \"draughts\"\nscale = \"s\"\norigin = \"random\"\nengine = \"/nonexistent/engine\"\n"+
			"[[anchor]]\nplayer = \"random\"\nelo = 0.0\n[[anchor]]\nengine_elo = 1350\nelo = 1350.0\n")}
	d, logs := runLogged(t, cfg, 0)
	st, err := d.db.Status(context.Background())
	if err != nil || len(st) != 1 || st[0].Generation != 4 {
		t.Fatalf("status %+v, %v: the evolution did not reach generation 4", st, err)
	}
	if rs, _ := d.db.Ratings(context.Background(), "draughts"); len(rs) != 0 {
		t.Errorf("failed ratings stored %+v", rs)
	}
	if n := strings.Count(logs.String(), `msg="rating failed`); n != 2 || !strings.Contains(logs.String(), "/nonexistent/engine") {
		t.Errorf("%d rating failures logged, want 2 naming the engine:\n%s", n, logs.String())
	}
}

// TestFinishedRunAbandonsLongRatings reaches its generation target while a
// rating far longer than the grace period runs: Run returns after the
// grace, the rating is abandoned and stores nothing.
func TestFinishedRunAbandonsLongRatings(t *testing.T) {
	dir := t.TempDir()
	cfg := fastDraughts()
	cfg.DB = filepath.Join(dir, "evolved.db")
	cfg.Generations = 2
	cfg.Jobs.RatingEvery, cfg.Jobs.RatingGames, cfg.Jobs.RatingMinutes = 1, 100000, 60
	cfg.Jobs.RatingShare = 1
	// Generation 0's rating outlasts the run. Without the grace, Run
	// would wait for hours of rating games: the test's own timeout is the
	// check that it does not.
	d, logs := runLogged(t, cfg, 300*time.Millisecond)
	if rs, _ := d.db.Ratings(context.Background(), "draughts"); len(rs) != 0 {
		t.Errorf("an abandoned rating stored %+v", rs)
	}
	if !strings.Contains(logs.String(), "abandoning the ratings still running") || !strings.Contains(logs.String(), "rating abandoned: stopping") {
		t.Errorf("the log does not say the rating was abandoned:\n%s", logs.String())
	}
}

// TestInterruptedRatingIsRedone stops a run while it rates generation 0
// (the rating is abandoned and stores nothing), then resumes it: the
// resumed daemon rates generation 0's champion first.
func TestInterruptedRatingIsRedone(t *testing.T) {
	dir := t.TempDir()
	cfg := fastDraughts()
	cfg.DB = filepath.Join(dir, "evolved.db")
	cfg.Generations = 2
	cfg.Jobs.RatingEvery, cfg.Jobs.RatingGames, cfg.Jobs.RatingMinutes = 2, 100000, 60
	cfg.Jobs.RatingLadders = map[string]string{"draughts": smallDraughtsLadder(t, dir)}
	first, firstLogs := runLogged(t, cfg, 300*time.Millisecond)
	if rs, _ := first.db.Ratings(context.Background(), "draughts"); len(rs) != 0 {
		t.Fatalf("the interrupted rating stored %+v", rs)
	}
	if !strings.Contains(firstLogs.String(), "rating abandoned: stopping") {
		t.Fatalf("generation 0's rating was not interrupted:\n%s", firstLogs.String())
	}
	first.Close()
	cfg.Generations, cfg.Jobs.RatingGames = 3, 8
	d, logs := runLogged(t, cfg, 0)
	rs, err := d.db.Ratings(context.Background(), "draughts")
	if err != nil || len(rs) != 1 || rs[0].Generation != 0 || rs[0].Games != 8 {
		t.Errorf("ratings after resuming: %+v (%v), want generation 0's\n%s", rs, err, logs.String())
	}
	if !strings.Contains(logs.String(), "redoing the rating a stop interrupted") {
		t.Errorf("the log does not say the rating is redone:\n%s", logs.String())
	}
}

// smallDraughtsLadder writes a ladder of two draughts anchors, random at 0
// and material:1 at 500, on the scale "test-scale", into dir.
func smallDraughtsLadder(t *testing.T, dir string) string {
	t.Helper()
	return writeLadder(t, dir, "d.toml",
		"game = \"draughts\"\nscale = \"test-scale\"\norigin = \"random\"\n"+
			"[[anchor]]\nplayer = \"random\"\nelo = 0.0\n[[anchor]]\nplayer = \"material:1\"\nelo = 500.0\n")
}

// TestRatingGap checks the wait after a rating against figures worked out
// by hand: a rating on half the workers costs half the machine, so at a
// 10% share it is followed by four times its length.
func TestRatingGap(t *testing.T) {
	for _, c := range []struct {
		took          time.Duration
		used, workers int
		share         float64
		want          time.Duration
	}{
		{time.Hour, 1, 2, 0.1, 4 * time.Hour},
		{time.Hour, 4, 8, 0.1, 4 * time.Hour},
		{10 * time.Minute, 1, 1, 0.1, 90 * time.Minute},
		{30 * time.Minute, 1, 4, 0.1, 45 * time.Minute},
		{time.Hour, 1, 2, 0.5, 0},
		{time.Hour, 1, 2, 1, 0},
	} {
		if got := ratingGap(c.took, c.used, c.workers, c.share); got != c.want {
			t.Errorf("ratingGap(%v, %d of %d, share %v) = %v, want %v", c.took, c.used, c.workers, c.share, got, c.want)
		}
	}
}

// TestRatingsKeepToTheirShare runs with ratings due every second
// generation but a share so small that the wait after the first rating
// outlasts the run: generation 0 is rated, and every later due rating is
// deferred (or skipped while the first still runs), none played.
func TestRatingsKeepToTheirShare(t *testing.T) {
	dir := t.TempDir()
	cfg := fastDraughts()
	cfg.DB = filepath.Join(dir, "evolved.db")
	cfg.Generations = 40
	cfg.Jobs.RatingEvery, cfg.Jobs.RatingGames, cfg.Jobs.RatingMinutes = 2, 8, 5
	// A rating of 8 games takes a few milliseconds, so at a share of
	// 1e-7 the wait after it is hours: both runs, and the restart
	// between them, stay inside it however loaded the machine is (at
	// 0.0001 the wait was seconds, and a loaded machine outlasted it).
	cfg.Jobs.RatingShare = 1e-7
	cfg.Jobs.RatingLadders = map[string]string{"draughts": smallDraughtsLadder(t, dir)}
	d, logs := runLogged(t, cfg, 0)
	rs, err := d.db.Ratings(context.Background(), "draughts")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].Generation != 0 {
		t.Fatalf("ratings %+v, want generation 0's alone\n%s", rs, logs.String())
	}
	deferred := strings.Count(logs.String(), "rating deferred")
	skipped := strings.Count(logs.String(), "rating skipped")
	if deferred == 0 || deferred+skipped != 19 {
		t.Errorf("%d due ratings deferred and %d skipped after generation 0's, want 19 in all and some deferred\n%s", deferred, skipped, logs.String())
	}
	// A restart inside the wait neither redoes the deferred rating of
	// generation 38 nor rates the next due one.
	d.Close()
	cfg.Generations = 43
	d, logs = runLogged(t, cfg, 0)
	if rs, _ := d.db.Ratings(context.Background(), "draughts"); len(rs) != 1 {
		t.Errorf("after a restart inside the wait: ratings %+v, want generation 0's alone\n%s", rs, logs.String())
	}
	if strings.Contains(logs.String(), "redoing") || !strings.Contains(logs.String(), "rating deferred") {
		t.Errorf("after a restart inside the wait the log should defer generation 40's rating and redo none:\n%s", logs.String())
	}
}

// TestLastGenerationIsNotRated: a rating due at the generation the run
// stops after would hold up the exit (a chess rating takes half an hour)
// or be abandoned; it is skipped and the log says how to rate it.
func TestLastGenerationIsNotRated(t *testing.T) {
	dir := t.TempDir()
	cfg := fastDraughts()
	cfg.DB = filepath.Join(dir, "evolved.db")
	cfg.Generations = 3
	cfg.Jobs.RatingEvery, cfg.Jobs.RatingGames, cfg.Jobs.RatingMinutes, cfg.Jobs.RatingShare = 2, 8, 5, 1
	cfg.Jobs.RatingLadders = map[string]string{"draughts": smallDraughtsLadder(t, dir)}
	d, logs := runLogged(t, cfg, 0)
	rs, err := d.db.Ratings(context.Background(), "draughts")
	if err != nil || len(rs) != 1 || rs[0].Generation != 0 {
		t.Fatalf("ratings %+v (%v), want generation 0's alone\n%s", rs, err, logs.String())
	}
	if !strings.Contains(logs.String(), "rating skipped: the run stops after this generation") {
		t.Errorf("the log does not say generation 2's rating was skipped:\n%s", logs.String())
	}
}
