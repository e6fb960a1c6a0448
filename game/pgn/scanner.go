// Package pgn is the layer that the game record formats of our games
// share: PGN for chess, PDN for draughts (PDN is PGN with the draughts
// notation) and the PGN of xiangqi. A Scanner reads tag pairs
// [Name "value"], words of move text, and skips comments ({...}, ; and %
// to the end of the line), variations ((...), nested) and NAGs ($1),
// counting lines. A Reader drives a Scanner through a file of games as
// PGN and PDN read it: where games begin and end, move numbers and
// suffixes, results. What a tag, a move and a result mean belongs to the
// game packages, which give a Reader their callbacks (xiangqi, whose
// records have rules of their own, drives a Scanner itself). For writing,
// Format lays out a game's tags and move text as PGN and PDN write them
// (xiangqi's move text through MoveLines), and CheckTag, AddMissing and
// SetUp are the tag rules their writers share.
package pgn

import (
	"bytes"
	"strings"

	"evolved/game"
)

// Scanner reads the tokens of a record text, one at a time. It is used by
// one goroutine.
type Scanner struct {
	src    []byte
	i      int   // the next byte to read
	line   int   // the line of src[i], from 1
	syntax error // the Kind of the errors it returns
}

// NewScanner returns a Scanner at the start of src (a byte order mark is
// skipped); its errors unwrap to syntax.
func NewScanner(src []byte, syntax error) *Scanner {
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	return &Scanner{src: src, line: 1, syntax: syntax}
}

// errorf returns a syntax error: a *game.Error that unwraps to the
// sentinel the Scanner was made with, so that the game packages' callers
// test errors.Is against their own sentinel.
func (s *Scanner) errorf(format string, args ...any) error {
	return game.Errorf(s.syntax, format, args...)
}

// Line returns the line of the next byte, from 1.
func (s *Scanner) Line() int { return s.line }

// Peek returns the next byte, and false at the end of the text.
func (s *Scanner) Peek() (byte, bool) {
	if s.i >= len(s.src) {
		return 0, false
	}
	return s.src[s.i], true
}

// newline consumes one line break: LF, CR LF or a lone CR.
func (s *Scanner) newline() {
	if s.src[s.i] == '\r' && s.i+1 < len(s.src) && s.src[s.i+1] == '\n' {
		s.i++
	}
	s.i++
	s.line++
}

// isSpace reports whether c separates tokens without meaning anything.
// 0x1A is the end-of-file mark of old DOS files.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == 0x1A
}

// SkipSpace skips white space and line breaks.
func (s *Scanner) SkipSpace() {
	for s.i < len(s.src) {
		switch c := s.src[s.i]; {
		case c == '\n' || c == '\r':
			s.newline()
		case isSpace(c):
			s.i++
		default:
			return
		}
	}
}

// SkipLine skips to the end of the line, leaving the line break: a ; or %
// comment.
func (s *Scanner) SkipLine() {
	for s.i < len(s.src) && s.src[s.i] != '\n' && s.src[s.i] != '\r' {
		s.i++
	}
}

// Word reads a run of bytes up to white space or a byte that starts
// another token.
func (s *Scanner) Word() string {
	start := s.i
	for s.i < len(s.src) {
		c := s.src[s.i]
		if c == '\n' || c == '\r' || isSpace(c) || strings.IndexByte(`[]{}();"$%`, c) >= 0 {
			break
		}
		s.i++
	}
	return string(s.src[start:s.i])
}

// Comment skips a {...} comment, which may span lines; the next byte is {.
func (s *Scanner) Comment() error {
	open := s.line
	s.i++
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case '}':
			s.i++
			return nil
		case '\n', '\r':
			s.newline()
		default:
			s.i++
		}
	}
	return s.errorf("comment opened on line %d is not closed", open)
}

// Variation skips a variation, (...), with the variations and comments
// nested in it; the next byte is (.
func (s *Scanner) Variation() error {
	open := s.line
	depth := 0
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case '(':
			depth++
			s.i++
		case ')':
			depth--
			s.i++
			if depth == 0 {
				return nil
			}
		case '{':
			if err := s.Comment(); err != nil {
				return err
			}
		case ';', '%':
			s.SkipLine()
		case '\n', '\r':
			s.newline()
		default:
			s.i++
		}
	}
	return s.errorf("variation opened on line %d is not closed", open)
}

// NAG skips a numeric annotation glyph, $ and a number; the next byte is $.
func (s *Scanner) NAG() error {
	s.i++
	start := s.i
	for s.i < len(s.src) && isDigit(s.src[s.i]) {
		s.i++
	}
	if s.i == start {
		return s.errorf("$ without a number (want a NAG like $1)")
	}
	return nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// IsTagName reports whether s is a tag name: a letter, then letters,
// digits and underscores. (PDN 3.0 asks for a capital first; reading
// accepts any letter, and writing accepts what reading does.)
func IsTagName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		if !letter && (i == 0 || !isDigit(c) && c != '_') {
			return false
		}
	}
	return true
}

// Tag reads a tag pair, [Name "value"]; the next byte is [. In the value
// \" and \\ stand for " and \, any other backslash is kept, and the value
// must end on its line.
func (s *Scanner) Tag() (name, value string, err error) {
	s.i++ // [
	s.SkipSpace()
	start := s.i
	for s.i < len(s.src) && (isDigit(s.src[s.i]) || s.src[s.i] == '_' || s.src[s.i]|0x20 >= 'a' && s.src[s.i]|0x20 <= 'z') {
		s.i++
	}
	name = string(s.src[start:s.i])
	if !IsTagName(name) {
		return "", "", s.errorf("tag name expected after [, found %q", s.peekText())
	}
	s.SkipSpace()
	if s.i >= len(s.src) || s.src[s.i] != '"' {
		return "", "", s.errorf("tag %s: value must be a quoted string", name)
	}
	if value, err = s.quoted(name); err != nil {
		return "", "", err
	}
	s.SkipSpace()
	if s.i >= len(s.src) || s.src[s.i] != ']' {
		return "", "", s.errorf("tag %s: missing ] after the value", name)
	}
	s.i++
	return name, value, nil
}

// peekText returns the text at the read position, for error messages.
func (s *Scanner) peekText() string {
	end := s.i
	for end < len(s.src) && end-s.i < 20 && s.src[end] != '\n' && s.src[end] != '\r' {
		end++
	}
	return string(s.src[s.i:end])
}

// quoted reads a tag's quoted value.
func (s *Scanner) quoted(name string) (string, error) {
	s.i++ // "
	var b strings.Builder
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '"':
			s.i++
			return b.String(), nil
		case c == '\\' && s.i+1 < len(s.src) && (s.src[s.i+1] == '"' || s.src[s.i+1] == '\\'):
			b.WriteByte(s.src[s.i+1])
			s.i += 2
		case c == '\n' || c == '\r':
			return "", s.errorf("tag %s: value not closed on its line", name)
		default:
			b.WriteByte(c)
			s.i++
		}
	}
	return "", s.errorf("tag %s: value not closed", name)
}
