package chess

// This file reads and writes games in PGN, Portable Game Notation (the PGN
// standard of 1994, "Standard: Portable Game Notation Specification and
// Implementation Guide"), with moves in SAN. Chess960 games carry their
// start in a FEN tag, with Shredder-FEN castling where needed, and a
// Variant tag. As the standard recommends, writing is strict and reading is
// liberal.

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"evolved/game"
	"evolved/game/pgn"
)

// Tag is one PGN tag pair, [Name "Value"].
type Tag = pgn.Tag

// PGNGame is one game of a PGN file.
type PGNGame struct {
	// Tags are the game's tag pairs in file order. ReadPGN keeps every tag
	// it reads, FEN, SetUp, Variant and Result included.
	Tags []Tag
	// Start is the position the moves start from: the FEN tag's position
	// when there is one, else the standard start position.
	Start Position
	// Moves are the game's main line, each legal in the position before it.
	// Variations, comments and NAGs are not kept.
	Moves []Move
	// Result is "1-0" (White won), "0-1" (Black won), "1/2-1/2" (draw) or
	// "*" (unfinished or unknown). ReadPGN always sets it; WritePGN writes
	// "" as "*".
	Result string
}

// Tag returns the value of the first tag called name, or "" if there is none.
func (g *PGNGame) Tag(name string) string {
	return pgn.TagValue(g.Tags, name)
}

// SetTag sets the value of the first tag called name, or appends the tag
// if there is none.
func (g *PGNGame) SetTag(name, value string) {
	g.Tags = pgn.SetTag(g.Tags, name, value)
}

// The results of PGN.
const (
	// ResultWhiteWins is the result of a game White won.
	ResultWhiteWins = "1-0"
	// ResultBlackWins is the result of a game Black won.
	ResultBlackWins = "0-1"
	// ResultDraw is the result of a drawn game.
	ResultDraw = "1/2-1/2"
	// ResultUnknown marks an unfinished game or an unknown result.
	ResultUnknown = "*"
)

// ResultString returns the PGN result for r.
func ResultString(r game.Result) string { return r.Tag() }

// ParseResult reads a PGN result; "*" gives game.Ongoing. The second value
// is false for a string that is not a PGN result.
func ParseResult(s string) (game.Result, bool) { return game.ParseTag(s) }

// PGNError reports a problem in PGN input: which game (counting from 1), on
// which line, and what. Err wraps one of the sentinel errors; Format is
// "chess: pgn". It is the type of draughts' PDNError too.
type PGNError = pgn.Error

// ReadPGN reads every game of a PGN file. It reads tags [Name "value"]
// (with \" and \\ escapes), move numbers ("1." and "1..."), moves in SAN
// as ParseSAN reads them, results (a missing one reads as "*"), and skips
// comments ({...}, ; and % to the end of the line), variations ((...),
// nested), NAGs ($1) and move suffixes (!, ?, !!, ??, !?, ?!). A game ends
// at its result or where the next game's tags begin. A FEN tag sets the
// start position (any castling dialect); a Variant tag must name standard
// chess or Chess960.
//
// The first problem ends reading: ReadPGN returns the games before it and a
// *PGNError naming the line and, for a move, its number, its text and the
// position's FEN. A Result tag that contradicts the result in the move text
// and a tag given twice are errors too. ReadPGN does not panic on any input.
func ReadPGN(r io.Reader) ([]PGNGame, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("chess: read pgn: %w", err)
	}
	return parsePGN(src)
}

// ParsePGN reads a PGN text that holds exactly one game, as ReadPGN does.
func ParsePGN(s string) (PGNGame, error) {
	games, err := parsePGN([]byte(s))
	return pgn.One(games, err, "chess: parse pgn", ErrSyntax)
}

// pgnReader is the state of parsePGN: the games read and the one being read.
type pgnReader struct {
	games []PGNGame
	g     PGNGame
	pos   Position // the position after the moves read so far
}

func parsePGN(src []byte) ([]PGNGame, error) {
	var p pgnReader
	r := pgn.Reader{
		Syntax: ErrSyntax,
		Marks:  "!?",
		Result: resultClass,
		Begin:  p.begin,
		Tag:    p.tag,
		Move:   p.move,
		End:    p.end,
	}
	if line, err := r.Read(src); err != nil {
		return p.games, &PGNError{Format: "chess: pgn", Game: len(p.games) + 1, Line: line, Err: err}
	}
	return p.games, nil
}

// resultClass classifies a word as pgn.Reader.Result asks.
func resultClass(s string) int {
	r, ok := ParseResult(s)
	switch {
	case !ok:
		return 0
	case r == game.Ongoing:
		return 1
	}
	return 1 + int(r)
}

// begin starts a game.
func (p *pgnReader) begin() {
	p.g = PGNGame{Start: Start()}
	p.pos = p.g.Start
}

// end ends the game with its result.
func (p *pgnReader) end(result string) {
	p.g.Result = result
	p.games = append(p.games, p.g)
}

// chess960Variants are the Variant tag values (lower case) that mean
// Chess960; "", "standard" and "chess" mean classical chess.
var chess960Variants = []string{"chess960", "chess 960", "fischerandom", "fischer random", "fischerrandom", "frc", "960"}

// tag reads a tag pair.
func (p *pgnReader) tag(name, value string) error {
	switch name {
	case "FEN":
		if len(p.g.Moves) > 0 {
			return game.Errorf(ErrSyntax, "tag FEN after the first move")
		}
		start, err := parseFEN(value)
		if err != nil {
			return fmt.Errorf("tag FEN %q: %w", value, err)
		}
		p.g.Start, p.pos = start, start
	case "Variant":
		v := strings.ToLower(strings.TrimSpace(value))
		if v != "" && v != "standard" && v != "chess" && !slices.Contains(chess960Variants, v) {
			return game.Errorf(ErrUnsupported, "Variant %q is neither standard chess nor Chess960", value)
		}
	}
	p.g.Tags = append(p.g.Tags, Tag{Name: name, Value: value})
	return nil
}

// move reads a move in SAN.
func (p *pgnReader) move(text string) error {
	m, err := p.pos.parseSAN(text)
	if err != nil {
		return fmt.Errorf("move %s %q (position %s): %w", moveLabel(p.g.Start.side, p.g.Start.fullmove, len(p.g.Moves)), text, p.pos.FEN(), err)
	}
	p.g.Moves = append(p.g.Moves, m)
	p.pos = p.pos.Play(m)
	return nil
}

// moveLabel returns the move number of the ply-th move of a game whose
// first move is first's, made at move number fullmove: "12." for a White
// move, "12..." for a Black one.
func moveLabel(first game.Player, fullmove uint16, ply int) string {
	offset := int(first & 1)
	n := int(fullmove) + (ply+offset)/2
	if (ply+offset)%2 == 0 {
		return fmt.Sprintf("%d.", n)
	}
	return fmt.Sprintf("%d...", n)
}

// WritePGN writes g as PGN: its tags, a blank line, the move text in SAN
// with move numbers in lines of at most 79 columns, ending with the result,
// and a blank line, so that games written one after another make a PGN file.
//
// Tags are written in the order given. The Result tag is set to g.Result; a
// FEN tag is set to g.Start's FEN unless it already describes g.Start. The
// Seven Tag Roster (Event, Site, Date, Round, White, Black, Result) is
// completed with "?" values where tags are missing. A start other than the
// standard one gets a FEN tag and SetUp "1", and a start whose castling
// needs Shredder-FEN also a Variant "Chess960" tag when there is no Variant
// tag. ReadPGN of the output gives back g's tags (those added or changed
// included), start, moves and result.
//
// WritePGN checks g first and writes nothing when it finds a problem: a tag
// name that is not a letter followed by letters, digits and underscores, a
// tag given twice, a tag value with a line break, a move that is not legal
// where it is played, a result that is not a PGN result.
func WritePGN(w io.Writer, g PGNGame) error {
	text, err := formatPGN(g)
	if err != nil {
		return fmt.Errorf("chess: write pgn: %w", err)
	}
	if _, err := io.WriteString(w, text); err != nil {
		return fmt.Errorf("chess: write pgn: %w", err)
	}
	return nil
}

func formatPGN(g PGNGame) (string, error) {
	result := g.Result
	if result == "" {
		result = ResultUnknown
	}
	if _, ok := ParseResult(result); !ok {
		return "", game.Errorf(ErrSyntax, "result %q is not a PGN result (1-0, 0-1, 1/2-1/2 or *)", result)
	}
	if _, err := parseFEN(g.Start.FEN()); err != nil {
		return "", fmt.Errorf("start position: %w", err)
	}
	tags, err := pgnTags(g, result)
	if err != nil {
		return "", err
	}
	units, err := moveUnits(g.Start, g.Moves)
	if err != nil {
		return "", err
	}
	return pgn.Format(tags, units, result), nil
}

// pgnTags returns the tags WritePGN writes for g, whose result is result.
func pgnTags(g PGNGame, result string) ([]Tag, error) {
	out := make([]Tag, 0, len(g.Tags)+10)
	for i, t := range g.Tags {
		if err := pgn.CheckTag(g.Tags, i, ErrSyntax); err != nil {
			return nil, err
		}
		switch t.Name {
		case "Result":
			t.Value = result
		case "FEN":
			if start, err := parseFEN(t.Value); err != nil || start != g.Start {
				t.Value = g.Start.FEN()
			}
		case "Variant":
			v := strings.ToLower(strings.TrimSpace(t.Value))
			if v != "" && v != "standard" && v != "chess" && !slices.Contains(chess960Variants, v) {
				return nil, game.Errorf(ErrUnsupported, "Variant %q is neither standard chess nor Chess960", t.Value)
			}
		}
		out = append(out, t)
	}
	roster := []Tag{
		{Name: "Event", Value: "?"}, {Name: "Site", Value: "?"}, {Name: "Date", Value: "????.??.??"}, {Name: "Round", Value: "?"},
		{Name: "White", Value: "?"}, {Name: "Black", Value: "?"}, {Name: "Result", Value: result},
	}
	out = pgn.AddMissing(out, roster)
	if g.Start == Start() {
		return out, nil
	}
	fen := g.Start.FEN()
	if !pgn.HasTag(out, "Variant") && strings.ContainsAny(strings.Fields(fen)[2], "ABCDEFGHabcdefgh") {
		out = append(out, Tag{Name: "Variant", Value: "Chess960"})
	}
	// A start of its own needs a FEN tag and SetUp "1", just before it.
	return pgn.SetUp(out, fen), nil
}

// MoveText returns the PGN move text of moves played from start, on one
// line and without a result: "1. e4 e5 2. Nf3". It checks that every move
// is legal where it is played.
func MoveText(start Position, moves []Move) (string, error) {
	units, err := moveUnits(start, moves)
	if err != nil {
		return "", err
	}
	return strings.Join(units, " "), nil
}

// moveUnits returns the moves as SAN units, each White move numbered and
// the first move numbered whoever makes it ("1. e4", "e5", "1... e5" from a
// Black start).
func moveUnits(start Position, moves []Move) ([]string, error) {
	units := make([]string, 0, len(moves))
	pos := start
	var buf [MaxMoves]Move
	for ply, m := range moves {
		label := moveLabel(start.side, start.fullmove, ply)
		if !slices.Contains(pos.LegalMoves(buf[:0]), m) {
			return nil, fmt.Errorf("move %s %s (position %s): %w", label, pos.FormatUCI(m, true), pos.FEN(),
				game.Errorf(ErrIllegalMove, "illegal in this position"))
		}
		unit := pos.FormatSAN(m)
		if pos.side == White || ply == 0 {
			unit = label + " " + unit
		}
		units = append(units, unit)
		pos = pos.Play(m)
	}
	return units, nil
}
