package server_test

import (
	"bufio"
	"context"
	"io"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"evolved/game/chess"
	"evolved/nnet"
	"evolved/player"
	"evolved/uci/server"
)

// gui drives a server through pipes, as a chess GUI would.
type gui struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func startServer(t *testing.T) *gui {
	t.Helper()
	net, err := nnet.RandomChess([]int{16, 4}, nnet.EvolvePieceValues, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	ab, err := player.ChessNetSearch(net, 3, 14)
	if err != nil {
		t.Fatal(err)
	}
	return connect(t, func(out io.Writer) runner {
		return server.New(out, server.Options{Name: "test", Author: "us", DefaultDepth: 3,
			NewSearcher: func() server.Searcher { return ab }})
	})
}

// runner is a server of any game.
type runner interface {
	Run(ctx context.Context, in io.Reader) error
}

// connect starts the server newServer makes writing to its output, and
// returns the GUI end of its pipes.
func connect(t *testing.T, newServer func(out io.Writer) runner) *gui {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := newServer(outW)
	g := &gui{t: t, in: inW, lines: make(chan string, 1000), done: make(chan error, 1)}
	go func() {
		g.done <- srv.Run(context.Background(), inR)
		inR.Close() // a server that stopped reading fails the sends, not hangs them
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			g.lines <- sc.Text()
		}
		close(g.lines)
	}()
	t.Cleanup(func() { inW.Close() })
	return g
}

func (g *gui) send(cmd string) { io.WriteString(g.in, cmd+"\n") }

// expect reads lines until one starts with prefix and returns it.
func (g *gui) expect(prefix string, within time.Duration) string {
	g.t.Helper()
	deadline := time.After(within)
	var seen []string
	for {
		select {
		case line, ok := <-g.lines:
			if !ok {
				var err error
				select {
				case err = <-g.done:
				default:
				}
				g.t.Fatalf("server closed (run: %v) while waiting for %q; saw %q", err, prefix, seen)
			}
			seen = append(seen, line)
			if strings.HasPrefix(line, prefix) {
				return line
			}
		case <-deadline:
			g.t.Fatalf("no %q within %v; saw %q", prefix, within, seen)
		}
	}
}

func TestHandshakeAndSearch(t *testing.T) {
	g := startServer(t)
	g.send("uci")
	g.expect("id name test", time.Second)
	g.expect("option name Hash type spin", time.Second)
	g.expect("option name Ponder type check default false", time.Second)
	g.expect("option name Clear Hash type button", time.Second)
	g.expect("uciok", time.Second)
	g.send("setoption name Hash value 32")
	g.send("isready")
	g.expect("readyok", time.Second)
	g.send("ucinewgame")
	g.send("position startpos moves e2e4 e7e5")
	g.send("go depth 2")
	info := g.expect("info depth 2 ", 10*time.Second)
	if m := infoLine.FindStringSubmatch(info); m == nil || atoi(m[1]) < 2 || atoi(m[2]) > 1000 {
		t.Errorf("%q: want depth, seldepth (at least the depth), score, nodes, nps, hashfull (1 to 1000, or none when 0), time and pv", info)
	}
	best := g.expect("bestmove ", 10*time.Second)
	p, _ := chess.ParseFEN("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
	if _, err := p.ParseUCI(strings.Fields(best)[1], false); err != nil {
		t.Errorf("%s: not a legal move: %v", best, err)
	}
}

// infoLine is an iteration's info line: seldepth and hashfull captured.
var infoLine = regexp.MustCompile(`^info depth \d+ seldepth (\d+) score (?:cp|mate) -?\d+ nodes \d+ nps \d+(?: hashfull (\d+))? time \d+ pv( [a-h][1-8][a-h][1-8][qrbn]?)+$`)

// atoi is strconv.Atoi for the digits a regexp matched.
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// TestClearHashForgets checks the Clear Hash button: a search after it
// visits exactly the nodes the same search visits in a fresh engine, where
// without it what the previous searches left in the table and the move
// ordering changes the count. The Ponder option GUIs set is accepted.
func TestClearHashForgets(t *testing.T) {
	nodes := func(g *gui) string {
		g.send("position startpos moves d2d4 d7d5 c2c4")
		g.send("go depth 4")
		last := ""
		for {
			line := g.expect("", 20*time.Second)
			if strings.HasPrefix(line, "bestmove") {
				return last
			}
			if f := strings.Fields(line); len(f) > 9 && f[1] == "depth" && f[8] == "nodes" {
				last = "depth " + f[2] + " nodes " + f[9]
			}
		}
	}
	fresh := nodes(startServer(t))
	g := startServer(t)
	g.send("setoption name Ponder value true")
	g.send("position startpos moves e2e4 c7c5 g1f3")
	g.send("go depth 5")
	g.expect("bestmove ", 20*time.Second)
	warm := nodes(g)
	// A table that has seen three searches says how full it is.
	g.send("go depth 5")
	if info := g.expect("info depth 5 ", 20*time.Second); !strings.Contains(info, " hashfull ") {
		t.Errorf("%q: want hashfull", info)
	}
	g.expect("bestmove ", 20*time.Second)
	g.send("setoption name Clear Hash")
	cleared := nodes(g)
	if cleared != fresh {
		t.Errorf("after Clear Hash: %s, want a fresh engine's %s", cleared, fresh)
	}
	if warm == fresh {
		t.Errorf("without Clear Hash the search counted as a fresh one (%s): the test cannot tell", warm)
	}
}

func TestStopAnswersAtOnce(t *testing.T) {
	startServer(t).stopsAtOnce()
}

// stopsAtOnce checks that go infinite from the start position answers
// isready while it searches, and bestmove at once after stop.
func (g *gui) stopsAtOnce() {
	g.t.Helper()
	g.send("position startpos")
	g.send("go infinite")
	time.Sleep(200 * time.Millisecond)
	g.send("isready")
	g.expect("readyok", time.Second) // answered while searching
	start := time.Now()
	g.send("stop")
	g.expect("bestmove ", 2*time.Second)
	if d := time.Since(start); d > time.Second {
		g.t.Errorf("bestmove %v after stop", d)
	}
}

// quit sends quit and checks that the server ends within the time, with
// no error.
func (g *gui) quit(within time.Duration) {
	g.t.Helper()
	g.send("quit")
	select {
	case err := <-g.done:
		if err != nil {
			g.t.Errorf("run: %v", err)
		}
	case <-time.After(within):
		g.t.Errorf("quit did not end the server")
	}
}

// mates checks that the search under way finds a mate in one at depth 1
// and plays it, move.
func (g *gui) mates(move string) {
	g.t.Helper()
	if info := g.expect("info depth 1 ", 5*time.Second); !strings.Contains(info, " score mate 1 ") {
		g.t.Errorf("%q, want score mate 1", info)
	}
	if best := g.expect("bestmove ", 5*time.Second); best != "bestmove "+move {
		g.t.Errorf("%q, want bestmove %s", best, move)
	}
}

func TestClockAndMate(t *testing.T) {
	g := startServer(t)
	// White mates in one with Ra8; with 2 s on the clock the move must come
	// quickly and be the mate.
	g.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	start := time.Now()
	g.send("go wtime 2000 btime 2000 winc 0 binc 0")
	g.mates("a1a8")
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v with 2 s on the clock", d)
	}
}

func TestGarbageIsExplained(t *testing.T) {
	g := startServer(t)
	for _, line := range []string{"hello", "position fen not a fen", "setoption name Banana value 1", "go depth x", "setoption name Hash value 0",
		"position startpos moves e2e4 e7e5 e1e3"} {
		g.send(line)
		g.expect("info string ", time.Second)
	}
	// A refused move leaves no position: the engine searches neither the
	// start position nor the moves before the bad one, which the GUI no
	// longer means, and says so.
	g.send("go depth 1")
	if why := g.expect("info string no position", 5*time.Second); !strings.Contains(why, "bad move 3, e1e3") {
		t.Errorf("%q, want the refused move named", why)
	}
	if best := g.expect("bestmove ", 5*time.Second); best != "bestmove 0000" {
		t.Errorf("%q after a refused position, want bestmove 0000", best)
	}
	// The next good position is searched.
	g.send("position startpos moves e2e4")
	g.send("go depth 1")
	best := g.expect("bestmove ", 5*time.Second)
	after := chess.Start()
	e4, _ := after.ParseUCI("e2e4", false)
	after = after.Play(e4)
	if _, err := after.ParseUCI(strings.Fields(best)[1], false); err != nil {
		t.Errorf("%s is not a move of the position after e2e4", best)
	}
	g.quit(2 * time.Second)
}

func TestChess960Castling(t *testing.T) {
	g := startServer(t)
	g.send("setoption name UCI_Chess960 value true")
	// Chess960 position 0 ("BBQNNRKR"): castle king-side written king takes rook.
	g.send("position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 moves g2g3 g7g6")
	g.send("go depth 1")
	best := g.expect("bestmove ", 5*time.Second)
	if len(strings.Fields(best)) != 2 {
		t.Errorf("%q", best)
	}
}

// TestLongLines checks the input line limit (issue 60): a position command
// of 1.2 MB, over bufio.Scanner's 1 MiB that once ended the engine with
// "token too long", is read and searched; a line over MaxLineBytes is
// refused with an info string naming the limit and its length, and the
// server goes on reading. A refused position command leaves no position.
func TestLongLines(t *testing.T) {
	g := startServer(t)
	// 32,768 plies of knights going out and back (MaxPositionPlies): legal
	// all the way, the start position again at the end, repeated at every
	// fourth ply; a megabyte of spaces before them makes the line longer
	// than the old limit.
	long := "position startpos" + strings.Repeat(" ", 1<<20) + "moves" + strings.Repeat(" g1f3 g8f6 f3g1 f6g8", server.MaxPositionPlies/4)
	if len(long) <= 1<<20 {
		t.Fatalf("the long position command has %d bytes, want over 1 MiB", len(long))
	}
	g.send(long + "\r") // and a "\r\n" line ending
	g.send("isready")
	g.expect("readyok", 30*time.Second)
	g.send("go depth 1")
	best := g.expect("bestmove ", 30*time.Second)
	start := chess.Start()
	if _, err := start.ParseUCI(strings.TrimPrefix(best, "bestmove "), false); err != nil {
		t.Errorf("%q after the knights' moves: not a move of the start position: %v", best, err)
	}

	// One byte over the limit, and a position the GUI may mean: refused.
	prefix := "position startpos moves e2e4"
	g.send(prefix + strings.Repeat(" ", server.MaxLineBytes+1-len(prefix)))
	if got, want := g.expect("info string ", 10*time.Second),
		"info string refused a position command of 16777217 bytes, over the limit of 16777216 bytes (16 MiB); no position until the next position command"; got != want {
		t.Errorf("over-long position command: %q, want %q", got, want)
	}
	g.send("isready")
	g.expect("readyok", 5*time.Second)
	g.send("go depth 1")
	if got, want := g.expect("info string ", 5*time.Second),
		"info string no position to search: the position command of 16777217 bytes was over the limit of 16777216 bytes (16 MiB)"; got != want {
		t.Errorf("go after a refused position: %q, want %q", got, want)
	}
	if best := g.expect("bestmove ", 5*time.Second); best != "bestmove 0000" {
		t.Errorf("%q after a refused position, want bestmove 0000", best)
	}

	// Any other line over the limit is refused too, not obeyed.
	g.send(strings.Repeat(" ", server.MaxLineBytes) + "isready")
	if got, want := g.expect("info string ", 10*time.Second),
		"info string refused an input line of 16777223 bytes, over the limit of 16777216 bytes (16 MiB)"; got != want {
		t.Errorf("over-long line: %q, want %q", got, want)
	}
	g.send("position startpos moves e2e4")
	g.send("isready")
	g.expect("readyok", 5*time.Second)
	g.send("go depth 1")
	best = g.expect("bestmove ", 5*time.Second)
	after := start.Play(mustParse(t, start, "e2e4"))
	if _, err := after.ParseUCI(strings.TrimPrefix(best, "bestmove "), false); err != nil {
		t.Errorf("%q is not a move of the position after e2e4", best)
	}
	g.quit(5 * time.Second)
}

func mustParse(t *testing.T, p chess.Position, move string) chess.Move {
	t.Helper()
	m, err := p.ParseUCI(move, false)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestPositionOfTooManyMoves: a position command of more moves than a game
// of chess can have is refused before any is made, and the engine goes on.
func TestPositionOfTooManyMoves(t *testing.T) {
	g := startServer(t)
	g.send("position startpos moves" + strings.Repeat(" g1f3 g8f6 f3g1 f6g8", server.MaxPositionPlies/4) + " e2e4")
	if got, want := g.expect("info string ", 10*time.Second),
		"info string 32769 moves, more than a game of chess can have (at most 32768); no position until the next position command"; got != want {
		t.Errorf("too many moves: %q, want %q", got, want)
	}
	g.send("go depth 1")
	if best := g.expect("bestmove ", 5*time.Second); best != "bestmove 0000" {
		t.Errorf("%q after a refused position, want bestmove 0000", best)
	}
	g.send("position startpos moves e2e4")
	g.send("isready")
	g.expect("readyok", 5*time.Second)
}
