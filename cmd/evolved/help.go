package main

import (
	"flag"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"evolved/player"
)

// helpWidth is the width of help, a terminal's 80 columns: a longer line
// is wrapped by the terminal wherever it must, in the middle of a flag's
// name if that is where the 81st column falls.
const helpWidth = 80

// flagIndent starts each line of a flag's usage, as the flag package
// starts it: four spaces and a tab, column 8 with tab stops of 4 or 8.
const flagIndent = "    \t"

// help is the -h text of a command, or of one mode of a command with
// modes: its usage lines, its description, its flags and, for a command
// that takes a player SPEC, the players.
type help struct {
	// usage holds the command's forms, what follows "evolved NAME" on each
	// usage line. The flags no form names are added to the first as
	// [--name ARG], so that the usage lines name every flag.
	usage []string
	// about describes the command: paragraphs separated by blank lines,
	// refilled to helpWidth, and lines that begin with a space (a format,
	// a command line), kept as written.
	about string
	// players are the games whose player specs help lists after the
	// flags, from player.Forms; nil for a command that takes no SPEC.
	players []string
}

// setHelp makes h the -h text of fs.
func setHelp(fs *flag.FlagSet, h help) {
	fs.Usage = func() { h.write(fs.Output(), fs) }
}

// write writes h, the help of fs, to w.
func (h help) write(w io.Writer, fs *flag.FlagSet) {
	var b strings.Builder
	b.WriteString(usageText(fs, h.usage))
	if h.about != "" {
		b.WriteString("\n" + fill(h.about))
	}
	if flags := flagsText(fs); flags != "" {
		b.WriteString("\nFlags:\n" + flags)
	}
	if len(h.players) > 0 {
		b.WriteString("\nPlayers (SPEC):\n" + playersText(h.players))
	}
	io.WriteString(w, b.String())
}

// usageText returns the usage lines of fs's command, one form each, the
// flags no form names added to the first, each wrapped to helpWidth under
// its own start.
func usageText(fs *flag.FlagSet, forms []string) string {
	forms = slices.Clone(forms)
	if len(forms) == 0 {
		forms = []string{""}
	}
	all := strings.Join(forms, " ")
	var extra []string
	fs.VisitAll(func(f *flag.Flag) {
		if !namesFlag(all, f.Name) {
			extra = append(extra, "["+flagForm(f)+"]")
		}
	})
	forms[0] = strings.TrimSpace(forms[0] + " " + strings.Join(extra, " "))
	var b strings.Builder
	for i, form := range forms {
		lead := "Usage: "
		if i > 0 {
			lead = "       "
		}
		lead += fs.Name() + " "
		if form == "" {
			b.WriteString(strings.TrimRight(lead, " ") + "\n")
			continue
		}
		b.WriteString(hang(lead, wrap(groups(form, helpWidth-len(lead)), helpWidth-len(lead))))
	}
	return b.String()
}

// namesFlag reports whether text names the flag name as -name or --name,
// not as the start of a longer name (--game in --games, --opening in
// --opening-plies).
func namesFlag(text, name string) bool {
	return regexp.MustCompile(`(^|[^\w-])--?` + regexp.QuoteMeta(name) + `([^\w-]|$)`).MatchString(text)
}

// flagForm returns how a usage line names the flag f: --name ARG, ARG
// being the argument its usage names (--name alone for a switch), and a
// single dash for a name of one letter (-o FILE), as the command lines
// in the docs write it.
func flagForm(f *flag.Flag) string {
	arg, _ := flag.UnquoteUsage(f)
	form := "--" + f.Name
	if len(f.Name) == 1 {
		form = "-" + f.Name
	}
	if arg != "" {
		form += " " + arg
	}
	return form
}

// flagsText returns fs's flags as the flag package prints them, each
// flag's usage refilled to helpWidth.
func flagsText(fs *flag.FlagSet) string {
	var b strings.Builder
	fs.VisitAll(func(f *flag.Flag) {
		// The flag package words the entry (the argument's name, the
		// default when it is not the zero value): one flag at a time, so
		// that where an entry ends is known.
		one := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
		var out strings.Builder
		one.SetOutput(&out)
		one.Var(f.Value, f.Name, f.Usage)
		one.Lookup(f.Name).DefValue = f.DefValue
		one.PrintDefaults()
		entry := strings.ReplaceAll(strings.TrimRight(out.String(), "\n"), "\n"+flagIndent, "\n")
		head, usage := entry, ""
		if i := strings.IndexAny(entry, "\t\n"); i >= 0 {
			head, usage = entry[:i], entry[i+1:]
		}
		b.WriteString(head + "\n")
		for _, line := range wrap(words(usage), helpWidth-8) {
			b.WriteString(flagIndent + line + "\n")
		}
	})
	return b.String()
}

// playersText returns the player specs the parsers of games read, one
// form a line; with several games, the forms of only some say whose.
func playersText(games []string) string {
	type row struct{ spec, about string }
	var rows []row
	width := 0
	for _, f := range player.Forms() {
		if !slices.ContainsFunc(games, f.ForGame) {
			continue
		}
		about := f.About
		if len(games) > 1 && f.Games != nil {
			about = andList(f.Games) + ": " + about
		}
		rows = append(rows, row{f.Spec, about})
		width = max(width, utf8.RuneCountInString(f.Spec))
	}
	var b strings.Builder
	for _, r := range rows {
		lead := "  " + r.spec + strings.Repeat(" ", width-utf8.RuneCountInString(r.spec)+2)
		b.WriteString(hang(lead, wrap(words(r.about), helpWidth-len(lead))))
	}
	return b.String()
}

// andList joins items as a sentence does: "chess", "chess and xiangqi",
// "draughts, chess and xiangqi".
func andList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// fill refills the paragraphs of text to helpWidth: lines separated by a
// blank one are a paragraph; a line that begins with a space is kept as
// written.
func fill(text string) string {
	var b strings.Builder
	var para []string
	flush := func() {
		for _, line := range wrap(words(strings.Join(para, " ")), helpWidth) {
			b.WriteString(line + "\n")
		}
		para = nil
	}
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		switch {
		case line == "":
			flush()
			b.WriteString("\n")
		case strings.HasPrefix(line, " "):
			flush()
			b.WriteString(line + "\n")
		default:
			para = append(para, line)
		}
	}
	flush()
	return b.String()
}

// hang returns lines, the first after lead and the others under it.
func hang(lead string, lines []string) string {
	var b strings.Builder
	indent := strings.Repeat(" ", utf8.RuneCountInString(lead))
	for i, line := range lines {
		if i == 0 {
			b.WriteString(lead + line + "\n")
		} else {
			b.WriteString(indent + line + "\n")
		}
	}
	return b.String()
}

// wrap fills units into lines of at most width columns, breaking only
// between units; a unit wider than width has a line of its own.
func wrap(units []string, width int) []string {
	var lines []string
	line := ""
	for _, u := range units {
		switch {
		case line == "":
			line = u
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(u) <= width:
			line += " " + u
		default:
			lines = append(lines, line)
			line = u
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// flagToken matches a flag as help writes it in a sentence or a usage
// line: -o, --db, [--game, (--agent.
var flagToken = regexp.MustCompile(`^[\[(]*--?[a-z][a-z0-9-]*$`)

// words splits prose into the units a line break may fall between: its
// words, except that a flag keeps the argument after it (--db FILE) and a
// lone | keeps the alternative before it.
func words(text string) []string {
	return glue(strings.Fields(text))
}

// groups splits a usage line's form into the units a line break may fall
// between: as words does, and a group in brackets, parentheses or quotes
// whole ([--tc BASE+INC | --nodes N]) unless it is wider than width.
func groups(form string, width int) []string {
	var units, group []string
	depth, quoted := 0, false
	for _, w := range strings.Fields(form) {
		group = append(group, w)
		depth += strings.Count(w, "[") + strings.Count(w, "(") - strings.Count(w, "]") - strings.Count(w, ")")
		quoted = quoted != (strings.Count(w, `"`)%2 == 1)
		if depth <= 0 && !quoted {
			units = append(units, strings.Join(group, " "))
			group, depth = nil, 0
		}
	}
	if group != nil {
		units = append(units, strings.Join(group, " "))
	}
	var out []string
	for _, u := range glue(units) {
		if utf8.RuneCountInString(u) > width {
			out = append(out, words(u)...)
			continue
		}
		out = append(out, u)
	}
	return out
}

// glue joins a flag to the argument after it, and a lone | to the unit
// before it.
func glue(units []string) []string {
	var out []string
	for i := 0; i < len(units); i++ {
		u := units[i]
		switch {
		case u == "|" && len(out) > 0:
			out[len(out)-1] += " |"
			continue
		case flagToken.MatchString(u) && i+1 < len(units) && !strings.ContainsAny(units[i+1][:1], "-[(|"):
			u += " " + units[i+1]
			i++
		}
		out = append(out, u)
	}
	return out
}
