package xiangqi

// This file reads and writes moves in the coordinates Fairy-Stockfish
// speaks over UCI for xiangqi: the start and end squares, file a..i and
// rank 1..10 from Red's side, as in h2e2 and h10g8.

import (
	"fmt"

	"evolved/game"
)

// FormatUCI returns m in Fairy-Stockfish's coordinates; it is m.String().
func (p *Position) FormatUCI(m Move) string { return m.String() }

// ParseUCI reads a move in Fairy-Stockfish's coordinates ("h2e2",
// "h10g8"; file letters may be upper case) and returns it if it is legal
// in p. Errors wrap ErrSyntax or ErrIllegalMove; for an illegal move the
// message says why, as WhyIllegal does.
func (p *Position) ParseUCI(s string) (Move, error) {
	m, err := p.parseUCI(s)
	return game.ParsedIn("xiangqi: parse move", s, func() string { return p.FEN() }, m, err)
}

func (p *Position) parseUCI(s string) (Move, *game.Error) {
	from, rest, ok := parseSquarePrefix(s)
	if !ok {
		return NoMove, game.Errorf(ErrSyntax, "want two squares a1..i10, as in h2e2 or h10g8")
	}
	to, rest, ok := parseSquarePrefix(rest)
	if !ok || rest != "" {
		return NoMove, game.Errorf(ErrSyntax, "want two squares a1..i10, as in h2e2 or h10g8")
	}
	return p.moveBetween(from, to)
}

// moveBetween returns the legal move from from to to, or an error that
// says why there is none.
func (p *Position) moveBetween(from, to Square) (Move, *game.Error) {
	var buf [MaxMoves]Move
	for _, m := range p.LegalMoves(buf[:0]) {
		if m.From() == from && m.To() == to {
			return m, nil
		}
	}
	why := p.WhyIllegal(from, to)
	if why == "" {
		// Unreachable while WhyIllegal agrees with LegalMoves, which the
		// tests check on every point pair of many positions.
		why = "the move is not legal"
	}
	return NoMove, game.Errorf(ErrIllegalMove, "%s", why)
}

// ParseSquare reads a square a1..i10 (the file letter may be upper case).
func ParseSquare(s string) (Square, error) {
	sq, rest, ok := parseSquarePrefix(s)
	if !ok || rest != "" {
		return NoSquare, fmt.Errorf("xiangqi: parse square %q: %w", s, game.Errorf(ErrSyntax, "want a file a..i and a rank 1..10"))
	}
	return sq, nil
}

// parseSquarePrefix reads a square at the start of s and returns it with
// the rest of s. A rank of two digits is read as 10 only.
func parseSquarePrefix(s string) (Square, string, bool) {
	if len(s) < 2 {
		return NoSquare, s, false
	}
	f := int(s[0]|0x20) - 'a'
	if f < 0 || f >= Files || s[1] < '1' || s[1] > '9' {
		return NoSquare, s, false
	}
	r, n := int(s[1]-'0'), 2
	if len(s) > 2 && s[2] >= '0' && s[2] <= '9' {
		r, n = r*10+int(s[2]-'0'), 3
	}
	if r > Ranks {
		return NoSquare, s, false
	}
	return NewSquare(f, r-1), s[n:], true
}
