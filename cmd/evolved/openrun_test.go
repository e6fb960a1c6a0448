package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"evolved/storage"
)

// TestOpenRun checks the errors of openRun, which every command that reads
// a run from a database opens it with: a missing file names the command
// and wraps storage.ErrNoDatabase; an empty database says how to start a
// run and leaves nothing open; a --game given is checked and lower-cased.
func TestOpenRun(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	if db, _, err := openRun(ctx, "show", missing, ""); db != nil || !errors.Is(err, storage.ErrNoDatabase) || !strings.HasPrefix(err.Error(), "show: ") {
		t.Errorf("openRun(missing) = %v, %v; want no database and a show: error wrapping storage.ErrNoDatabase", db, err)
	}

	path := emptyDatabase(t, dir)
	want := "plot: " + path + " holds no run yet (start one with `evolved run --db " + path + "`)"
	if db, _, err := openRun(ctx, "plot", path, ""); db != nil || err == nil || err.Error() != want {
		t.Errorf("openRun(empty) = %v, %v; want no database and %q", db, err, want)
	}
	var usage *usageError
	if db, _, err := openRun(ctx, "plot", path, "go"); db != nil || !errors.As(err, &usage) {
		t.Errorf("openRun(--game go) = %v, %v; want no database and a usage error", db, err)
	}
	db, game, err := openRun(ctx, "plot", path, "Chess")
	if err != nil || game != "chess" {
		t.Fatalf("openRun(--game Chess) = %q, %v; want chess", game, err)
	}
	db.Close()
}

// TestOpenChampion checks that openChampion names the command when the
// database is missing, gives -1 (the latest) for an unset mark, and that
// a mark in hours asks the run's champions, here of a game the database
// has no run of, with nothing left open.
func TestOpenChampion(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var latest generationMark
	if db, _, _, err := openChampion(ctx, "export", filepath.Join(dir, "missing.db"), "", &latest); db != nil || !errors.Is(err, storage.ErrNoDatabase) || !strings.HasPrefix(err.Error(), "export: ") {
		t.Errorf("openChampion(missing) = %v, %v; want no database and an export: error wrapping storage.ErrNoDatabase", db, err)
	}

	path := emptyDatabase(t, dir)
	db, game, generation, err := openChampion(ctx, "show", path, "draughts", &latest)
	if err != nil || game != "draughts" || generation != -1 {
		t.Fatalf("openChampion(unset mark) = %q, %d, %v; want draughts, -1 (the latest), nil", game, generation, err)
	}
	db.Close()
	var hours generationMark
	if err := hours.Set("2h"); err != nil {
		t.Fatal(err)
	}
	if db, _, _, err := openChampion(ctx, "show", path, "draughts", &hours); db != nil || !errors.Is(err, storage.ErrNoRun) {
		t.Errorf("openChampion(--generation 2h) = %v, %v; want no database and an error wrapping storage.ErrNoRun", db, err)
	}
}

// emptyDatabase creates an evolved database without a run in dir and
// returns its path.
func emptyDatabase(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "evolved.db")
	db, err := storage.Open(context.Background(), path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	return path
}
