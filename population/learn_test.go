package population_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"evolved/game/chess"
	"evolved/games"
	"evolved/lineage"
	"evolved/nnet"
	"evolved/population"
	"evolved/positions"
	"evolved/tournament"
)

// TestLearnInTheLoop steps a chess population of perspective nets that
// trains every 2 generations, storing each generation's data games as
// the daemon does, twice from the same seed: each generation plays its
// data games, the second trains the champion on the first's positions
// and the elite takes the step, kept in a compact form; the two runs
// are the same bit for bit.
func TestLearnInTheLoop(t *testing.T) {
	ctx := context.Background()
	cfg := population.DefaultConfig()
	cfg.Tournament = tournament.Config{Format: tournament.Blondie, Workers: 2}
	cfg.BaselineEvery = 0
	cfg.Hidden, cfg.Flags = []int{8}, nnet.Perspective|nnet.EvolvePST
	cfg.LearnEvery, cfg.LearnGames, cfg.LearnNodes = 2, 4, 150
	run := func() ([][]byte, []*population.Report[chess.Move]) {
		store, err := positions.Open(ctx, t.TempDir(), positions.Options{Game: "chess", DedupBits: 12})
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		env := population.Local[chess.Move, *chess.Game]{Kind: games.Chess(), Setup: games.Setup{Depth: 2, Nodes: 150, MaxMoves: 25},
			Positions: store}
		st, err := population.New("chess", nnet.NumChessInputs, cfg, 5)
		if err != nil {
			t.Fatal(err)
		}
		var states [][]byte
		var reps []*population.Report[chess.Move]
		for g := range 2 {
			next, rep, err := population.Step(ctx, env, cfg, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := store.Add(g, rep.Data); err != nil {
				t.Fatal(err)
			}
			if err := store.Commit(g); err != nil {
				t.Fatal(err)
			}
			states, reps = append(states, encode(t, next)), append(reps, rep)
			st = next
		}
		return states, reps
	}
	states, reps := run()
	for g, rep := range reps {
		if len(rep.Data) < 4*10 {
			t.Fatalf("generation %d: %d positions of data games, want at least 10 a game", g, len(rep.Data))
		}
		if (rep.Learn != nil) != (g == 1) {
			t.Fatalf("generation %d: trained %v", g, rep.Learn != nil)
		}
	}
	lr := reps[1].Learn
	if lr.Positions+lr.HeldOut == 0 || lr.Parent != reps[1].Champion.ID || lr.Records != len(reps[0].Data) {
		t.Fatalf("training %+v: want generation 0's %d positions, champion %d", lr, len(reps[0].Data), reps[1].Champion.ID)
	}
	var next population.State
	if err := json.Unmarshal(states[1], &next); err != nil {
		t.Fatal(err)
	}
	first := next.Agents[0]
	if first.Origin != population.Distilled || first.Recipe == nil || first.Recipe.Op != lineage.Distill {
		t.Fatalf("the next generation's first agent: origin %s, recipe %+v", first.Origin, first.Recipe)
	}
	weights := len(first.Net.Weights())
	// Stored sparse, each change would take 8 bytes; rounded, the step
	// takes its compact form, under a byte a weight of the net.
	if n, size := len(first.Recipe.Step), len(lineage.EncodeStep(first.Recipe.Step)); n < 100 || size > weights {
		t.Fatalf("the step changes %d of %d weights in %d bytes: want a compact form under a byte a weight", n, weights, size)
	}
	again, _ := run()
	for g := range states {
		if !bytes.Equal(states[g], again[g]) {
			t.Fatalf("generation %d: a second run from the same seed differs", g)
		}
	}
}
