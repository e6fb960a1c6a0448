package storage_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"evolved/daemon"
	"evolved/population"
	"evolved/storage"
)

// TestBrowseReadsBackWhatAGenerationCommitted checks the generation page's
// queries against the population and report Step produced.
func TestBrowseReadsBackWhatAGenerationCommitted(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "evolved.db"))
	st := newRun(t, db, 7)
	first := st
	next, rep, err := population.Step(ctx, species, testConfig(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CommitGeneration(ctx, record(rep), daemon.PopulationRows(next), storage.KeepEverything()); err != nil {
		t.Fatal(err)
	}
	if n, err := db.Generations(ctx, "draughts"); err != nil || n != 1 {
		t.Fatalf("Generations = %d, %v; want 1", n, err)
	}

	members, err := db.Members(ctx, "draughts", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(members) != len(first.Agents) {
		t.Fatalf("%d members, want %d", len(members), len(first.Agents))
	}
	champions := 0
	for i, m := range members {
		a := first.Agents[i]
		if m.Slot != i || m.AgentID != a.ID || m.Origin != "random" || m.Born != 0 || len(m.Parents) != 0 {
			t.Errorf("member %d = %+v, want agent %d, random, born 0, no parents", i, m, a.ID)
		}
		if m.Points != rep.Results.Points[i] || m.Wins != rep.Results.Wins[i] || m.Losses != rep.Results.Losses[i] {
			t.Errorf("member %d: points %d wins %d losses %d, want %d %d %d", i, m.Points, m.Wins, m.Losses,
				rep.Results.Points[i], rep.Results.Wins[i], rep.Results.Losses[i])
		}
		if m.Rank == 1 {
			champions++
			if m.AgentID != rep.Champion.ID {
				t.Errorf("rank 1 is agent %d, the champion is %d", m.AgentID, rep.Champion.ID)
			}
		}
	}
	if champions != 1 {
		t.Errorf("%d members ranked 1, want 1", champions)
	}
	// The next generation's children name their parents, which are agents
	// of generation 0.
	next2, rep1, err := population.Step(ctx, species, testConfig(), next, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CommitGeneration(ctx, record(rep1), daemon.PopulationRows(next2), storage.KeepEverything()); err != nil {
		t.Fatal(err)
	}
	members1, err := db.Members(ctx, "draughts", 1)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(members))
	for i, m := range members {
		ids[i] = m.AgentID
	}
	made := 0
	for _, m := range members1 {
		switch m.Origin {
		case "elite":
			if !slices.Contains(ids, m.AgentID) {
				t.Errorf("elite %d of generation 1 was not in generation 0", m.AgentID)
			}
		case "mutation", "crossover":
			made++
			if m.Born != 1 || len(m.Parents) == 0 {
				t.Errorf("child %+v: want born 1 with parents", m)
			}
			for _, p := range m.Parents {
				if !slices.Contains(ids, p) {
					t.Errorf("child %d's parent %d was not in generation 0", m.AgentID, p)
				}
			}
		}
	}
	if made == 0 {
		t.Error("generation 1 has no children")
	}

	games, err := db.GameList(ctx, "draughts", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != len(rep.Results.Games) {
		t.Fatalf("%d games listed, want %d", len(games), len(rep.Results.Games))
	}
	g, err := db.StoredGameOf(ctx, "draughts", 0, games[3].Kind, games[3].Index)
	if err != nil {
		t.Fatal(err)
	}
	want := record(rep).Games[g.Index]
	if g.Moves != want.Moves || g.Result != want.Result || g.Reason != want.Reason || g.Start != "" {
		t.Errorf("stored game %d = %+v, want moves %q result %s reason %s", g.Index, g, want.Moves, want.Result, want.Reason)
	}

	for _, tc := range []struct {
		name string
		err  error
		call func() error
	}{
		{"members of an unplayed generation", storage.ErrNoGeneration, func() error { _, err := db.Members(ctx, "draughts", 2); return err }},
		{"members of a negative generation", storage.ErrNoGeneration, func() error { _, err := db.Members(ctx, "draughts", -1); return err }},
		{"games of another game's run", storage.ErrNoRun, func() error { _, err := db.GameList(ctx, "chess", 0); return err }},
		{"a game index never played", storage.ErrNoGame, func() error { _, err := db.StoredGameOf(ctx, "draughts", 0, "tournament", 100000); return err }},
		{"a kind never stored", storage.ErrNoGame, func() error { _, err := db.StoredGameOf(ctx, "draughts", 0, "ladder", 0); return err }},
	} {
		if err := tc.call(); !errors.Is(err, tc.err) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.err)
		}
	}
}
