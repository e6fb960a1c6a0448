package play

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"evolved/game"
	"evolved/game/chess"
	"evolved/player"
)

// ChessOptions configures a chess session.
type ChessOptions struct {
	Engine player.ChessSpec
	Human  game.Player
	Start  chess.Position
	Rules  chess.Rules
	ASCII  bool
	Seed   uint64
	// Record, if set, is a PGN file whose first game is replayed before play.
	Record string
}

// Chess runs a chess session until the person quits or the input ends.
func Chess(ctx context.Context, in io.Reader, out io.Writer, opts ChessOptions) error {
	s := newSession(chessRules{start: opts.Start, rules: opts.Rules}, opts.Engine, opts.Human, opts.ASCII, opts.Seed, opts.Record, in, out)
	return s.run(ctx, "Chess")
}

// chessRules adapts chess to a session.
type chessRules struct {
	start chess.Position
	rules chess.Rules
}

func (r chessRules) newGame() *chess.Game { return chess.NewGame(r.start, r.rules) }

func (chessRules) scoreUnit() string { return "centipawns" }

func (chessRules) sideName(p game.Player) string {
	if p == chess.White {
		return "White"
	}
	return "Black"
}

// formatMove writes SAN, the notation people read.
func (chessRules) formatMove(g *chess.Game, m chess.Move) string {
	p := g.Position()
	return p.FormatSAN(m)
}

// parseMove reads UCI (e2e4) or SAN (e4, Nf3, O-O). Its errors never list
// the legal moves themselves, so the session adds them.
func (chessRules) parseMove(g *chess.Game, text string) (chess.Move, error, bool) {
	m, err := g.ParseMove(text)
	return m, err, false
}

// looksLikeMove: a piece letter or a file first (Nf3, e4, exd5, e2e4), or
// castling.
func (chessRules) looksLikeMove(text string) bool {
	return len(text) >= 2 && strings.ContainsRune("KQRBNabcdefgh", rune(text[0])) ||
		strings.HasPrefix(text, "O-") || strings.HasPrefix(text, "0-")
}

func (chessRules) fen(g *chess.Game) string {
	p := g.Position()
	return p.FEN()
}

func (chessRules) history(g *chess.Game) string {
	text, err := chess.MoveText(g.Start(), g.Moves(nil))
	if err != nil {
		return ""
	}
	return text
}

func (chessRules) save(w io.Writer, g *chess.Game, white, black string) error {
	return chess.WritePGN(w, chess.PGNGame{
		Tags:   []chess.Tag{{Name: "Event", Value: "evolved play"}, {Name: "White", Value: white}, {Name: "Black", Value: black}},
		Start:  g.Start(),
		Moves:  g.Moves(nil),
		Result: chess.ResultString(g.Outcome().Result),
	})
}

func (r chessRules) load(rd io.Reader) (*chess.Game, error) {
	games, err := chess.ReadPGN(rd)
	if err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, errors.New("no game in the file")
	}
	g := chess.NewGame(games[0].Start, r.rules)
	for _, m := range games[0].Moves {
		g.Make(m)
	}
	return g, nil
}

func (chessRules) help() string {
	return "Moves: SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI (e2e4, g1f3, e7e8q).\n"
}

// chessGlyphs draw pieces by type, White then Black.
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
func (chessRules) draw(g *chess.Game, ascii bool) string {
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
