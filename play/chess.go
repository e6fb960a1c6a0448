package play

import (
	"errors"
	"fmt"
	"strings"

	"evolved/game"
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
		if why := whyIllegal(&p, text); why != "" {
			return chess.NoMove, fmt.Errorf("%s is not a legal move here: %s", text, why), false
		}
		return chess.NoMove, fmt.Errorf("%s is not a legal move here", text), false
	default:
		return chess.NoMove, fmt.Errorf("%s is not a legal move here: %s", text, reason), false
	}
}

// pieceNames names the piece types for a person.
var pieceNames = [...]string{chess.Pawn: "pawn", chess.Knight: "knight", chess.Bishop: "bishop", chess.Rook: "rook", chess.Queen: "queen", chess.King: "king"}

// whyIllegal says why a move written in SAN cannot be played in p, as far
// as the text tells: a castling, by its right, the squares between, check
// or the squares the king crosses; a piece or pawn move, by what it would
// take of the side's pieces; "" when the text says too little.
func whyIllegal(p *chess.Position, text string) string {
	side := p.Side()
	colour := "White"
	if side != game.First {
		colour = "Black"
	}
	san := strings.TrimRight(strings.ReplaceAll(text, "0", "O"), "+#!?")
	if san == "O-O" || san == "O-O-O" {
		return whyNoCastling(p, colour, san == "O-O")
	}
	if looksLikeUCI(text) {
		from, to := square(text[0:2]), text[2:4]
		pt, owner := p.PieceAt(from)
		switch {
		case pt == chess.NoPieceType:
			return fmt.Sprintf("there is no piece on %s", from)
		case owner != side:
			return fmt.Sprintf("the %s on %s is not %s's", pieceNames[pt], from, colour)
		}
		return fmt.Sprintf("the %s on %s cannot move to %s", pieceNames[pt], from, to)
	}
	if len(san) < 2 {
		return ""
	}
	pt := chess.Pawn
	if i := strings.IndexByte("NBRQK", san[0]); i >= 0 {
		pt = [...]chess.PieceType{chess.Knight, chess.Bishop, chess.Rook, chess.Queen, chess.King}[i]
	}
	core, _, _ := strings.Cut(san, "=") // a promotion's piece
	to := core[len(core)-2:]
	if to[0] < 'a' || to[0] > 'h' || to[1] < '1' || to[1] > '8' {
		return ""
	}
	name := pieceNames[pt]
	if p.Pieces(side, pt) == 0 {
		return fmt.Sprintf("%s has no %s", colour, name)
	}
	if strings.Contains(core, "x") {
		return fmt.Sprintf("no %s %s can capture on %s", strings.ToLower(colour), name, to)
	}
	return fmt.Sprintf("no %s %s can move to %s", strings.ToLower(colour), name, to)
}

// square reads a square written as two characters known to be a1..h8.
func square(s string) chess.Square { return chess.Square(int(s[1]-'1')*8 + int(s[0]-'a')) }

// whyNoCastling says why the side to move of p cannot castle on one side
// in classical chess; "" in Chess960, where the squares differ.
func whyNoCastling(p *chess.Position, colour string, kingside bool) string {
	if !p.ClassicalCastling() {
		return ""
	}
	side, wing := p.Side(), "queenside"
	home := chess.A1
	between := []chess.Square{chess.B1, chess.C1, chess.D1}
	if kingside {
		wing, home, between = "kingside", chess.H1, []chess.Square{chess.F1, chess.G1}
	}
	shift := chess.Square(0)
	if side != game.First {
		shift = 56 // the eighth rank
	}
	if !p.CastlingRooks().Has(home + shift) {
		return fmt.Sprintf("%s may no longer castle %s: its king or that rook has moved", colour, wing)
	}
	var blocked []string
	for _, s := range between {
		if pt, _ := p.PieceAt(s + shift); pt != chess.NoPieceType {
			blocked = append(blocked, fmt.Sprintf("a %s on %s", pieceNames[pt], s+shift))
		}
	}
	if len(blocked) > 0 {
		return "the squares between the king and the rook must be empty, and there is " + strings.Join(blocked, " and ")
	}
	if p.InCheck() {
		return "a king in check may not castle"
	}
	return "the king may not pass through or land on an attacked square"
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
	// Every SAN and UCI move but castling names a rank (a mistyped one a
	// digit); "clear" or
	// "back" name none and are taken for commands.
	return len(text) >= 2 && strings.ContainsRune("KQRBNabcdefgh", rune(text[0])) && strings.ContainsAny(text, "0123456789") ||
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

// draw draws the board with the person's side at the bottom (White's
// when the person plays White, Black's, rank 1 at the top and file h on
// the left, when Black), files and ranks around it.
func (chessUI) draw(g *chess.Game, ascii bool, human game.Player) string {
	glyphs := chessUnicode
	if ascii {
		glyphs = chessASCII
	}
	p := g.Position()
	flip := human == chess.Black
	files := "    a b c d e f g h\n"
	if flip {
		files = "    h g f e d c b a\n"
	}
	var b strings.Builder
	b.WriteString(files)
	for row := range 8 {
		rank := 7 - row
		if flip {
			rank = row
		}
		fmt.Fprintf(&b, "  %d", rank+1)
		for col := range 8 {
			file := col
			if flip {
				file = 7 - col
			}
			pt, side := p.PieceAt(chess.NewSquare(file, rank))
			if pt == chess.NoPieceType {
				b.WriteString(" .")
				continue
			}
			b.WriteString(" " + glyphs[side&1][pt])
		}
		fmt.Fprintf(&b, " %d\n", rank+1)
	}
	b.WriteString(files)
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
