package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestPlayInTmux(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed (Debian package tmux; .ci/run installs it)")
	}
	session := "evolved-play-test"
	dir := t.TempDir()
	exec.Command(tmux, "kill-session", "-t", session).Run()
	start := exec.Command(tmux, "new-session", "-d", "-s", session, "-x", "100", "-y", "40",
		binary+" play --player material:2 --ascii")
	start.Dir = dir
	start.Env = append(start.Environ(), "LANG=C.UTF-8")
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	defer exec.Command(tmux, "kill-session", "-t", session).Run()
	screen := func() string {
		out, _ := exec.Command(tmux, "capture-pane", "-p", "-t", session).Output()
		return string(out)
	}
	wait := func(want string) {
		t.Helper()
		if !waitFor(10*time.Second, func() bool { return strings.Contains(screen(), want) }) {
			t.Fatalf("the screen never showed %q:\n%s", want, screen())
		}
	}
	send := func(keys string) {
		exec.Command(tmux, "send-keys", "-t", session, keys, "Enter").Run()
	}
	wait("Black to move (you)")
	send("11-15")
	wait("Black to move (you), last move")
	wait("engine: depth 2")
	send("11-16")
	wait("illegal in this position")
	send("quit")
	if !waitFor(10*time.Second, func() bool {
		return exec.Command(tmux, "has-session", "-t", session).Run() != nil
	}) {
		t.Errorf("the session did not end after quit:\n%s", screen())
	}
}
