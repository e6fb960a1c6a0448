// Package uci drives external chess engines over the Universal Chess
// Interface: start the process, set options, send positions, ask for a move
// under a time, depth or node limit, and always shut the engine down, with
// quit and then a kill if it does not exit.
package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ErrEngine is wrapped by every error about the engine's behaviour: it died,
// it did not answer in time, it said something that is not UCI.
var ErrEngine = errors.New("uci: engine failure")

// maxEngineLine is the longest line we read of an engine's output, 1 MiB.
// An engine's lines are short (a principal variation of a hundred moves is
// 500 bytes), so a longer one is a broken engine: the Engine fails with
// ErrEngine, and Close shuts it down. Unlike our own UCI server's input,
// which a user types, this output comes from an engine a run started.
const maxEngineLine = 1 << 20

// Limits bound one search. Zero fields are unset; with none set the engine
// searches for 100 ms. WTime and BTime (with the increments) hand the
// engine its clock and let it manage its own time.
type Limits struct {
	Depth      int
	Nodes      int64
	MoveTime   time.Duration
	WTime      time.Duration
	BTime      time.Duration
	WInc, BInc time.Duration
}

// Engine is a running engine process. It is not safe for concurrent use: a
// tournament worker owns one.
type Engine struct {
	path  string
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string // the engine's output lines; closed when it exits or says something unreadable
	// readErr is why lines closed before the engine's output ended (a line
	// over maxEngineLine), or nil; set before lines is closed.
	readErr error
	wait    chan error // the process's exit status, once
	name    string
	known   map[string]bool // the options the engine declared, lower-cased
	once    sync.Once
}

// Start launches the engine at path, completes the uci/uciok handshake, sets
// the options and waits for readyok. A failure shuts the process down.
func Start(ctx context.Context, path string, options map[string]string) (*Engine, error) {
	cmd := exec.Command(path)
	// A process group of its own, so that Close can kill whatever the
	// engine started too (a wrapper script's children hold its output open).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("uci: start %s: %w", path, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("uci: start %s: %w", path, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("uci: start %s: %w", path, err)
	}
	e := &Engine{path: path, cmd: cmd, in: in, lines: make(chan string, 64), wait: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), maxEngineLine)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
		if err := sc.Err(); err != nil {
			e.readErr = fmt.Errorf("read its output: %w", err)
		}
		close(e.lines)
		// Drain what the engine still writes, so that it is not stuck on a
		// full pipe and can obey Close's quit.
		io.Copy(io.Discard, out)
		e.wait <- cmd.Wait()
	}()
	if err := e.handshake(ctx, options); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// Name returns the engine's "id name", or its path.
func (e *Engine) Name() string {
	if e.name != "" {
		return e.name
	}
	return e.path
}

// handshake runs uci/uciok, the options and isready/readyok.
func (e *Engine) handshake(ctx context.Context, options map[string]string) error {
	if err := e.send("uci"); err != nil {
		return err
	}
	known := map[string]bool{}
	e.known = known
	if err := e.until(ctx, 10*time.Second, "uciok", func(line string) {
		if n, ok := strings.CutPrefix(line, "id name "); ok {
			e.name = n
		}
		if rest, ok := strings.CutPrefix(line, "option name "); ok {
			name, _, _ := strings.Cut(rest, " type ")
			known[strings.ToLower(name)] = true
		}
	}); err != nil {
		return err
	}
	for name, value := range options {
		if err := e.setOption(name, value); err != nil {
			return err
		}
	}
	return e.Ready(ctx)
}

// setOption sends one option the engine declared.
func (e *Engine) setOption(name, value string) error {
	if !e.known[strings.ToLower(name)] {
		return fmt.Errorf("%w: %s has no option %q", ErrEngine, e.Name(), name)
	}
	return e.send("setoption name " + name + " value " + value)
}

// SetOption sets an option the engine declared, between searches, and
// waits until the engine is ready again.
func (e *Engine) SetOption(ctx context.Context, name, value string) error {
	if err := e.setOption(name, value); err != nil {
		return err
	}
	return e.Ready(ctx)
}

// Perft runs "go perft depth" on the position fen, the move-tree count of
// Stockfish and Fairy-Stockfish (not a UCI command proper), and returns the
// count below each root move, in the engine's move notation, and the total.
func (e *Engine) Perft(ctx context.Context, fen string, depth int) (map[string]uint64, uint64, error) {
	return e.PerftAfter(ctx, fen, nil, depth)
}

// PerftAfter is Perft of the position after moves (in UCI notation) from
// fen ("" for startpos), set as a GUI sets it: an engine's move counts
// then say which moves it took, and in which position it ended.
func (e *Engine) PerftAfter(ctx context.Context, fen string, moves []string, depth int) (map[string]uint64, uint64, error) {
	if err := e.send(positionCommand(fen, moves)); err != nil {
		return nil, 0, err
	}
	if err := e.send(fmt.Sprintf("go perft %d", depth)); err != nil {
		return nil, 0, err
	}
	counts := map[string]uint64{}
	var total uint64
	var bad error
	err := e.until(ctx, 5*time.Minute, "Nodes searched:", func(line string) {
		if rest, ok := strings.CutPrefix(line, "Nodes searched:"); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(rest), 10, 64)
			if err != nil {
				bad = fmt.Errorf("%w: %s: perft total %q", ErrEngine, e.Name(), line)
			}
			total = n
			return
		}
		move, count, ok := strings.Cut(line, ": ")
		if !ok {
			return // banner or info lines
		}
		n, err := strconv.ParseUint(strings.TrimSpace(count), 10, 64)
		if err != nil {
			return // not a divide line
		}
		counts[move] = n
	})
	if err == nil {
		err = bad
	}
	if err != nil {
		return nil, 0, err
	}
	return counts, total, nil
}

// Ready sends isready and waits for readyok: the engine has finished what
// it was asked before and waits for the next command.
func (e *Engine) Ready(ctx context.Context) error {
	if err := e.send("isready"); err != nil {
		return err
	}
	return e.until(ctx, 10*time.Second, "readyok", nil)
}

// NewGame tells the engine that a new game starts.
func (e *Engine) NewGame(ctx context.Context) error {
	if err := e.send("ucinewgame"); err != nil {
		return err
	}
	return e.Ready(ctx)
}

// BestMove sets the position (a FEN, or "" for startpos, then moves in UCI
// notation) and returns the engine's best move in UCI notation.
func (e *Engine) BestMove(ctx context.Context, fen string, moves []string, lim Limits) (string, error) {
	r, err := e.Go(ctx, fen, moves, lim)
	return r.Move, err
}

// Reply is an engine's answer to go: its best move in UCI notation, and
// the depth and node count of the last info line that gave both (zero if
// none did).
type Reply struct {
	Move  string
	Depth int
	Nodes int64
}

// Go is BestMove that also returns what the engine said of its search.
func (e *Engine) Go(ctx context.Context, fen string, moves []string, lim Limits) (Reply, error) {
	pos := positionCommand(fen, moves)
	if err := e.send(pos); err != nil {
		return Reply{}, err
	}
	goCmd := "go"
	budget := 10 * time.Second
	switch {
	case lim.WTime > 0 || lim.BTime > 0:
		goCmd += fmt.Sprintf(" wtime %d btime %d winc %d binc %d", lim.WTime.Milliseconds(), lim.BTime.Milliseconds(),
			lim.WInc.Milliseconds(), lim.BInc.Milliseconds())
		budget = max(lim.WTime, lim.BTime) + 10*time.Second
	case lim.Depth > 0:
		goCmd += fmt.Sprintf(" depth %d", lim.Depth)
		budget = time.Minute
	case lim.Nodes > 0:
		goCmd += fmt.Sprintf(" nodes %d", lim.Nodes)
		budget = time.Minute
	default:
		mt := lim.MoveTime
		if mt <= 0 {
			mt = 100 * time.Millisecond
		}
		goCmd += fmt.Sprintf(" movetime %d", mt.Milliseconds())
		budget = mt + 10*time.Second
	}
	if err := e.send(goCmd); err != nil {
		return Reply{}, err
	}
	var r Reply
	err := e.until(ctx, budget, "bestmove", func(line string) {
		if rest, ok := strings.CutPrefix(line, "bestmove "); ok {
			r.Move, _, _ = strings.Cut(rest, " ")
			return
		}
		if depth, nodes, ok := searchInfo(line); ok {
			r.Depth, r.Nodes = depth, nodes
		}
	})
	if err != nil {
		e.send("stop")
		return Reply{}, err
	}
	if r.Move == "" || r.Move == "(none)" || r.Move == "0000" {
		return Reply{}, fmt.Errorf("%w: %s found no move in position %q", ErrEngine, e.Name(), pos)
	}
	return r, nil
}

// positionCommand returns the position command of moves (in UCI
// notation) from fen, "" for startpos.
func positionCommand(fen string, moves []string) string {
	pos := "position startpos"
	if fen != "" {
		pos = "position fen " + fen
	}
	if len(moves) > 0 {
		pos += " moves " + strings.Join(moves, " ")
	}
	return pos
}

// searchInfo reads the depth and node count of an info line; ok is false
// for other lines, info lines without both (currmove lines) and info
// string lines.
func searchInfo(line string) (depth int, nodes int64, ok bool) {
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != "info" {
		return 0, 0, false
	}
	var haveDepth, haveNodes bool
	for i := 1; i+1 < len(fields); i++ {
		switch fields[i] {
		case "string":
			return 0, 0, false // the rest of the line is free text
		case "depth":
			d, err := strconv.Atoi(fields[i+1])
			depth, haveDepth = d, err == nil
		case "nodes":
			n, err := strconv.ParseInt(fields[i+1], 10, 64)
			nodes, haveNodes = n, err == nil
		case "pv":
			i = len(fields) // the moves that follow are no keywords
		}
	}
	return depth, nodes, haveDepth && haveNodes
}

// send writes one command line.
func (e *Engine) send(cmd string) error {
	if _, err := io.WriteString(e.in, cmd+"\n"); err != nil {
		return fmt.Errorf("%w: %s: write %q: %v", ErrEngine, e.Name(), cmd, err)
	}
	return nil
}

// until reads lines until one starts with word, passing every line to
// seen; it fails if the engine exits, the time runs out or ctx is done.
func (e *Engine) until(ctx context.Context, timeout time.Duration, word string, seen func(string)) error {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-e.lines:
			if !ok {
				if e.readErr != nil {
					return fmt.Errorf("%w: %s: %w, while we waited for %s", ErrEngine, e.Name(), e.readErr, word)
				}
				return fmt.Errorf("%w: %s exited while we waited for %s", ErrEngine, e.Name(), word)
			}
			if seen != nil {
				seen(line)
			}
			if line == word || strings.HasPrefix(line, word+" ") {
				return nil
			}
		case <-timer.C:
			return fmt.Errorf("%w: %s did not answer %s within %v", ErrEngine, e.Name(), word, timeout)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Close shuts the engine down: quit, then a kill if it has not exited
// within two seconds. It is safe to call more than once.
func (e *Engine) Close() error {
	var err error
	e.once.Do(func() {
		// Drain the output meanwhile, so that the reader goroutine is never
		// stuck on a full channel and can report the exit.
		go func() {
			for range e.lines {
			}
		}()
		e.send("quit")
		e.in.Close()
		select {
		case err = <-e.wait:
		case <-time.After(2 * time.Second):
			syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)
			err = <-e.wait
		}
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			err = nil // an engine killed or exiting non-zero at quit is not our failure
		}
	})
	return err
}
