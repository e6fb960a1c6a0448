package storage_test

import (
	"context"
	"sync"
	"testing"

	"evolved/game/draughts"
	"evolved/population"
)

// played is one generation of a test run: the report of its games and the
// population it bred.
type played struct {
	rep  *population.Report[draughts.Move]
	next *population.State
}

// runs holds the generations the package's test runs have played, by the
// run's name. A run is deterministic, and what these tests check is how
// the databases record it (retention, lineage, migrations), so the tests
// that record the same run play each generation once per test binary.
var runs = struct {
	sync.Mutex
	played map[string][]played
}{played: map[string][]played{}}

// step plays the generation after st of the run named name through env
// with cfg, or returns it as it was played before. Every state of a named
// run must come from the same start, through step.
func step(t *testing.T, name string, env population.Env[draughts.Move, *draughts.Game], cfg population.Config, st *population.State) (*population.State, *population.Report[draughts.Move]) {
	t.Helper()
	runs.Lock()
	defer runs.Unlock()
	gens := runs.played[name]
	if st.Generation < len(gens) {
		return gens[st.Generation].next, gens[st.Generation].rep
	}
	next, rep, err := population.Step(context.Background(), env, cfg, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Generation == len(gens) {
		runs.played[name] = append(gens, played{rep, next})
	}
	return next, rep
}
