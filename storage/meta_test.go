package storage_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"evolved/storage"
)

func TestMetaRuns(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "meta.db")
	db := mustOpen(t, path)
	created := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	id, err := db.CreateMetaRun(ctx, storage.MetaRun{Method: "sa", Opponent: "material:1",
		Start: "k7/8/2K5/8/8/8/8/7R w - - 0 1", Params: `{"turns":10}`, Seed: 1 << 63, Created: created})
	if err != nil {
		t.Fatal(err)
	}
	its := []storage.MetaIteration{{1, 3, 1.5, 0, 1, 0.01}, {2, 1004, 200.5, 1, 1, 0.02}}
	if err := db.AddMetaIterations(ctx, id, its[:1], 3, "pgn1", ""); err != nil {
		t.Fatal(err)
	}
	if err := db.AddMetaIterations(ctx, id, its[1:], 1004, "pgn2", "table"); err != nil {
		t.Fatal(err)
	}
	// A run that stops here keeps its iterations, best line and table.
	run, got, err := db.LoadMetaRun(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !run.Finished.IsZero() || run.Iterations != 2 || run.BestCost != 1004 || run.BestPGN != "pgn2" || run.Learned != "table" ||
		run.Seed != 1<<63 || !run.Created.Equal(created) || len(got) != 2 || got[1] != its[1] {
		t.Fatalf("LoadMetaRun = %+v, %+v", run, got)
	}
	if err := db.AddMetaIterations(ctx, id, nil, 0, "", ""); err != nil {
		t.Fatal(err)
	}
	if err := db.FinishMetaRun(ctx, id, 12.5, created.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	runs, err := db.MetaRuns(ctx)
	if err != nil || len(runs) != 1 || runs[0].Seconds != 12.5 || !runs[0].Finished.Equal(created.Add(time.Minute)) || runs[0].Learned != "table" {
		t.Fatalf("MetaRuns = %+v, %v", runs, err)
	}
	if _, _, err := db.LoadMetaRun(ctx, 99); !errors.Is(err, storage.ErrNoMetaRun) {
		t.Errorf("LoadMetaRun(99) = %v, want ErrNoMetaRun", err)
	}
	if err := db.AddMetaIterations(ctx, 99, its[:1], 1, "", ""); err == nil {
		t.Errorf("AddMetaIterations to no run succeeded")
	}
}

// TestMetaRunStates follows a lab run's states: queued, running, stopped
// with its reason, and a finished run that no later state changes; a
// writer that opens the database marks what a killed process left queued
// or running as stopped.
func TestMetaRunStates(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "meta.db"))
	create := func(state string) int64 {
		t.Helper()
		id, err := db.CreateMetaRun(ctx, storage.MetaRun{Method: "aco", Opponent: "random", Start: "8/8/8/8/8/8/8/8 w - - 0 1",
			Params: "{}", Created: time.Now(), State: state})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	state := func(id int64) (string, string) {
		t.Helper()
		r, _, err := db.LoadMetaRun(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return r.State, r.Failure
	}
	queued, running, done := create(storage.MetaQueued), create(""), create("")
	if s, _ := state(queued); s != storage.MetaQueued {
		t.Errorf("queued run reads %q", s)
	}
	if s, _ := state(running); s != storage.MetaRunning {
		t.Errorf("a run created without a state reads %q, want running", s)
	}
	if err := db.SetMetaRunState(ctx, running, storage.MetaStopped, "stopped from the web page", 3); err != nil {
		t.Fatal(err)
	}
	if s, why := state(running); s != storage.MetaStopped || why != "stopped from the web page" {
		t.Errorf("stopped run reads %q %q", s, why)
	}
	if err := db.FinishMetaRun(ctx, done, 1, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := db.SetMetaRunState(ctx, done, storage.MetaFailed, "late", -1); err == nil {
		t.Errorf("a finished run's state was changed")
	}
	if err := db.SetMetaRunState(ctx, done, storage.MetaFinished, "", -1); err == nil {
		t.Errorf("SetMetaRunState took finished")
	}
	n, err := db.MarkInterruptedMetaRuns(ctx, "the server stopped")
	if err != nil || n != 1 {
		t.Fatalf("MarkInterruptedMetaRuns = %d, %v; want the one queued run", n, err)
	}
	if s, why := state(queued); s != storage.MetaStopped || why != "the server stopped" {
		t.Errorf("interrupted queued run reads %q %q", s, why)
	}
	if s, _ := state(done); s != storage.MetaFinished {
		t.Errorf("finished run reads %q", s)
	}
}
