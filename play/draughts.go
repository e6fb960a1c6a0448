package play

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"evolved/game"
	"evolved/game/draughts"
)

// DraughtsUI returns how a person sees and types English draughts: the
// board with its square numbers beside it, moves in square numbers or in
// the board's coordinates.
func DraughtsUI() UI[draughts.Move, *draughts.Game] { return draughtsUI{} }

// draughtsUI is English draughts for a person.
type draughtsUI struct{}

func (draughtsUI) title() string { return "English draughts" }

func (draughtsUI) help() string {
	return "Moves: 11-15 (a step), 15x24 or 15x24x31 (captures, every landing square; the\nshort form 15x31 works when only one capture matches), in square numbers or\nin the board's coordinates: c3-d4, e3xg5xe7, or c3d4.\n"
}

func (draughtsUI) scoreUnit() string {
	return "the engine's units"
}

// draw draws the board as draughts diagrams do, Black (square 1) at the
// top, whichever side the person plays.
func (draughtsUI) draw(g *draughts.Game, ascii bool, _ game.Player) string {
	return drawDraughts(g.Position(), ascii)
}

func (draughtsUI) formatMove(g *draughts.Game, m draughts.Move) string { return g.FormatMove(m) }

// parseMove reads a move in square numbers (11-15, 15x24x31) or in the
// board's coordinates (c3-d4, e3xg5xe7, or c3d4). A move that cannot be
// played gets the same message however it was typed: what is wrong, then
// the session's sorted list of legal moves; only an ambiguous short
// capture lists its candidates instead. A step when a capture is
// compulsory says so, with a capture for example.
func (draughtsUI) parseMove(g *draughts.Game, text string) (draughts.Move, error, bool) {
	numbers, err := squareNumbers(text)
	if err != nil {
		return draughts.NoMove, err, false
	}
	m, err := g.ParseMove(numbers)
	switch {
	case errors.Is(err, draughts.ErrAmbiguousMove):
		return m, err, true
	case errors.Is(err, draughts.ErrIllegalMove):
		what := text
		if numbers != text {
			what = fmt.Sprintf("%s (%s)", text, numbers)
		}
		if c := aCapture(g); c != "" && !strings.ContainsAny(numbers, "x:") {
			return m, fmt.Errorf("%s is not a legal move here: you must capture (e.g. %s)", what, c), false
		}
		return m, fmt.Errorf("%s is not a legal move here", what), false
	}
	return m, err, false
}

// aCapture returns the first capture of g's legal moves in natural order
// when the side to move must capture, else "".
func aCapture(g *draughts.Game) string {
	var captures []string
	for _, m := range g.LegalMoves(nil) {
		if m.IsCapture() {
			captures = append(captures, g.FormatMove(m))
		}
	}
	if len(captures) == 0 {
		return ""
	}
	return slices.MinFunc(captures, naturalCompare)
}

// squareNumbers rewrites a move typed in the board's coordinates into
// square numbers, as the board labels them: files a-h left to right, ranks
// 8 (top, Black's side) to 1, square 1 on b8 and 32 on g1. Text without a
// coordinate is returned unchanged. "c3d4" (no separator) is a step or a
// capture from c3 to d4.
func squareNumbers(text string) (string, error) {
	if !strings.ContainsAny(strings.ToLower(text), "abcdefgh") {
		return text, nil
	}
	t := strings.ToLower(strings.TrimSpace(text))
	if len(t) == 4 && !strings.ContainsAny(t, "-x:") {
		t = t[:2] + "-" + t[2:]
	}
	var b strings.Builder
	for i := 0; i < len(t); {
		switch c := t[i]; {
		case c == '-' || c == 'x' || c == ':':
			b.WriteByte(c)
			i++
		case c >= 'a' && c <= 'h' && i+1 < len(t) && t[i+1] >= '1' && t[i+1] <= '8':
			col, row := int(c-'a'), 8-int(t[i+1]-'0')
			if (row+col)%2 == 0 {
				return "", fmt.Errorf("%s is a light square: draughts is played on the dark squares", t[i:i+2])
			}
			fmt.Fprintf(&b, "%d", row*4+col/2+1)
			i += 2
		default:
			return "", fmt.Errorf("cannot read %q: write a move as square numbers (11-15, 15x24) or coordinates (c3-d4, e3xg5)", text)
		}
	}
	return b.String(), nil
}

func (draughtsUI) looksLikeMove(text string) bool {
	return strings.ContainsAny(text, "-x0123456789")
}

// unicodeGlyphs and asciiGlyphs draw men and kings: [black man, black
// king, white man, white king].
var (
	unicodeGlyphs = [4]string{"●", "◆", "○", "◇"}
	asciiGlyphs   = [4]string{"b", "B", "w", "W"}
)

// drawDraughts returns the board as text: eight rows from Black's side
// (square 1 at the top) with file letters and rank numbers, and beside each
// row the numbers of its playable squares.
func drawDraughts(p draughts.Position, ascii bool) string {
	glyphs := unicodeGlyphs
	if ascii {
		glyphs = asciiGlyphs
	}
	var b strings.Builder
	b.WriteString("     a b c d e f g h\n")
	for row := range 8 {
		fmt.Fprintf(&b, "  %d ", 8-row)
		var numbers []string
		for col := range 8 {
			if (row+col)%2 == 0 {
				b.WriteString("  ") // a light square: never used
				continue
			}
			sq := row*4 + col/2 // bit index; square number sq+1
			numbers = append(numbers, fmt.Sprintf("%2d", sq+1))
			bit := uint32(1) << sq
			g := " ."
			switch {
			case p.Black&bit != 0 && p.Kings&bit != 0:
				g = " " + glyphs[1]
			case p.Black&bit != 0:
				g = " " + glyphs[0]
			case p.White&bit != 0 && p.Kings&bit != 0:
				g = " " + glyphs[3]
			case p.White&bit != 0:
				g = " " + glyphs[2]
			}
			b.WriteString(g)
		}
		fmt.Fprintf(&b, "    %s\n", strings.Join(numbers, " "))
	}
	return b.String()
}

// Draughts on a page: the 64 squares of drawDraughts, square 1's row first;
// square n (bit n-1) is on row (n-1)/4, on the dark squares.

func (draughtsUI) layout() (int, int, []string) {
	labels := make([]string, 64)
	for sq := range 32 {
		labels[draughtsCell(sq)] = fmt.Sprint(sq + 1)
	}
	return 8, 8, labels
}

// draughtsCell returns the cell of bit index sq (square sq+1), the inverse
// of drawDraughts' sq = row*4 + col/2 on squares where (row+col)%2 == 1.
func draughtsCell(sq int) int {
	row := sq / 4
	return row*8 + 2*(sq%4) + 1 - row%2
}

func (draughtsUI) cells(g *draughts.Game) ([]string, int) {
	p := g.Position()
	codes := make([]string, 64)
	for sq := range 32 {
		bit := uint32(1) << sq
		code := ""
		switch {
		case p.Black&bit != 0 && p.Kings&bit != 0:
			code = "B"
		case p.Black&bit != 0:
			code = "b"
		case p.White&bit != 0 && p.Kings&bit != 0:
			code = "W"
		case p.White&bit != 0:
			code = "w"
		}
		codes[draughtsCell(sq)] = code
	}
	return codes, -1
}

// option: a capture's path is its route's landing squares, so that a
// multi-jump is drawn and chosen square by square.
func (draughtsUI) option(g *draughts.Game, m draughts.Move) MoveOption {
	o := MoveOption{From: draughtsCell(m.From()), To: draughtsCell(m.To()), Text: g.FormatMove(m)}
	if m.IsCapture() {
		p := g.Position()
		route := p.Route(m)
		for _, n := range route[min(1, len(route)):] {
			o.Path = append(o.Path, draughtsCell(n-1))
		}
		if len(o.Path) == 0 { // no route found: at least the end
			o.Path = []int{o.To}
		}
	}
	return o
}

func (u draughtsUI) readMove(g *draughts.Game, text string) (draughts.Move, error, bool) {
	return u.parseMove(g, text)
}
