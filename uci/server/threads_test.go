package server_test

import (
	"strings"
	"testing"
	"time"

	"evolved/game/chess"
	"evolved/game/xiangqi"
)

// threadsFEN is the position of the Threads tests: a middlegame (the
// Queen's Gambit Declined after 7...c5) with work for every thread.
const threadsFEN = "r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8"

// searchNodes sends go with args and returns the nodes of the last info
// line before bestmove, and the best move.
func (g *gui) searchNodes(args string) (nodes int, best string) {
	g.t.Helper()
	g.send("go " + args)
	for {
		line := g.expect("", 60*time.Second)
		if b, ok := strings.CutPrefix(line, "bestmove "); ok {
			return nodes, b
		}
		if f := strings.Fields(line); len(f) > 9 && f[1] == "depth" && f[8] == "nodes" {
			nodes = atoi(f[9])
		}
	}
}

// legalChess fails the test unless move is legal in threadsFEN.
func legalChess(t *testing.T, what, move string) {
	t.Helper()
	p, err := chess.ParseFEN(threadsFEN)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.ParseUCI(move, false); err != nil {
		t.Errorf("%s: bestmove %q is not legal: %v", what, move, err)
	}
}

// TestThreadsAsAGUISetsThem drives the chess server as a GUI does with
// Lazy SMP: Threads is offered, set to 4, and every kind of go answers a
// legal bestmove: depth, nodes, movetime, infinite until stop, ponder
// until ponderhit, MultiPV. At the same depth the info line counts more
// nodes than one thread's (every thread's are counted, and the helpers
// search beside the main thread), and Threads 1 with Clear Hash gives the
// search of one thread again, node for node. No assertion is on time: the
// deadlines only keep a broken server from hanging the test.
func TestThreadsAsAGUISetsThem(t *testing.T) {
	g := startServer(t)
	if opts := strings.Join(g.options(), "\n"); !strings.Contains(opts, "\noption name Threads type spin default 1 min 1 max 256\n") {
		t.Errorf("uci answers\n%s\nwant the Threads option", opts)
	}
	g.send("position fen " + threadsFEN)
	one, best := g.searchNodes("depth 6")
	legalChess(t, "1 thread, depth 6", best)

	g.send("setoption name Threads value 4")
	g.send("setoption name Clear Hash")
	g.send("isready")
	if line := g.expect("", 10*time.Second); line != "readyok" {
		t.Fatalf("setoption Threads 4: %q, want readyok and nothing before it", line)
	}
	four, best := g.searchNodes("depth 6")
	legalChess(t, "4 threads, depth 6", best)
	t.Logf("depth 6: %d nodes on 1 thread, %d on 4", one, four)
	if four <= one {
		t.Errorf("depth 6 counts %d nodes on 4 threads, %d on 1: want the helpers' nodes counted", four, one)
	}
	for _, args := range []string{"nodes 20000", "movetime 100", "wtime 3000 btime 3000 winc 0 binc 0"} {
		_, best := g.searchNodes(args)
		legalChess(t, "4 threads, go "+args, best)
	}
	g.send("go infinite")
	g.expect("info depth 2 ", 60*time.Second)
	g.send("stop")
	legalChess(t, "4 threads, stop", strings.TrimPrefix(g.expect("bestmove ", 30*time.Second), "bestmove "))
	g.send("go ponder wtime 1000 btime 1000")
	g.expect("info depth 1 ", 60*time.Second)
	g.send("ponderhit")
	legalChess(t, "4 threads, ponderhit", strings.TrimPrefix(g.expect("bestmove ", 30*time.Second), "bestmove "))

	g.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	g.send("setoption name MultiPV value 2")
	g.send("go depth 4")
	if firsts, _, best := g.multiPVLines(); len(firsts) != 2 || firsts[0] != "a1a8" || best != "a1a8" {
		t.Errorf("4 threads, MultiPV 2: lines %v, bestmove %s; want 2, the mate a1a8 first and bestmove", firsts, best)
	}
	g.send("setoption name MultiPV value 1")

	g.send("setoption name Threads value 0")
	g.expect("info string Threads takes 1..256", 10*time.Second)
	g.send("setoption name Threads value 1")
	g.send("setoption name Clear Hash")
	g.send("position fen " + threadsFEN)
	if again, _ := g.searchNodes("depth 6"); again != one {
		t.Errorf("back to 1 thread after Clear Hash: %d nodes, want the first search's %d", again, one)
	}
	g.quit(30 * time.Second)
}

// TestXiangqiThreads sets Threads in the xiangqi server: a legal
// bestmove at a depth, and stop during go infinite answers one.
func TestXiangqiThreads(t *testing.T) {
	g := startXiangqi(t)
	g.send("setoption name UCI_Variant value xiangqi")
	g.send("setoption name Threads value 3")
	g.send("isready")
	if line := g.expect("", 10*time.Second); line != "readyok" {
		t.Fatalf("setoption Threads 3: %q, want readyok and nothing before it", line)
	}
	moves := []string{"h3e3", "h10g8"}
	g.send("position startpos moves " + strings.Join(moves, " "))
	_, best := g.searchNodes("depth 4")
	after := xiangqi.NewGame(xiangqi.Start(), xiangqi.Rules{})
	for _, m := range append(moves, best) {
		mv, err := after.ParseMove(m)
		if err != nil {
			t.Fatalf("%s after %v: %v", m, moves, err)
		}
		after.Make(mv)
	}
	g.send("go infinite")
	g.expect("info depth 2 ", 60*time.Second)
	g.send("stop")
	g.expect("bestmove ", 30*time.Second)
	g.quit(30 * time.Second)
}
