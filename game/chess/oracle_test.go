package chess

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

// uciEngine is a UCI engine driven over pipes, for tests.
type uciEngine struct {
	cmd    *exec.Cmd
	cancel context.CancelFunc
	in     io.WriteCloser
	lines  chan string // stdout, line by line, closed at EOF
	chess  bool        // the UCI_Chess960 setting last sent
}

// startEngine starts the engine at path and completes the UCI handshake.
// The caller must Close it.
func startEngine(path string) (*uciEngine, error) {
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
	if err := e.send("uci"); err != nil {
		e.Close()
		return nil, err
	}
	if _, err := e.waitFor("uciok", 10*time.Second, nil); err != nil {
		e.Close()
		return nil, err
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

// setChess960 sets UCI_Chess960 if it differs from the last setting.
func (e *uciEngine) setChess960(on bool) error {
	if on == e.chess {
		return nil
	}
	e.chess = on
	if err := e.send(fmt.Sprintf("setoption name UCI_Chess960 value %v", on)); err != nil {
		return err
	}
	if err := e.send("isready"); err != nil {
		return err
	}
	_, err := e.waitFor("readyok", 10*time.Second, nil)
	return err
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
	last, err := e.waitFor("Nodes searched:", 60*time.Second, func(line string) {
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

// TestStockfishOracle plays seeded random games from classical and
// Chess960 starts and compares perft(3), move by move, of the positions
// visited with Stockfish's "go perft 3".
func TestStockfishOracle(t *testing.T) {
	path := findStockfish()
	if path == "" {
		t.Skip("no Stockfish binary (" + stockfishPath + " or stockfish on $PATH); apt-get install stockfish to run the oracle test")
	}
	e, err := startEngine(path)
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
	for i := 0; i < games && time.Now().Before(deadline); i++ {
		var start Position
		chess960 := i%2 == 1
		if chess960 {
			start, _ = Chess960(rng.IntN(960))
		} else {
			start = mustFEN(t, walkFENs[(i/2)%len(walkFENs)])
			chess960 = strings.ContainsAny(strings.Fields(start.FEN())[2], "ABCDEFGHabcdefgh")
		}
		if err := e.setChess960(chess960); err != nil {
			t.Fatal(err)
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
func compareDivide(e *uciEngine, p Position, depth int, chess960 bool) error {
	theirs, total, err := e.divide(p.FEN(), depth)
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
