package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evolved/agent"
	"evolved/nnet"
)

// TestDistillCommand distills a chess agent on the games of a short match
// and checks the file it writes: the same agent but for its piece values,
// tables and terms, which moved. The errors name what is wrong.
func TestDistillCommand(t *testing.T) {
	dir := t.TempDir()
	net, err := nnet.RandomChess([]int{8}, nnet.EvolvePST|nnet.EvolveTerms|nnet.EvolveMoreTerms, rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	saveAgent(t, filepath.Join(dir, "a.json"), agent.File{Game: "chess", Net: net, Search: agent.Search{Depth: 2}})
	writeAgentFile(t, dir, "d.json", "draughts", nnet.NumDraughtsInputs)
	if out, err := evolvedIn(t, dir, "match", "--game", "chess", "--a", "a.json", "--b", "material:1", "--games", "8",
		"--max-moves", "30", "--pgn", "g.pgn").CombinedOutput(); err != nil {
		t.Fatalf("match: %v\n%s", err, out)
	}
	out, err := evolvedIn(t, dir, "distill", "--agent", "a.json", "--games", "g.pgn", "-o", "b.json", "--nodes", "100", "--steps", "20").Output()
	if err != nil {
		t.Fatalf("distill: %v", err)
	}
	if !strings.Contains(string(out), "distilled a.json into b.json") || !strings.Contains(string(out), "of 8 games, searches of 100 nodes") {
		t.Errorf("output:\n%s", out)
	}
	b, err := readAgentFile(filepath.Join(dir, "b.json"))
	if err != nil {
		t.Fatal(err)
	}
	wa, wb := net.Weights(), b.Net.Weights()
	linear := nnet.NumPieceValues + nnet.NumPSTValues + net.TermCount()
	moved := 0
	for i := range wa {
		if wa[i] != wb[i] {
			if i < len(wa)-linear {
				t.Fatalf("weight %d of the net moved", i)
			}
			moved++
		}
	}
	if moved < 20 || b.Search != (agent.Search{Depth: 2}) {
		t.Errorf("%d linear weights moved, search %+v", moved, b.Search)
	}

	// The games' results, read from the PGN, change the fit when they
	// have a share of the targets.
	if out, err := evolvedIn(t, dir, "distill", "--agent", "a.json", "--games", "g.pgn", "-o", "r.json", "--nodes", "100", "--steps", "20", "--results", "1").CombinedOutput(); err != nil {
		t.Fatalf("distill --results 1: %v\n%s", err, out)
	}
	if r, err := readAgentFile(filepath.Join(dir, "r.json")); err != nil || r.Net.Equal(b.Net) {
		t.Errorf("distill --results 1 gave the agent of --results 0 (%v)", err)
	}

	for args, want := range map[string]string{
		"--agent d.json --games g.pgn -o c.json":               "g.pgn",
		"--agent a.json --games g.pgn -o c.json --results 1.5": "--results must be 0 to 1",
		"--agent a.json --games g.pgn -o c.json --lambda 2":    "--lambda must be 0 to 1",
		"--agent a.json --games none.pgn -o c.json":            "none.pgn",
		"--agent a.json --games a.json -o c.json":              "a.json",
		"--agent a.json --games g.pgn":                         "give --agent FILE, --games FILE and -o FILE",
		"--agent a.json --games g.pgn -o c.json --nodes 0":     "--nodes must be 1 to",
		"--agent a.json --games g.pgn -o c.json --steps -1":    "--steps must be 1 to 100000",
		"--agent missing.json --games g.pgn -o c.json":         "missing.json",
		"--agent a.json --games g.pgn -o c.json --rate 2":      "--rate must be 0 to 1",
	} {
		_, err := evolvedIn(t, dir, append([]string{"distill"}, strings.Fields(args)...)...).Output()
		e, ok := err.(*exitError)
		if !ok || !strings.Contains(string(e.Stderr), want) {
			t.Errorf("distill %s: %v, want an error naming %q", args, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "c.json")); !os.IsNotExist(err) {
		t.Errorf("a failed distill wrote c.json (%v)", err)
	}
}

// TestDistillCommandDraughts distills a draughts agent on the games of a
// short match: every layer of its net may move, and its king value and
// search do not.
func TestDistillCommandDraughts(t *testing.T) {
	dir := t.TempDir()
	net, err := nnet.Random([]int{nnet.NumDraughtsInputs, 10, 4, 1}, nnet.PieceDiff, rand.New(rand.NewPCG(7, 8)))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "d.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := agent.Write(f, agent.File{Game: "draughts", Net: net, Search: agent.Search{Depth: 4}}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if out, err := evolvedIn(t, dir, "match", "--game", "draughts", "--a", "d.json", "--b", "material:2", "--games", "6",
		"--pgn", "g.pdn").CombinedOutput(); err != nil {
		t.Fatalf("match: %v\n%s", err, out)
	}
	out, err := evolvedIn(t, dir, "distill", "--agent", "d.json", "--games", "g.pdn", "-o", "e.json", "--nodes", "100").Output()
	if err != nil {
		t.Fatalf("distill: %v", err)
	}
	if !strings.Contains(string(out), "distilled d.json into e.json") || !strings.Contains(string(out), "of the net's output") {
		t.Errorf("output:\n%s", out)
	}
	e, err := readAgentFile(filepath.Join(dir, "e.json"))
	if err != nil {
		t.Fatal(err)
	}
	wa, we := net.Weights(), e.Net.Weights()
	moved := map[bool]int{} // by whether the weight is in the first layer
	for i := range wa {
		if wa[i] != we[i] {
			moved[i < net.BiasIndex(1, 0)]++
		}
	}
	if moved[true] < 100 || moved[false] < 20 || e.Net.King() != net.King() || e.Search != (agent.Search{Depth: 4}) {
		t.Errorf("moved %v weights (first layer, others), king %v, search %+v", moved, e.Net.King(), e.Search)
	}
}

// TestStatusShowsTheDistillation runs a chess population that distills
// its champion every 2 generations and checks what status says of it:
// the champions of generations 1 and 3 distilled, the last 3, in text and
// in --json.
func TestStatusShowsTheDistillation(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "evolved.toml")
	text := `games = ["chess"]
workers = 2
log_format = "json"
[chess]
depth = 1
nodes = 0
max_moves = 25
format = "blondie"
ladder_games = 2
baseline_every = 0
distill_every = 2
distill_nodes = 100
[jobs]
backup = ""
prune = ""
rating_every = 0
`
	if err := os.WriteFile(config, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := evolvedIn(t, dir, "run", "--config", config, "--generations", "4").CombinedOutput(); err != nil ||
		!strings.Contains(string(out), `"msg":"champion distilled"`) {
		t.Fatalf("run: %v\n%s\nwant a champion distilled", err, out)
	}
	out, err := evolvedIn(t, dir, "status").Output()
	if err != nil || !strings.Contains(string(out), "chess distillation: 2 champions distilled, the last of generation 3") {
		t.Errorf("status: %v\n%s", err, out)
	}
	js, err := evolvedIn(t, dir, "status", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var status struct {
		Populations []struct {
			Distill *struct{ Champions, Last int } `json:"distill"`
		} `json:"populations"`
	}
	if err := json.Unmarshal(js, &status); err != nil || len(status.Populations) != 1 || status.Populations[0].Distill == nil {
		t.Fatalf("status --json: %v\n%s", err, js)
	}
	if d := *status.Populations[0].Distill; d.Champions != 2 || d.Last != 3 {
		t.Errorf("status --json distill: %+v, want 2 champions, the last of generation 3", d)
	}
}
