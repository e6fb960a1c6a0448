package chess

// This file reads and writes positions in Forsyth-Edwards Notation, with the
// castling field in any of its three dialects: standard KQkq, X-FEN (KQkq
// for the outermost rook, the rook's file letter otherwise) and Shredder-FEN
// (always the file letter, HAha). It also builds the 960 start positions of
// Chess960. Nothing here is on the hot path.

import (
	"fmt"
	"strings"

	"evolved/game"
)

// StartFEN is the FEN of the standard start position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Start returns the standard start position. It is Chess960(518).
func Start() Position {
	p, _ := Chess960(518)
	return p
}

// knightPlacements lists, for the Scharnagl numbering, where the two knights
// stand among the five squares left after the bishops and the queen.
var knightPlacements = [10][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}

// Chess960 returns the Chess960 start position with Scharnagl number n,
// 0..959; 518 is the standard start position. The number is decoded as
// usual: n mod 4 places the light-squared bishop on b, d, f or h; the next
// base-4 digit the dark-squared bishop on a, c, e or g; the next base-6 digit
// the queen on one of the six empty squares; the rest, 0..9, the knights on
// two of the five left; rook, king and rook fill the last three in order.
// White has the castling rights of both rooks, and so has Black.
func Chess960(n int) (Position, error) {
	if n < 0 || n > 959 {
		return Position{}, fmt.Errorf("chess: Chess960(%d): %w", n, game.Errorf(ErrInvalidPosition, "Chess960 number %d is not in 0..959", n))
	}
	var rank [8]PieceType
	for i := range rank {
		rank[i] = NoPieceType
	}
	rank[2*(n%4)+1] = Bishop
	n /= 4
	rank[2*(n%4)] = Bishop
	n /= 4
	emptyFiles := func() []int {
		var files []int
		for f, pt := range rank {
			if pt == NoPieceType {
				files = append(files, f)
			}
		}
		return files
	}
	rank[emptyFiles()[n%6]] = Queen
	n /= 6
	files := emptyFiles()
	rank[files[knightPlacements[n][0]]] = Knight
	rank[files[knightPlacements[n][1]]] = Knight
	files = emptyFiles()
	rank[files[0]], rank[files[1]], rank[files[2]] = Rook, King, Rook

	var p Position
	for f, pt := range rank {
		p.put(White, pt, NewSquare(f, 0))
		p.put(Black, pt, NewSquare(f, 7))
		p.put(White, Pawn, NewSquare(f, 1))
		p.put(Black, Pawn, NewSquare(f, 6))
	}
	p.castling = bit(NewSquare(files[0], 0)) | bit(NewSquare(files[2], 0)) |
		bit(NewSquare(files[0], 7)) | bit(NewSquare(files[2], 7))
	p.side = White
	p.ep = NoSquare
	p.fullmove = 1
	p.hash = p.computeHash()
	return p, nil
}

// put places a piece of colour c and type pt on the empty square s, without
// updating the hash.
func (p *Position) put(c game.Player, pt PieceType, s Square) {
	p.pieces[pt] |= bit(s)
	p.colors[c] |= bit(s)
}

// pieceLetters maps a piece to its FEN letter, upper case for White.
const pieceLetters = "PNBRQKpnbrqk"

// ParseFEN reads a position in Forsyth-Edwards Notation:
//
//	rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
//
// The castling field may be standard (KQkq), X-FEN (K or Q for the
// outermost rook on that side of the king, a file letter for another rook)
// or Shredder-FEN (the rook's file letter, HAha). The two clocks may be
// missing, as in EPD; they default to 0 and 1. An en passant square that no
// pawn can capture onto is dropped (see Position).
//
// The position must be legal in the sense movegen relies on: one king a
// side, no pawn on the first or last rank, the side not to move not in
// check, no more pieces than promotions can produce, castling rights whose
// king and rook stand on their first rank, an en passant square behind a
// pawn that can just have advanced two squares. Errors wrap ErrSyntax or
// ErrInvalidPosition and name the problem; ParseFEN does not panic on any
// input.
func ParseFEN(s string) (Position, error) {
	p, err := parseFEN(s)
	return game.Parsed("chess: parse FEN", s, p, err)
}

func parseFEN(s string) (Position, *game.Error) {
	fields := strings.Fields(s)
	if len(fields) < 4 {
		return Position{}, game.Errorf(ErrSyntax, "%d fields, want 4 to 6 (board, side, castling, en passant, clocks)", len(fields))
	}
	if len(fields) > 6 {
		return Position{}, game.Errorf(ErrSyntax, "%d fields, want 4 to 6", len(fields))
	}
	var p Position
	isPiece := func(ch byte) bool { return strings.IndexByte(pieceLetters, ch) >= 0 }
	put := func(ch byte, f, r int) *game.Error {
		idx := strings.IndexByte(pieceLetters, ch)
		p.put(game.Player(idx/6), PieceType(idx%6), NewSquare(f, r))
		return nil
	}
	if err := game.ParseFENBoard(fields[0], 8, 8, "squares", ErrSyntax, isPiece, put); err != nil {
		return Position{}, err
	}
	var err *game.Error
	if p.side, err = game.ParseFENSide(fields[1], ErrSyntax, "want w or b"); err != nil {
		return Position{}, err
	}
	if err := p.checkMaterial(); err != nil {
		return Position{}, err
	}
	if err := p.parseCastling(fields[2]); err != nil {
		return Position{}, err
	}
	if err := p.parseEnPassant(fields[3]); err != nil {
		return Position{}, err
	}
	if p.rule50, p.fullmove, err = game.ParseFENClocks(fields, ErrSyntax, "fullmove number"); err != nil {
		return Position{}, err
	}
	if p.attackedBy(p.King(p.side^1), p.Occupied(), p.side) {
		return Position{}, game.Errorf(ErrInvalidPosition, "the side not to move (%s) is in check", colorName(p.side^1))
	}
	p.hash = p.computeHash()
	return p, nil
}

// colorName returns "white" or "black".
func colorName(c game.Player) string {
	if c == White {
		return "white"
	}
	return "black"
}

// checkMaterial checks the kings, the pawns' ranks and the piece counts.
// Beyond one king, eight pawns and the original pieces, every extra knight,
// bishop, rook or queen must be a promoted pawn.
func (p *Position) checkMaterial() *game.Error {
	if p.pieces[Pawn]&(rank1|rank8) != 0 {
		return game.Errorf(ErrInvalidPosition, "pawn on %s, on the first or last rank", lsb(p.pieces[Pawn]&(rank1|rank8)))
	}
	for c := White; c <= Black; c++ {
		if n := p.Pieces(c, King).Count(); n != 1 {
			return game.Errorf(ErrInvalidPosition, "%s has %d kings, want 1", colorName(c), n)
		}
		pawns := p.Pieces(c, Pawn).Count()
		if pawns > 8 {
			return game.Errorf(ErrInvalidPosition, "%s has %d pawns, more than 8", colorName(c), pawns)
		}
		promoted := max(p.Pieces(c, Knight).Count()-2, 0) + max(p.Pieces(c, Bishop).Count()-2, 0) +
			max(p.Pieces(c, Rook).Count()-2, 0) + max(p.Pieces(c, Queen).Count()-1, 0)
		if pawns+promoted > 8 {
			return game.Errorf(ErrInvalidPosition, "%s has %d pawns and %d promoted pieces, more than 8 together", colorName(c), pawns, promoted)
		}
	}
	return nil
}

// parseCastling reads the castling field in any dialect into p.castling.
func (p *Position) parseCastling(field string) *game.Error {
	if field == "-" {
		return nil
	}
	for i := 0; i < len(field); i++ {
		ch := field[i]
		c := White
		lower := ch | 0x20
		if ch >= 'a' && ch <= 'z' {
			c = Black
		}
		rank := backRank(c)
		k := p.King(c)
		if bit(k)&rank == 0 {
			return game.Errorf(ErrInvalidPosition, "castling right %q but the %s king is not on its first rank", ch, colorName(c))
		}
		rooks := p.Pieces(c, Rook) & rank
		var r Square
		switch {
		case lower == 'k':
			right := rooks & ^(bit(k)<<1 - 1) // files above the king
			if right == 0 {
				return game.Errorf(ErrInvalidPosition, "castling right %q without a %s rook on the king's h-side", ch, colorName(c))
			}
			r = msb(right)
		case lower == 'q':
			left := rooks & (bit(k) - 1)
			if left == 0 {
				return game.Errorf(ErrInvalidPosition, "castling right %q without a %s rook on the king's a-side", ch, colorName(c))
			}
			r = lsb(left)
		case lower >= 'a' && lower <= 'h':
			r = NewSquare(int(lower-'a'), 0)
			if c == Black {
				r += 56
			}
			if !rooks.Has(r) {
				return game.Errorf(ErrInvalidPosition, "castling right %q without a %s rook on %s", ch, colorName(c), r)
			}
		default:
			return game.Errorf(ErrSyntax, "castling field %q: %q is not K, Q, k, q or a file letter", field, ch)
		}
		if p.castling.Has(r) {
			return game.Errorf(ErrSyntax, "castling field %q names the rook on %s twice", field, r)
		}
		// At most one castling rook on each side of the king.
		if same := p.castling & rank; same != 0 && (lsb(same) > k) == (r > k) {
			return game.Errorf(ErrInvalidPosition, "castling field %q gives %s two rooks on one side of the king", field, colorName(c))
		}
		p.castling |= bit(r)
	}
	return nil
}

// parseEnPassant reads the en passant field into p.ep.
func (p *Position) parseEnPassant(field string) *game.Error {
	p.ep = NoSquare
	if field == "-" {
		return nil
	}
	s, ok := parseSquare(field)
	if !ok {
		return game.Errorf(ErrSyntax, "en passant square %q is not a square a1..h8", field)
	}
	us, them := p.side, p.side^1
	wantRank, push := 5, -8 // White to move: the square is on rank 6, the pawn on rank 5
	if us == Black {
		wantRank, push = 2, 8
	}
	if s.Rank() != wantRank {
		return game.Errorf(ErrInvalidPosition, "en passant square %s is not on rank %d", s, wantRank+1)
	}
	pawnSq, fromSq := Square(int(s)+push), Square(int(s)-push)
	if !p.Pieces(them, Pawn).Has(pawnSq) || p.Occupied()&(bit(s)|bit(fromSq)) != 0 {
		return game.Errorf(ErrInvalidPosition, "en passant square %s is not behind a %s pawn that has just advanced two squares", s, colorName(them))
	}
	if tab.pawn[them][s]&p.Pieces(us, Pawn) != 0 {
		p.ep = s
	}
	return nil
}

// parseSquare reads a square name such as "e4".
func parseSquare(s string) (Square, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, false
	}
	return NewSquare(int(s[0]-'a'), int(s[1]-'1')), true
}

// FEN returns the position in Forsyth-Edwards Notation. The castling field
// is standard KQkq when every castling rook stands on the a- or h-file with
// its king on the e-file, as in classical chess, and Shredder-FEN (the
// rooks' files, HFhf) otherwise, which is unambiguous in every Chess960
// position and read by every Chess960-aware program. FEN(ParseFEN(s)) = s for
// every FEN this method writes.
func (p Position) FEN() string {
	var sb strings.Builder
	game.WriteFENBoard(&sb, 8, 8, func(f, r int) byte {
		pt, c := p.PieceAt(NewSquare(f, r))
		if pt == NoPieceType {
			return 0
		}
		return pieceLetters[int(c)*6+int(pt)]
	})
	if p.side == White {
		sb.WriteString(" w ")
	} else {
		sb.WriteString(" b ")
	}
	sb.WriteString(p.castlingField())
	sb.WriteByte(' ')
	sb.WriteString(p.ep.String())
	fmt.Fprintf(&sb, " %d %d", p.rule50, p.fullmove)
	return sb.String()
}

// ClassicalCastling reports whether every castling right is a classical
// one (king on the e-file, rook on the a- or h-file), so that the standard
// KQkq field and two-square king moves in UCI describe it. It is true when
// no castling right is left.
func (p *Position) ClassicalCastling() bool {
	for b := p.castling; b != 0; b &= b - 1 {
		r := lsb(b)
		c := White
		if r >= A8 {
			c = Black
		}
		if f := r.File(); f != 0 && f != 7 || p.King(c).File() != 4 {
			return false
		}
	}
	return true
}

// castlingField returns the castling field of the FEN, as FEN documents.
func (p *Position) castlingField() string {
	if p.castling == 0 {
		return "-"
	}
	classical := p.ClassicalCastling()
	var out []byte
	for _, c := range [2]game.Player{White, Black} {
		rooks := p.castling & backRank(c)
		// Descending files: the h-side rook first, as in KQkq and HAha.
		for rooks != 0 {
			r := msb(rooks)
			rooks &^= bit(r)
			var ch byte
			switch {
			case !classical:
				ch = 'A' + byte(r.File())
			case r.File() == 7:
				ch = 'K'
			default:
				ch = 'Q'
			}
			if c == Black {
				ch |= 0x20
			}
			out = append(out, ch)
		}
	}
	return string(out)
}

// String returns the FEN of the position.
func (p Position) String() string { return p.FEN() }
