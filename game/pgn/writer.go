package pgn

import (
	"slices"
	"strings"

	"evolved/game"
)

// Tag is one tag pair of a record, [Name "Value"].
type Tag struct {
	Name, Value string
}

// TagValue returns the value of the first tag called name, or "" if there
// is none.
func TagValue(tags []Tag, name string) string {
	if i := tagIndex(tags, name); i >= 0 {
		return tags[i].Value
	}
	return ""
}

// HasTag reports whether a tag is called name.
func HasTag(tags []Tag, name string) bool { return tagIndex(tags, name) >= 0 }

// tagIndex returns the index of the first tag called name, or -1.
func tagIndex(tags []Tag, name string) int {
	return slices.IndexFunc(tags, func(t Tag) bool { return t.Name == name })
}

// SetTag sets the value of the first tag called name, or appends the tag
// if there is none, and returns the tags.
func SetTag(tags []Tag, name, value string) []Tag {
	if i := tagIndex(tags, name); i >= 0 {
		tags[i].Value = value
		return tags
	}
	return append(tags, Tag{Name: name, Value: value})
}

// CheckTag checks that tags[i] can be written: its name is a letter
// followed by letters, digits and underscores, its value has no line
// break, and no earlier tag has its name. Its errors wrap syntax.
func CheckTag(tags []Tag, i int, syntax error) error {
	t := tags[i]
	if !IsTagName(t.Name) {
		return game.Errorf(syntax, "tag name %q is not a letter followed by letters, digits and underscores", t.Name)
	}
	if strings.ContainsAny(t.Value, "\n\r") {
		return game.Errorf(syntax, "tag %s: value has a line break", t.Name)
	}
	if tagIndex(tags[:i], t.Name) >= 0 {
		return game.Errorf(syntax, "tag %s given twice", t.Name)
	}
	return nil
}

// AddMissing appends to tags, in order, each of defaults whose name no tag
// has, and returns the tags.
func AddMissing(tags, defaults []Tag) []Tag {
	for _, d := range defaults {
		if !HasTag(tags, d.Name) {
			tags = append(tags, d)
		}
	}
	return tags
}

// SetUp marks a game that starts from a position of its own, fen: it
// appends a FEN tag with fen if there is none, and sets the SetUp tag to
// "1", inserting it just before the FEN tag if there is none; it returns
// the tags.
func SetUp(tags []Tag, fen string) []Tag {
	if !HasTag(tags, "FEN") {
		tags = append(tags, Tag{"FEN", fen})
	}
	if i := tagIndex(tags, "SetUp"); i >= 0 {
		tags[i].Value = "1"
		return tags
	}
	return slices.Insert(tags, tagIndex(tags, "FEN"), Tag{"SetUp", "1"})
}

// MaxLine is the longest line of move text that Format and MoveLines
// write: PGN asks for at most 79 columns, PDN for fewer than 80.
const MaxLine = 79

// Format returns a game's record: its tags [Name "Value"] with '"' and '\'
// escaped by '\', a blank line, the move text's units and the result in
// lines of at most MaxLine columns (MoveLines), and a blank line, so that
// records written one after another make a file.
func Format(tags []Tag, units []string, result string) string {
	var b strings.Builder
	for _, t := range tags {
		b.WriteString("[" + t.Name + ` "`)
		for i := 0; i < len(t.Value); i++ {
			if c := t.Value[i]; c == '"' || c == '\\' {
				b.WriteByte('\\')
			}
			b.WriteByte(t.Value[i])
		}
		b.WriteString("\"]\n")
	}
	b.WriteByte('\n')
	l := lines{b: &b}
	for _, u := range units {
		l.write(u)
	}
	l.write(result)
	b.WriteString("\n\n")
	return b.String()
}

// MoveLines returns units separated by spaces, in lines of at most MaxLine
// columns (a unit longer than a line stands alone on its line).
func MoveLines(units []string) string {
	var b strings.Builder
	l := lines{b: &b}
	for _, u := range units {
		l.write(u)
	}
	return b.String()
}

// lines writes units of move text to b in lines of at most MaxLine columns.
type lines struct {
	b      *strings.Builder
	column int // the length of the line being written
}

// write writes a unit, after a space or on a new line.
func (l *lines) write(unit string) {
	if l.column > 0 && l.column+1+len(unit) > MaxLine {
		l.b.WriteByte('\n')
		l.column = 0
	}
	if l.column > 0 {
		l.b.WriteByte(' ')
		l.column++
	}
	l.b.WriteString(unit)
	l.column += len(unit)
}
