package draughts

// This file reads and writes positions in the FEN of the PDN standard, for
// example "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29": the side to move,
// then each side's pieces, kings marked with K. See the PDN 3.0 standard's
// FEN section (doc/fen.rst in github.com/wiegerw/pdn), which extends the
// PDN 2.0 draft's syntax with ranges of squares.

import (
	"fmt"
	"strconv"
	"strings"

	"evolved/game"
)

// maxPieces is the number of pieces each side starts with; no position can
// hold more.
const maxPieces = 12

// ParseFEN reads a position in PDN FEN notation:
//
//	B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29
//
// The first letter is the side to move (B or W). Then come a W section and a
// B section in either order, each a comma-separated list of squares 1..32
// with a K before each king. ParseFEN also reads what some PDN writers
// produce: ranges ("W21-32", "K1-4"), lower-case letters, white space around
// tokens, a trailing "." or comma, an empty section ("B:W:B1,2") and a
// missing one (no pieces of that colour).
//
// The position must be one that can arise: ParseFEN rejects a square given
// twice, more than 12 pieces a side and a man on its own crowning row, as
// Validate does. Errors wrap ErrSyntax or ErrInvalidPosition and name the
// problem; ParseFEN does not panic on any input.
func ParseFEN(s string) (Position, error) {
	p, err := parseFEN(s)
	return game.Parsed("draughts: parse FEN", s, p, err)
}

func parseFEN(s string) (Position, *game.Error) {
	text := strings.TrimSpace(s)
	text = strings.TrimSpace(strings.TrimSuffix(text, "."))
	fields := strings.Split(text, ":")
	var side game.Player
	switch strings.ToUpper(strings.TrimSpace(fields[0])) {
	case "B":
		side = Black
	case "W":
		side = White
	case "":
		return Position{}, game.Errorf(ErrSyntax, "missing side to move (want B or W)")
	default:
		return Position{}, game.Errorf(ErrSyntax, "unknown side to move %q (want B or W)", strings.TrimSpace(fields[0]))
	}
	switch {
	case len(fields) < 2:
		return Position{}, game.Errorf(ErrSyntax, "no piece sections after the side to move")
	case len(fields) > 3:
		return Position{}, game.Errorf(ErrSyntax, "%d piece sections (want a W and a B section)", len(fields)-1)
	}
	var pieces [2]uint32 // indexed by game.Player
	var kings uint32
	var seen [2]bool
	for _, field := range fields[1:] {
		f := strings.TrimSpace(field)
		if f == "" {
			return Position{}, game.Errorf(ErrSyntax, "empty piece section (want W or B and a list of squares)")
		}
		var c game.Player
		switch f[0] {
		case 'W', 'w':
			c = White
		case 'B', 'b':
			c = Black
		default:
			return Position{}, game.Errorf(ErrSyntax, "section %q: unknown colour (want W or B)", f)
		}
		if seen[c] {
			return Position{}, game.Errorf(ErrSyntax, "two %s sections", colourName(c))
		}
		seen[c] = true
		list := strings.TrimSpace(f[1:])
		if list == "" {
			continue
		}
		tokens := strings.Split(list, ",")
		for i, tok := range tokens {
			tok = strings.TrimSpace(tok)
			if tok == "" {
				if i == len(tokens)-1 {
					continue // a trailing comma
				}
				return Position{}, game.Errorf(ErrSyntax, "section %q: empty square between commas", f)
			}
			set, king, err := parseSquareToken(tok)
			if err != nil {
				return Position{}, err
			}
			if dup := set & (pieces[0] | pieces[1]); dup != 0 {
				return Position{}, game.Errorf(ErrInvalidPosition, "square %d given twice", lowest(dup)+1)
			}
			pieces[c] |= set
			if king {
				kings |= set
			}
		}
	}
	p := NewPosition(pieces[Black], pieces[White], kings, side)
	if err := p.validate(); err != nil {
		return Position{}, err
	}
	return p, nil
}

// parseSquareToken reads one FEN token: a square or a range of squares,
// with an optional K for kings. It returns the squares as a bitboard.
func parseSquareToken(tok string) (set uint32, king bool, err *game.Error) {
	body := tok
	if body[0] == 'K' || body[0] == 'k' {
		king = true
		body = strings.TrimSpace(body[1:])
	}
	first, last, isRange := strings.Cut(body, "-")
	lo, err := parseSquareNumber(tok, strings.TrimSpace(first))
	if err != nil {
		return 0, false, err
	}
	hi := lo
	if isRange {
		if hi, err = parseSquareNumber(tok, strings.TrimSpace(last)); err != nil {
			return 0, false, err
		}
		if hi < lo {
			return 0, false, game.Errorf(ErrSyntax, "range %q runs backwards", tok)
		}
	}
	for s := lo; s <= hi; s++ {
		set |= 1 << (s - 1)
	}
	return set, king, nil
}

// parseSquareNumber reads a square number 1..32; tok is the whole token,
// for the error message.
func parseSquareNumber(tok, digits string) (int, *game.Error) {
	if digits == "" {
		return 0, game.Errorf(ErrSyntax, "malformed token %q (want a square number, K for a king, or a range like 1-12)", tok)
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, game.Errorf(ErrSyntax, "malformed token %q (want a square number, K for a king, or a range like 1-12)", tok)
		}
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 1 || n > 32 {
		return 0, game.Errorf(ErrSyntax, "square %s out of range 1..32", digits)
	}
	return n, nil
}

// FEN returns p in the canonical FEN of the PDN standard: the side to move,
// then the W section, then the B section, each listing men ascending and
// then kings ascending, for example
// "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29". The start position is
// "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12".
func (p Position) FEN() string {
	var b strings.Builder
	if p.Side == Black {
		b.WriteString("B")
	} else {
		b.WriteString("W")
	}
	for _, c := range []game.Player{White, Black} {
		b.WriteString(":")
		if c == White {
			b.WriteString("W")
		} else {
			b.WriteString("B")
		}
		first := true
		for _, set := range []uint32{p.Pieces(c) &^ p.Kings, p.Pieces(c) & p.Kings} {
			king := set&p.Kings != 0
			for ; set != 0; set &= set - 1 {
				if !first {
					b.WriteByte(',')
				}
				first = false
				if king {
					b.WriteByte('K')
				}
				b.WriteString(strconv.Itoa(lowest(set) + 1))
			}
		}
	}
	return b.String()
}

// Validate reports whether p could arise in a game, for positions built from
// bitboards with NewPosition: the side to move is Black or White, no square
// holds pieces of both sides, every king is a piece of one side, neither side
// has more than 12 pieces, no man stands on its own crowning row (it would
// have been crowned), and the hash matches the pieces (build positions with
// NewPosition or Play, not as struct literals). The error wraps
// ErrInvalidPosition and names the first problem found.
func (p Position) Validate() error {
	if err := p.validate(); err != nil {
		return fmt.Errorf("draughts: invalid position: %w", err)
	}
	return nil
}

func (p *Position) validate() *game.Error {
	if p.Side != Black && p.Side != White {
		return game.Errorf(ErrInvalidPosition, "side to move %d is neither Black nor White", p.Side)
	}
	if both := p.Black & p.White; both != 0 {
		return game.Errorf(ErrInvalidPosition, "square %d holds both a black and a white piece", lowest(both)+1)
	}
	if stray := p.Kings &^ (p.Black | p.White); stray != 0 {
		return game.Errorf(ErrInvalidPosition, "square %d holds a king of neither side", lowest(stray)+1)
	}
	for _, c := range []game.Player{Black, White} {
		if n := popcount(p.Pieces(c)); n > maxPieces {
			return game.Errorf(ErrInvalidPosition, "%d %s pieces (at most %d)", n, colourName(c), maxPieces)
		}
		if crowned := p.Men(c) & crownRow(c); crowned != 0 {
			return game.Errorf(ErrInvalidPosition, "%s man on %d, its own crowning row (it would be a king)", colourName(c), lowest(crowned)+1)
		}
	}
	if q := NewPosition(p.Black, p.White, p.Kings, p.Side); p.Hash() != q.Hash() {
		return game.Errorf(ErrInvalidPosition, "hash does not match the pieces (build positions with NewPosition)")
	}
	return nil
}

// colourName returns "black" or "white".
func colourName(c game.Player) string {
	if c == Black {
		return "black"
	}
	return "white"
}
