package storage_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"evolved/daemon"
	"evolved/nnet"
	"evolved/population"
	"evolved/storage"
)

// learnerOf returns the learning settings the test gives agent id: a
// function of the ID, as a genome keeps its settings for life, with
// values that a decimal form would not keep bit for bit.
func learnerOf(id int64) population.Learner {
	return population.Learner{Rate: 0.001 * (1 + float64(id)/3), Results: float64(id%7) / 13}
}

// withLearners returns a copy of st whose agents carry learnerOf their
// IDs (st itself may be a state other tests share).
func withLearners(st *population.State) *population.State {
	c := *st
	c.Agents = slices.Clone(st.Agents)
	for i := range c.Agents {
		l := learnerOf(c.Agents[i].ID)
		c.Agents[i].Learner = &l
	}
	return &c
}

// TestLearnersAreStored commits a run whose agents carry learning
// settings, under a retention that drops old members: each generation's
// population reads back with its settings bit for bit, learners holds a
// row for every genome row and none more (the dropped genomes' rows go
// with them), and an elite's row is written once.
func TestLearnersAreStored(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "evolved.db")
	db := mustOpen(t, path)
	st, err := population.New("draughts", nnet.NumDraughtsInputs, testConfig(), 9) // the run the package's tests share (step)
	if err != nil {
		t.Fatal(err)
	}
	run := storage.Run{Game: "draughts", Seed: 9, Config: "{}", CreatedAt: time.Now(), Steps: testConfig().Steps()}
	if err := db.CreateRun(ctx, run, daemon.PopulationRows(withLearners(st))); err != nil {
		t.Fatal(err)
	}
	keep := storage.Retention{Games: 2, Genomes: 1, Keyframes: 3, Members: 2}
	for range 6 {
		next, rep := step(t, "seed 9", species, testConfig(), st)
		if err := db.CommitGeneration(ctx, record(rep), daemon.PopulationRows(withLearners(next)), keep); err != nil {
			t.Fatal(err)
		}
		st = next
		p, err := db.LoadPopulation(ctx, "draughts")
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range daemon.PopulationState(p).Agents {
			if want := learnerOf(a.ID); a.Learner == nil || *a.Learner != want {
				t.Fatalf("generation %d: agent %d read back with settings %+v, want %+v", p.Generation, a.ID, a.Learner, want)
			}
		}
	}
	db.Close()
	stored := query(t, path, "SELECT agent_id, rate, results FROM learners ORDER BY agent_id")
	genomes := query(t, path, "SELECT agent_id FROM genomes ORDER BY agent_id")
	if len(stored) != len(genomes) || int64(len(genomes)) >= st.NextID {
		t.Fatalf("%d rows of learners for %d genome rows of %d genomes bred: want one a genome row, and some dropped", len(stored), len(genomes), st.NextID)
	}
	for i, row := range stored {
		id, _ := strconv.ParseInt(genomes[i], 10, 64)
		l := learnerOf(id)
		if want := fmt.Sprint(id, l.Rate, l.Results); row != want {
			t.Errorf("learners row %q, want %q", row, want)
		}
	}
}
