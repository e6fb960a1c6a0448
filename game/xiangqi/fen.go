package xiangqi

import (
	"strconv"
	"strings"

	"evolved/game"
)

// StartFEN is the standard start position in Fairy-Stockfish's FEN.
const StartFEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

// startPos is the standard start position, parsed once.
var startPos = func() Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic(err) // a bug in this package: StartFEN is a constant
	}
	return p
}()

// Start returns the standard start position.
func Start() Position { return startPos }

// ParseFEN reads a position in the FEN that Fairy-Stockfish reads and
// writes for UCI_Variant xiangqi: the ranks from 10 (Black's back rank)
// down to 1 separated by '/', digits 1..9 for runs of empty points, the
// letters K A B N R C P (E and H are read as B and N) in upper case for
// Red and lower case for Black; then the side to move, w (Red) or b
// (Black); then optionally "-" for castling and "-" for en passant, the
// halfmove clock (plies since the last capture) and the move number.
//
// Unlike Fairy-Stockfish, which takes any placement, ParseFEN accepts only
// positions that can arise in a game, as the move generator relies on
// them: one general a side inside its palace, advisors on their palace
// points, elephants on their seven points, soldiers not behind their start
// rank, no more pieces of a kind than a set has, and the side not to move
// not in check (generals facing each other on an open file included).
// Errors wrap ErrSyntax or ErrInvalidPosition and name the problem;
// ParseFEN does not panic on any input.
func ParseFEN(s string) (Position, error) {
	p, err := parseFEN(s)
	return game.Parsed("xiangqi: parse FEN", s, p, err)
}

func parseFEN(s string) (Position, *game.Error) {
	fields := strings.Fields(s)
	if len(fields) < 2 || len(fields) > 6 {
		return Position{}, game.Errorf(ErrSyntax, "%d fields, want 2 to 6 (board, side, castling, en passant, clocks)", len(fields))
	}
	var p Position
	var counts [2][7]int
	isPiece := func(ch byte) bool {
		return strings.IndexByte(pieceLetters+"EH", ch&^0x20) >= 0 && ch&^0x20 >= 'A' && ch&^0x20 <= 'Z'
	}
	put := func(ch byte, f, r int) *game.Error {
		c := Red
		if ch >= 'a' && ch <= 'z' {
			c = Black
		}
		pt := PieceType(strings.IndexByte(pieceLetters+"EH", ch&^0x20))
		switch pt {
		case 7:
			pt = Elephant
		case 8:
			pt = Horse
		}
		sq := NewSquare(f, r)
		if err := placementError(c, pt, sq); err != nil {
			return err
		}
		counts[c][pt]++
		if counts[c][pt] > standardCount[pt] {
			return game.Errorf(ErrInvalidPosition, "more than %d %s %ss", standardCount[pt], colorName(c), pieceNames[pt])
		}
		p.put(c, pt, sq)
		return nil
	}
	if err := game.ParseFENBoard(fields[0], Files, Ranks, "points", ErrSyntax, isPiece, put); err != nil {
		return Position{}, err
	}
	for c := Red; c <= Black; c++ {
		if counts[c][General] == 0 {
			return Position{}, game.Errorf(ErrInvalidPosition, "no %s general", colorName(c))
		}
	}
	var err *game.Error
	if p.side, err = game.ParseFENSide(fields[1], ErrSyntax, "want w (Red) or b (Black)"); err != nil {
		return Position{}, err
	}
	for i, name := range []string{"castling", "en passant"} {
		if len(fields) > 2+i && fields[2+i] != "-" {
			return Position{}, game.Errorf(ErrSyntax, "%s field %q, want -", name, fields[2+i])
		}
	}
	if p.halfmove, p.fullmove, err = game.ParseFENClocks(fields, ErrSyntax, "move number"); err != nil {
		return Position{}, err
	}
	them := p.side ^ 1
	if attacked(&p.board, p.kings[them], them) {
		if p.facing() {
			return Position{}, game.Errorf(ErrInvalidPosition, "the generals face each other on an open file")
		}
		return Position{}, game.Errorf(ErrInvalidPosition, "the side not to move (%s) is in check", colorName(them))
	}
	p.hash = p.computeHash()
	return p, nil
}

// facing reports whether the generals stand on one file with no piece
// between them.
func (p *Position) facing() bool {
	lo, hi := p.kings[Red], p.kings[Black]
	if lo.File() != hi.File() {
		return false
	}
	for s := lo + Files; s < hi; s += Files {
		if p.board[s] != 0 {
			return false
		}
	}
	return true
}

// placementError says why a piece of colour c and type pt cannot stand on
// s, or returns nil if it can.
func placementError(c game.Player, pt PieceType, s Square) *game.Error {
	ok := true
	switch pt {
	case General:
		ok = tab.inPalace[c][s]
	case Advisor:
		ok = tab.advisorPoint[c][s]
	case Elephant:
		ok = tab.elephantPt[c][s]
	case Soldier:
		ok = c == Red && s.Rank() >= 3 || c == Black && s.Rank() <= 6
	}
	if !ok {
		return game.Errorf(ErrInvalidPosition, "a %s %s cannot stand on %s", colorName(c), pieceNames[pt], s)
	}
	return nil
}

// colorName returns "red" or "black".
func colorName(c game.Player) string {
	if c == Red {
		return "red"
	}
	return "black"
}

// FEN returns the position in Fairy-Stockfish's FEN, for example StartFEN.
func (p Position) FEN() string {
	var sb strings.Builder
	sb.Grow(90)
	game.WriteFENBoard(&sb, Files, Ranks, func(f, r int) byte {
		x := p.board[NewSquare(f, r)]
		if x == 0 {
			return 0
		}
		ch := pieceLetters[cellType(x)]
		if cellColor(x) == Black {
			ch |= 0x20
		}
		return ch
	})
	if p.side == Red {
		sb.WriteString(" w - - ")
	} else {
		sb.WriteString(" b - - ")
	}
	sb.WriteString(strconv.Itoa(int(p.halfmove)))
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(int(p.fullmove)))
	return sb.String()
}

// String returns the FEN of the position.
func (p Position) String() string { return p.FEN() }
