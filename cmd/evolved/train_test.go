package main

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"evolved/agent"
	"evolved/nnet"
)

// TestSelfplayAndTrain fills a position store with selfplay, grows it with
// a second run, trains a perspective agent on it, and checks what each
// command says and writes; the errors name what is wrong.
func TestSelfplayAndTrain(t *testing.T) {
	dir := t.TempDir()
	net, err := nnet.RandomChess([]int{8}, nnet.Perspective|nnet.EvolvePST, rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	saveAgent(t, filepath.Join(dir, "p.json"), agent.File{Game: "chess", Net: net, Search: agent.Search{Depth: 3, Nodes: 200}})
	play := func() string {
		out, err := evolvedIn(t, dir, "selfplay", "--agent", "p.json", "--store", "s", "--games", "6", "--nodes", "200",
			"--max-moves", "30", "--workers", "2").CombinedOutput()
		if err != nil {
			t.Fatalf("selfplay: %v\n%s", err, out)
		}
		return string(out)
	}
	first, second := play(), play()
	if !strings.Contains(first, "selfplay: 6 games,") || !strings.Contains(second, "selfplay: 6 games,") {
		t.Fatalf("selfplay said\n%s%s", first, second)
	}
	// The second run's games are new games: the store grew.
	held1, held2 := storeHolds(t, first), storeHolds(t, second)
	if held1 < 6*20 || held2 <= held1 {
		t.Fatalf("the store held %d positions, then %d", held1, held2)
	}
	out, err := evolvedIn(t, dir, "train", "--agent", "p.json", "--store", "s", "-o", "q.json", "--epochs", "2", "--batch", "64").Output()
	if err != nil {
		t.Fatalf("train: %v", err)
	}
	if !strings.Contains(string(out), "epoch 2: loss") || !strings.Contains(string(out), "wrote q.json") {
		t.Fatalf("train said\n%s", out)
	}
	q, err := readAgentFile(filepath.Join(dir, "q.json"))
	if err != nil {
		t.Fatal(err)
	}
	if q.Net.Equal(net) || q.Search != (agent.Search{Depth: 3, Nodes: 200}) {
		t.Fatalf("the trained agent is the same net, or its search %+v changed", q.Search)
	}
	// Refusals: a narrow agent, a draughts agent, a missing store, bad flags.
	writeAgentFile(t, dir, "d.json", "draughts", nnet.NumDraughtsInputs)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "--agent", "d.json", "--store", "s", "-o", "x.json"}, "draughts agent"},
		{[]string{"selfplay", "--agent", "d.json", "--store", "s2"}, "draughts positions are not stored"},
		{[]string{"train", "--agent", "p.json", "--store", "s", "-o", "x.json", "--results", "2"}, "--results must be 0 to 1"},
		{[]string{"selfplay", "--agent", "p.json", "--store", "s", "--games", "0"}, "--games must be 1 or more"},
	} {
		out, err := evolvedIn(t, dir, tc.args...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), tc.want) {
			t.Errorf("%v: error %v, output %q, want %q", tc.args, err, out, tc.want)
		}
	}
}

// storeHolds reads the positions a store holds from selfplay's last line.
func storeHolds(t *testing.T, out string) int {
	t.Helper()
	_, rest, _ := strings.Cut(out, "the store holds ")
	var n int
	if _, err := fmt.Sscan(rest, &n); err != nil {
		t.Fatalf("no store size in %q: %v", out, err)
	}
	return n
}
