package player

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"evolved/metaheuristic"
)

// LearnedTables reads what a run of the chess lab stored: the learned
// table (as metaheuristic.Pheromones.Write writes it) of meta run id in
// the database at path, "" meaning the command's default database. The
// commands supply it, opening the database with their own context and
// settings, so that parsing a spec opens nothing by itself.
type LearnedTables func(path string, run int64) (string, error)

// ErrNeedsDatabase is wrapped, with ErrSpec, by the error of a spec that
// names a stored run (meta:RUN[@FILE]) given to a parser that has no
// LearnedTables: ParseChess.
var ErrNeedsDatabase = errors.New("player: spec names a database")

// ChessParser returns ParseChess with the specs that name a stored run,
// meta:RUN[@FILE], read through tables.
func ChessParser(tables LearnedTables) func(string) (ChessSpec, error) {
	return func(spec string) (ChessSpec, error) {
		if learned, ok, err := parseLearned(spec, tables); ok {
			return learned, err
		}
		return ParseChess(spec)
	}
}

// parseLearned reads the chess lab's specs: pheromones:FILE (a pheromone
// file) and meta:RUN[@FILE.db] (a stored run of the default database or of
// FILE.db, read through tables). Both play their table greedily.
func parseLearned(spec string, tables LearnedTables) (ChessSpec, bool, error) {
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
		if table.Len() == 0 { // it would play at random: surely not what was meant
			return ChessSpec{}, true, fmt.Errorf("%w %q: the pheromone file holds no position (an empty file, or the table of a run that learned nothing)", ErrSpec, spec)
		}
		return ChessSpec{Name: spec, New: func() ChessPlayer { return table.Player() }}, true, nil
	}
	rest, ok := strings.CutPrefix(spec, "meta:")
	if !ok {
		return ChessSpec{}, false, nil
	}
	runText, path, hasPath := strings.Cut(rest, "@")
	id, err := strconv.ParseInt(runText, 10, 64)
	if err != nil || id < 1 || hasPath && path == "" {
		return ChessSpec{}, true, fmt.Errorf("%w %q: want meta:RUN or meta:RUN@FILE.db, RUN a run number of evolved meta --list", ErrSpec, spec)
	}
	if tables == nil {
		return ChessSpec{}, true, fmt.Errorf("%w %q: it names a stored run, which only the commands that take a SPEC read (%w)", ErrSpec, spec, ErrNeedsDatabase)
	}
	learned, err := tables(path, id)
	if err != nil {
		return ChessSpec{}, true, fmt.Errorf("player %s: %w", spec, err)
	}
	if learned == "" {
		return ChessSpec{}, true, fmt.Errorf("player %s: run %d stored no learned table (it stopped before its first iteration)", spec, id)
	}
	table, err := metaheuristic.ReadPheromones(strings.NewReader(learned))
	if err != nil {
		return ChessSpec{}, true, fmt.Errorf("player %s: run %d's table: %w", spec, id, err)
	}
	return ChessSpec{Name: spec, New: func() ChessPlayer { return table.Player() }}, true, nil
}
