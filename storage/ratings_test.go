package storage_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"evolved/storage"
)

func TestRatingsAndTheirView(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "r.db")
	db := mustOpen(t, path)
	st := newRun(t, db, 1)
	commitGenerations(t, db, st, 3)
	if _, ok, err := db.LatestRating(ctx, "draughts"); ok || err != nil {
		t.Fatalf("latest rating of an unrated run: ok %v, err %v", ok, err)
	}
	at := time.Date(2026, 11, 25, 1, 2, 3, 0, time.UTC)
	for _, r := range []storage.Rating{
		{Game: "draughts", Generation: 2, AgentID: 31, Scale: "s", TC: "untimed", Elo: 812.5, CI: 61.25, Games: 100, Wins: 40, Draws: 30, Losses: 30, Seed: 7, Seconds: 4.5, CreatedAt: at},
		{Game: "draughts", Generation: 0, AgentID: 3, Scale: "s", TC: "untimed", Elo: 640, CI: 70, Games: 100, Wins: 20, Draws: 30, Losses: 50, Seed: 7, Seconds: 4, CreatedAt: at},
		// A second rating of generation 2 on the same scale replaces the first.
		{Game: "draughts", Generation: 2, AgentID: 31, Scale: "s", TC: "untimed", Elo: 800, CI: 60, Games: 100, Wins: 39, Draws: 31, Losses: 30, Seed: 8, Seconds: 4.5, CreatedAt: at.Add(time.Hour)},
	} {
		if err := db.AddRating(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := db.Ratings(ctx, "draughts")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Generation != 0 || rs[1].Generation != 2 || rs[1].Elo != 800 || rs[1].Seed != 8 {
		t.Fatalf("ratings = %+v", rs)
	}
	// Hours: the generations' own times up to the rated one.
	sums := query(t, path, "SELECT SUM(seconds) / 3600.0 FROM generations WHERE generation <= 2")
	if got := query(t, path, "SELECT hours FROM rating_history WHERE generation = 2"); !slices.Equal(got, sums) {
		t.Errorf("view hours %v, want %v", got, sums)
	}
	latest, ok, err := db.LatestRating(ctx, "draughts")
	if err != nil || !ok || latest.Generation != 2 || !latest.CreatedAt.Equal(at.Add(time.Hour)) {
		t.Errorf("latest = %+v, %v, %v", latest, ok, err)
	}
	// The documented view, column by column.
	got := query(t, path, `SELECT printf('%s %d %g %g %d %s %s %s', game, generation, elo, ci, games, scale, tc, created_at)
		FROM rating_history ORDER BY generation`)
	want := []string{
		"draughts 0 640 70 100 s untimed 2026-11-25T01:02:03.000Z",
		"draughts 2 800 60 100 s untimed 2026-11-25T02:02:03.000Z",
	}
	if !slices.Equal(got, want) {
		t.Errorf("rating_history:\n%q\nwant\n%q", got, want)
	}
}

// TestRatingBesideTheWriter checks Options.Beside: with a writer holding
// the database (its lock, and a transaction open while the rating
// arrives), a rating is stored beside it once the writer commits, the
// writer sees it, and a second writer is still refused; a database no
// writer has opened, or none at all, is refused.
func TestRatingBesideTheWriter(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "r.db")
	db := mustOpen(t, path)
	st := newRun(t, db, 1)
	commitGenerations(t, db, st, 2)
	beside, err := storage.Open(ctx, path, storage.Options{Beside: true})
	if err != nil {
		t.Fatalf("open beside the writer: %v", err)
	}
	defer beside.Close()
	if _, err := storage.Open(ctx, path, storage.Options{}); !errors.Is(err, storage.ErrLocked) {
		t.Errorf("a second writer beside the first: %v, want ErrLocked", err)
	}
	// Another connection's transaction holds the write lock for a moment,
	// as a generation's commit does: the rating waits for it rather than
	// failing.
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	conn, err := raw.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	committed := make(chan error, 1)
	go func() {
		time.Sleep(300 * time.Millisecond)
		_, err := conn.ExecContext(ctx, "COMMIT")
		committed <- err
	}()
	r := storage.Rating{Game: "draughts", Generation: 1, AgentID: 16, Scale: "s", TC: "untimed", Elo: 700, CI: 50, Games: 20, Seed: 3, CreatedAt: time.Now()}
	if err := beside.AddRating(ctx, r); err != nil {
		t.Fatalf("add a rating beside the writer: %v", err)
	}
	if err := <-committed; err != nil {
		t.Fatal(err)
	}
	conn.Close()
	latest, ok, err := db.LatestRating(ctx, "draughts")
	if err != nil || !ok || latest.Generation != 1 || latest.Elo != 700 {
		t.Errorf("the writer reads %+v, %v, %v; want the rating stored beside it", latest, ok, err)
	}
	for name, p := range map[string]string{"none": filepath.Join(dir, "none.db"), "fresh": filepath.Join(dir, "fresh.db")} {
		if name == "fresh" {
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			f.Close()
		}
		if _, err := storage.Open(ctx, p, storage.Options{Beside: true}); !errors.Is(err, storage.ErrNoDatabase) {
			t.Errorf("%s: open beside = %v, want ErrNoDatabase", name, err)
		}
	}
}
