package lab_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"evolved/lab"
	"evolved/player"
	"evolved/storage"
)

func TestHistory(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"", nil},
		{"e2e4 e7e5", []string{"e2e4", "e7e5"}},
		{"1. e4 e5 2. Nf3 {the main line} Nc6 3.Bb5 a6!? 1-0", []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"}},
		{"1.e4, 1... c5\n2. Nf3 *", []string{"e4", "c5", "Nf3"}},
	} {
		got, err := lab.History(c.text)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("History(%q) = %q, %v; want %q", c.text, got, err, c.want)
		}
	}
	for _, text := range []string{"1. e4 {open", "e4 } e5"} {
		var se *lab.SettingError
		if _, err := lab.History(text); !errors.As(err, &se) || se.Name != "from" {
			t.Errorf("History(%q) = %v, want a SettingError naming from", text, err)
		}
	}
}

func TestDecodeSettings(t *testing.T) {
	s, given, err := lab.DecodeSettings(strings.NewReader(`{"method":"aco","opponent":"material:1","iterations":5,"ants":4}`))
	if err != nil || s.Method != "aco" || s.Iterations != 5 || s.Ants != 4 || s.Turns != lab.DefaultSettings().Turns ||
		!given["ants"] || given["turns"] {
		t.Fatalf("DecodeSettings = %+v, %v, %v", s, given, err)
	}
	for body, name := range map[string]string{
		`{"method":"aco","antz":4}`:   "antz",
		`{"iterations":"five"}`:       "iterations",
		`{"seed":-1}`:                 "seed",
		`[1,2]`:                       "",
		`{"method":"aco"} {"more":1}`: "",
	} {
		_, _, err := lab.DecodeSettings(strings.NewReader(body))
		var se *lab.SettingError
		if !errors.Is(err, lab.ErrSetting) || name != "" && (!errors.As(err, &se) || se.Name != name) {
			t.Errorf("DecodeSettings(%s) = %v, want an error naming %q", body, err, name)
		}
	}
}

// TestNewPlanNamesTheSetting checks that every setting out of range is
// refused by its flag name, the limits included.
func TestNewPlanNamesTheSetting(t *testing.T) {
	lim := lab.Limits{MaxIterations: 1000, MaxTurns: 50, MaxGames: 100, MaxWorkers: 2, MaxHistory: 4}
	for _, c := range []struct {
		edit func(*lab.Settings)
		name string
	}{
		{func(s *lab.Settings) { s.Method = "pso" }, "method"},
		{func(s *lab.Settings) { s.Opponent = "" }, "opponent"},
		{func(s *lab.Settings) { s.Opponent = "material:x" }, "opponent"},
		{func(s *lab.Settings) { s.Iterations = 1001 }, "iterations"},
		{func(s *lab.Settings) { s.Turns = 0 }, "turns"},
		{func(s *lab.Settings) { s.Ants = 101 }, "ants"},
		{func(s *lab.Settings) { s.Dissipation = 1.5 }, "dissipation"},
		{func(s *lab.Settings) { s.Workers = 3 }, "workers"},
		{func(s *lab.Settings) { s.Weights = "z=1" }, "weights"},
		{func(s *lab.Settings) { s.FEN = "8/8/8 w" }, "fen"},
		{func(s *lab.Settings) { s.From = "e4 e5 Nf3 Nc6 Bb5" }, "from"},
		{func(s *lab.Settings) { s.From = "e4 e4" }, "from"},
		{func(s *lab.Settings) { s.From = "f3 e5 g4 Qh4#" }, "from"}, // the game is over
	} {
		s := lab.DefaultSettings()
		s.Method, s.Opponent = "aco", "random"
		c.edit(&s)
		_, err := lab.NewPlan(s, nil, player.ParseChess, lim)
		var se *lab.SettingError
		if !errors.As(err, &se) || se.Name != c.name {
			t.Errorf("%+v: NewPlan = %v, want a SettingError naming %q", s, err, c.name)
		}
	}
	s := lab.DefaultSettings()
	s.Method, s.Opponent, s.Population = "sa", "random", 7
	if _, err := lab.NewPlan(s, map[string]bool{"population": true}, player.ParseChess, lim); err == nil ||
		err.Error() != "population is for method ga, not sa" {
		t.Errorf("a GA setting with SA: %v", err)
	}
	s.From = "1. e4 e5 2. Nf3"
	p, err := lab.NewPlan(s, nil, player.ParseChess, lim)
	if err != nil || !slices.Equal(p.Params.From, []string{"e2e4", "e7e5", "g1f3"}) ||
		p.Start != "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2" {
		t.Errorf("NewPlan from a SAN history = %+v, %v", p, err)
	}
}

// TestRunStoresItsEnd runs a small plan to its end and another until it
// is stopped: both are stored with their state, iterations and best line.
func TestRunStoresItsEnd(t *testing.T) {
	ctx := context.Background()
	db := openLab(t)
	s := lab.DefaultSettings()
	s.Method, s.Opponent, s.Iterations, s.Ants, s.Turns = "aco", "material:1", 3, 4, 5
	plan, id := queued(t, db, s, lab.Limits{MaxWorkers: 1})
	var seen []lab.Progress
	res, err := plan.Run(ctx, db, id, func(p lab.Progress) { seen = append(seen, p) })
	if err != nil || len(seen) != 3 || seen[2].Iteration != 3 || seen[2].Games != 12 || seen[0].Best == nil || seen[2].ETASeconds != 0 {
		t.Fatalf("Run = %v; progress %+v", err, seen)
	}
	r, its, err := db.LoadMetaRun(ctx, id)
	if err != nil || r.State != storage.MetaFinished || len(its) != 3 || r.BestCost != res.Best.Cost || r.BestPGN == "" || r.Learned == "" {
		t.Fatalf("stored run %+v, %d iterations, %v", r, len(its), err)
	}

	s.Iterations = 1_000_000
	plan, id = queued(t, db, s, lab.Limits{MaxWorkers: 1})
	stopCtx, stop := context.WithCancelCause(ctx)
	why := errors.New("stopped from the lab page")
	_, err = plan.Run(stopCtx, db, id, func(p lab.Progress) {
		if p.Iteration == 5 {
			stop(why)
		}
	})
	if !errors.Is(err, lab.ErrStopped) {
		t.Fatalf("stopped run: %v", err)
	}
	r, its, err = db.LoadMetaRun(ctx, id)
	if err != nil || r.State != storage.MetaStopped || r.Failure != why.Error() || len(its) < 5 || r.BestPGN == "" || r.Learned == "" {
		t.Fatalf("stopped run stored as %+v, %d iterations, %v", r, len(its), err)
	}
}

// TestRunStoppedBeforeItStarts runs a plan whose context has already
// ended: it is stored as stopped, with the cause, not left queued.
func TestRunStoppedBeforeItStarts(t *testing.T) {
	ctx := context.Background()
	db := openLab(t)
	s := lab.DefaultSettings()
	s.Method, s.Opponent, s.Iterations = "sa", "random", 10
	plan, id := queued(t, db, s, lab.Limits{})
	stopped, stop := context.WithCancelCause(ctx)
	stop(errors.New("stopped from the lab page"))
	if _, err := plan.Run(stopped, db, id, nil); !errors.Is(err, lab.ErrStopped) {
		t.Fatalf("Run = %v, want ErrStopped", err)
	}
	if r, _, err := db.LoadMetaRun(ctx, id); err != nil || r.State != storage.MetaStopped || r.Failure != "stopped from the lab page" {
		t.Errorf("stored as %+v, %v", r, err)
	}
}

// openLab opens a fresh lab database for a test.
func openLab(t *testing.T) *storage.DB {
	t.Helper()
	db, err := storage.Open(context.Background(), filepath.Join(t.TempDir(), "lab.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// queued plans s within lim and stores it as a queued run of db.
func queued(t *testing.T, db *storage.DB, s lab.Settings, lim lab.Limits) (lab.Plan, int64) {
	t.Helper()
	plan, err := lab.NewPlan(s, nil, player.ParseChess, lim)
	if err != nil {
		t.Fatal(err)
	}
	id, err := plan.Create(context.Background(), db, storage.MetaQueued, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return plan, id
}
