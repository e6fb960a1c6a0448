package population_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
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
	cfg := learnConfig()
	states, reps, stored := learnRun(t, cfg)
	for g, rep := range reps {
		if len(rep.Data) < 4*10 {
			t.Fatalf("generation %d: %d positions of data games, want at least 10 a game", g, len(rep.Data))
		}
		if (rep.Learn != nil) != (g == 1) {
			t.Fatalf("generation %d: trained %v", g, rep.Learn != nil)
		}
	}
	lr := reps[1].Learn
	if lr.Positions+lr.HeldOut == 0 || lr.Parent != reps[1].Champion.ID || lr.Records != stored {
		t.Fatalf("training %+v: want the %d positions generation 0 stored, champion %d", lr, stored, reps[1].Champion.ID)
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
	again, _, _ := learnRun(t, cfg)
	for g := range states {
		if !bytes.Equal(states[g], again[g]) {
			t.Fatalf("generation %d: a second run from the same seed differs", g)
		}
	}
}

// learnRun steps a chess population of cfg from seed 5 for two
// generations, storing each generation's data games as the daemon does,
// and returns each next state's JSON, each generation's report and the
// positions the first generation's data games added to the store: all but
// those the store already held (a position its games repeat).
func learnRun(t *testing.T, cfg population.Config) ([][]byte, []*population.Report[chess.Move], int) {
	t.Helper()
	ctx := context.Background()
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
	stored := 0
	for g := range 2 {
		next, rep, err := population.Step(ctx, env, cfg, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		added, err := store.Add(g, rep.Data)
		if err != nil {
			t.Fatal(err)
		}
		if g == 0 {
			if added == 0 || added > len(rep.Data) {
				t.Fatalf("generation 0 stored %d of its %d positions", added, len(rep.Data))
			}
			stored = added
		}
		if err := store.Commit(g); err != nil {
			t.Fatal(err)
		}
		states, reps = append(states, encode(t, next)), append(reps, rep)
		st = next
	}
	return states, reps, stored
}

// TestLearnExploreInTheLoop runs TestLearnInTheLoop's population with
// LearnExplore, twice, and without it: the second generation trains every
// elite member, each with its own settings (generation 0's, the
// defaults), on the same positions, and each keeps its own step; the
// champion's trained genome is the one the run without LearnExplore makes
// (same settings, same positions, same seed), and the first generation's
// genomes are that run's too (the settings' draws are streams apart); the
// two runs with it are the same bit for bit.
func TestLearnExploreInTheLoop(t *testing.T) {
	cfg := learnConfig()
	plain, _, _ := learnRun(t, cfg)
	cfg.LearnExplore = true
	states, reps, stored := learnRun(t, cfg)
	if reps[0].Learners != nil || len(reps[1].Learners) != cfg.Elite || reps[1].Learn != &reps[1].Learners[0] {
		t.Fatalf("trainings %d and %d, want none and %d (the champion's first)", len(reps[0].Learners), len(reps[1].Learners), cfg.Elite)
	}
	var was, off, next population.State
	for _, s := range []struct {
		b []byte
		v *population.State
	}{{states[0], &was}, {plain[1], &off}, {states[1], &next}} {
		if err := json.Unmarshal(s.b, s.v); err != nil {
			t.Fatal(err)
		}
	}
	var plain0 population.State
	if err := json.Unmarshal(plain[0], &plain0); err != nil {
		t.Fatal(err)
	}
	for i, a := range was.Agents {
		if !a.Net.Equal(plain0.Agents[i].Net) || a.Learner == nil || plain0.Agents[i].Learner != nil {
			t.Fatalf("generation 1's agent %d differs from the run without learners, or carries no settings", a.ID)
		}
	}
	steps := map[string]bool{}
	for k, lr := range reps[1].Learners {
		e := was.Agents[reps[1].Ranking[k]]
		a := next.Agents[k]
		if lr.Parent != e.ID || lr.Learner != *e.Learner || lr.Records != stored || lr.Positions == 0 || len(lr.HeldOutLoss) != 2 {
			t.Errorf("training %d: %+v; want elite %d with its settings %+v on the %d positions generation 0 stored", k, lr, e.ID, *e.Learner, stored)
		}
		if a.Origin != population.Distilled || !slices.Equal(a.Parents, []int64{e.ID}) || a.Recipe == nil || len(a.Recipe.Step) < 100 || *a.Learner != *e.Learner {
			t.Errorf("elite %d: origin %s, parents %v; want its own trained step of %d", k+1, a.Origin, a.Parents, e.ID)
			continue
		}
		steps[string(lineage.EncodeStep(a.Recipe.Step))] = true
	}
	if len(steps) != cfg.Elite {
		t.Errorf("%d different steps among the %d elite", len(steps), cfg.Elite)
	}
	if !next.Agents[0].Net.Equal(off.Agents[0].Net) {
		t.Errorf("the champion's trained genome differs from the one trained without learners")
	}
	again, _, _ := learnRun(t, cfg)
	for g := range states {
		if !bytes.Equal(states[g], again[g]) {
			t.Fatalf("generation %d: a second run with learners from the same seed differs", g)
		}
	}
}

// learnConfig returns the configuration of learnRun's populations: small
// perspective nets that train every 2 generations on 4 data games each.
func learnConfig() population.Config {
	cfg := population.DefaultConfig()
	cfg.Tournament = tournament.Config{Format: tournament.Blondie, Workers: 2}
	cfg.BaselineEvery = 0
	cfg.Hidden, cfg.Flags = []int{8}, nnet.Perspective|nnet.EvolvePST
	cfg.LearnEvery, cfg.LearnGames, cfg.LearnNodes = 2, 4, 150
	return cfg
}
