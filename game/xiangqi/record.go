package xiangqi

// This file reads and writes game records: PGN as cutechess and
// Fairy-Stockfish based tools exchange xiangqi games, with a Variant
// "xiangqi" tag, White for Red and Black for Black, a FEN tag for a start
// other than the standard one, and the moves in Fairy-Stockfish's
// coordinates, each followed by its WXF in a comment for people.

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"evolved/game"
	"evolved/game/pgn"
)

// Record is one game: its tags, its start and its moves.
type Record struct {
	// Tags are the tag pairs in file order (name, value), the Result and
	// FEN tags included when read.
	Tags [][2]string
	// Start is the position the moves start from.
	Start Position
	// Moves are the moves, each legal in the position before it.
	Moves []Move
	// Result is "1-0" (Red won), "0-1" (Black won), "1/2-1/2" or "*".
	Result string
}

// Tag returns the value of the named tag, or "".
func (r *Record) Tag(name string) string {
	for _, t := range r.Tags {
		if t[0] == name {
			return t[1]
		}
	}
	return ""
}

// ResultString returns the PGN result of r: "1-0" when Red won, "0-1"
// when Black won, "1/2-1/2" for a draw and "*" for a game not over.
func ResultString(r game.Result) string { return r.Tag() }

// WriteRecord writes rec as PGN: the Seven Tag Roster (completed with "?"
// where missing, White standing for Red), Variant "xiangqi", a FEN tag
// when the start is not the standard one, then the numbered moves in
// coordinates with their WXF as comments, the result and a blank line.
// It checks the moves first and writes nothing if one is not legal.
func WriteRecord(w io.Writer, rec Record) error {
	result := rec.Result
	if result == "" {
		result = "*"
	}
	units, err := moveUnits(rec.Start, rec.Moves, true)
	if err != nil {
		return fmt.Errorf("xiangqi: write record: %w", err)
	}
	var moves strings.Builder
	col := 0
	for _, u := range append(units, result) {
		if col > 0 && col+1+len(u) > 79 {
			moves.WriteByte('\n')
			col = 0
		} else if col > 0 {
			moves.WriteByte(' ')
			col++
		}
		moves.WriteString(u)
		col += len(u)
	}
	var b strings.Builder
	tags := [][2]string{{"Event", "?"}, {"Site", "?"}, {"Date", "????.??.??"}, {"Round", "?"}, {"White", "?"}, {"Black", "?"}, {"Result", result}}
	for _, t := range rec.Tags {
		if strings.ContainsAny(t[1], "\"\\\n") || t[0] == "" {
			return fmt.Errorf("xiangqi: write record: tag %q has a value that cannot be written: %q", t[0], t[1])
		}
		found := false
		for i := range tags {
			if tags[i][0] == t[0] {
				if t[0] != "Result" {
					tags[i][1] = t[1]
				}
				found = true
			}
		}
		if !found && t[0] != "Variant" && t[0] != "FEN" && t[0] != "SetUp" {
			tags = append(tags, t)
		}
	}
	tags = append(tags, [2]string{"Variant", "xiangqi"})
	if rec.Start.FEN() != StartFEN {
		tags = append(tags, [2]string{"FEN", rec.Start.FEN()}, [2]string{"SetUp", "1"})
	}
	for _, t := range tags {
		fmt.Fprintf(&b, "[%s %q]\n", t[0], t[1])
	}
	b.WriteString("\n" + moves.String() + "\n\n")
	_, err = io.WriteString(w, b.String())
	return err
}

// MoveText writes moves from start as numbered move text in coordinates,
// "1. h3e3 h10g8 2. ...", as game records and the database store them. It
// checks that every move is legal where it is played.
func MoveText(start Position, moves []Move) (string, error) {
	units, err := moveUnits(start, moves, false)
	if err != nil {
		return "", fmt.Errorf("xiangqi: move text: %w", err)
	}
	return strings.Join(units, " "), nil
}

// moveUnits returns the move text of moves from start as units: move
// numbers ("1.", "1..." before a first move of Black's), the moves in
// coordinates and, with wxf, each move's WXF as a comment ("{C2=5}"). It
// checks that every move is legal where it is played.
func moveUnits(start Position, moves []Move, wxf bool) ([]string, error) {
	var units []string
	p := start
	var buf [MaxMoves]Move
	for i, m := range moves {
		if !slices.Contains(p.LegalMoves(buf[:0]), m) {
			return nil, fmt.Errorf("move %d (%s) is not legal in %s", i+1, m, p.FEN())
		}
		if p.side == Red || i == 0 {
			num := strconv.Itoa(int(p.fullmove)) + "."
			if p.side == Black {
				num += ".."
			}
			units = append(units, num)
		}
		units = append(units, m.String())
		if wxf {
			units = append(units, "{"+p.FormatWXF(m)+"}")
		}
		p = p.Play(m)
	}
	return units, nil
}

// ReadRecords reads the games of a PGN file of xiangqi games. It takes
// moves in coordinates (h3e3), WXF (C2=5) or the classic notation (H8,H5
// is one token only without spaces), skips move numbers, comments ({...},
// ; and % to the end of the line) and NAGs, and rejects variations. The
// lexical rules are those of chess PGN (package pgn). Errors name the line
// and the move that could not be read.
func ReadRecords(r io.Reader) ([]Record, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("xiangqi: read record: %w", err)
	}
	s := pgn.NewScanner(src, ErrSyntax)
	var out []Record
	var cur *Record
	var pos Position
	begin := func() {
		if cur == nil {
			cur = &Record{Start: Start()}
			pos = cur.Start
		}
	}
	finish := func(result string) {
		cur.Result = result
		out = append(out, *cur)
		cur = nil
	}
	for {
		s.SkipSpace()
		c, ok := s.Peek()
		if !ok {
			break
		}
		line := s.Line()
		fail := func(err error) error { return fmt.Errorf("xiangqi: read record: line %d: %w", line, err) }
		switch c {
		case '[':
			if cur != nil && len(cur.Moves) > 0 {
				finish("*")
			}
			begin()
			name, value, err := s.Tag()
			if err != nil {
				return nil, fail(err)
			}
			cur.Tags = append(cur.Tags, [2]string{name, value})
			switch name {
			case "FEN":
				p, err := ParseFEN(value)
				if err != nil {
					return nil, fail(fmt.Errorf("FEN tag: %w", err))
				}
				cur.Start, pos = p, p
			case "Variant":
				if v := strings.ToLower(value); v != "xiangqi" && v != "chinese chess" {
					return nil, fail(game.Errorf(ErrSyntax, "the game is of variant %q, not xiangqi", value))
				}
			}
		case '{':
			if err := s.Comment(); err != nil {
				return nil, fail(err)
			}
		case ';', '%':
			s.SkipLine()
		case '(':
			return nil, fail(game.Errorf(ErrSyntax, "variations are not supported"))
		case '$':
			begin()
			if err := s.NAG(); err != nil {
				return nil, fail(err)
			}
		case ')', ']', '}', '"':
			return nil, fail(game.Errorf(ErrSyntax, "unexpected %q", c))
		default:
			word := s.Word()
			begin()
			switch {
			case word == "1-0" || word == "0-1" || word == "1/2-1/2" || word == "*":
				finish(word)
			case isMoveNumber(word):
			default:
				m, err := parseAnyMove(&pos, word)
				if err != nil {
					return nil, fmt.Errorf("xiangqi: read record: line %d: move %d: %w", line, len(cur.Moves)+1, err)
				}
				cur.Moves = append(cur.Moves, m)
				pos = pos.Play(m)
			}
		}
	}
	if cur != nil {
		finish("*")
	}
	if len(out) == 0 {
		return nil, errors.New("xiangqi: read record: no game in the file")
	}
	return out, nil
}

// isMoveNumber reports whether w is a move number such as "12." or "3...".
func isMoveNumber(w string) bool {
	digits := strings.TrimRight(w, ".")
	if digits == w || digits == "" {
		return false
	}
	_, err := strconv.Atoi(digits)
	return err == nil
}

// parseAnyMove reads a move in coordinates, WXF or the classic notation,
// whichever the text looks like.
func parseAnyMove(p *Position, s string) (Move, error) {
	switch {
	case strings.Contains(s, ","), len(s) == 5 && s[2] == '-':
		return p.ParseClassic(s)
	case len(s) == 4 && strings.ContainsRune("+-=.", rune(s[2])):
		return p.ParseWXF(s)
	}
	return p.ParseUCI(s)
}

// ParseMoveText reads a move in any of the notations a person may type:
// Fairy-Stockfish's coordinates (h3e3), the classic program's (H8,H5) or
// WXF (C2=5), and returns it if it is legal in p. The error is that of the
// notation the text looks like, or for text that looks like none a syntax
// error showing all three.
func (p *Position) ParseMoveText(s string) (Move, error) {
	m, err := parseAnyMove(p, strings.TrimSpace(s))
	if errors.Is(err, ErrSyntax) && !strings.Contains(s, ",") && len(s) != 4 {
		return NoMove, fmt.Errorf("xiangqi: parse move %q in %s: %w", s, p.FEN(),
			game.Errorf(ErrSyntax, "want a move as H8,H5 (row A..J, column 1..9), h3e3 (coordinates) or C2=5 (WXF)"))
	}
	return m, err
}
