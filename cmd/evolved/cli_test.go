package main

import (
	"errors"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// exitStatus runs the binary and returns its output and exit status.
func exitStatus(t *testing.T, args ...string) (string, int) {
	t.Helper()
	out, err := evolved(t.TempDir(), args...).CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &exit):
		return string(out), exit.ExitCode()
	}
	t.Fatalf("evolved %v: %v", args, err)
	return "", -1
}

func TestCommandLineContract(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"help"}, 0, "Commands:"},
		{[]string{"help", "perft"}, 0, "Usage: evolved perft"},
		{[]string{"perft", "-h"}, 0, "--divide"},
		{[]string{"run", "-h"}, 0, "--print-config"},
		{nil, 2, "no command given"},
		{[]string{"fly"}, 2, `unknown command "fly"`},
		{[]string{"perft", "--depth", "2", "--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"perft", "--depth", "0"}, 2, "--depth must be between 1 and 30"},
		{[]string{"perft", "--game", "go", "--depth", "1"}, 2, `unknown game "go"`},
		{[]string{"perft", "--depth", "1", "--fen", "B:W33"}, 1, "square 33 out of range"},
		{[]string{"match", "--a", "random"}, 2, "--a and --b are required"},
		{[]string{"match", "--a", "random", "--b", "material:99"}, 2, "material takes a whole number from 1 to 30"},
		{[]string{"match", "--a", "nofile.json", "--b", "random"}, 2, "no such agent file"},
		{[]string{"champions"}, 2, "--game is required"},
		{[]string{"run", "--print-config", "--workers", "3"}, 0, "workers = 3"},
	}
	for _, c := range cases {
		out, code := exitStatus(t, c.args...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("evolved %v: status %d, output %q; want status %d and %q", c.args, code, out, c.code, c.want)
		}
	}
}

func TestPerftOutput(t *testing.T) {
	out, code := exitStatus(t, "perft", "--game", "draughts", "--depth", "4")
	if code != 0 {
		t.Fatalf("perft: status %d\n%s", code, out)
	}
	line := regexp.MustCompile(`^depth=(\d+) nodes=(\d+) seconds=\d+\.\d{3} nps=\d+$`)
	want := []string{"7", "49", "302", "1469"}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("perft --depth 4 printed %d lines, want 4:\n%s", len(lines), out)
	}
	for i, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil || m[1] != string(rune('1'+i)) || m[2] != want[i] {
			t.Errorf("line %d = %q, want depth=%d nodes=%s in the documented format", i+1, l, i+1, want[i])
		}
	}
	out, _ = exitStatus(t, "perft", "--game", "chess", "--depth", "3")
	if !strings.Contains(out, "depth=3 nodes=8902 ") {
		t.Errorf("chess perft 3: %s", out)
	}
	out, _ = exitStatus(t, "perft", "--game", "xiangqi", "--depth", "3")
	if !strings.Contains(out, "depth=3 nodes=79666 ") {
		t.Errorf("xiangqi perft 3: %s", out)
	}
	out, _ = exitStatus(t, "perft", "--depth", "2", "--divide")
	for _, want := range []string{"9-13: 7\n", "12-16: 7\n", "depth=2 nodes=49 "} {
		if !strings.Contains(out, want) {
			t.Errorf("perft --divide output lacks %q:\n%s", want, out)
		}
	}
}
