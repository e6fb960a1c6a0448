package xiangqi

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

// fairyPath is where Debian's fairy-stockfish package installs the engine.
const fairyPath = "/usr/games/fairy-stockfish"

// findFairy returns the path of a Fairy-Stockfish binary, or "" if there is none.
func findFairy() string {
	if _, err := exec.LookPath(fairyPath); err == nil {
		return fairyPath
	}
	if p, err := exec.LookPath("fairy-stockfish"); err == nil {
		return p
	}
	return ""
}

// startFairy starts the Fairy-Stockfish at path through the uci client,
// playing xiangqi.
func startFairy(path string) (*uci.Engine, error) {
	return uci.Start(context.Background(), path, map[string]string{"UCI_Variant": "xiangqi"})
}

// TestFairyStockfishOracle plays seeded random games from the start and
// from the rule positions of rules_test.go, and compares perft(3), move by
// move, of the positions visited with Fairy-Stockfish's "go perft 3".
func TestFairyStockfishOracle(t *testing.T) {
	path := findFairy()
	if path == "" {
		t.Skip("no Fairy-Stockfish binary (" + fairyPath + " or fairy-stockfish on $PATH); apt-get install fairy-stockfish to run the oracle test")
	}
	e, err := startFairy(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := e.Close(); err != nil {
			t.Errorf("closing Fairy-Stockfish: %v", err)
		}
	}()

	starts := []string{StartFEN}
	for _, tc := range ruleCases {
		starts = append(starts, tc.fen)
	}
	games, every := 60, 3
	if testing.Short() {
		games, every = 12, 8
	}
	rng := rand.New(rand.NewPCG(12, 34))
	deadline := time.Now().Add(25 * time.Second)
	checked := 0
	for i := 0; i < games && time.Now().Before(deadline); i++ {
		start := mustFEN(t, starts[i%len(starts)])
		ply := 0
		failed := false
		randomWalk(rng, start, 200, func(p *Position, moves []Move) {
			ply++
			if failed || (ply-1)%every != 0 || !time.Now().Before(deadline) {
				return
			}
			checked++
			if err := compareDivide(e, *p, 3); err != nil {
				t.Errorf("game %d (start %s), ply %d: %v", i, start.FEN(), ply, err)
				failed = true
			}
		})
	}
	if checked < 100 && !testing.Short() {
		t.Errorf("compared only %d positions before the deadline, want at least 100", checked)
	}
	t.Logf("compared perft(3) of %d positions with %s", checked, path)
}

// compareDivide compares Divide(p, depth) with the engine's, naming the
// moves whose counts differ.
func compareDivide(e *uci.Engine, p Position, depth int) error {
	theirs, total, err := e.Perft(context.Background(), p.FEN(), depth)
	if err != nil {
		return err
	}
	ours := map[string]uint64{}
	var sum uint64
	for _, d := range Divide(p, depth) {
		ours[d.Move.String()] = d.Nodes
		sum += d.Nodes
	}
	var diffs []string
	for m, n := range ours {
		if theirs[m] != n {
			diffs = append(diffs, fmt.Sprintf("%s: ours %d, Fairy-Stockfish %d", m, n, theirs[m]))
		}
	}
	for m, n := range theirs {
		if _, ok := ours[m]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: ours missing, Fairy-Stockfish %d", m, n))
		}
	}
	if len(diffs) > 0 || sum != total {
		slices.Sort(diffs)
		return fmt.Errorf("%s: perft(%d) ours %d, Fairy-Stockfish %d; differing moves: %s",
			p.FEN(), depth, sum, total, strings.Join(diffs, "; "))
	}
	return nil
}
