package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// plainDefault matches a default value written by hand with a colon, a
// number or a single word: "(default: 1)", "(default: auto)".
var plainDefault = regexp.MustCompile(`\(default: ("?[\w.+-]+"?)\)`)

// flagLine matches a flag's first line in -h: "  -name" or "  -name ARG".
var flagLine = regexp.MustCompile(`^  -(\S+)(?: (.*))?$`)

// TestFlagHelp checks every command's -h: each flag
// names its argument (not Go's type name, and not a whole backquoted
// phrase, as "-seed chess960 bench --seed S" once did) and prints at most
// one default.
func TestFlagHelp(t *testing.T) {
	typeNames := map[string]bool{"string": true, "int": true, "uint": true, "float": true, "value": true, "duration": true}
	// Every command, so that a new one is checked without being listed;
	// a command with modes is checked in each mode.
	var all [][]string
	for _, c := range commands() {
		if c.modes != nil {
			for _, m := range c.modes {
				all = append(all, []string{c.name, m.name})
			}
			continue
		}
		all = append(all, []string{c.name})
	}
	for _, args := range all {
		out, code := exitStatus(t, append(args, "-h")...)
		if code != 0 || !strings.HasPrefix(out, "Usage: evolved "+strings.Join(args, " ")) {
			t.Errorf("evolved %v -h: status %d, want 0 and a Usage line:\n%s", args, code, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.Count(line, "(default") > 1 {
				t.Errorf("evolved %v -h prints two defaults: %q", args, line)
			}
			// One way to write a default value: Go's "(default 10)" or
			// (default "auto"); "(default: ...)" is for defaults in words.
			if plainDefault.MatchString(line) {
				t.Errorf("evolved %v -h writes a value default with a colon; write it as the flag package does: %q", args, line)
			}
			m := flagLine.FindStringSubmatch(line)
			if m == nil || m[2] == "" {
				continue
			}
			if typeNames[m[2]] || strings.Contains(m[2], " ") || strings.ToUpper(m[2]) != m[2] {
				t.Errorf("evolved %v -h: flag -%s takes %q; want an argument name such as N or FILE", args, m[1], m[2])
			}
		}
	}

	out, _ := exitStatus(t, "run", "-h")
	for _, want := range []string{"\n  -generations N\n", "\n  -seed S\n", "\n  -workers W\n", "\n  -game LIST\n", "\n  -db FILE\n", "\n  -config FILE\n",
		"[--game draughts,chess,xiangqi]", "LIST of draughts, chess, xiangqi"} {
		if !strings.Contains(out, want) {
			t.Errorf("run -h lacks %q:\n%s", want, out)
		}
	}
}

// TestRunOnlyGivenFlagsOverride checks that the run flags stay
// strings at heart: a flag not given leaves the file's value alone, even a
// zero one.
func TestRunOnlyGivenFlagsOverride(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(config, []byte("generations = 7\nseed = 9\nworkers = 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := evolvedIn(t, dir, "run", "--config", config, "--print-config", "--workers", "0").CombinedOutput()
	if err != nil {
		t.Fatalf("run --print-config: %v\n%s", err, out)
	}
	for _, want := range []string{"\ngenerations = 7\n", "\nseed = 9\n", "\nworkers = 0\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("run --config (generations 7, seed 9, workers 5) --workers 0 --print-config lacks %q:\n%s", want, out)
		}
	}
}
