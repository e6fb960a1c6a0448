package player

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"evolved/metaheuristic"
	"evolved/storage"
)

// parseLearned reads the chess lab's specs: pheromones:FILE (a pheromone
// file) and meta:RUN[@FILE.db] (a stored run of the default database or of
// FILE.db). Both play their table greedily.
func parseLearned(spec string) (ChessSpec, bool, error) {
	if path, ok := strings.CutPrefix(spec, "pheromones:"); ok {
		if path == "" {
			return ChessSpec{}, true, fmt.Errorf("%w %q: pheromones needs a file, as in pheromones:table.txt", ErrSpec, spec)
		}
		f, err := os.Open(path)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return ChessSpec{}, true, fmt.Errorf("%w %q: no such pheromone file", ErrSpec, spec)
			}
			return ChessSpec{}, true, fmt.Errorf("player %s: %w", spec, err)
		}
		defer f.Close()
		table, err := metaheuristic.ReadPheromones(f)
		if err != nil {
			return ChessSpec{}, true, fmt.Errorf("player %s: %w", spec, err)
		}
		return ChessSpec{Name: spec, New: func() ChessPlayer { return table.Player() }}, true, nil
	}
	rest, ok := strings.CutPrefix(spec, "meta:")
	if !ok {
		return ChessSpec{}, false, nil
	}
	runText, path, hasPath := strings.Cut(rest, "@")
	if !hasPath {
		path = storage.DefaultPath()
	}
	id, err := strconv.ParseInt(runText, 10, 64)
	if err != nil || id < 1 || path == "" {
		return ChessSpec{}, true, fmt.Errorf("%w %q: want meta:RUN or meta:RUN@FILE.db, RUN a run number of evolved meta --list", ErrSpec, spec)
	}
	ctx := context.Background()
	db, err := storage.Open(ctx, path, storage.Options{ReadOnly: true})
	if err != nil {
		return ChessSpec{}, true, fmt.Errorf("player %s: %w", spec, err)
	}
	defer db.Close()
	run, _, err := db.LoadMetaRun(ctx, id)
	if err != nil {
		return ChessSpec{}, true, fmt.Errorf("player %s: %w", spec, err)
	}
	if run.Learned == "" {
		return ChessSpec{}, true, fmt.Errorf("player %s: run %d stored no learned table (it stopped before its first iteration)", spec, id)
	}
	table, err := metaheuristic.ReadPheromones(strings.NewReader(run.Learned))
	if err != nil {
		return ChessSpec{}, true, fmt.Errorf("player %s: run %d's table: %w", spec, id, err)
	}
	return ChessSpec{Name: spec, New: func() ChessPlayer { return table.Player() }}, true, nil
}
