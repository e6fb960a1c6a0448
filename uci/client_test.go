package uci

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stockfish returns the oracle's path or skips.
func stockfish(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/games/stockfish", "stockfish"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	t.Skip("stockfish is not installed (Debian package stockfish; .ci/run installs it)")
	return ""
}

func TestStockfishPlaysAMove(t *testing.T) {
	ctx := context.Background()
	e, err := Start(ctx, stockfish(t), map[string]string{"Skill Level": "0", "Threads": "1"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if !strings.Contains(strings.ToLower(e.Name()), "stockfish") {
		t.Errorf("name %q", e.Name())
	}
	if err := e.NewGame(ctx); err != nil {
		t.Fatal(err)
	}
	// Mate in one: the engine must find it at any strength.
	best, err := e.BestMove(ctx, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", nil, Limits{Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	if best != "a1a8" {
		t.Errorf("best move %q, want a1a8 (mate)", best)
	}
	best, err = e.BestMove(ctx, "", []string{"e2e4", "e7e5"}, Limits{MoveTime: 20 * time.Millisecond})
	if err != nil || len(best) < 4 {
		t.Errorf("after e4 e5: %q, %v", best, err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if err := e.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
}

func TestUnknownOptionIsRefused(t *testing.T) {
	_, err := Start(context.Background(), stockfish(t), map[string]string{"Banana": "1"})
	if !errors.Is(err, ErrEngine) || !strings.Contains(err.Error(), `no option "Banana"`) {
		t.Errorf("err = %v, want ErrEngine naming the option", err)
	}
}

func TestBrokenEngines(t *testing.T) {
	dir := t.TempDir()
	silent := filepath.Join(dir, "silent")
	os.WriteFile(silent, []byte("#!/bin/sh\nsleep 60\n"), 0o755)
	cases := []struct{ name, path, want string }{
		{"missing", filepath.Join(dir, "nothing"), "no such file"},
		// It may exit before or after we write "uci": either way the error
		// must name the engine.
		{"exits", "/bin/false", "/bin/false"},
	}
	for _, c := range cases {
		_, err := Start(context.Background(), c.path, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || c.name == "exits" && !errors.Is(err, ErrEngine) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	// A silent engine: cancel the start and make sure the process is gone.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Start(ctx, silent, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("silent engine: err = %v, want the context's deadline", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("shutting a silent engine down took %v", d)
	}
}

func TestPerftAndSetOption(t *testing.T) {
	ctx := context.Background()
	e, err := Start(ctx, stockfish(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	counts, total, err := e.Perft(ctx, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3)
	if err != nil {
		t.Fatal(err)
	}
	if total != 8902 || len(counts) != 20 || counts["e2e4"] != 600 {
		t.Errorf("perft 3 = %d over %d moves (e2e4 %d), want 8902 over 20 (e2e4 600)", total, len(counts), counts["e2e4"])
	}
	if err := e.SetOption(ctx, "UCI_Chess960", "true"); err != nil {
		t.Errorf("set UCI_Chess960: %v", err)
	}
	if err := e.SetOption(ctx, "Banana", "1"); !errors.Is(err, ErrEngine) {
		t.Errorf("set an unknown option: err = %v, want ErrEngine", err)
	}
}

// TestGoReportsTheSearch checks that Go returns the depth and nodes of the
// engine's last info line that gives both, skipping currmove and string
// lines, with a scripted engine whose lines are known.
func TestGoReportsTheSearch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scripted")
	script := `#!/bin/sh
while read cmd; do
  case "$cmd" in
    uci) echo "id name scripted"; echo uciok;;
    isready) echo readyok;;
    go*) echo "info depth 1 seldepth 1 score cp 10 nodes 20 pv e2e4"
         echo "info depth 2 seldepth 3 score cp 12 nodes 345 nps 1000 pv e2e4 e7e5"
         echo "info depth 3 currmove d2d4 currmovenumber 2"
         echo "info string depth 9 nodes 9"
         echo "bestmove e2e4 ponder e7e5";;
    quit) exit 0;;
  esac
done
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	e, err := Start(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	r, err := e.Go(ctx, "", nil, Limits{Depth: 3})
	if err != nil || r != (Reply{Move: "e2e4", Depth: 2, Nodes: 345}) {
		t.Errorf("Go = %+v, %v; want e2e4 at depth 2 in 345 nodes", r, err)
	}
}

// TestStockfishReportsItsDepth checks Go against Stockfish at a depth limit:
// its last info line is that depth's.
func TestStockfishReportsItsDepth(t *testing.T) {
	ctx := context.Background()
	e, err := Start(ctx, stockfish(t), map[string]string{"Threads": "1"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	r, err := e.Go(ctx, "", nil, Limits{Depth: 6})
	if err != nil || r.Depth != 6 || r.Nodes <= 0 || len(r.Move) < 4 {
		t.Errorf("Go at depth 6 = %+v, %v; want depth 6 and some nodes", r, err)
	}
}

// TestOverlongOutputIsAnEngineFailure checks an engine whose output line
// is longer than we read (maxEngineLine): Start fails with ErrEngine saying
// why, not that the engine exited, and shuts the engine down.
func TestOverlongOutputIsAnEngineFailure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chatty")
	script := `#!/bin/sh
while read cmd; do
  case "$cmd" in
    uci) echo "id name chatty"; echo uciok;;
    isready) head -c 1200000 /dev/zero | tr '\0' x; echo; echo readyok;;
    quit) exit 0;;
  esac
done
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := Start(context.Background(), path, nil)
	if !errors.Is(err, ErrEngine) || !errors.Is(err, bufio.ErrTooLong) || !strings.Contains(err.Error(), "chatty") {
		t.Errorf("err = %v, want ErrEngine naming the engine and bufio.ErrTooLong", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("shutting the engine down took %v", d)
	}
}
