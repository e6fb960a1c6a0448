package storage_test

import (
	"context"
	"path/filepath"
	"slices"
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

// TestGenerationWithoutLadder commits a generation that did not play the
// ladder (population.Config.LadderDue): its ladder_mean and improved are
// NULL, read back as no mean, not improved, no point of the ladder's
// curve, and no ladder_mean in its champion's agent file; the generation
// before, which played it, keeps its mean.
func TestGenerationWithoutLadder(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "evolved.db"))
	st, err := population.New("draughts", nnet.NumDraughtsInputs, testConfig(), 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CreateRun(ctx, storage.Run{Game: "draughts", Seed: 4, Config: `{"depth":3}`, CreatedAt: time.Now()}, daemon.PopulationRows(st)); err != nil {
		t.Fatal(err)
	}
	for gen := range 3 {
		next, rep, err := population.Step(ctx, species, testConfig(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		g := record(rep)
		if !g.LadderPlayed {
			t.Fatalf("generation %d did not play the ladder", gen)
		}
		if gen == 2 {
			g.Ladder, g.LadderPlayed, g.LadderMean, g.Improved = nil, false, 0, false
			g.Games = slices.DeleteFunc(g.Games, func(r storage.GameRecord) bool { return r.Kind == "ladder" })
		}
		if err := db.CommitGeneration(ctx, g, daemon.PopulationRows(next), storage.KeepEverything()); err != nil {
			t.Fatal(err)
		}
		st = next
	}
	champs, err := db.Champions(ctx, "draughts")
	if err != nil {
		t.Fatal(err)
	}
	if len(champs) != 3 || champs[1].LadderMean == nil || champs[2].LadderMean != nil || champs[2].Improved {
		t.Fatalf("champions %+v: want a ladder mean at generation 1 and none at 2", champs)
	}
	c, err := db.LoadCurves(ctx, "draughts")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Generations, []int{0, 1, 2}) || !slices.Equal(c.LadderGenerations, []int{0, 1}) ||
		len(c.LadderMean) != 2 || c.LadderMean[1] != *champs[1].LadderMean {
		t.Errorf("curves: generations %v, the ladder's %v with means %v; want 0-2 and 0-1 (%v at 1)", c.Generations, c.LadderGenerations, c.LadderMean, *champs[1].LadderMean)
	}
	for gen, want := range map[int]bool{1: true, 2: false} {
		f, err := db.ChampionAgent(ctx, "draughts", gen)
		if err != nil {
			t.Fatal(err)
		}
		var buf strings.Builder
		if err := agent.Write(&buf, f); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(buf.String(), `"ladder_mean"`); got != want || (f.Provenance.LadderMean != nil) != want {
			t.Errorf("generation %d's agent file holds a ladder_mean: %v, want %v", gen, got, want)
		}
	}
}
