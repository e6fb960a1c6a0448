package draughts

// This file reads and writes games in PDN, Portable Draughts Notation, the
// draughts version of chess' PGN. The references are the PDN 2.0 draft for
// English draughts (Murray Cash, 2003; archived as doc/pdn2.txt in
// github.com/hungerburg/capers) and the PDN 3.0 standard
// (github.com/wiegerw/pdn: doc/pdntags.rst, doc/fen.rst and the reading
// grammar pdn_reading.g). As PDN 3.0 recommends, writing is strict and
// reading is liberal.

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"evolved/game"
	"evolved/game/pgn"
)

// Tag is one PDN tag pair, [Name "Value"].
type Tag = pgn.Tag

// PDNGame is one game of a PDN file.
type PDNGame struct {
	// Tags are the game's tag pairs in file order. ReadPDN keeps every tag
	// it reads, FEN, SetUp and Result included.
	Tags []Tag
	// Start is the position the moves start from: the FEN tag's position
	// when there is one, else the standard start position.
	Start Position
	// Moves are the game's main line, each legal in the position before it.
	// Variations and comments are not kept.
	Moves []Move
	// Result is the game's result as written in PDN: "1-0" (Black won),
	// "0-1" (White won), "1/2-1/2" (draw) or "*" (unfinished or unknown),
	// or one of "2-0", "0-2", "1-1", "0-0" that some draughts PDN uses; see
	// ParseResult. ReadPDN always sets it; WritePDN writes "" as "*".
	Result string
}

// Tag returns the value of the first tag called name, or "" if there is none.
func (g *PDNGame) Tag(name string) string {
	return pgn.TagValue(g.Tags, name)
}

// SetTag sets the value of the first tag called name, or appends the tag
// if there is none.
func (g *PDNGame) SetTag(name, value string) {
	g.Tags = pgn.SetTag(g.Tags, name, value)
}

// The results of PDN for English draughts. PDN writes results from the
// point of view of the side that moves first, which in English draughts is
// Black: "1-0" means that Black won. This is the convention of the PDN 2.0
// draft for English draughts ("[Result "1-0"] indicating Black (Red) won the
// game", sections 6.1.1.1.1.5 and 6.1.1.2.6), which the PDN 3.0 standard
// cites for the Result tag. The Wikipedia article on PDN instead calls
// "1-0" a White win, the chess convention, so files may have been written
// that way; PDNGame.Outcome settles such games by the board where the board
// can tell, and ReadPDN never rejects a result for disagreeing with it.
const (
	// ResultBlackWins is the result of a game Black won.
	ResultBlackWins = "1-0"
	// ResultWhiteWins is the result of a game White won.
	ResultWhiteWins = "0-1"
	// ResultDraw is the result of a drawn game.
	ResultDraw = "1/2-1/2"
	// ResultUnknown marks an unfinished game or an unknown result.
	ResultUnknown = "*"
)

// ResultString returns the PDN result for r: "1-0" when Black (the first
// player) won, "0-1" when White won, "1/2-1/2" for a draw and "*" otherwise.
func ResultString(r game.Result) string { return r.Tag() }

// ParseResult reads a PDN result: "1-0" and "2-0" mean Black (the first
// player) won, "0-1" and "0-2" that White won, "1/2-1/2" and "1-1" a draw.
// "*" (unknown) and "0-0" (both players lost, a double forfeit) give
// game.Ongoing, as neither has a game.Result of its own. The second value
// is false for any other string. The 2-0 family is PDN 3.0's scoring for
// international draughts, where the first number is also the first
// player's score.
func ParseResult(s string) (game.Result, bool) {
	switch classifyResult(s) {
	case resultFirst:
		return game.FirstWins, true
	case resultSecond:
		return game.SecondWins, true
	case resultDraw:
		return game.Draw, true
	case resultNone, resultBothLost:
		return game.Ongoing, true
	}
	return game.Ongoing, false
}

// resultClass groups the PDN result strings by meaning. Its values are
// those pgn.Reader.Result asks for: 0 for no result, 1 for "*", from 2 up
// for the decided results.
type resultClass int

const (
	resultOther    resultClass = iota // not a result
	resultNone                        // "*"
	resultFirst                       // "1-0", "2-0"
	resultSecond                      // "0-1", "0-2"
	resultDraw                        // "1/2-1/2", "1-1"
	resultBothLost                    // "0-0"
)

func classifyResult(s string) resultClass {
	switch s {
	case "*":
		return resultNone
	case "1-0", "2-0":
		return resultFirst
	case "0-1", "0-2":
		return resultSecond
	case "1/2-1/2", "1-1":
		return resultDraw
	case "0-0":
		return resultBothLost
	}
	return resultOther
}

// Outcome returns the game's result. When the moves are legal and end in a
// position where the side to move has no legal move, the board decides: the
// side to move lost, whatever the Result string says. This accepts games
// written with the chess convention ("1-0" for a White win) where that is
// unambiguous. Otherwise Outcome reads Result as ParseResult does, with
// game.Ongoing for "*", "0-0" and unknown strings.
func (g *PDNGame) Outcome() game.Result {
	pos := g.Start
	var buf []Move
	legal := pos.validate() == nil
	for _, m := range g.Moves {
		if !legal {
			break
		}
		buf = pos.Moves(buf)
		legal = slices.Contains(buf, m)
		pos = pos.Play(m)
	}
	if legal && len(pos.Moves(buf)) == 0 {
		return game.WinFor(pos.Side.Other())
	}
	r, _ := ParseResult(g.Result)
	return r
}

// PDNError reports a problem in PDN input: which game (counting from 1), on
// which line, and what. Err wraps one of the sentinel errors (ErrSyntax,
// ErrIllegalMove, ErrAmbiguousMove, ErrInvalidPosition, ErrUnsupported);
// Format is "draughts: pdn". It is the type of chess' PGNError too.
type PDNError = pgn.Error

// ReadPDN reads every game of a PDN file. It reads tags [Name "value"]
// (with \" and \\ escapes), move numbers ("1." and "1..."), moves in any
// form ParseMove accepts, results (see ParseResult; a missing result reads
// as "*"), and skips comments ({...}, ; and % to the end of the line),
// variations ((...), nested), NAGs ($1) and move strength marks (!, ?, !?,
// *, (!)). Black moves first: "1. 11-15 23-19 2. 8-11 22-17". A game ends at
// its result or where the next game's tags begin.
//
// Every move is checked against the running position with ParseMove. The
// first problem ends reading: ReadPDN returns the games before it and a
// *PDNError naming the line and, for a move, its number, its text and the
// position's FEN. A Result tag that contradicts the result in the move
// text, a tag given twice, a GameType other than 21 (English draughts) and
// a set-up (/.../) in the move text are errors too. ReadPDN does not panic
// on any input.
func ReadPDN(r io.Reader) ([]PDNGame, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("draughts: read pdn: %w", err)
	}
	return parsePDN(src)
}

// ParsePDN reads a PDN text that holds exactly one game, as ReadPDN does.
func ParsePDN(s string) (PDNGame, error) {
	games, err := parsePDN([]byte(s))
	return pgn.One(games, err, "draughts: parse pdn", ErrSyntax)
}

// pdnReader is the state of parsePDN: the games read and the one being read.
type pdnReader struct {
	games []PDNGame
	g     PDNGame
	pos   Position // the position after the moves read so far
}

func parsePDN(src []byte) ([]PDNGame, error) {
	var p pdnReader
	r := pgn.Reader{
		Syntax: ErrSyntax,
		Marks:  "!?*",
		Result: func(s string) int { return int(classifyResult(s)) },
		Begin:  p.begin,
		Tag:    p.tag,
		Move:   p.move,
		End:    p.end,
		SetUp: func(word string) error {
			return game.Errorf(ErrUnsupported, "set-up %q in the move text is not supported", word)
		},
	}
	if line, err := r.Read(src); err != nil {
		return p.games, &PDNError{Format: "draughts: pdn", Game: len(p.games) + 1, Line: line, Err: err}
	}
	return p.games, nil
}

// begin starts a game.
func (p *pdnReader) begin() {
	p.g = PDNGame{Start: Start()}
	p.pos = p.g.Start
}

// end ends the game with its result.
func (p *pdnReader) end(result string) {
	p.g.Result = result
	p.games = append(p.games, p.g)
}

// tag reads a tag pair.
func (p *pdnReader) tag(name, value string) error {
	switch name {
	case "FEN":
		start, err := parseFEN(value)
		if err != nil {
			return fmt.Errorf("tag FEN %q: %w", value, err)
		}
		p.g.Start, p.pos = start, start
	case "GameType":
		v := strings.TrimSpace(value)
		if number, _, _ := strings.Cut(v, ","); v != "" && strings.TrimSpace(number) != "21" {
			return game.Errorf(ErrUnsupported, "GameType %q is not English draughts (21)", value)
		}
	}
	p.g.Tags = append(p.g.Tags, Tag{Name: name, Value: value})
	return nil
}

// move reads a move in any form ParseMove accepts.
func (p *pdnReader) move(text string) error {
	m, err := p.pos.ParseMove(text)
	if err != nil {
		var d *game.Error
		if errors.As(err, &d) {
			err = d
		}
		return fmt.Errorf("move %s %q (position %s): %w", moveLabel(p.g.Start.Side, len(p.g.Moves)), text, p.pos.FEN(), err)
	}
	p.g.Moves = append(p.g.Moves, m)
	p.pos = p.pos.Play(m)
	return nil
}

// moveLabel returns the move number of the ply-th move of a game whose
// first move is first's: "12." for a Black move, "12..." for a White one.
func moveLabel(first game.Player, ply int) string {
	offset := 0
	if first != Black {
		offset = 1
	}
	n := (ply+offset)/2 + 1
	if (ply+offset)%2 == 0 {
		return fmt.Sprintf("%d.", n)
	}
	return fmt.Sprintf("%d...", n)
}

// WritePDN writes g as PDN: its tags, a blank line, the move text with move
// numbers in lines of fewer than 80 columns, ending with the result, and a
// blank line, so that games written one after another make a PDN file.
//
// Tags are written in the order given. The Result tag is set to g.Result
// unless it already means the same (1-0 and 2-0, say); a FEN tag is set to
// g.Start's FEN unless it already describes g.Start. Event, Site, Date,
// Round, Black, White, Result and GameType ("21", English draughts) are
// appended when absent. A start other than the standard one gets a FEN tag
// (appended if absent) and SetUp "1" (set, or inserted just before the FEN
// tag). ReadPDN of the output gives back g's tags, those added or changed
// included, start, moves and result.
//
// WritePDN checks g first and writes nothing when it finds a problem: a tag
// name that is not a letter followed by letters, digits and underscores, a
// tag given twice, a tag value with a line break, an invalid start
// position, a move that is not legal where it is played, a result that is
// not a PDN result.
func WritePDN(w io.Writer, g PDNGame) error {
	text, err := formatPDN(g)
	if err != nil {
		return fmt.Errorf("draughts: write pdn: %w", err)
	}
	if _, err := io.WriteString(w, text); err != nil {
		return fmt.Errorf("draughts: write pdn: %w", err)
	}
	return nil
}

func formatPDN(g PDNGame) (string, error) {
	result := g.Result
	if result == "" {
		result = ResultUnknown
	}
	if classifyResult(result) == resultOther {
		return "", game.Errorf(ErrSyntax, "result %q is not a PDN result (1-0, 0-1, 1/2-1/2, *, 2-0, 0-2, 1-1 or 0-0)", result)
	}
	if err := g.Start.validate(); err != nil {
		return "", fmt.Errorf("start position: %w", err)
	}
	tags, err := pdnTags(g, result)
	if err != nil {
		return "", err
	}
	units, err := moveUnits(g.Start, g.Moves)
	if err != nil {
		return "", err
	}
	return pgn.Format(tags, units, result), nil
}

// pdnTags returns the tags WritePDN writes for g, whose result is result.
func pdnTags(g PDNGame, result string) ([]Tag, error) {
	out := make([]Tag, 0, len(g.Tags)+10)
	for i, t := range g.Tags {
		if err := pgn.CheckTag(g.Tags, i, ErrSyntax); err != nil {
			return nil, err
		}
		switch t.Name {
		case "Result":
			if c := classifyResult(t.Value); c != classifyResult(result) && !(c == resultOther && result == ResultUnknown) {
				t.Value = result
			}
		case "FEN":
			if start, err := parseFEN(t.Value); err != nil || start != g.Start {
				t.Value = g.Start.FEN()
			}
		}
		out = append(out, t)
	}
	defaults := []Tag{
		{Name: "Event", Value: "?"}, {Name: "Site", Value: "?"}, {Name: "Date", Value: "????.??.??"}, {Name: "Round", Value: "?"},
		{Name: "Black", Value: "?"}, {Name: "White", Value: "?"}, {Name: "Result", Value: result}, {Name: "GameType", Value: "21"},
	}
	out = pgn.AddMissing(out, defaults)
	if g.Start == Start() {
		return out, nil
	}
	// A start of its own needs a FEN tag and SetUp "1", just before it.
	return pgn.SetUp(out, g.Start.FEN()), nil
}

// MoveText returns the PDN move text of moves played from start, on one
// line and without a result: "1. 11-15 23-19 2. 8-11". It checks that every
// move is legal where it is played.
func MoveText(start Position, moves []Move) (string, error) {
	units, err := moveUnits(start, moves)
	if err != nil {
		return "", err
	}
	return strings.Join(units, " "), nil
}

// moveUnits returns the moves as PDN units, each move numbered where Black
// moves and the first move numbered whoever moves ("1. 11-15", "23-19",
// "1... 23-19" from a White start).
func moveUnits(start Position, moves []Move) ([]string, error) {
	units := make([]string, 0, len(moves))
	pos := start
	var buf []Move
	for ply, m := range moves {
		label := moveLabel(start.Side, ply)
		buf = pos.Moves(buf)
		if !slices.Contains(buf, m) {
			return nil, fmt.Errorf("move %s %s (position %s): %w", label, pos.FormatMove(m), pos.FEN(),
				game.Errorf(ErrIllegalMove, "illegal in this position"))
		}
		unit := pos.FormatMove(m)
		if pos.Side == Black || ply == 0 {
			unit = label + " " + unit
		}
		units = append(units, unit)
		pos = pos.Play(m)
	}
	return units, nil
}
