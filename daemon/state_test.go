package daemon

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"evolved/cluster"
	"evolved/nnet"
	"evolved/population"
	"evolved/storage"
)

// bredState returns generation 1 of a small draughts run as Step could
// have bred it from generation 0 (smallRun's): an elite, a crossover child,
// a mutant and a random agent, and generation 0's champion without its
// net.
func bredState(t *testing.T, gen0 *population.State) *population.State {
	t.Helper()
	child, err := nnet.Random([]int{nnet.NumDraughtsInputs, 4, 1}, 0, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	return &population.State{Game: gen0.Game, Seed: gen0.Seed, Generation: 1, NextID: gen0.NextID + 3,
		Agents: []population.Agent{
			{ID: 2, Net: gen0.Agents[2].Net, Origin: population.Elite, Parents: []int64{2}, PastPoints: 7, PastGames: 4},
			{ID: gen0.NextID, Net: child, Origin: population.Crossover, Parents: []int64{2, 0}, Node: &nnet.Node{Layer: 1, Index: 3}},
			{ID: gen0.NextID + 1, Net: gen0.Agents[1].Net.Quieted(), Origin: population.Mutation, Parents: []int64{1}},
			{ID: gen0.NextID + 2, Net: gen0.Agents[0].Net, Origin: population.Random},
		},
		Champions: []population.Champion{{Generation: 0, AgentID: 2, Points: 7}},
	}
}

// smallRun returns generation 0 of a draughts run of four agents.
func smallRun(t *testing.T) *population.State {
	t.Helper()
	cfg := population.DefaultConfig()
	cfg.Size, cfg.Elite, cfg.Crossovers, cfg.Mutants, cfg.Hidden = 4, 1, nil, []int{1, 1, 1}, []int{4}
	st, err := population.New("draughts", nnet.NumDraughtsInputs, cfg, 5)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestPopulationRowsRoundTrip(t *testing.T) {
	st := bredState(t, smallRun(t))
	rows := PopulationRows(st)
	if got := rows.Agents[0].Origin; got != storage.OriginElite {
		t.Errorf("the elite's row has origin %q, want storage.OriginElite %q", got, storage.OriginElite)
	}
	if c := rows.Champions[0]; c.Generation != 0 || c.AgentID != 2 || c.Fitness != 7 {
		t.Errorf("champion row %+v, want generation 0, agent 2, fitness 7", c)
	}
	back := PopulationState(rows)
	if !reflect.DeepEqual(back, st) {
		t.Errorf("state -> rows -> state differs:\n%+v\n%+v", back, st)
	}
	// An empty run's nil lists stay nil, as the state's JSON has them.
	empty := &population.State{Game: "chess", Seed: 3}
	if back := PopulationState(PopulationRows(empty)); !reflect.DeepEqual(back, empty) {
		t.Errorf("empty state -> rows -> state: %+v", back)
	}
}

// TestPopulationThroughTheDatabase stores generation 0 and a bred
// generation 1 and reads the state back as loadOrCreate does.
func TestPopulationThroughTheDatabase(t *testing.T) {
	ctx := context.Background()
	db, err := storage.Open(ctx, filepath.Join(t.TempDir(), "evolved.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	gen0 := smallRun(t)
	if err := db.CreateRun(ctx, storage.Run{Game: "draughts", Seed: gen0.Seed, Config: "{}", CreatedAt: time.Now()}, PopulationRows(gen0)); err != nil {
		t.Fatal(err)
	}
	next := bredState(t, gen0)
	next.Nodes = 1200 // the curriculum's check below raised it
	played := storage.Generation{Game: "draughts", Generation: 0, ChampionID: 2, CreatedAt: time.Now(),
		Points: []int{1, 2, 7, 0}, Wins: []int{0, 1, 3, 0}, Draws: []int{1, 0, 1, 0}, Losses: []int{3, 3, 0, 4}, Rank: []int{3, 2, 1, 4},
		Curriculum: &storage.CurriculumRecord{OpponentGeneration: 0, Wins: 1, Draws: 2, Losses: 3, Elo: -35, HalfWidth: 90, Nodes: 800, NextNodes: 1200}}
	if _, ok, err := db.Curriculum(ctx, "draughts"); ok || err != nil {
		t.Errorf("Curriculum() before any check: ok %v, %v; want false", ok, err)
	}
	if err := db.CommitGeneration(ctx, played, PopulationRows(next), storage.KeepEverything()); err != nil {
		t.Fatal(err)
	}
	want := storage.CurriculumSummary{Checks: 1, Raises: 1, LastRaise: 0, FirstNodes: 800, Nodes: 1200}
	if got, ok, err := db.Curriculum(ctx, "draughts"); !ok || err != nil || got != want {
		t.Errorf("Curriculum() = %+v, %v, %v; want %+v", got, ok, err, want)
	}
	p, err := db.LoadPopulation(ctx, "draughts")
	if err != nil {
		t.Fatal(err)
	}
	loaded := PopulationState(p)
	champion, err := db.ChampionNet("draughts")(ctx, 0)
	if err != nil || !slices.Equal(mustBinary(t, champion), mustBinary(t, gen0.Agents[2].Net)) {
		t.Errorf("generation 0's champion net read back: %v", err)
	}
	if a, b := mustStateJSON(t, loaded), mustStateJSON(t, next); !slices.Equal(a, b) {
		t.Errorf("generation 1 read back differs:\n%s\n%s", a, b)
	}
	for g, want := range []int64{0, 1200} {
		if nodes, err := db.CurriculumNodes(ctx, "draughts", g); err != nil || nodes != want {
			t.Errorf("CurriculumNodes(generation %d) = %d, %v; want %d", g, nodes, err, want)
		}
	}
	if !reflect.DeepEqual(loaded.Agents[1].Node, next.Agents[1].Node) || loaded.Agents[0].PastGames != 4 {
		t.Errorf("the crossover's node or the elite's past was lost: %+v %+v", loaded.Agents[1].Node, loaded.Agents[0])
	}
}

func mustBinary(t *testing.T, n *nnet.Net) []byte {
	t.Helper()
	b, err := n.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustStateJSON(t *testing.T, st *population.State) []byte {
	t.Helper()
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestWorkerRows(t *testing.T) {
	first := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	seen := []cluster.WorkerGames{{Name: "a", Games: 5, Refused: 1, First: first, Latest: first.Add(time.Minute)}, {Name: "b", Games: 2}}
	want := []storage.WorkerGames{{Name: "a", Games: 5, Refused: 1, First: first, Latest: first.Add(time.Minute)}, {Name: "b", Games: 2}}
	if got := workerRows(seen); !reflect.DeepEqual(got, want) {
		t.Errorf("workerRows = %+v, want %+v", got, want)
	}
}
