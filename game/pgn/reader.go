package pgn

import (
	"strings"

	"evolved/game"
)

// Reader reads every game of a record file in PGN's syntax, PGN's and
// PDN's alike. It owns the loop over the tokens: where a game begins and
// ends, tags given twice, move numbers and suffixes, comments, variations
// and NAGs (all skipped), and the game's result. The game package's
// callbacks say what the rest means: a tag, a move, a result.
//
// A game begins at its first tag or move-text token and ends at a result
// in its move text, where the next game's tags begin, or at the end of the
// text. Its result is the move text's result when that one is decided,
// else its Result tag's when that one is decided, else "*"; a decided
// result that contradicts a decided Result tag is an error.
type Reader struct {
	// Syntax is the sentinel that Read's syntax errors wrap.
	Syntax error
	// Marks are the move suffixes Read strips from a move before Move sees
	// it: "!?" for PGN's !, ?, !!, !?, ..., "!?*" for PDN, which also has *.
	Marks string
	// Result classifies a word: 0 if it is not a result, 1 for "*" (not
	// decided), and from 2 up for a decided result, the same number for
	// results that mean the same (PDN's "1-0" and "2-0").
	Result func(word string) int
	// Begin starts a new game; Tag, Move and End then apply to it.
	Begin func()
	// Tag reads a tag pair of the game; Read has checked that the game has
	// no other tag of that name. Tag keeps it in the game's tags.
	Tag func(name, value string) error
	// Move reads a move of the game's main line, its move number and the
	// Marks around it stripped.
	Move func(text string) error
	// End ends the game with its result (see Reader) and keeps it.
	End func(result string)
	// SetUp, if not nil, reads a token that starts with '/': a set-up
	// inside PDN's move text. Without it, such a token is read as a move.
	SetUp func(word string) error
}

// reading is the state of one Read: the game being read, if any.
type reading struct {
	*Scanner
	r      *Reader
	inGame bool     // whether a game has begun
	body   bool     // whether its move text has begun
	term   string   // the result that ended its move text, "" if none yet
	tags   []string // the names of its tags
	result string   // its Result tag, "" if none
}

// Read reads src, calling the callbacks in order, and stops at the first
// error, which it returns with the line of the token where it was found.
// It does not panic on any input.
func (r *Reader) Read(src []byte) (line int, err error) {
	g := &reading{Scanner: NewScanner(src, r.Syntax), r: r}
	for {
		g.SkipSpace()
		c, ok := g.Peek()
		if !ok {
			break
		}
		line = g.Line()
		switch {
		case c == '[':
			err = g.tag()
		case c == '{':
			err = g.Comment()
		case c == ';' || c == '%':
			g.SkipLine()
		case c == '(':
			g.begin()
			g.body = true
			err = g.Variation()
		case c == '$':
			g.begin()
			g.body = true
			err = g.NAG()
		case c == '/' && r.SetUp != nil:
			err = r.SetUp(g.Word())
		case c == ')' || c == ']' || c == '}' || c == '"':
			err = game.Errorf(r.Syntax, "unexpected %q", c)
		default:
			err = g.word(g.Word())
		}
		if err != nil {
			return line, err
		}
	}
	if g.inGame {
		if err := g.finish(); err != nil {
			return g.Line(), err
		}
	}
	return 0, nil
}

// begin starts a game if none has begun.
func (g *reading) begin() {
	if g.inGame {
		return
	}
	g.inGame, g.body, g.term, g.tags, g.result = true, false, "", g.tags[:0], ""
	g.r.Begin()
}

// finish ends the game being read and settles its result.
func (g *reading) finish() error {
	g.inGame = false
	result := "*"
	switch tag, term := g.r.Result(g.result), g.r.Result(g.term); {
	case term >= 2:
		if tag >= 2 && tag != term {
			return game.Errorf(g.r.Syntax, "result %s in the move text contradicts [Result %q]", g.term, g.result)
		}
		result = g.term
	case tag >= 2:
		result = g.result
	}
	g.r.End(result)
	return nil
}

// tag reads a tag pair. A tag after move text starts the next game.
func (g *reading) tag() error {
	if g.inGame && g.body {
		if err := g.finish(); err != nil {
			return err
		}
	}
	g.begin()
	name, value, err := g.Tag()
	if err != nil {
		return err
	}
	for _, t := range g.tags {
		if t == name {
			return game.Errorf(g.r.Syntax, "tag %s given twice", name)
		}
	}
	if err := g.r.Tag(name, value); err != nil {
		return err
	}
	g.tags = append(g.tags, name)
	if name == "Result" {
		g.result = value
	}
	return nil
}

// word reads a word of move text: a result, a move number, a move with
// optional suffixes, or an ellipsis.
func (g *reading) word(w string) error {
	g.begin()
	if g.r.Result(w) != 0 {
		g.term = w
		return g.finish()
	}
	g.body = true
	rest := w
	digits := 0
	for digits < len(rest) && isDigit(rest[digits]) {
		digits++
	}
	if digits > 0 && digits < len(rest) && rest[digits] == '.' {
		rest = strings.TrimLeft(rest[digits:], ".") // "12." or "12...", maybe with the move glued on
		if g.r.Result(rest) != 0 {
			g.term = rest
			return g.finish()
		}
	}
	move := strings.TrimRight(rest, g.r.Marks)
	if strings.Trim(move, ".") == "" {
		return nil // a move number alone, an ellipsis or a suffix alone
	}
	return g.r.Move(move)
}
