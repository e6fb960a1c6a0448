package xiangqi

// This file holds the two notations people read besides Fairy-Stockfish's
// coordinates:
//
//   - the classic terminal program's: rows A..J from the top of the board
//     as Red sees it (row A is Black's back rank, rank 10; row J is Red's,
//     rank 1) and columns 1..9 from the left (file a is column 1), a move
//     written as two points separated by a comma, "J2,H3";
//   - WXF notation (World Xiangqi Federation): the piece letter K A E H R
//     C P, the file it stands on counted 1..9 from the mover's right, an
//     operator + (forward), - (backward) or = (sideways; "." is read too),
//     and a number: the file it arrives on, or for a straight move forward
//     or back the number of ranks it moves. "C2=5", "H8+7".

import (
	"fmt"
	"strings"

	"evolved/game"
)

// ClassicSquare returns s in the classic program's notation: the row
// letter A (rank 10) to J (rank 1), then the column 1 (file a) to 9.
func ClassicSquare(s Square) string {
	if s >= NoSquare {
		return "-"
	}
	return string(rune('A'+Ranks-1-s.Rank())) + string(rune('1'+s.File()))
}

// FormatClassic returns m in the classic program's notation, as "J2,H3".
func FormatClassic(m Move) string {
	if m == NoMove {
		return "-"
	}
	return ClassicSquare(m.From()) + "," + ClassicSquare(m.To())
}

// parseClassicSquare reads a classic square ("A1".."J9", the letter in
// either case).
func parseClassicSquare(s string) (Square, bool) {
	if len(s) != 2 {
		return NoSquare, false
	}
	row, col := int(s[0]|0x20)-'a', int(s[1])-'1'
	if row < 0 || row >= Ranks || col < 0 || col >= Files {
		return NoSquare, false
	}
	return NewSquare(col, Ranks-1-row), true
}

// ParseClassic reads a move in the classic program's notation ("J2,H3";
// the letters may be lower case, a '-' may stand for the comma, and spaces
// around either are ignored) and returns it if it is legal in p. Errors
// wrap ErrSyntax or ErrIllegalMove and say what is wrong.
func (p *Position) ParseClassic(s string) (Move, error) {
	m, err := p.parseClassic(s)
	return game.ParsedIn("xiangqi: parse move", s, func() string { return p.FEN() }, m, err)
}

func (p *Position) parseClassic(s string) (Move, *game.Error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		a, b, ok = strings.Cut(s, "-")
	}
	from, okFrom := parseClassicSquare(strings.TrimSpace(a))
	to, okTo := parseClassicSquare(strings.TrimSpace(b))
	if !ok || !okFrom || !okTo {
		return NoMove, game.Errorf(ErrSyntax, "want two points, row A..J and column 1..9, as in J2,H3")
	}
	return p.moveBetween(from, to)
}

// wxfLetters are the WXF piece letters by PieceType.
const wxfLetters = "KAEHRCP"

// wxfFile returns the WXF file number (1..9 from c's right) of file f.
func wxfFile(c game.Player, f int) int {
	if c == Red {
		return Files - f
	}
	return f + 1
}

// forwardRank returns how far forward rank r lies for c: 0 on c's back rank.
func forwardRank(c game.Player, r int) int {
	if c == Red {
		return r
	}
	return Ranks - 1 - r
}

// FormatWXF returns m, legal in p, in WXF notation ("C2=5", "H8+7"). Two
// pieces of a kind on one file are told apart by + (the front one) and -
// (the rear one) in place of the file number (R+=3), and soldiers stacked
// three or more on a file, or on two files, follow the WXF rules for
// tandem pawns (P+, P3, P-, ++, --, and the file digit in place of the
// letter).
func (p *Position) FormatWXF(m Move) string {
	if m == NoMove {
		return "-"
	}
	from, to := m.From(), m.To()
	pt, c := p.PieceAt(from)
	if pt == NoPieceType {
		return m.String()
	}
	var b strings.Builder
	b.WriteString(p.wxfPrefix(pt, c, from))
	dr := forwardRank(c, to.Rank()) - forwardRank(c, from.Rank())
	switch {
	case dr > 0:
		b.WriteByte('+')
	case dr < 0:
		b.WriteByte('-')
	default:
		b.WriteByte('=')
	}
	straight := pt == General || pt == Chariot || pt == Cannon || pt == Soldier
	if straight && dr != 0 {
		b.WriteByte(byte('0' + abs(dr)))
	} else {
		b.WriteByte(byte('0' + wxfFile(c, to.File())))
	}
	return b.String()
}

// wxfPrefix returns the first two characters of a WXF move of c's piece of
// type pt on from: the letter and the file, or a tandem marker.
func (p *Position) wxfPrefix(pt PieceType, c game.Player, from Square) string {
	letter := wxfLetters[pt : pt+1]
	file := string(rune('0' + wxfFile(c, from.File())))
	same := p.sameOnFile(pt, c, from.File())
	if len(same) < 2 {
		return letter + file
	}
	idx := 0 // index of from among same, front first
	for i, s := range same {
		if s == from {
			idx = i
		}
	}
	n := len(same)
	if pt != Soldier {
		return letter + [2]string{"+", "-"}[min(idx, 1)]
	}
	// Soldiers: name the file instead of the letter when another file
	// also holds two or more of them.
	if p.tandemSoldierFiles(c) > 1 {
		letter = file
	}
	switch {
	case n == 2:
		return letter + [2]string{"+", "-"}[idx]
	case idx == 0 && n >= 4:
		return "++"
	case idx == n-1 && n >= 4:
		return "--"
	case idx == 0 || n >= 4 && idx == 1:
		return letter + "+"
	case idx == n-1 || n >= 4 && idx == n-2:
		return letter + "-"
	}
	return letter + file // the middle one of three or five
}

// sameOnFile returns the squares of c's pieces of type pt on file f, the
// front one (furthest forward for c) first.
func (p *Position) sameOnFile(pt PieceType, c game.Player, f int) []Square {
	var out []Square
	for fr := Ranks - 1; fr >= 0; fr-- {
		r := fr
		if c == Black {
			r = Ranks - 1 - fr
		}
		s := NewSquare(f, r)
		if t, col := p.PieceAt(s); t == pt && col == c {
			out = append(out, s)
		}
	}
	return out
}

// tandemSoldierFiles counts the files holding two or more of c's soldiers.
func (p *Position) tandemSoldierFiles(c game.Player) int {
	n := 0
	for f := range Files {
		if len(p.sameOnFile(Soldier, c, f)) >= 2 {
			n++
		}
	}
	return n
}

// ParseWXF reads a move in WXF notation and returns it if it is legal in
// p. Letters may be lower case, '.' stands for '=', and B and N are read
// for E and H. Errors wrap ErrSyntax or ErrIllegalMove.
func (p *Position) ParseWXF(s string) (Move, error) {
	norm := normalizeWXF(s)
	if len(norm) != 4 || !strings.ContainsRune("+-=", rune(norm[2])) || norm[3] < '1' || norm[3] > '9' ||
		!strings.ContainsRune(wxfLetters+"+-123456789", rune(norm[0])) || !strings.ContainsRune("+-123456789", rune(norm[1])) {
		return NoMove, fmt.Errorf("xiangqi: parse move %q in %s: %w", s, p.FEN(),
			game.Errorf(ErrSyntax, "want a WXF move: piece K A E H R C P, file 1..9 (or + / - for the front or rear of two), + - or =, and a number, as in C2=5 or H8+7"))
	}
	var buf [MaxMoves]Move
	for _, m := range p.LegalMoves(buf[:0]) {
		if p.FormatWXF(m) == norm {
			return m, nil
		}
	}
	return NoMove, fmt.Errorf("xiangqi: parse move %q in %s: %w", s, p.FEN(),
		game.Errorf(ErrIllegalMove, "no legal move of %s is written %s", colorName(p.side), norm))
}

// normalizeWXF upper-cases s, reads '.' as '=' and B, N as E, H.
func normalizeWXF(s string) string {
	return strings.NewReplacer(".", "=", "B", "E", "N", "H").Replace(strings.ToUpper(strings.TrimSpace(s)))
}
