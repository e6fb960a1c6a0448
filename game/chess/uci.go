package chess

// This file reads and writes moves in the long algebraic notation of the
// UCI protocol: the start and end squares, then the promotion piece in
// lower case (e2e4, e7e8q). Castling is written as the king's move (e1g1)
// in classical chess, and as the king taking its own rook (e1h1) when the
// GUI has set UCI_Chess960, the only unambiguous form in Chess960.

import (
	"strings"

	"evolved/game"
)

// FormatUCI returns m, legal in p, in UCI notation. chess960 selects the
// king-takes-rook form of castling (UCI_Chess960); otherwise castling is
// written as the king's two-square move, which is right for classical chess
// but can be ambiguous in a Chess960 position. NoMove is written "0000".
func (p *Position) FormatUCI(m Move, chess960 bool) string {
	if m == NoMove {
		return "0000"
	}
	to := m.To()
	if m.IsCastle() && !chess960 {
		to = m.KingTo()
	}
	s := m.From().String() + to.String()
	if promo := m.Promotion(); promo != NoPieceType {
		s += promo.String()
	}
	return s
}

// ParseUCI reads a move in UCI notation and returns it if it is legal in p.
// With chess960, castling must be written king-takes-rook (e1h1); without,
// castling may be written either as the king's move (e1g1) or king-takes-rook,
// and a king move that is also a castling destination is the plain king
// move. Promotion letters may be upper case. Errors wrap ErrSyntax or
// ErrIllegalMove.
func (p *Position) ParseUCI(s string, chess960 bool) (Move, error) {
	m, err := p.parseUCI(s, chess960)
	return game.ParsedIn("chess: parse UCI move", s, func() string { return p.FEN() }, m, err)
}

func (p *Position) parseUCI(s string, chess960 bool) (Move, *game.Error) {
	if len(s) != 4 && len(s) != 5 {
		return NoMove, game.Errorf(ErrSyntax, "%d characters, want 4 or 5 (e2e4, e7e8q)", len(s))
	}
	from, ok1 := parseSquare(s[0:2])
	to, ok2 := parseSquare(s[2:4])
	if !ok1 || !ok2 {
		return NoMove, game.Errorf(ErrSyntax, "want two squares a1..h8 then an optional promotion letter")
	}
	promo := NoPieceType
	if len(s) == 5 {
		promo = PieceType(strings.IndexByte("pnbrq", s[4]|0x20))
		if promo < Knight || promo > Queen {
			return NoMove, game.Errorf(ErrSyntax, "promotion letter %q, want q, r, b or n", s[4])
		}
	}
	var buf [MaxMoves]Move
	var castle Move
	for _, m := range p.LegalMoves(buf[:0]) {
		if m.From() != from || m.Promotion() != promo {
			continue
		}
		if m.IsCastle() {
			if m.To() == to || !chess960 && m.KingTo() == to {
				castle = m
			}
			continue
		}
		if m.To() == to {
			return m, nil
		}
	}
	if castle != NoMove {
		return castle, nil
	}
	return NoMove, game.Errorf(ErrIllegalMove, "not a legal move")
}
