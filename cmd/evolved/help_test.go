package main

import (
	"flag"
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

// helpCase is the -h of a command, or of one mode of a command with
// modes, and the FlagSet its flags are registered on.
type helpCase struct {
	args  []string // the command line before -h
	flags *flag.FlagSet
	modes []mode // the modes its usage line names instead of flags
}

// helpCases returns every command's -h and every mode's, so that a new
// command or mode is checked without being listed here.
func helpCases() []helpCase {
	var cases []helpCase
	for _, c := range commands() {
		fs := flag.NewFlagSet("evolved "+c.name, flag.ContinueOnError)
		c.setup(fs)
		cases = append(cases, helpCase{args: []string{c.name}, flags: fs, modes: c.modes})
		for _, m := range c.modes {
			fs := flag.NewFlagSet("evolved "+c.name+" "+m.name, flag.ContinueOnError)
			m.setup(fs)
			cases = append(cases, helpCase{args: []string{c.name, m.name}, flags: fs})
		}
	}
	return cases
}

// helpOf runs `evolved ARGS -h` and returns its output.
func helpOf(t *testing.T, args []string) string {
	t.Helper()
	out, code := exitStatus(t, append(args, "-h")...)
	if code != 0 {
		t.Fatalf("evolved %s -h: status %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// flagEntry returns the -h entry of the flag name: its line and the lines
// of its usage, up to the next flag's.
func flagEntry(out, name string) string {
	_, entry, ok := strings.Cut(out, "\n  -"+name+" ")
	if !ok {
		_, entry, _ = strings.Cut(out, "\n  -"+name+"\n")
	}
	if i := strings.Index(entry, "\n  -"); i >= 0 {
		entry = entry[:i]
	}
	return entry
}

// TestHelpDBFlagNamesItsDefault checks that every command's --db says what
// it reads when the flag is not given, in the words of storage.DefaultPath:
// evolved.db, or $EVOLVED_DB (issue 63: only run's said so), one way for
// every command: dbDefault, or dbNoDefault for a --db that is one source
// among others (play, rate, show).
func TestHelpDBFlagNamesItsDefault(t *testing.T) {
	for _, c := range helpCases() {
		if c.flags.Lookup("db") == nil {
			continue
		}
		t.Run(strings.Join(c.args, "_"), func(t *testing.T) {
			entry := strings.Join(strings.Fields(flagEntry(helpOf(t, c.args), "db")), " ")
			for _, want := range []string{"evolved.db", "$EVOLVED_DB"} {
				if !strings.Contains(entry, want) {
					t.Errorf("--db does not mention %s: %q", want, entry)
				}
			}
			if !strings.Contains(entry, dbDefault) && !strings.Contains(entry, dbNoDefault) {
				t.Errorf("--db words its default its own way: %q, want %q or %q", entry, dbDefault, dbNoDefault)
			}
		})
	}
}
