package storage_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"evolved/storage"
)

// TestWorkerRecords checks that RecordWorkers adds to a worker's record
// (games, refused, the latest time; the first time kept) and that Workers
// lists the most recently seen first with its average rate.
func TestWorkerRecords(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "w.db"))
	at := time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC)
	if ws, err := db.Workers(ctx); err != nil || len(ws) != 0 {
		t.Fatalf("a new database's workers: %v, %v", ws, err)
	}
	if err := db.RecordWorkers(ctx, []storage.WorkerGames{
		{Name: "a", Games: 10, First: at, Latest: at.Add(10 * time.Second)},
		{Name: "b", Games: 3, Refused: 2, First: at, Latest: at.Add(5 * time.Second)},
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordWorkers(ctx, []storage.WorkerGames{
		{Name: "b", Games: 7, Refused: 1, First: at.Add(20 * time.Second), Latest: at.Add(40 * time.Second)},
	}); err != nil {
		t.Fatal(err)
	}
	ws, err := db.Workers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []storage.Worker{
		{Name: "b", Games: 10, Refused: 3, FirstSeen: at, LastSeen: at.Add(40 * time.Second), GamesPerSecond: 0.25},
		{Name: "a", Games: 10, FirstSeen: at, LastSeen: at.Add(10 * time.Second), GamesPerSecond: 1},
	}
	if len(ws) != len(want) {
		t.Fatalf("workers = %+v, want %+v", ws, want)
	}
	for i := range want {
		if ws[i] != want[i] {
			t.Errorf("worker %d = %+v, want %+v", i, ws[i], want[i])
		}
	}
}
