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
	"evolved/longtest"
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
	st, err := population.New(game, games.Chess().Inputs, cc.population(0), 1)
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
	// Generation 2's rating, of 8 depth-1 games beside generation 3's
	// tournament, is done or nearly done when the target is reached: Run
	// waits for it (ratingFinish) rather than cutting it.
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
// into the buffer it returns; finish, when not zero, replaces ratingFinish.
func runLogged(t *testing.T, cfg Config, finish time.Duration) (*Daemon, *syncBuffer) {
	t.Helper()
	logs := new(syncBuffer)
	d, err := New(context.Background(), cfg, Options{Logger: slog.New(slog.NewTextHandler(logs, nil)), Notifier: nopNotifier{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if finish > 0 {
		d.ratingFinish = finish
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
		r, err := rateChampion(ctx, d, games.Chess(), len(before), 1, 7, func() search.Player[chess.Move, *chess.Game] { return material.New() }, jobs, ratingWorkers(d.workers()), nil)
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

// TestFinishedRunStopsALongRatingAtOnce reaches its generation target
// while generation 0's rating, of 100,000 games on the built-in draughts
// ladder (hours of games), runs: Run stops it at once rather than wait a
// grace period for it (issue 63: a short chess run waited a minute at its
// end for a Stockfish rating it then abandoned), the log says so in one
// line with the command that rates the champion, and nothing is stored.
// The check that Run did not wait for the rating's games is the test's
// own timeout.
func TestFinishedRunStopsALongRatingAtOnce(t *testing.T) {
	dir := t.TempDir()
	cfg := fastDraughts()
	cfg.DB = filepath.Join(dir, "evolved.db")
	cfg.Generations = 2
	cfg.Jobs.RatingEvery, cfg.Jobs.RatingGames, cfg.Jobs.RatingMinutes = 1, 100000, 60
	cfg.Jobs.RatingShare = 1
	d, logs := runLogged(t, cfg, 0)
	if rs, err := d.db.Ratings(context.Background(), "draughts"); err != nil || len(rs) != 0 {
		t.Errorf("the stopped rating stored %+v (%v)", rs, err)
	}
	text := logs.String()
	var stopped []string
	for line := range strings.Lines(text) {
		if strings.Contains(line, "rating stopped") {
			stopped = append(stopped, line)
		}
	}
	if len(stopped) != 1 {
		t.Fatalf("%d lines say a rating stopped, want 1:\n%s", len(stopped), text)
	}
	line := stopped[0]
	for _, want := range []string{
		`msg="rating stopped: the run reached its generation target; nothing stored, the rate command rates the champion"`,
		"game=draughts generation=0 games=",
		`rate="evolved rate --db ` + cfg.DB + ` --game draughts --generation 0 --games 100000"`,
	} {
		if !strings.Contains(line, want) {
			t.Errorf("the stop line lacks %s:\n%s", want, line)
		}
	}
	if strings.Contains(text, "finishing the rating") || strings.Contains(text, "abandoning") {
		t.Errorf("the run waited for a rating far from done:\n%s", text)
	}
	// The rating was cut, not played out: far fewer games than its total.
	var done, total int
	if _, err := fmt.Sscanf(line[strings.Index(line, "games=")+len("games="):], "%d/%d", &done, &total); err != nil || total != 100000 || done >= total/10 {
		t.Errorf("stop line's games %d/%d (%v), want a small part of 100000:\n%s", done, total, err, line)
	}
}

// TestFinishRatings settles ratings as Run does at its end, on stand-in
// ratings whose progress is set by hand: at the generation target one
// with every game played is waited for and one with a single game of
// 100,000 in an hour is stopped at once; one that outlasts the wait is
// stopped when the wait ends; a failed run stops every rating at once.
func TestFinishRatings(t *testing.T) {
	// standIn is a stand-in rating: ctx is its context, and cause, once
	// finishRatings has returned, why it ended (nil: it finished).
	type standIn struct {
		ctx   context.Context
		cause error
	}
	// start begins a stand-in rating of game that has played done of
	// total games in the hour since it began: it runs until release is
	// closed or it is stopped.
	start := func(d *Daemon, game string, done, total int, release <-chan struct{}) *standIn {
		ctx, cancel := context.WithCancelCause(d.ratingCtx)
		job := &ratingJob{log: d.log, start: time.Now().Add(-time.Hour), total: total, cancel: cancel}
		job.done.Store(int64(done))
		state := d.rating(game)
		state.job.Store(job)
		r := &standIn{ctx: ctx}
		d.ratings.Add(1)
		go func() {
			defer d.ratings.Done()
			defer state.job.Store(nil)
			select {
			case <-release:
			case <-ctx.Done():
				r.cause = context.Cause(ctx)
			}
		}()
		return r
	}
	setup := func(finish time.Duration) (*Daemon, context.Context, context.CancelCauseFunc) {
		d := newTestDaemon(t)
		d.ratingFinish = finish
		ctx, stop := context.WithCancelCause(context.Background())
		d.ratingCtx = ctx
		return d, ctx, stop
	}

	t.Run("target", func(t *testing.T) {
		d, ratingCtx, stop := setup(time.Hour)
		release := make(chan struct{})
		played := start(d, "draughts", 100, 100, release)
		long := start(d, "chess", 1, 100000, nil)
		settled := make(chan struct{})
		go func() {
			d.finishRatings(stop, errTargetReached)
			close(settled)
		}()
		select {
		case <-long.ctx.Done():
		case <-time.After(time.Minute): // it is stopped at once; a minute spares a loaded machine
			t.Fatal("the long rating was not stopped")
		}
		select {
		case <-settled:
			t.Fatal("finishRatings returned before the rating it waits for")
		case <-played.ctx.Done():
			t.Fatalf("the rating with every game played was stopped: %v", context.Cause(played.ctx))
		default:
		}
		close(release)
		<-settled
		if long.cause != errTargetReached || played.cause != nil {
			t.Errorf("causes: long rating %v, played one %v; want %v and nil", long.cause, played.cause, errTargetReached)
		}
		if got := context.Cause(ratingCtx); got != errTargetReached {
			t.Errorf("ratingCtx's cause = %v, want %v", got, errTargetReached)
		}
	})

	t.Run("outlasts the wait", func(t *testing.T) {
		d, _, stop := setup(20 * time.Millisecond)
		played := start(d, "draughts", 100, 100, nil) // never ends by itself
		d.finishRatings(stop, errTargetReached)
		if played.cause != errFinishTooLong {
			t.Errorf("cause = %v, want %v", played.cause, errFinishTooLong)
		}
	})

	t.Run("failed run", func(t *testing.T) {
		d, _, stop := setup(time.Hour)
		played := start(d, "draughts", 100, 100, nil)
		long := start(d, "chess", 1, 100000, nil)
		d.finishRatings(stop, errRunFailed)
		if played.cause != errRunFailed || long.cause != errRunFailed {
			t.Errorf("causes: played rating %v, long one %v; want %v for both", played.cause, long.cause, errRunFailed)
		}
	})
}

// TestNearlyDone checks the pace rule finishRatings waits by against
// figures worked out by hand.
func TestNearlyDone(t *testing.T) {
	for _, c := range []struct {
		done, total   int
		elapsed, wait time.Duration
		want          bool
	}{
		{0, 100, time.Millisecond, time.Hour, false}, // no pace yet
		{100, 100, time.Hour, 0, true},               // every game played: storing is left
		{90, 100, 90 * time.Second, 10 * time.Second, true},
		{90, 100, 91 * time.Second, 10 * time.Second, false},
		{50, 100, 10 * time.Second, 10 * time.Second, true},
		{5, 100, 188 * time.Second, 10 * time.Second, false}, // the chess rating
	} {
		if got := nearlyDone(c.done, c.total, c.elapsed, c.wait); got != c.want {
			t.Errorf("nearlyDone(%d, %d, %v, %v) = %v, want %v", c.done, c.total, c.elapsed, c.wait, got, c.want)
		}
	}
}

// TestRateCommand checks the command a stopped rating's log line gives,
// and its quoting of paths a shell would split.
func TestRateCommand(t *testing.T) {
	cfg := DefaultConfig()
	for _, c := range []struct {
		db, ladder, engine string
		want               string
	}{
		{"r.db", "", "", "evolved rate --db r.db --game chess --generation 3 --games 100"},
		{"/var/lib/my runs/r.db", "", "", `evolved rate --db '/var/lib/my runs/r.db' --game chess --generation 3 --games 100`},
		{"it's.db", "/etc/l.toml", "/opt/sf", `evolved rate --db 'it'\''s.db' --game chess --generation 3 --games 100 --ladder /etc/l.toml --engine /opt/sf`},
	} {
		cfg.DB, cfg.Jobs.RatingEngine, cfg.Jobs.RatingLadders = c.db, c.engine, nil
		if c.ladder != "" {
			cfg.Jobs.RatingLadders = map[string]string{"chess": c.ladder}
		}
		if got := rateCommand(cfg, "chess", 3); got != c.want {
			t.Errorf("rateCommand(db %q, ladder %q, engine %q) = %s, want %s", c.db, c.ladder, c.engine, got, c.want)
		}
	}
}

// TestInterruptedRatingIsRedone ends a run at its target while it rates
// generation 0 (the rating is stopped and stores nothing), then resumes
// it: the resumed daemon rates generation 0's champion first.
func TestInterruptedRatingIsRedone(t *testing.T) {
	dir := t.TempDir()
	cfg := fastDraughts()
	cfg.DB = filepath.Join(dir, "evolved.db")
	cfg.Generations = 2
	cfg.Jobs.RatingEvery, cfg.Jobs.RatingGames, cfg.Jobs.RatingMinutes = 2, 100000, 60
	cfg.Jobs.RatingLadders = map[string]string{"draughts": smallDraughtsLadder(t, dir)}
	first, firstLogs := runLogged(t, cfg, 0)
	if rs, _ := first.db.Ratings(context.Background(), "draughts"); len(rs) != 0 {
		t.Fatalf("the interrupted rating stored %+v", rs)
	}
	if !strings.Contains(firstLogs.String(), "rating stopped: the run reached its generation target") {
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
// deferred (or skipped while the first still runs), none played. The
// claim holds at any length: 10 generations by default, 40 with the long
// tests.
func TestRatingsKeepToTheirShare(t *testing.T) {
	dir := t.TempDir()
	cfg := fastDraughts()
	cfg.DB = filepath.Join(dir, "evolved.db")
	cfg.Generations = 10
	if longtest.Enabled() {
		cfg.Generations = 40
	}
	due := (cfg.Generations - 2) / 2 // generations 2, 4, ... before the last
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
	if deferred == 0 || deferred+skipped != due {
		t.Errorf("%d due ratings deferred and %d skipped after generation 0's, want %d in all and some deferred\n%s", deferred, skipped, due, logs.String())
	}
	// A restart inside the wait neither redoes the deferred rating of the
	// last due generation nor rates the next due one.
	d.Close()
	cfg.Generations += 3
	d, logs = runLogged(t, cfg, 0)
	if rs, _ := d.db.Ratings(context.Background(), "draughts"); len(rs) != 1 {
		t.Errorf("after a restart inside the wait: ratings %+v, want generation 0's alone\n%s", rs, logs.String())
	}
	if strings.Contains(logs.String(), "redoing") || !strings.Contains(logs.String(), "rating deferred") {
		t.Errorf("after a restart inside the wait the log should defer generation %d's rating and redo none:\n%s", cfg.Generations-3, logs.String())
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
