package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestChess960CommandLine(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"help", "chess960"}, 0, "Usage: evolved chess960 ga|enumerate|bench"},
		{[]string{"chess960", "ga", "-h"}, 0, "-iterations"},
		{[]string{"chess960", "bench", "-h"}, 0, "result runs=N classic=P improved=Q random=R"},
		{[]string{"chess960"}, 2, "no mode given"},
		{[]string{"chess960", "fly"}, 2, `unknown mode "fly"`},
		{[]string{"chess960", "ga", "--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"chess960", "ga", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"chess960", "ga", "--population", "1"}, 2, "population 1"},
		{[]string{"chess960", "ga", "--mutation", "1.5"}, 2, "mutation rate 1.5"},
		{[]string{"chess960", "ga", "--plot", "fit.pdf"}, 2, "--plot must end in .svg or .png"},
		{[]string{"chess960", "bench", "--runs", "0"}, 2, "must be at least 1"},
	}
	for _, c := range cases {
		out, code := exitStatus(t, c.args...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("evolved %v: status %d, output %q; want status %d and %q", c.args, code, out, c.code, c.want)
		}
	}
}

func TestChess960Bench(t *testing.T) {
	resultLine := regexp.MustCompile(`^result runs=300 classic=\d{1,3}\.\d\d improved=\d{1,3}\.\d\d random=\d{1,3}\.\d\d$`)
	// Everything but the timing and the worker count must be the same
	// whatever the parallelism.
	strip := func(out string) string {
		var keep []string
		for _, l := range strings.Split(out, "\n") {
			if !strings.HasPrefix(l, "seconds=") && !strings.HasPrefix(l, "chess960 bench:") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	var outs []string
	for _, workers := range []string{"1", "3"} {
		out, code := exitStatus(t, "chess960", "bench", "--runs", "300", "--seed", "5", "--workers", workers)
		if code != 0 {
			t.Fatalf("bench: status %d\n%s", code, out)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if last := lines[len(lines)-1]; !resultLine.MatchString(last) {
			t.Errorf("last line %q, want the format `result runs=N classic=P improved=Q random=R`", last)
		}
		outs = append(outs, strip(out))
	}
	if outs[0] != outs[1] {
		t.Errorf("bench results depend on --workers:\n%s\n---\n%s", outs[0], outs[1])
	}
}

func TestChess960Enumerate(t *testing.T) {
	dir := t.TempDir()
	out, err := evolvedIn(t, dir, "chess960", "enumerate", "--plot", "fitness.svg").CombinedOutput()
	if err != nil {
		t.Fatalf("enumerate: %v\n%s", err, out)
	}
	line := regexp.MustCompile(`^(\d+) ([RNBQK]{8}) (\d+)$`)
	n := 0
	for _, l := range strings.Split(string(out), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if m[1] != strconv.Itoa(n) {
			t.Fatalf("arrangement line %d is %q, want number %d: sorted by number", n, l, n)
		}
		n++
	}
	if n != 960 {
		t.Errorf("enumerate printed %d arrangement lines, want 960", n)
	}
	for _, want := range []string{
		"\n518 RNBQKBNR 0\n", "\n959 RKRNNQBB 20\n",
		"optimum: 518 RNBQKBNR ♖♘♗♕♔♗♘♖ fitness 0, 1 arrangement(s) with it",
		"brute force 7680 of 40320 orderings of the pieces valid, 960 distinct; construction 4 x 4 x 6 x 10 = 960, 960 distinct and valid",
		"match the back ranks of game/chess",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("enumerate output lacks %q", want)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "fitness.svg")); err != nil || fi.Size() == 0 {
		t.Errorf("enumerate --plot: %v", err)
	}
}

func TestChess960GA(t *testing.T) {
	dir := t.TempDir()
	run := func() string {
		out, err := evolvedIn(t, dir, "chess960", "ga", "--seed", "3", "--iterations", "5", "--plot", "ga.png").CombinedOutput()
		if err != nil {
			t.Fatalf("ga: %v\n%s", err, out)
		}
		return string(out)
	}
	out := run()
	iteration := regexp.MustCompile(`(?m)^iteration +\d+  best +\d+  mean +\d+\.\d\d  [♖♘♗♕♔]{8}  [RNBQK]{8}$`)
	if got := len(iteration.FindAllString(out, -1)); got != 6 {
		t.Errorf("ga --iterations 5 printed %d iteration lines, want 6 (the initial population and 5):\n%s", got, out)
	}
	if !strings.Contains(out, "after 60 evaluations") {
		t.Errorf("ga output lacks the evaluation count 10 + 5 x 10 = 60:\n%s", out)
	}
	if again := run(); again != out {
		t.Errorf("ga --seed 3 twice, different output:\n%s\n---\n%s", out, again)
	}
	if fi, err := os.Stat(filepath.Join(dir, "ga.png")); err != nil || fi.Size() == 0 {
		t.Errorf("ga --plot: %v", err)
	}
}
