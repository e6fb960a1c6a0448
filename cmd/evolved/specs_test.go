package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"evolved/storage"
)

// TestLearnedTablesReadTheCommandsDatabase checks the command's side of
// meta:RUN[@FILE]: the named file or the default database ($EVOLVED_DB),
// read with the command's context, and errors that name the file and the
// run.
func TestLearnedTablesReadTheCommandsDatabase(t *testing.T) {
	const table = "RNBQKBNRPPPPPPPP################################pppppppprnbqkbnr\n6 0 5 2 - 1\n"
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "lab.db")
	db, err := storage.Open(ctx, path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	id, err := db.CreateMetaRun(ctx, storage.MetaRun{Method: "sa", Opponent: "random", Params: "{}", Created: time.Now()})
	if err == nil {
		err = db.AddMetaIterations(ctx, id, []storage.MetaIteration{{Iteration: 1}}, 1, "", table)
	}
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	if got, err := learnedTables(ctx)(path, id); err != nil || got != table {
		t.Errorf("the run of %s: %q, %v", path, got, err)
	}
	t.Setenv("EVOLVED_DB", path)
	if got, err := learnedTables(ctx)("", id); err != nil || got != table {
		t.Errorf("the run of the default database ($EVOLVED_DB): %q, %v", got, err)
	}
	if spec, err := chessParser(ctx)("meta:1"); err != nil || spec.Name != "meta:1" {
		t.Errorf("chessParser(meta:1): %+v, %v", spec, err)
	}

	missing := filepath.Join(dir, "missing.db")
	if _, err := learnedTables(ctx)(missing, id); !errors.Is(err, storage.ErrNoDatabase) || !strings.Contains(err.Error(), missing) {
		t.Errorf("a missing file: err = %v, want ErrNoDatabase naming it", err)
	}
	_, err = chessParser(ctx)("meta:9@" + path)
	if !errors.Is(err, storage.ErrNoMetaRun) || !strings.Contains(err.Error(), "meta:9@"+path) || !strings.Contains(err.Error(), "meta run 9") {
		t.Errorf("a missing run: err = %v, want ErrNoMetaRun naming the spec and the run", err)
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := learnedTables(canceled)(path, id); !errors.Is(err, context.Canceled) {
		t.Errorf("with the command's context canceled: err = %v, want context.Canceled", err)
	}
}
