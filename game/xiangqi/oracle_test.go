package xiangqi

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
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

// uciEngine is a UCI engine driven over pipes, for tests.
type uciEngine struct {
	cmd    *exec.Cmd
	cancel context.CancelFunc
	in     io.WriteCloser
	lines  chan string // stdout, line by line, closed at EOF
}

// startFairy starts Fairy-Stockfish at path, completes the UCI handshake
// and selects xiangqi. The caller must Close it.
func startFairy(path string) (*uciEngine, error) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, path)
	in, err := cmd.StdinPipe()
	if err != nil {
		cancel()
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	e := &uciEngine{cmd: cmd, cancel: cancel, in: in, lines: make(chan string, 256)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
		close(e.lines)
	}()
	for _, step := range []struct{ send, want string }{
		{"uci", "uciok"},
		{"setoption name UCI_Variant value xiangqi", ""},
		{"isready", "readyok"},
	} {
		if err := e.send(step.send); err != nil {
			e.Close()
			return nil, err
		}
		if step.want == "" {
			continue
		}
		if _, err := e.waitFor(step.want, 10*time.Second, nil); err != nil {
			e.Close()
			return nil, err
		}
	}
	return e, nil
}

// send writes one command line.
func (e *uciEngine) send(cmd string) error {
	if _, err := io.WriteString(e.in, cmd+"\n"); err != nil {
		return fmt.Errorf("send %q: %w", cmd, err)
	}
	return nil
}

// waitFor reads lines until one starts with prefix and returns it, passing
// the lines before it to each (if not nil).
func (e *uciEngine) waitFor(prefix string, timeout time.Duration, each func(string)) (string, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-e.lines:
			if !ok {
				return "", fmt.Errorf("engine closed its output while waiting for %q", prefix)
			}
			if strings.HasPrefix(line, prefix) {
				return line, nil
			}
			if each != nil {
				each(line)
			}
		case <-timer.C:
			return "", fmt.Errorf("no %q from the engine within %v", prefix, timeout)
		}
	}
}

// divide runs "go perft depth" on fen and returns the count per move and
// the total.
func (e *uciEngine) divide(fen string, depth int) (map[string]uint64, uint64, error) {
	if err := e.send("position fen " + fen); err != nil {
		return nil, 0, err
	}
	if err := e.send("go perft " + strconv.Itoa(depth)); err != nil {
		return nil, 0, err
	}
	counts := map[string]uint64{}
	var parseErr error
	last, err := e.waitFor("Nodes searched:", 120*time.Second, func(line string) {
		move, n, ok := strings.Cut(line, ": ")
		if !ok {
			return
		}
		v, err := strconv.ParseUint(strings.TrimSpace(n), 10, 64)
		if err != nil {
			parseErr = fmt.Errorf("line %q: %w", line, err)
			return
		}
		counts[move] = v
	})
	if err != nil {
		return nil, 0, err
	}
	if parseErr != nil {
		return nil, 0, parseErr
	}
	total, err := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(last, "Nodes searched:")), 10, 64)
	if err != nil {
		return nil, 0, fmt.Errorf("line %q: %w", last, err)
	}
	return counts, total, nil
}

// Close asks the engine to quit and kills it if it has not within two seconds.
func (e *uciEngine) Close() error {
	_ = e.send("quit")
	_ = e.in.Close()
	done := make(chan error, 1)
	go func() { done <- e.cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Second):
		e.cancel() // kills the process
		err = errors.Join(errors.New("engine did not quit; killed"), <-done)
	}
	e.cancel()
	for range e.lines { // let the reader goroutine finish
	}
	return err
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
func compareDivide(e *uciEngine, p Position, depth int) error {
	theirs, total, err := e.divide(p.FEN(), depth)
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
