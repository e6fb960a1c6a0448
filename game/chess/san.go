package chess

// This file reads and writes moves in Standard Algebraic Notation, as the
// PGN standard (section 8.2.3) defines it: the piece letter (none for
// pawns), the start file, rank or both when another piece of the same kind
// could go to the same square, "x" for a capture, the destination, "=Q"
// for a promotion, and "+" or "#" for check or mate. Castling is O-O on the
// h-side and O-O-O on the a-side, in Chess960 too.

import (
	"strings"

	"evolved/game"
)

// sanPieces maps a PieceType to its SAN letter; pawns have none.
const sanPieces = "PNBRQK"

// FormatSAN returns m, legal in p, in SAN, check and mate marks included.
func (p *Position) FormatSAN(m Move) string {
	if m == NoMove {
		return "--"
	}
	var buf [MaxMoves]Move
	var sb strings.Builder
	switch {
	case m.IsCastle():
		if m.To() > m.From() {
			sb.WriteString("O-O")
		} else {
			sb.WriteString("O-O-O")
		}
	default:
		from, to, pt := m.From(), m.To(), m.Piece()
		capture := m.IsEnPassant() || p.Occupied().Has(to)
		if pt == Pawn {
			if capture {
				sb.WriteByte('a' + byte(from.File()))
			}
		} else {
			sb.WriteByte(sanPieces[pt])
			// Disambiguate among the other pieces of this kind that can
			// go to the same square.
			sameFile, sameRank, others := false, false, false
			for _, o := range p.LegalMoves(buf[:0]) {
				if o.Piece() != pt || o.To() != to || o.From() == from || o.IsCastle() {
					continue
				}
				others = true
				sameFile = sameFile || o.From().File() == from.File()
				sameRank = sameRank || o.From().Rank() == from.Rank()
			}
			switch {
			case !others:
			case !sameFile:
				sb.WriteByte('a' + byte(from.File()))
			case !sameRank:
				sb.WriteByte('1' + byte(from.Rank()))
			default:
				sb.WriteString(from.String())
			}
		}
		if capture {
			sb.WriteByte('x')
		}
		sb.WriteString(to.String())
		if promo := m.Promotion(); promo != NoPieceType {
			sb.WriteByte('=')
			sb.WriteByte(sanPieces[promo])
		}
	}
	child := p.Play(m)
	if child.InCheck() {
		if child.CountMoves() == 0 {
			sb.WriteByte('#')
		} else {
			sb.WriteByte('+')
		}
	}
	return sb.String()
}

// ParseSAN reads a move in SAN and returns it if it is legal in p. Reading
// is liberal: check and mate marks and the annotations !, ?, !!, ??, !?, ?!
// may follow or be missing, "x" may be missing, castling may be written
// with zeros (0-0), and the "=" of a promotion may be left out (e8Q).
// Errors wrap ErrSyntax, ErrIllegalMove or ErrAmbiguousMove.
func (p *Position) ParseSAN(s string) (Move, error) {
	m, err := p.parseSAN(s)
	return game.ParsedIn("chess: parse SAN move", s, func() string { return p.FEN() }, m, err)
}

func (p *Position) parseSAN(s string) (Move, *game.Error) {
	t := strings.TrimRight(s, "+#!?")
	if t == "" {
		return NoMove, game.Errorf(ErrSyntax, "empty move")
	}
	var buf [MaxMoves]Move
	moves := p.LegalMoves(buf[:0])
	switch t {
	case "O-O", "0-0", "O-O-O", "0-0-0":
		long := len(t) == 5
		for _, m := range moves {
			if m.IsCastle() && (m.To() < m.From()) == long {
				return m, nil
			}
		}
		return NoMove, game.Errorf(ErrIllegalMove, "castling %s is not legal", t)
	}
	pt := Pawn
	if i := strings.IndexByte(sanPieces[1:], t[0]); i >= 0 {
		pt = PieceType(i + 1)
		t = t[1:]
	}
	promo := NoPieceType
	if n := len(t); n >= 1 && strings.IndexByte("NBRQ", t[n-1]) >= 0 {
		promo = PieceType(strings.IndexByte(sanPieces, t[n-1]))
		t = strings.TrimSuffix(t[:n-1], "=")
		if pt != Pawn {
			return NoMove, game.Errorf(ErrSyntax, "only a pawn can promote")
		}
	}
	if len(t) < 2 {
		return NoMove, game.Errorf(ErrSyntax, "no destination square")
	}
	to, ok := parseSquare(t[len(t)-2:])
	if !ok {
		return NoMove, game.Errorf(ErrSyntax, "%q is not a destination square a1..h8", t[len(t)-2:])
	}
	t = strings.TrimSuffix(t[:len(t)-2], "x")
	fromFile, fromRank := -1, -1
	switch {
	case len(t) == 0:
	case len(t) == 1 && t[0] >= 'a' && t[0] <= 'h':
		fromFile = int(t[0] - 'a')
	case len(t) == 1 && t[0] >= '1' && t[0] <= '8':
		fromRank = int(t[0] - '1')
	case len(t) == 2:
		sq, ok := parseSquare(t)
		if !ok {
			return NoMove, game.Errorf(ErrSyntax, "%q is not a start square, file or rank", t)
		}
		fromFile, fromRank = sq.File(), sq.Rank()
	default:
		return NoMove, game.Errorf(ErrSyntax, "%q is not a start square, file or rank", t)
	}
	found := NoMove
	for _, m := range moves {
		if m.IsCastle() || m.Piece() != pt || m.To() != to || m.Promotion() != promo ||
			fromFile >= 0 && m.From().File() != fromFile || fromRank >= 0 && m.From().Rank() != fromRank {
			continue
		}
		if found != NoMove {
			return NoMove, game.Errorf(ErrAmbiguousMove, "both %s and %s match", p.FormatUCI(found, true), p.FormatUCI(m, true))
		}
		found = m
	}
	if found == NoMove {
		if pt == Pawn && promo == NoPieceType && bit(to)&(rank1|rank8) != 0 {
			return NoMove, game.Errorf(ErrIllegalMove, "a pawn move to the last rank needs a promotion piece")
		}
		return NoMove, game.Errorf(ErrIllegalMove, "no legal move matches")
	}
	return found, nil
}
