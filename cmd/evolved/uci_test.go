package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"evolved/game/xiangqi"
	"evolved/nnet"
)

// TestUCIServesAXiangqiAgent runs `evolved uci` on a xiangqi agent file as
// a xiangqi GUI would: it offers UCI_Variant xiangqi and Threads, takes a
// position in Fairy-Stockfish's notation and answers a legal move of it on
// two threads; a draughts agent is refused, and so is MCTS-EPT for
// xiangqi.
func TestUCIServesAXiangqiAgent(t *testing.T) {
	dir := t.TempDir()
	writeAgentFile(t, dir, "x.json", "xiangqi", nnet.NumXiangqiInputs)
	writeAgentFile(t, dir, "d.json", "draughts", nnet.NumDraughtsInputs)
	engine := evolvedIn(t, dir, "uci", "--agent", "x.json")
	engine.Stdin = strings.NewReader("uci\nsetoption name UCI_Variant value xiangqi\nsetoption name Threads value 2\nisready\nposition startpos moves h3e3 h10g8\ngo depth 2\n")
	out, err := engine.Output()
	if err != nil {
		t.Fatalf("uci: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "\noption name UCI_Variant type combo default xiangqi var xiangqi\n") ||
		!strings.Contains(string(out), "\noption name Threads type spin default 1 min 1 max 256\n") ||
		!strings.Contains(string(out), "\nuciok\nreadyok\n") || strings.Contains(string(out), "UCI_Chess960") {
		t.Errorf("uci of a xiangqi agent:\n%s", out)
	}
	best := regexp.MustCompile(`\nbestmove (\S+)\n$`).FindSubmatch(out)
	if best == nil {
		t.Fatalf("no bestmove at the end:\n%s", out)
	}
	g := xiangqi.NewGame(xiangqi.Start(), xiangqi.Rules{})
	for _, m := range []string{"h3e3", "h10g8", string(best[1])} {
		mv, err := g.ParseMove(m)
		if err != nil {
			t.Fatalf("%s: %v\n%s", m, err, out)
		}
		g.Make(mv)
	}
	out2, code := exitStatus(t, "uci", "--agent", filepath.Join(dir, "d.json"))
	if code != 1 || !strings.Contains(out2, "d.json is a draughts agent: UCI serves chess and xiangqi agents") {
		t.Errorf("uci of a draughts agent: exit %d, %s; want 1 and the game named", code, out2)
	}
	out2, code = exitStatus(t, "uci", "--agent", filepath.Join(dir, "x.json"), "--search", "ept:5")
	if code != 2 || !strings.Contains(out2, "uci: xiangqi searches alpha-beta only") {
		t.Errorf("uci --search ept:5 of a xiangqi agent: exit %d, %s; want a usage error", code, out2)
	}
}
