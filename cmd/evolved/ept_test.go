package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"evolved/agent"
	"evolved/nnet"
)

// writeAgentFile writes an agent of game with a seeded random net of
// inputs inputs to dir/name.
func writeAgentFile(t *testing.T, dir, name, game string, inputs int) {
	t.Helper()
	net, err := nnet.Random([]int{inputs, 8, 1}, 0, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	saveAgent(t, filepath.Join(dir, name), agent.File{Game: game, Net: net, Search: agent.Search{Depth: 2}})
}

// saveAgent writes the agent file a at path.
func saveAgent(t *testing.T, path string, a agent.File) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := agent.Write(f, a); err != nil {
		t.Fatal(err)
	}
}

// TestMatchTakesEPTWithAnAgentsNet plays a match with the player
// ept:N@FILE and checks that the errors of a bad one name it.
func TestMatchTakesEPTWithAnAgentsNet(t *testing.T) {
	dir := t.TempDir()
	writeAgentFile(t, dir, "d.json", "draughts", nnet.NumDraughtsInputs)
	writeAgentFile(t, dir, "c.json", "chess", nnet.NumChessInputs)
	out, err := evolvedIn(t, dir, "match", "--game", "draughts", "--a", "ept:30@d.json", "--b", "material:1", "--games", "2", "--max-moves", "30").CombinedOutput()
	if err != nil {
		t.Fatalf("match: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "ept:30@d (gen 0) (A) vs material:1 (B), 2 games") || !strings.Contains(string(out), "result games=2 ") {
		t.Errorf("match output:\n%s", out)
	}
	for _, tc := range []struct{ spec, want string }{
		{"ept:30@c.json", `--a: player: bad player spec "ept:30@c.json": agent file c.json is a chess agent, not draughts`},
		{"ept:0@d.json", `--a: player: bad player spec "ept:0@d.json": ept takes a whole number of playouts from 1 to 10000000`},
		{"ept:30@none.json", `--a: player: bad player spec "ept:30@none.json": no such agent file none.json`},
	} {
		out, err := evolvedIn(t, dir, "match", "--game", "draughts", "--a", tc.spec, "--b", "random", "--games", "2").CombinedOutput()
		if code := exitCodeOf(err); code != 2 || !strings.Contains(string(out), tc.want) {
			t.Errorf("match --a %s: exit %d, %s; want 2 and %q", tc.spec, exitCodeOf(err), out, tc.want)
		}
	}
}

// TestUCISearchesByEPT runs `evolved uci --search ept:N`: go nodes 50 runs
// 50 playouts and reports them, Threads is not offered (MCTS-EPT has one),
// and bad flags are usage errors.
func TestUCISearchesByEPT(t *testing.T) {
	dir := t.TempDir()
	writeAgentFile(t, dir, "c.json", "chess", nnet.NumChessInputs)
	engine := evolvedIn(t, dir, "uci", "--agent", "c.json", "--search", "ept:20")
	engine.Stdin = strings.NewReader("uci\nisready\nposition startpos moves e2e4\ngo nodes 50\n")
	out, err := engine.Output()
	if err != nil {
		t.Fatalf("uci: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`\ninfo depth 1 score cp -?\d+ nodes 50 nps \d+ time \d+ pv [a-h][1-8][a-h][1-8]\nbestmove [a-h][1-8][a-h][1-8]\n`).Match(out) ||
		strings.Contains(string(out), "Threads") {
		t.Errorf("uci --search ept:20, go nodes 50:\n%s", out)
	}
	for _, args := range [][]string{{"--search", "mcts:5"}, {"--search", "ept:5", "--depth", "3"}} {
		out, code := exitStatus(t, append([]string{"uci", "--agent", filepath.Join(dir, "c.json")}, args...)...)
		if code != 2 || !strings.Contains(out, "uci: --") {
			t.Errorf("uci %v: exit %d, %s; want a usage error", args, code, out)
		}
	}
}
