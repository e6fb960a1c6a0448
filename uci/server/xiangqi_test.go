package server_test

import (
	"context"
	"io"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"evolved/game/xiangqi"
	"evolved/nnet"
	"evolved/player"
	"evolved/uci"
	"evolved/uci/server"
)

// startXiangqi starts a xiangqi server searching with a small random net,
// as `evolved uci` serves a xiangqi champion.
func startXiangqi(t *testing.T) *gui {
	t.Helper()
	net, err := nnet.RandomXiangqi([]int{8}, 0, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	ab, err := player.XiangqiNetSearch(net, 2, 14)
	if err != nil {
		t.Fatal(err)
	}
	return connect(t, func(out io.Writer) runner {
		return server.NewServer(out, server.Xiangqi(), server.Config[xiangqi.Move, *xiangqi.Game]{
			Name: "test", Author: "us", DefaultDepth: 2,
			NewSearcher: func() server.Engine[xiangqi.Move, *xiangqi.Game] { return ab },
		})
	})
}

// options sends uci and returns the lines up to uciok.
func (g *gui) options() []string {
	g.send("uci")
	var lines []string
	for {
		line := g.expect("", 5*time.Second)
		if line == "uciok" {
			return lines
		}
		lines = append(lines, line)
	}
}

// TestOptions checks the handshake of each game line by line: chess GUIs
// see the options they saw before xiangqi came (and MultiPV and Threads), no
// UCI_Variant; xiangqi GUIs see UCI_Variant xiangqi, as Fairy-Stockfish
// offers it, and no UCI_Chess960.
func TestOptions(t *testing.T) {
	common := []string{
		"option name Ponder type check default false",
		"option name Clear Hash type button",
		"option name MultiPV type spin default 1 min 1 max 16",
	}
	for _, c := range []struct {
		name string
		gui  *gui
		want []string
	}{
		{"chess", startServer(t), append([]string{"id name test", "id author us",
			"option name Hash type spin default 16 min 1 max 4096",
			"option name Threads type spin default 1 min 1 max 256",
			"option name Depth type spin default 3 min 1 max 30",
			"option name UCI_Chess960 type check default false"}, common...)},
		{"xiangqi", startXiangqi(t), append([]string{"id name test", "id author us",
			"option name Hash type spin default 16 min 1 max 4096",
			"option name Threads type spin default 1 min 1 max 256",
			"option name Depth type spin default 2 min 1 max 30",
			"option name UCI_Variant type combo default xiangqi var xiangqi"}, common...)},
	} {
		if got := c.gui.options(); !slices.Equal(got, c.want) {
			t.Errorf("%s: uci answers\n%s\nwant\n%s", c.name, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}

// xiangqiInfo is an iteration's info line of the xiangqi server.
var xiangqiInfo = regexp.MustCompile(`^info depth \d+ seldepth \d+ score (?:cp|mate) -?\d+ nodes \d+ nps \d+(?: hashfull \d+)? time \d+ pv( [a-i](?:10|[1-9])[a-i](?:10|[1-9]))+$`)

// Positions of the xiangqi tests, each checked by hand.
const (
	// mateInOne: Red (general e1, chariots a9 and b1, elephant c1) to move
	// against the Black general on d10 and a soldier on i4. b1b10 checks
	// along rank 10, and the general cannot flee: d9 is on the a9
	// chariot's rank, e10 would face Red's general on the open e-file, and
	// nothing can take or block. No other move mates: a9a10 and a9d9 check
	// but free d9; the elephant shuts b1 off the first rank, so b1 cannot
	// reach the d-file; and the soldier, which can always move, keeps a
	// quiet move such as a9e9 from leaving Black without a move (a loss in
	// xiangqi). Fairy-Stockfish's MultiPV agrees: b1b10 mate 1, then a9i9
	// mate 2.
	mateInOne = "3k5/R8/9/9/9/9/8p/9/9/1RB1K4 w - - 0 1"
	// oneMove: Black to move, its general on e10 in check from the chariot
	// on e5 (the e-file between them open). e9 stays on that file, d10 is
	// on the d3 chariot's file, and Black has nothing else: f10 is the one
	// legal move (Fairy-Stockfish's go perft 1 lists e10f10 alone).
	oneMove = "4k4/9/9/9/9/4R4/9/3R5/9/4K4 b - - 0 1"
)

// TestXiangqiAsAGUIDrivesIt drives the xiangqi server with the commands a
// xiangqi GUI sends: the variant, a position with moves, go depth, go
// movetime, stop during go infinite, a bad FEN and an illegal move.
func TestXiangqiAsAGUIDrivesIt(t *testing.T) {
	g := startXiangqi(t)
	g.options()
	g.send("setoption name UCI_Variant value xiangqi")
	g.send("isready")
	if line := g.expect("", 5*time.Second); line != "readyok" {
		t.Errorf("after UCI_Variant xiangqi: %q, want readyok and nothing before it", line)
	}
	g.send("setoption name UCI_Variant value shogi")
	if line := g.expect("", 5*time.Second); !strings.Contains(line, "info string UCI_Variant shogi ") {
		t.Errorf("UCI_Variant shogi: %q, want an info string naming it", line)
	}
	g.send("ucinewgame")

	// A position with moves, the tenth rank's two digits among them.
	moves := []string{"h3e3", "h10g8", "h1g3", "i10h10"}
	g.send("position startpos moves " + strings.Join(moves, " "))
	g.send("go depth 2")
	if info := g.expect("info depth 2 ", 20*time.Second); !xiangqiInfo.MatchString(info) {
		t.Errorf("%q: want depth, seldepth, score, nodes, nps, hashfull, time and a pv in xiangqi coordinates", info)
	}
	best := strings.TrimPrefix(g.expect("bestmove ", 20*time.Second), "bestmove ")
	after := xiangqi.NewGame(xiangqi.Start(), xiangqi.Rules{})
	for _, m := range append(moves, best) {
		mv, err := after.ParseMove(m)
		if err != nil {
			t.Fatalf("%s after %v: %v", m, moves, err)
		}
		after.Make(mv)
	}

	// The one legal move, under a move time.
	g.send("position fen " + oneMove)
	start := time.Now()
	g.send("go movetime 300")
	if best := g.expect("bestmove ", 5*time.Second); best != "bestmove e10f10" {
		t.Errorf("%q, want bestmove e10f10, the only legal move", best)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("go movetime 300 took %v", d)
	}

	// The mate in one, found at depth 1 and scored as a mate.
	g.send("position fen " + mateInOne)
	g.send("go depth 3")
	g.mates("b1b10")

	// stop during go infinite answers at once.
	g.stopsAtOnce()

	// A bad FEN and an illegal move are named, leave no position, and the
	// engine goes on.
	g.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9 w - - 0 1")
	if why := g.expect("info string ", 5*time.Second); !strings.Contains(why, "bad position") {
		t.Errorf("%q, want the bad position named", why)
	}
	g.send("position startpos moves h3e3 h10h5")
	if why := g.expect("info string ", 5*time.Second); !strings.Contains(why, "bad move 2, h10h5") {
		t.Errorf("%q, want the illegal move named", why)
	}
	g.send("go depth 1")
	g.expect("info string no position", 5*time.Second)
	if best := g.expect("bestmove ", 5*time.Second); best != "bestmove 0000" {
		t.Errorf("%q after a refused position, want bestmove 0000", best)
	}
	g.send("position startpos moves h3e3")
	g.send("go ponder")
	g.send("ponderhit")
	g.expect("bestmove ", 5*time.Second)
	g.quit(5 * time.Second)
}

// multiPVLines reads a MultiPV search's output up to bestmove and returns
// the first moves of the last iteration's lines by rank, their scores
// (a mate in n as ±(100000 - n)) and the best move.
func (g *gui) multiPVLines() (firsts []string, scores []int, best string) {
	line := regexp.MustCompile(`^info depth (\d+) seldepth \d+ multipv (\d+) score (cp|mate) (-?\d+) .* pv (\S+)`)
	depth := ""
	for {
		text := g.expect("", 20*time.Second)
		if b, ok := strings.CutPrefix(text, "bestmove "); ok {
			return firsts, scores, b
		}
		m := line.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		if m[1] != depth || m[2] == "1" {
			depth, firsts, scores = m[1], nil, nil
		}
		if m[2] != strconv.Itoa(len(firsts)+1) {
			g.t.Errorf("%q: want multipv %d", text, len(firsts)+1)
		}
		score := atoi(m[4])
		if m[3] == "mate" {
			if score > 0 {
				score = 100000 - score
			} else {
				score = -100000 - score
			}
		}
		firsts, scores = append(firsts, m[5]), append(scores, score)
	}
}

// TestMultiPV ranks three root moves in each game: three distinct first
// moves with scores that do not increase, the first the mate (in chess
// the back-rank mate a1a8 of TestClockAndMate, in xiangqi b1b10 of
// mateInOne), which is also bestmove, and bestmove of MultiPV 1 too.
func TestMultiPV(t *testing.T) {
	for _, c := range []struct {
		name, fen, mate string
		gui             *gui
	}{
		{"chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", startServer(t)},
		{"xiangqi", mateInOne, "b1b10", startXiangqi(t)},
	} {
		g := c.gui
		g.send("position fen " + c.fen)
		g.send("go depth 3")
		if best := g.expect("bestmove ", 20*time.Second); best != "bestmove "+c.mate {
			t.Errorf("%s MultiPV 1: %q, want bestmove %s", c.name, best, c.mate)
		}
		g.send("setoption name MultiPV value 3")
		g.send("go depth 3")
		firsts, scores, best := g.multiPVLines()
		if len(firsts) != 3 || firsts[0] != c.mate || best != c.mate ||
			firsts[1] == firsts[0] || firsts[2] == firsts[0] || firsts[2] == firsts[1] ||
			scores[0] < scores[1] || scores[1] < scores[2] {
			t.Errorf("%s MultiPV 3: lines %v scored %v, bestmove %s; want three distinct moves, %s first and bestmove, scores not increasing", c.name, firsts, scores, best, c.mate)
		}
		g.send("setoption name MultiPV value 17")
		g.expect("info string MultiPV takes 1..16", 5*time.Second)
	}
}

// fairyPath is where Debian's fairy-stockfish package installs the engine.
const fairyPath = "/usr/games/fairy-stockfish"

// TestXiangqiNotationAgreesWithFairyStockfish plays seeded random games
// and, every few plies, sets the same position command in our server and in
// Fairy-Stockfish: the moves Fairy-Stockfish then counts (go perft 1) must
// be the legal moves of the position our server accepted, so that each
// took every move, in the same notation, to the same position; and our
// server's bestmove there must be one of them.
func TestXiangqiNotationAgreesWithFairyStockfish(t *testing.T) {
	if _, err := os.Stat(fairyPath); err != nil {
		t.Skip("no Fairy-Stockfish at " + fairyPath + "; apt-get install fairy-stockfish to run this test")
	}
	ctx := context.Background()
	fairy, err := uci.Start(ctx, fairyPath, map[string]string{"UCI_Variant": "xiangqi"})
	if err != nil {
		t.Fatal(err)
	}
	defer fairy.Close()
	g := startXiangqi(t)
	g.options()
	rng := rand.New(rand.NewPCG(7, 7))
	checked := 0
	for game := 0; game < 4; game++ {
		ours := xiangqi.NewGame(xiangqi.Start(), xiangqi.Rules{})
		var moves []string
		for ply := 0; ply < 60 && !ours.Outcome().Over(); ply++ {
			legal := ours.LegalMoves(nil)
			if ply%10 == 9 {
				counts, _, err := fairy.PerftAfter(ctx, "", moves, 1)
				if err != nil {
					t.Fatal(err)
				}
				var want []string
				for _, m := range legal {
					want = append(want, ours.FormatMove(m))
				}
				got := slices.Sorted(func(yield func(string) bool) {
					for m := range counts {
						if !yield(m) {
							return
						}
					}
				})
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("after %v Fairy-Stockfish has moves %v, our position %s has %v", moves, got, ours.Position().FEN(), want)
				}
				g.send("position startpos moves " + strings.Join(moves, " "))
				g.send("go depth 1")
				best := strings.TrimPrefix(g.expect("bestmove ", 20*time.Second), "bestmove ")
				if counts[best] == 0 {
					t.Errorf("after %v our server plays %s, which Fairy-Stockfish does not have", moves, best)
				}
				checked++
			}
			m := legal[rng.IntN(len(legal))]
			moves = append(moves, ours.FormatMove(m))
			ours.Make(m)
		}
	}
	if checked < 10 {
		t.Errorf("only %d positions checked", checked)
	}
}
