package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// tmuxSocket names the tmux server of a test's session in this process.
func tmuxSocket(session string) string { return fmt.Sprintf("%s-%d", session, os.Getpid()) }

// tmuxPlay starts `evolved play` with args in a detached tmux session and
// returns functions to read the screen, type a line and wait for text.
func tmuxPlay(t *testing.T, session string, args string) (screen func() string, send func(string), wait func(string)) {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed (Debian package tmux; .ci/run installs it)")
	}
	// Each test has a tmux server of its own (-L): with one shared server,
	// a test's new session could reach the server while the previous
	// test's last kill-session was shutting it down ("server exited
	// unexpectedly"). The socket is named after the test process too, so
	// that two suites running at once never share, or kill, a server.
	tmuxCmd := func(args ...string) *exec.Cmd {
		return exec.Command(tmux, append([]string{"-L", tmuxSocket(session)}, args...)...)
	}
	tmuxCmd("kill-server").Run()
	start := tmuxCmd("new-session", "-d", "-s", session, "-x", "100", "-y", "40", binary+" play "+args)
	start.Dir = t.TempDir()
	start.Env = append(start.Environ(), "LANG=C.UTF-8")
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	t.Cleanup(func() { tmuxCmd("kill-server").Run() })
	screen = func() string {
		out, _ := tmuxCmd("capture-pane", "-p", "-t", session).Output()
		return string(out)
	}
	send = func(keys string) { tmuxCmd("send-keys", "-t", session, keys, "Enter").Run() }
	wait = func(want string) {
		t.Helper()
		if !waitFor(10*time.Second, func() bool { return strings.Contains(screen(), want) }) {
			t.Fatalf("the screen never showed %q:\n%s", want, screen())
		}
	}
	return screen, send, wait
}

func TestPlayFinishesAGameInTmux(t *testing.T) {
	// Black's man on 14 takes White's last piece: 14x23 wins.
	_, send, wait := tmuxPlay(t, "evolved-play-finish", "--player material:2 --ascii --fen B:W18:B14")
	wait("Black to move (you)")
	send("14-18")
	wait("is not a legal move here")
	send("14x23")
	wait("Game over: Black wins, no legal move")
	send("quit")
}

func TestPlayInTmux(t *testing.T) {
	screen, send, wait := tmuxPlay(t, "evolved-play-test", "--player material:2 --ascii")
	wait("Black to move (you)")
	send("11-15")
	wait("Black to move (you), last move")
	wait("engine: depth 2")
	send("11-16")
	wait("is not a legal move here")
	send("e3-f4") // coordinates as the board labels them: 23-19, White's square
	wait("e3-f4 (23-19) is not a legal move here")
	send("quit")
	tmux, _ := exec.LookPath("tmux")
	if !waitFor(10*time.Second, func() bool {
		return exec.Command(tmux, "-L", tmuxSocket("evolved-play-test"), "has-session", "-t", "evolved-play-test").Run() != nil
	}) {
		t.Errorf("the session did not end after quit:\n%s", screen())
	}
}

func TestPlayChessInTmux(t *testing.T) {
	_, send, wait := tmuxPlay(t, "evolved-play-chess", "--game chess --player material:1 --ascii")
	wait("White to move (you)")
	send("e4")
	wait("White to move (you), last move")
	send("Ke9")
	wait("legal moves:")
	send("quit")
}

// TestPlayXiangqiInTmux plays xiangqi on the classic board: glyphs, the
// classic and coordinate notations, a refused move with its reason, undo,
// swap, capture and history.
func TestPlayXiangqiInTmux(t *testing.T) {
	screen, send, wait := tmuxPlay(t, "evolved-play-xiangqi", "--game xiangqi --player material:1")
	wait(" J  <車> <馬> <相> <仕> <帥> <仕> <相> <馬> <車>")
	wait(" A  (車) (馬) (象) (士) (將) (士) (象) (馬) (車)")
	wait("Red to move (you)")
	send("H8,H5")
	wait("Red to move (you), last move")
	send("b1c3")
	wait("last move J2,H3 (b1c3)")
	wait("engine: depth 1")
	send("h1f2")
	wait("illegal move: the horse on h1 cannot go to f2: its leg g1 is blocked (hobbled horse)")
	wait("legal moves:")
	send("capture")
	wait("Red has captured")
	send("history")
	wait("  1. H8,H5 h3e3 C2=5")
	send("undo")
	wait("Red to move (you)\nRed>")
	send("history")
	// The history printed after the undo ends at the first full move.
	if !waitFor(10*time.Second, func() bool {
		text := screen()
		i := strings.LastIndex(text, "Red> history")
		return i >= 0 && strings.Contains(text[i:], "  1. H8,H5 h3e3 C2=5") && !strings.Contains(text[i:], "  2. ") &&
			strings.Contains(text[i+len("Red> history"):], "Red>")
	}) {
		t.Fatalf("undo did not take back the last move pair:\n%s", screen())
	}
	send("swap")
	wait("You now play Black.")
	wait("Black to move (you), last move")
	send("quit")
}

// TestPlayXiangqiToTheEndInTmux plays a mate in one with the classic
// notation and sees the game end.
func TestPlayXiangqiToTheEndInTmux(t *testing.T) {
	_, send, wait := tmuxPlay(t, "evolved-play-xiangqi-end", "--game xiangqi --player material:1 --ascii --fen '3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1'")
	wait("Red to move (you)")
	send("J1,A1")
	wait("Game over: Red wins, no legal move")
	send("quit")
}
