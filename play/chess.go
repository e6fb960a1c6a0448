package play

import (
	"errors"
	"fmt"
	"strings"

	"evolved/game/chess"
)

// ChessUI returns how a person sees and types chess: the board with White
// at the bottom, moves in SAN or UCI.
func ChessUI() UI[chess.Move, *chess.Game] { return chessUI{} }

// chessUI is chess for a person.
type chessUI struct{}

func (chessUI) title() string { return "Chess" }

func (chessUI) help() string {
	return "Moves: SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI (e2e4, g1f3, e7e8q).\n"
}

func (chessUI) scoreUnit() string { return "centipawns" }

// formatMove writes SAN, the notation people read.
func (chessUI) formatMove(g *chess.Game, m chess.Move) string {
	p := g.Position()
	return p.FormatSAN(m)
}

// parseMove reads UCI (e2e4) or SAN (e4, Nf3, O-O). A well-formed move
// that cannot be played here says so (with the reason when there is more
// to it, a missing promotion piece); other errors are the parser's. Its
// errors never list the legal moves themselves, so the session adds them.
func (chessUI) parseMove(g *chess.Game, text string) (chess.Move, error, bool) {
	m, err := g.ParseMove(text)
	if err == nil {
		return m, nil, false
	}
	p := g.Position()
	if !looksLikeUCI(text) {
		if _, sanErr := p.ParseSAN(text); errors.Is(sanErr, chess.ErrIllegalMove) {
			err = sanErr
		}
	}
	if !errors.Is(err, chess.ErrIllegalMove) {
		return chess.NoMove, err, false
	}
	switch reason := chessReason(err, p.FEN()); {
	case reason == "no legal move matches", reason == "not a legal move", strings.HasPrefix(reason, "castling "):
		return chess.NoMove, fmt.Errorf("%s is not a legal move here", text), false
	default:
		return chess.NoMove, fmt.Errorf("%s is not a legal move here: %s", text, reason), false
	}
}

// chessReason returns what err says of a move without the parser's
// context, the text and the position fen, which a person at the board
// sees.
func chessReason(err error, fen string) string {
	reason := err.Error()
	if _, after, ok := strings.Cut(reason, " in "+fen+": "); ok {
		reason = after
	}
	return reason
}

// looksLikeMove: a piece letter or a file first (Nf3, e4, exd5, e2e4), or
// castling.
func (chessUI) looksLikeMove(text string) bool {
	return len(text) >= 2 && strings.ContainsRune("KQRBNabcdefgh", rune(text[0])) ||
		strings.HasPrefix(text, "O-") || strings.HasPrefix(text, "0-")
}

// chessUnicode and chessASCII draw pieces by type, White then Black.
var (
	chessUnicode = [2][7]string{
		{chess.Pawn: "♙", chess.Knight: "♘", chess.Bishop: "♗", chess.Rook: "♖", chess.Queen: "♕", chess.King: "♔"},
		{chess.Pawn: "♟", chess.Knight: "♞", chess.Bishop: "♝", chess.Rook: "♜", chess.Queen: "♛", chess.King: "♚"},
	}
	chessASCII = [2][7]string{
		{chess.Pawn: "P", chess.Knight: "N", chess.Bishop: "B", chess.Rook: "R", chess.Queen: "Q", chess.King: "K"},
		{chess.Pawn: "p", chess.Knight: "n", chess.Bishop: "b", chess.Rook: "r", chess.Queen: "q", chess.King: "k"},
	}
)

// draw draws the board with White at the bottom, files and ranks around it.
func (chessUI) draw(g *chess.Game, ascii bool) string {
	glyphs := chessUnicode
	if ascii {
		glyphs = chessASCII
	}
	p := g.Position()
	var b strings.Builder
	b.WriteString("    a b c d e f g h\n")
	for rank := 7; rank >= 0; rank-- {
		fmt.Fprintf(&b, "  %d", rank+1)
		for file := range 8 {
			pt, side := p.PieceAt(chess.NewSquare(file, rank))
			if pt == chess.NoPieceType {
				b.WriteString(" .")
				continue
			}
			b.WriteString(" " + glyphs[side&1][pt])
		}
		fmt.Fprintf(&b, " %d\n", rank+1)
	}
	b.WriteString("    a b c d e f g h\n")
	return b.String()
}

// Chess on a page: cell row*8+file, rank 8 first.

func (chessUI) layout() (int, int, []string) {
	labels := make([]string, 64)
	for i := range labels {
		labels[i] = chess.NewSquare(i%8, 7-i/8).String()
	}
	return 8, 8, labels
}

// chessCell returns the cell of square s.
func chessCell(s chess.Square) int { return (7-s.Rank())*8 + s.File() }

func (chessUI) cells(g *chess.Game) ([]string, int) {
	p := g.Position()
	codes := make([]string, 64)
	for i := range codes {
		pt, side := p.PieceAt(chess.NewSquare(i%8, 7-i/8))
		switch {
		case pt == chess.NoPieceType:
		case side == chess.White:
			codes[i] = strings.ToUpper(pt.String())
		default:
			codes[i] = pt.String()
		}
	}
	check := -1
	if p.InCheck() {
		check = chessCell(p.King(p.Side()))
	}
	return codes, check
}

// option: castling goes to the king's square, as people drag it, unless
// the king stays where it is (Chess960), when it goes to the rook's.
func (chessUI) option(g *chess.Game, m chess.Move) MoveOption {
	p := g.Position()
	to := m.KingTo()
	if to == m.From() {
		to = m.To()
	}
	return MoveOption{From: chessCell(m.From()), To: chessCell(to), Text: p.FormatSAN(m)}
}

// readMove reads UCI or SAN as the terminal does. When neither reads the
// text, the reason given is SAN's unless the text looks like UCI (e2e4):
// "e5" at the start is "no legal move matches", not "2 characters, want 4";
// like xiangqi's, it leaves out the position, which the page shows.
func (chessUI) readMove(g *chess.Game, text string) (chess.Move, error, bool) {
	m, err := g.ParseMove(text)
	if err == nil {
		return m, nil, false
	}
	p := g.Position()
	if !looksLikeUCI(text) {
		if _, sanErr := p.ParseSAN(text); sanErr != nil {
			err = sanErr
		}
	}
	reason := chessReason(err, p.FEN())
	switch {
	case errors.Is(err, chess.ErrSyntax):
		reason = "cannot read the move: " + reason
	case errors.Is(err, chess.ErrIllegalMove):
		reason = "illegal move: " + reason
	case errors.Is(err, chess.ErrAmbiguousMove):
		reason = "ambiguous move: " + reason
	}
	return chess.NoMove, errors.New(reason), false
}

// looksLikeUCI reports whether text has the shape of a UCI move: two
// squares and perhaps a promotion letter.
func looksLikeUCI(text string) bool {
	square := func(s string) bool { return s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8' }
	return (len(text) == 4 || len(text) == 5) && square(text[0:2]) && square(text[2:4])
}
