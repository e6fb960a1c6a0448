package chess

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"evolved/uci"
)

// stockfishPath is where Debian's stockfish package installs the engine.
const stockfishPath = "/usr/games/stockfish"

// findStockfish returns the path of a Stockfish binary, or "" if there is none.
func findStockfish() string {
	if _, err := exec.LookPath(stockfishPath); err == nil {
		return stockfishPath
	}
	if p, err := exec.LookPath("stockfish"); err == nil {
		return p
	}
	return ""
}

// startStockfish starts the Stockfish at path through the uci client.
func startStockfish(path string) (*uci.Engine, error) {
	return uci.Start(context.Background(), path, nil)
}

// TestStockfishOracle plays seeded random games from classical and
// Chess960 starts and compares perft(3), move by move, of the positions
// visited with Stockfish's "go perft 3".
func TestStockfishOracle(t *testing.T) {
	path := findStockfish()
	if path == "" {
		t.Skip("no Stockfish binary (" + stockfishPath + " or stockfish on $PATH); apt-get install stockfish to run the oracle test")
	}
	e, err := startStockfish(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := e.Close(); err != nil {
			t.Errorf("closing Stockfish: %v", err)
		}
	}()

	games, every := 160, 2
	if testing.Short() {
		games, every = 24, 6
	}
	rng := rand.New(rand.NewPCG(5, 6))
	deadline := time.Now().Add(25 * time.Second)
	checked := 0
	engine960 := false // the engine's UCI_Chess960 setting
	for i := 0; i < games && time.Now().Before(deadline); i++ {
		var start Position
		chess960 := i%2 == 1
		if chess960 {
			start, _ = Chess960(rng.IntN(960))
		} else {
			start = mustFEN(t, walkFENs[(i/2)%len(walkFENs)])
			chess960 = strings.ContainsAny(strings.Fields(start.FEN())[2], "ABCDEFGHabcdefgh")
		}
		if chess960 != engine960 {
			if err := e.SetOption(context.Background(), "UCI_Chess960", fmt.Sprint(chess960)); err != nil {
				t.Fatal(err)
			}
			engine960 = chess960
		}
		ply := 0
		var failed bool
		randomWalk(rng, start, 160, func(p *Position, moves []Move) {
			ply++
			if failed || ply%every != 0 {
				return
			}
			checked++
			if err := compareDivide(e, *p, 3, chess960); err != nil {
				t.Errorf("game %d (start %s), ply %d: %v", i, start.FEN(), ply, err)
				failed = true
			}
		})
	}
	t.Logf("compared perft(3) of %d positions with %s", checked, path)
}

// compareDivide compares Divide(p, depth) with the engine's, naming the
// moves whose counts differ.
func compareDivide(e *uci.Engine, p Position, depth int, chess960 bool) error {
	theirs, total, err := e.Perft(context.Background(), p.FEN(), depth)
	if err != nil {
		return err
	}
	ours := map[string]uint64{}
	var sum uint64
	for _, d := range Divide(p, depth) {
		ours[p.FormatUCI(d.Move, chess960)] = d.Nodes
		sum += d.Nodes
	}
	var diffs []string
	for m, n := range ours {
		if theirs[m] != n {
			diffs = append(diffs, fmt.Sprintf("%s: ours %d, Stockfish %d", m, n, theirs[m]))
		}
	}
	for m, n := range theirs {
		if _, ok := ours[m]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: ours missing, Stockfish %d", m, n))
		}
	}
	if len(diffs) > 0 || sum != total {
		slices.Sort(diffs)
		return fmt.Errorf("%s: perft(%d) ours %d, Stockfish %d; differing moves: %s",
			p.FEN(), depth, sum, total, strings.Join(diffs, "; "))
	}
	return nil
}
