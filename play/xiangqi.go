package play

import (
	"errors"
	"fmt"
	"strings"

	"evolved/game"
	"evolved/game/xiangqi"
)

// XiangqiUI returns how a person sees and types xiangqi: the classic
// terminal program's board, Red's pieces in <...> and Black's in (...),
// rows A..J from Black's side, columns 1..9; moves in the classic
// notation, coordinates or WXF.
func XiangqiUI() UI[xiangqi.Move, *xiangqi.Game] { return xiangqiUI{} }

// xiangqiUI is xiangqi for a person.
type xiangqiUI struct{}

func (xiangqiUI) title() string { return "Xiangqi" }

func (xiangqiUI) help() string {
	return `Moves: the classic rows and columns (H8,H5: row A..J from the top, column 1..9
from the left), coordinates (h3e3: file a..i, rank 1..10 from Red's side) or
WXF (C2=5, H8+7). Red plays <...> at the bottom, Black (...) at the top.
  capture     the pieces each side has captured
`
}

func (xiangqiUI) scoreUnit() string { return "centipawns (100: a soldier)" }

// formatMove writes the classic notation with the coordinates beside it,
// "H8,H5 (h3e3)"; history adds WXF.
func (xiangqiUI) formatMove(_ *xiangqi.Game, m xiangqi.Move) string {
	return fmt.Sprintf("%s (%s)", xiangqi.FormatClassic(m), m)
}

// parseMove reads the classic notation, coordinates or WXF; an illegal
// move's error says why, and the session adds the legal moves.
func (xiangqiUI) parseMove(g *xiangqi.Game, text string) (xiangqi.Move, error, bool) {
	p := g.Position()
	m, err := p.ParseMoveText(text)
	if err != nil {
		return m, cleanXiangqiError(err, p.FEN()), false
	}
	return m, nil, false
}

// cleanXiangqiError drops the parser's context (the text and the FEN of
// the position), which a person at the board does not need, and keeps the
// reason.
func cleanXiangqiError(err error, fen string) error {
	msg := err.Error()
	if _, reason, ok := strings.Cut(msg, " in "+fen+": "); ok {
		msg = reason
	}
	switch {
	case errors.Is(err, xiangqi.ErrIllegalMove):
		return fmt.Errorf("illegal move: %s", msg)
	case errors.Is(err, xiangqi.ErrSyntax):
		return fmt.Errorf("cannot read the move: %s", msg)
	}
	return err
}

// looksLikeMove: a row letter and a column digit (H8,H5), a file letter
// and a rank (h3e3), or a WXF piece letter and a file or tandem sign.
func (xiangqiUI) looksLikeMove(text string) bool {
	if len(text) < 2 {
		return false
	}
	c0, c1 := text[0]|0x20, text[1]
	return c0 >= 'a' && c0 <= 'j' && c1 >= '0' && c1 <= '9' ||
		strings.ContainsRune("kaehrcpbn", rune(c0)) && strings.ContainsRune("123456789+-", rune(c1))
}

// history lists the moves a full move a line, each in the three notations.
func (xiangqiUI) history(g *xiangqi.Game) string {
	moves := g.Moves(nil)
	if len(moves) == 0 {
		return ""
	}
	var b strings.Builder
	p := g.Start()
	for i, m := range moves {
		if i == 0 || p.Side() == xiangqi.Red {
			if i > 0 {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "%3d.", p.FullmoveNumber())
			if p.Side() == xiangqi.Black {
				b.WriteString(" " + strings.Repeat(" ", 23))
			}
		}
		fmt.Fprintf(&b, " %-23s", fmt.Sprintf("%s %s %s", xiangqi.FormatClassic(m), m, p.FormatWXF(m)))
		p = p.Play(m)
	}
	return strings.TrimRight(b.String(), " ")
}

// xiangqiGlyphs are the pieces' glyphs by PieceType, Red then Black; the
// Chinese characters are two columns wide, the letters one.
var (
	xiangqiHan   = [2][7]string{{"帥", "仕", "相", "馬", "車", "砲", "兵"}, {"將", "士", "象", "馬", "車", "炮", "卒"}}
	xiangqiASCII = [2][7]string{{"K", "A", "E", "H", "R", "C", "P"}, {"k", "a", "e", "h", "r", "c", "p"}}
)

// draw draws the classic board: row letters A..J down the left, column
// numbers 1..9 along the top, Red's pieces in <...> and Black's in (...),
// "." an empty point, "x" an empty palace point, and the river as a row
// of dashes between rows E and F.
// draw draws the board as the classic program's notation reads it, Red at
// the bottom and rows A to J from the top, whichever side the person
// plays: the rows and columns are the moves' coordinates.
func (xiangqiUI) draw(g *xiangqi.Game, ascii bool, _ game.Player) string {
	glyphs, cell := xiangqiHan, "  %s  "
	if ascii {
		glyphs, cell = xiangqiASCII, "  %s "
	}
	p := g.Position()
	var b strings.Builder
	b.WriteString("   ")
	for col := 1; col <= xiangqi.Files; col++ {
		fmt.Fprintf(&b, "  %d  ", col)
	}
	b.WriteByte('\n')
	for row := range xiangqi.Ranks {
		if row == 5 {
			b.WriteString("    " + strings.Repeat("-", 5*xiangqi.Files-1) + "\n")
		}
		rank := xiangqi.Ranks - 1 - row
		fmt.Fprintf(&b, " %c ", 'A'+row)
		for file := range xiangqi.Files {
			pt, c := p.PieceAt(xiangqi.NewSquare(file, rank))
			switch {
			case pt != xiangqi.NoPieceType && c == xiangqi.Red:
				b.WriteString(" <" + glyphs[0][pt] + ">")
			case pt != xiangqi.NoPieceType:
				b.WriteString(" (" + glyphs[1][pt] + ")")
			case file >= 3 && file <= 5 && (rank <= 2 || rank >= 7):
				fmt.Fprintf(&b, cell, "x")
			default:
				fmt.Fprintf(&b, cell, ".")
			}
			if ascii {
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	return trimLines(b.String())
}

// captured lists the pieces each side has taken, in the order taken.
func (xiangqiUI) captured(g *xiangqi.Game, ascii bool) string {
	glyphs := xiangqiHan
	if ascii {
		glyphs = xiangqiASCII
	}
	var taken [2][]string
	p := g.Start()
	for _, m := range g.Moves(nil) {
		if m.IsCapture() {
			mover := p.Side()
			taken[mover&1] = append(taken[mover&1], glyphs[mover.Other()&1][m.Captured()])
		}
		p = p.Play(m)
	}
	line := func(side string, t []string) string {
		if len(t) == 0 {
			return side + " has captured nothing"
		}
		return side + " has captured " + strings.Join(t, " ")
	}
	return line("Red", taken[0]) + "\n" + line("Black", taken[1]) + "\n"
}

// trimLines drops the spaces at the ends of the lines of s.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// Xiangqi on a page: cell (9-rank)*9+file, Black's back rank (rank 10)
// first, as the terminal draws it.

func (xiangqiUI) layout() (int, int, []string) {
	labels := make([]string, xiangqi.Squares)
	for i := range labels {
		labels[i] = xiangqi.NewSquare(i%xiangqi.Files, xiangqi.Ranks-1-i/xiangqi.Files).String()
	}
	return xiangqi.Files, xiangqi.Ranks, labels
}

// xiangqiCell returns the cell of square s.
func xiangqiCell(s xiangqi.Square) int { return (xiangqi.Ranks-1-s.Rank())*xiangqi.Files + s.File() }

func (xiangqiUI) cells(g *xiangqi.Game) ([]string, int) {
	p := g.Position()
	codes := make([]string, xiangqi.Squares)
	for i := range codes {
		pt, side := p.PieceAt(xiangqi.NewSquare(i%xiangqi.Files, xiangqi.Ranks-1-i/xiangqi.Files))
		switch {
		case pt == xiangqi.NoPieceType:
		case side == xiangqi.Red:
			codes[i] = pt.String()
		default:
			codes[i] = strings.ToLower(pt.String())
		}
	}
	check := -1
	if p.InCheck() {
		check = xiangqiCell(p.General(p.Side()))
	}
	return codes, check
}

// option: the text is the coordinates the game stores and its engines
// speak, not the terminal's "H8,H5 (h3e3)".
func (xiangqiUI) option(_ *xiangqi.Game, m xiangqi.Move) MoveOption {
	return MoveOption{From: xiangqiCell(m.From()), To: xiangqiCell(m.To()), Text: m.String()}
}

func (u xiangqiUI) readMove(g *xiangqi.Game, text string) (xiangqi.Move, error, bool) {
	return u.parseMove(g, text)
}
