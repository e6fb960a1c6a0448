package storage_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"evolved/agent"
	"evolved/daemon"
	"evolved/nnet"
	"evolved/population"
	"evolved/storage"
)

// TestChampionAgent checks the agent file of a stored champion: its net,
// the run's stored search and its provenance; and that a run whose stored
// settings have no depth is refused, naming the game.
func TestChampionAgent(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "evolved.db"))
	st, err := population.New("draughts", nnet.NumDraughtsInputs, testConfig(), 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CreateRun(ctx, storage.Run{Game: "draughts", Seed: 4, Config: `{"depth":3,"nodes":500}`, CreatedAt: time.Now()}, daemon.PopulationRows(st)); err != nil {
		t.Fatal(err)
	}
	commitGenerations(t, db, st, 2)
	f, err := db.ChampionAgent(ctx, "draughts", -1)
	if err != nil {
		t.Fatal(err)
	}
	c, err := db.Champion(ctx, "draughts", 1)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := f.Net.MarshalBinary()
	b, _ := c.Net.MarshalBinary()
	if f.Game != "draughts" || string(a) != string(b) || f.Search != (agent.Search{Depth: 3, Nodes: 500, CaptureExtension: true}) ||
		f.Provenance.RunSeed != 4 || f.Provenance.Generation != 1 || f.Provenance.AgentID != c.AgentID || f.Provenance.Fitness != c.Fitness {
		t.Errorf("ChampionAgent = %+v, %+v; the champion is %+v", f.Search, f.Provenance, c.ChampionRow)
	}

	other := mustOpen(t, filepath.Join(t.TempDir(), "old.db"))
	commitGenerations(t, other, newRun(t, other, 4), 1) // stored settings "{}"
	if _, err := other.ChampionAgent(ctx, "draughts", 0); err == nil || !strings.Contains(err.Error(), "the stored draughts run has no search depth") {
		t.Errorf("a run without a stored depth: err = %v", err)
	}
}
