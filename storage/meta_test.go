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
