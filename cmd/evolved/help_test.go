package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"evolved/player"
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
	// Help refills a flag's usage to its width: a phrase of one may span
	// two lines.
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"\n  -generations N\n", "\n  -seed S\n", "\n  -workers W\n", "\n  -game LIST\n", "\n  -db FILE\n", "\n  -config FILE\n",
		"[--game draughts,chess,xiangqi]", "LIST of draughts, chess, xiangqi"} {
		if !strings.Contains(out, want) && !strings.Contains(flat, want) {
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

// usageLines returns the usage lines of a -h: from the first line to the
// first blank one.
func usageLines(out string) string {
	usage, _, _ := strings.Cut(out, "\n\n")
	return usage
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

// usageNamesFlag reports whether text names the flag name as -name or
// --name, not as part of a longer name (--game in --games, --opening in
// --opening-plies). It is the test's own, not help's namesFlag, so that
// a mistake in one is not hidden by the same mistake in the other.
func usageNamesFlag(text, name string) bool {
	return regexp.MustCompile(`(^|[^\w-])--?` + regexp.QuoteMeta(name) + `([^\w-]|$)`).MatchString(text)
}

// TestHelpUsageNamesEveryFlag checks that the usage lines of every -h name
// each flag the command registers (issue 63: match's lacked --seed, --tc,
// --nodes and others). A command with modes (chess960) names its modes
// instead, and each mode's own -h names that mode's flags.
func TestHelpUsageNamesEveryFlag(t *testing.T) {
	for _, c := range helpCases() {
		t.Run(strings.Join(c.args, "_"), func(t *testing.T) {
			usage := usageLines(helpOf(t, c.args))
			for _, m := range c.modes {
				if !regexp.MustCompile(`\b` + m.name + `\b`).MatchString(usage) {
					t.Errorf("the usage lines do not name the mode %s:\n%s", m.name, usage)
				}
			}
			c.flags.VisitAll(func(f *flag.Flag) {
				if !usageNamesFlag(usage, f.Name) {
					t.Errorf("the usage lines do not name --%s:\n%s", f.Name, usage)
				}
			})
		})
	}
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

// flagWord matches a flag as help writes it: -o, --db, [--game, (--agent.
var flagWord = regexp.MustCompile(`^[\[(]*--?[a-z][a-z0-9-]*$`)

// firstUnit returns what a line begins with that help keeps on one line:
// its first word, or a flag and the argument after it (--db FILE).
func firstUnit(line string) string {
	words := strings.Fields(line)
	switch {
	case len(words) == 0:
		return ""
	case len(words) > 1 && flagWord.MatchString(words[0]) && !strings.ContainsAny(words[1][:1], "-[(|"):
		return words[0] + " " + words[1]
	}
	return words[0]
}

// TestHelpLinesKeepFlagsWhole checks every line of every -h and of
// `evolved help` (issue 63: lines wrapped in the middle of a flag, and
// worker's broke mid-sentence):
//   - it fits in 80 columns, so that no terminal wraps it where it must,
//     a flag's name included;
//   - it does not end in a dash, the first half of a flag;
//   - it does not end in a flag whose argument starts the next line;
//   - in a paragraph of prose (the description, a flag's usage) it does not
//     end before a word that would have fit on it.
func TestHelpLinesKeepFlagsWhole(t *testing.T) {
	const width = 80
	argWord := regexp.MustCompile(`^[A-Z][A-Z0-9_]*([.+:|\]]|$)`)
	cases := append([]helpCase{{args: nil}}, helpCases()...)
	for _, c := range cases {
		name := strings.Join(c.args, "_")
		if name == "" {
			name = "help"
		}
		t.Run(name, func(t *testing.T) {
			var out string
			if c.args == nil {
				out, _ = exitStatus(t, "help")
			} else {
				out = helpOf(t, c.args)
			}
			lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
			section := "usage"
			for i, line := range lines {
				cols := len([]rune(expandTabs(line)))
				if cols > width {
					t.Errorf("line %d is %d columns, more than %d: %q", i+1, cols, width, line)
				}
				trimmed := strings.TrimRight(line, " ")
				if strings.HasSuffix(trimmed, "-") {
					t.Errorf("line %d ends in a dash: %q", i+1, line)
				}
				switch {
				case line == "":
					section = "text"
					continue
				case line == "Flags:":
					section = "flags"
					continue
				}
				if i+1 == len(lines) || lines[i+1] == "" {
					continue
				}
				next := lines[i+1]
				words := strings.Fields(trimmed)
				if last := words[len(words)-1]; flagWord.MatchString(last) && argWord.MatchString(strings.TrimSpace(next)) {
					t.Errorf("line %d ends in %s, whose argument starts the next line:\n%s\n%s", i+1, last, line, next)
				}
				// Lines of prose: the description's (not indented, as a
				// format or a command line is) and a flag's usage (after
				// the tab), each followed by one of the same paragraph.
				prose := section == "text" && !strings.HasPrefix(line, " ") && !strings.HasPrefix(next, " ") ||
					section == "flags" && strings.HasPrefix(line, "    \t") && strings.HasPrefix(next, "    \t")
				if prose {
					if unit := firstUnit(next); len([]rune(expandTabs(trimmed)))+1+len([]rune(unit)) <= width {
						t.Errorf("line %d breaks early: %q would fit on it:\n%s\n%s", i+1, unit, line, next)
					}
				}
			}
		})
	}
}

// expandTabs returns line as a terminal shows it, tab stops every 8
// columns.
func expandTabs(line string) string {
	var b strings.Builder
	col := 0
	for _, r := range line {
		if r == '\t' {
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// TestHelpListsEveryPlayerSpec checks that the -h of every command that
// takes a player SPEC lists, a row each in its Players (SPEC) section,
// every kind of spec the player package parses for the command's games
// (issue 63: pst:D was missing). Each kind is found by its example parsing:
// a kind a parser does not read fails with "unknown player" or "no such
// GAME player"; any other outcome (a player, a missing file, a run that
// needs a database) means the parser reads it. The kinds are listed here,
// apart from player.Forms, which help lists: a kind Forms leaves out
// fails here.
func TestHelpListsEveryPlayerSpec(t *testing.T) {
	kinds := []struct{ shown, example string }{
		{"random", "random"},
		{"material:D", "material:2"},
		{"pst:D", "pst:2"},
		{"pesto:D", "pesto:2"},
		{"mcts:N", "mcts:8"},
		{"ept:N", "ept:8"},
		{"ept:N@FILE", "ept:8@missing.json"},
		{"FILE.json", "missing.json"},
		{"uci:PATH", "uci:/bin/true"},
		{"classic", "classic"},
		{"classic+", "classic+:100"},
		{"pheromones:FILE", "pheromones:missing.txt"},
		{"meta:RUN", "meta:1"},
		{"SPEC#TECHNIQUES", "material:2#-lmr"},
	}
	parsers := map[string]func(string) error{
		"draughts": func(s string) error { _, err := player.ParseDraughts(s); return err },
		"chess":    func(s string) error { _, err := player.ParseChess(s); return err },
		"xiangqi":  func(s string) error { _, err := player.ParseXiangqi(s); return err },
	}
	reads := func(game, spec string) bool {
		err := parsers[game](spec)
		return err == nil || !strings.Contains(err.Error(), "unknown player") && !strings.Contains(err.Error(), "no such "+game+" player")
	}
	for _, k := range kinds {
		if !reads("draughts", k.example) && !reads("chess", k.example) && !reads("xiangqi", k.example) {
			t.Errorf("no parser reads %s, the example of %s", k.example, k.shown)
		}
	}
	// The commands' games: suite and meta play chess alone.
	chessOnly := map[string]bool{"suite": true, "meta": true}
	for _, c := range helpCases() {
		takesSpec := false
		c.flags.VisitAll(func(f *flag.Flag) {
			name, usage := flag.UnquoteUsage(f)
			takesSpec = takesSpec || name == "SPEC" || strings.Contains(usage, "player SPEC")
		})
		if !takesSpec {
			continue
		}
		games := []string{"draughts", "chess", "xiangqi"}
		if chessOnly[c.args[0]] {
			games = []string{"chess"}
		}
		t.Run(strings.Join(c.args, "_"), func(t *testing.T) {
			_, section, _ := strings.Cut(helpOf(t, c.args), "\nPlayers (SPEC):\n")
			for _, k := range kinds {
				var readers []string
				for _, g := range games {
					if reads(g, k.example) {
						readers = append(readers, g)
					}
				}
				row := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(k.shown) + `[\[ ]`)
				if len(readers) > 0 && !row.MatchString(section) {
					t.Errorf("-h lists no %s (%s) among the players; the parsers of %s read it:\n%s", k.shown, k.example, strings.Join(readers, ", "), section)
				}
			}
		})
	}
}

// TestHelpWrap checks where help may break a line: between words and
// groups, never inside a flag and its argument, a group in brackets that
// fits, or before a lone |.
func TestHelpWrap(t *testing.T) {
	cases := []struct {
		text  string
		width int
		usage bool // a usage line's form (groups), not prose (words)
		want  []string
	}{
		{"read the configuration from --db FILE now", 30, false, []string{"read the configuration from", "--db FILE now"}},
		{"the client key (with --tls-cert FILE)", 25, false, []string{"the client key (with", "--tls-cert FILE)"}},
		{"--game G [--tc BASE+INC | --nodes N] [-o FILE]", 30, true, []string{"--game G", "[--tc BASE+INC | --nodes N]", "[-o FILE]"}},
		{"--agent FILE | --db FILE [--game G]", 20, true, []string{"--agent FILE |", "--db FILE [--game G]"}},
		// A group wider than the line breaks between its words, flags
		// still with their arguments.
		{"(--agent FILE | --db FILE [--game G])", 20, true, []string{"(--agent FILE |", "--db FILE", "[--game G])"}},
		{`[--from "e2e4 e7e5 ..." | --fen F]`, 40, true, []string{`[--from "e2e4 e7e5 ..." | --fen F]`}},
	}
	for _, c := range cases {
		units := words(c.text)
		if c.usage {
			units = groups(c.text, c.width)
		}
		if got := wrap(units, c.width); !slices.Equal(got, c.want) {
			t.Errorf("wrap(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
		}
	}
}
