package layers

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// maxCell is the longest table cell, in characters, docs/configuration.md
// may hold: a reference is scanned a line a key, and what takes longer to
// say belongs on the page a row links to.
const maxCell = 200

// reference is the configuration reference, from the module's root.
const reference = "docs/configuration.md"

// TestConfigurationCellsAreShort checks every table cell of
// docs/configuration.md against maxCell.
func TestConfigurationCellsAreShort(t *testing.T) {
	root, _ := moduleRoot(t)
	text, err := readText(filepath.Join(root, reference))
	if err != nil {
		t.Fatal(err)
	}
	cells := 0
	for _, c := range tableCells(text) {
		cells++
		if n := utf8.RuneCountInString(c.Text); n > maxCell {
			t.Errorf("%s:%d: a cell of %d characters (at most %d): %.60s...", reference, c.Line, n, maxCell, c.Text)
		}
	}
	if cells < 300 {
		t.Errorf("%s: only %d table cells: is the reference still a table a key?", reference, cells)
	}
}

// TestDocLinksResolve checks every relative link of README.md and
// docs/*.md: its file exists and, for a link to a heading (#anchor) of a
// Markdown file, the heading does, as GitHub names its anchors.
func TestDocLinksResolve(t *testing.T) {
	root, _ := moduleRoot(t)
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, filepath.Join(root, "README.md"))
	if len(docs) < 10 {
		t.Fatalf("found only %d docs: did docs/ move?", len(docs))
	}
	links := 0
	for _, doc := range docs {
		text, err := readText(doc)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, doc)
		for _, l := range relativeLinks(text) {
			links++
			if p := linkProblem(doc, l.Target, readText); p != "" {
				t.Errorf("%s:%d: link %q: %s", rel, l.Line, l.Target, p)
			}
		}
	}
	if links < 100 {
		t.Errorf("checked only %d relative links: does relativeLinks still find them?", links)
	}
}

// readText reads a file as a string.
func readText(path string) (string, error) {
	b, err := os.ReadFile(path)
	return string(b), err
}

// cell is one table cell's trimmed text and its line (from 1).
type cell struct {
	Line int
	Text string
}

// tableCells returns the cells of every table row of a Markdown text (a
// line starting with '|', outside fenced code), split at the pipes that no
// backslash escapes, as GitHub splits them (a pipe in a code span splits
// too). Delimiter rows (| --- |) are left out.
func tableCells(text string) []cell {
	var cells []cell
	for i, line := range proseLines(text) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") || isDelimiterRow(line) {
			continue
		}
		var b strings.Builder
		flush := func() {
			cells = append(cells, cell{i + 1, strings.TrimSpace(b.String())})
			b.Reset()
		}
		body := strings.TrimSuffix(line[1:], "|")
		for j := 0; j < len(body); j++ {
			switch {
			case body[j] == '\\' && j+1 < len(body) && body[j+1] == '|':
				b.WriteByte('|')
				j++
			case body[j] == '|':
				flush()
			default:
				b.WriteByte(body[j])
			}
		}
		flush()
	}
	return cells
}

// delimiterRow matches a table's delimiter row: pipes, dashes, colons.
var delimiterRow = regexp.MustCompile(`^\|[\s:|-]*-[\s:|-]*$`)

func isDelimiterRow(line string) bool { return delimiterRow.MatchString(line) }

// proseLines returns text's lines with those of fenced code blocks (``` or
// ~~~, fences included) blanked, so that line numbers stay.
func proseLines(text string) []string {
	lines := strings.Split(text, "\n")
	fence := ""
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			lines[i] = ""
		case strings.HasPrefix(trimmed, "```"), strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
			lines[i] = ""
		}
	}
	return lines
}

// link is one link's target and its line (from 1).
type link struct {
	Line   int
	Target string
}

var (
	// inlineLink matches [text](target) and ![alt](target), the target up
	// to a space (a title) or the closing parenthesis.
	inlineLink = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// refDefinition matches a reference definition: [label]: target.
	refDefinition = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`)
	// codeSpan matches an inline code span, whose brackets are no link.
	codeSpan = regexp.MustCompile("`+[^`]*`+")
	// scheme matches a URL's scheme (https:, mailto:).
	scheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// relativeLinks returns the links of a Markdown text that point into the
// repository: not those with a scheme (https:, mailto:) or an absolute
// path, nor those in code.
func relativeLinks(text string) []link {
	var links []link
	for i, line := range proseLines(text) {
		line = codeSpan.ReplaceAllString(line, "")
		var targets []string
		for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
			targets = append(targets, m[1])
		}
		if m := refDefinition.FindStringSubmatch(line); m != nil {
			targets = append(targets, m[1])
		}
		for _, target := range targets {
			if scheme.MatchString(target) || strings.HasPrefix(target, "/") {
				continue
			}
			links = append(links, link{i + 1, target})
		}
	}
	return links
}

// linkProblem says what is wrong with a relative link target written in
// the file doc ("" when nothing is): a file that does not exist, or an
// anchor that no heading of the Markdown file it names has. read reads a
// file.
func linkProblem(doc, target string, read func(string) (string, error)) string {
	path, anchor, _ := strings.Cut(target, "#")
	file := doc
	if path != "" {
		file = filepath.Join(filepath.Dir(doc), filepath.FromSlash(path))
		if _, err := os.Stat(file); err != nil {
			return fmt.Sprintf("no file %s", path)
		}
	}
	if anchor == "" || !strings.HasSuffix(file, ".md") {
		return ""
	}
	text, err := read(file)
	if err != nil {
		return err.Error()
	}
	if !slices.Contains(anchors(text), anchor) {
		return fmt.Sprintf("no heading with the anchor #%s", anchor)
	}
	return ""
}

var (
	// heading matches an ATX heading and captures its text.
	heading = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	// htmlAnchor matches an explicit anchor: <a name="x"> or id="x".
	htmlAnchor = regexp.MustCompile(`(?:name|id)="([^"]+)"`)
	// linkText matches a link in a heading, whose anchor keeps its text.
	linkText = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
)

// anchors returns the anchors of a Markdown text's headings as GitHub
// names them (slug, then slug-1, slug-2 for repeats), with its explicit
// HTML anchors.
func anchors(text string) []string {
	var out []string
	seen := map[string]int{}
	for _, line := range proseLines(text) {
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			out = append(out, m[1])
		}
		m := heading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := slugify(m[1])
		if n := seen[slug]; n > 0 {
			out = append(out, fmt.Sprintf("%s-%d", slug, n))
		} else {
			out = append(out, slug)
		}
		seen[slug]++
	}
	return out
}

// slugify turns a heading's text into its anchor as GitHub does: the
// rendered text (links as their text, no code or emphasis marks) in lower
// case, letters, digits, '_' and '-' kept, each space a '-', the rest
// dropped.
func slugify(h string) string {
	h = linkText.ReplaceAllString(h, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestSlugify checks anchors against those GitHub gives these headings.
func TestSlugify(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Ratings in the daemon", "ratings-in-the-daemon"},
		{"Disk, retention and budget", "disk-retention-and-budget"},
		{"The distillation's searches", "the-distillations-searches"},
		{"Distillation: the search into the evaluation", "distillation-the-search-into-the-evaluation"},
		{"`[jobs]`", "jobs"},
		{"Players (`SPEC`)", "players-spec"},
		{"μ/μ_w and λ", "μμ_w-and-λ"},
		{"See [web.md](web.md) first", "see-webmd-first"},
		{"Where a generation's time goes", "where-a-generations-time-goes"},
		{"A - B", "a---b"},
	} {
		if got := slugify(tt.in); got != tt.want {
			t.Errorf("slugify(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestAnchorsNumberRepeats checks that a repeated heading gets -1, -2 and
// that headings in fenced code and explicit anchors count as GitHub
// counts them.
func TestAnchorsNumberRepeats(t *testing.T) {
	text := "# Tried\n## Tried\n```\n# Not a heading\n```\n<a name=\"here\"></a>\n### Tried\n"
	want := []string{"tried", "tried-1", "here", "tried-2"}
	if got := anchors(text); !slices.Equal(got, want) {
		t.Errorf("anchors = %q, want %q", got, want)
	}
}

// TestTableCells checks the split of rows into cells: escaped pipes kept,
// delimiter rows and fenced code left out, lines counted from 1.
func TestTableCells(t *testing.T) {
	text := "intro\n| key | default |\n| --- | :-: |\n| `a\\|b` | 1 |\n```\n| not | a table |\n```\n|x|\n"
	want := []cell{{2, "key"}, {2, "default"}, {4, "`a|b`"}, {4, "1"}, {8, "x"}}
	if got := tableCells(text); !slices.Equal(got, want) {
		t.Errorf("tableCells = %v, want %v", got, want)
	}
}

// TestRelativeLinks checks which links are taken as the repository's:
// inline and reference links with relative targets, not URLs, absolute
// paths or code.
func TestRelativeLinks(t *testing.T) {
	text := "See [a](a.md#x), [b](https://b.org/c), ![i](img/p.png \"title\") and `[c](c.md)`.\n" +
		"[d](/abs) [e](#local) [f](mailto:x@y)\n[ref]: ../deploy/INSTALL.md\n"
	want := []link{{1, "a.md#x"}, {1, "img/p.png"}, {2, "#local"}, {3, "../deploy/INSTALL.md"}}
	if got := relativeLinks(text); !slices.Equal(got, want) {
		t.Errorf("relativeLinks = %v, want %v", got, want)
	}
}

// TestLinkProblem checks a link to a missing file, to a missing heading,
// and to headings that exist, in another file and in the same one.
func TestLinkProblem(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "doc.md")
	other := filepath.Join(dir, "other.md")
	for path, text := range map[string]string{doc: "# Top\n## Same page\n", other: "# Other\n## The GA's step\n"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct{ target, want string }{
		{"other.md", ""},
		{"other.md#the-gas-step", ""},
		{"#same-page", ""},
		{"missing.md", "no file missing.md"},
		{"other.md#the-ga-step", "no heading with the anchor #the-ga-step"},
		{"#nowhere", "no heading with the anchor #nowhere"},
	} {
		if got := linkProblem(doc, tt.target, readText); got != tt.want {
			t.Errorf("linkProblem(%q) = %q, want %q", tt.target, got, tt.want)
		}
	}
}
