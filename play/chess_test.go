package play

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"evolved/game"
	"evolved/game/chess"
	"evolved/games"
	"evolved/player"
)

func runChess(t *testing.T, human game.Player, lines ...string) string {
	t.Helper()
	return runSession(t, games.Chess(), ChessUI(), "material:1", human, chess.DefaultRules().MaxMoves, true, lines...)
}

func TestChessSession(t *testing.T) {
	dir := t.TempDir()
	pgn := filepath.Join(dir, "game.pgn")
	out := runChess(t, chess.White, "e4", "Nf9", "e2e4", "Qh5", "undo", "history", "save "+pgn, "load "+pgn, "fen", "quit")
	for _, want := range []string{
		"Chess against material:1. You play White.",
		"  1 R N B Q K B N R 1",
		"Black to move, last move e4",
		`chess: parse move "Nf9"`, "legal moves: ",
		"1. e4 ",
		"loaded 2 moves",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// e2e4 is illegal once the pawn is on e4: explained, nothing changes.
	if strings.Count(out, "last move e4") != 1 {
		t.Errorf("the board changed on an illegal move:\n%s", out)
	}
	data, err := os.ReadFile(pgn)
	if err != nil || !strings.Contains(string(data), "[White \"You\"]") || !strings.Contains(string(data), "1. e4") {
		t.Errorf("saved PGN: %v\n%s", err, data)
	}
}

func TestChessSessionEngineOpensForBlack(t *testing.T) {
	out := runChess(t, chess.Black, "quit")
	if !strings.Contains(out, "You play Black") || !strings.Contains(out, "Black to move (you), last move") {
		t.Errorf("the engine did not open as White:\n%s", out)
	}
}

func TestChessBoardUnicode(t *testing.T) {
	got := chessUI{}.draw(chess.NewGame(chess.Start(), chess.DefaultRules()), false, chess.White)
	if !strings.Contains(got, "  8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜ 8") || !strings.Contains(got, "  1 ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖ 1") {
		t.Errorf("start position drawn as\n%s", got)
	}
}

// TestChessBoardFromBlack checks the board of a person playing Black: their
// pieces at the bottom, rank 1 at the top and file h on the left, after
// 1. e4, whose pawn then stands on the right of the fourth row.
func TestChessBoardFromBlack(t *testing.T) {
	g := chess.NewGame(chess.Start(), chess.DefaultRules())
	p := g.Position()
	e4, err := p.ParseUCI("e2e4", false)
	if err != nil {
		t.Fatal(err)
	}
	g.Make(e4)
	want := "    h g f e d c b a\n" +
		"  1 R N B K Q B N R 1\n" +
		"  2 P P P . P P P P 2\n" +
		"  3 . . . . . . . . 3\n" +
		"  4 . . . P . . . . 4\n" +
		"  5 . . . . . . . . 5\n" +
		"  6 . . . . . . . . 6\n" +
		"  7 p p p p p p p p 7\n" +
		"  8 r n b k q b n r 8\n" +
		"    h g f e d c b a\n"
	if got := (chessUI{}).draw(g, true, chess.Black); got != want {
		t.Errorf("from Black's side:\n%s\nwant\n%s", got, want)
	}
	if out := runChess(t, chess.Black, "quit"); !strings.Contains(out, "    h g f e d c b a\n") {
		t.Errorf("a session as Black draws the board from White's side:\n%s", out)
	}
}

func TestChessSessionFromARecord(t *testing.T) {
	record := filepath.Join(t.TempDir(), "r.pgn")
	os.WriteFile(record, []byte("[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n"), 0o644)
	engine, err := player.ParseChess("material:1")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	err = Terminal(context.Background(), games.Chess(), ChessUI(), strings.NewReader("history\nquit\n"), &out,
		Options[chess.Move, *chess.Game]{Engine: engine, Human: chess.Black, MaxMoves: chess.DefaultRules().MaxMoves, ASCII: true, Record: record})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "loaded 3 moves") || !strings.Contains(out.String(), "1. e4 e5 2. Nf3") {
		t.Errorf("the record was not replayed:\n%s", out.String())
	}
}

// TestChessIllegalMoves: a well-formed move, SAN or UCI, that cannot be
// played here says so, with the legal moves; a malformed one keeps the
// parser's reason.
func TestChessIllegalMoves(t *testing.T) {
	out := runChess(t, chess.White, "Qh5", "e2e5", "O-O", "Nf9", "quit")
	for _, want := range []string{
		"Qh5 is not a legal move here: no white queen can move to h5\nlegal moves: Na3, Nc3, Nf3, Nh3, a3, a4,",
		"e2e5 is not a legal move here: the pawn on e2 cannot move to e5\nlegal moves: Na3,",
		"O-O is not a legal move here: the squares between the king and the rook must be empty, and there is a bishop on f1 and a knight on g1\nlegal moves: Na3,",
		`chess: parse move "Nf9"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	p, err := chess.ParseFEN("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	_, err, _ = chessUI{}.parseMove(chess.NewGame(p, chess.DefaultRules()), "b8")
	if want := "b8 is not a legal move here: a pawn move to the last rank needs a promotion piece"; err == nil || err.Error() != want {
		t.Errorf("parseMove(b8) = %v, want %s", err, want)
	}
}

// TestIllegalMovesSayWhy checks the reason given for moves that read as
// SAN but cannot be played, each worked out by hand from its position.
func TestIllegalMovesSayWhy(t *testing.T) {
	const start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	for _, c := range []struct{ fen, move, want string }{
		{start, "O-O", "O-O is not a legal move here: the squares between the king and the rook must be empty, and there is a bishop on f1 and a knight on g1"},
		{start, "0-0-0", "0-0-0 is not a legal move here: the squares between the king and the rook must be empty, and there is a knight on b1 and a bishop on c1 and a queen on d1"},
		{start, "Ke3", "Ke3 is not a legal move here: no white king can move to e3"},
		{start, "Qxf7", "Qxf7 is not a legal move here: no white queen can capture on f7"},
		{start, "e5", "e5 is not a legal move here: no white pawn can move to e5"},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "O-O-O", "O-O-O is not a legal move here: the squares between the king and the rook must be empty, and there is a knight on b8 and a bishop on c8 and a queen on d8"},
		// The h1 rook has moved and come back: no right.
		{"r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", "O-O", "O-O is not a legal move here: White may no longer castle kingside: its king or that rook has moved"},
		// The rook on e2 checks the king.
		{"4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", "O-O", "O-O is not a legal move here: a king in check may not castle"},
		// The rook on f2 covers f1, which the king crosses.
		{"4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "O-O", "O-O is not a legal move here: the king may not pass through or land on an attacked square"},
		{"8/8/8/8/8/8/8/K6k w - - 0 1", "Qa2", "Qa2 is not a legal move here: White has no queen"},
		{start, "g1e2", "g1e2 is not a legal move here: the knight on g1 cannot move to e2"},
		{start, "e4e5", "e4e5 is not a legal move here: there is no piece on e4"},
		{start, "e7e5", "e7e5 is not a legal move here: the pawn on e7 is not White's"},
	} {
		p, err := chess.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		_, err, _ = chessUI{}.parseMove(chess.NewGame(p, chess.DefaultRules()), c.move)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s in %s: %v\nwant %s", c.move, c.fen, err, c.want)
		}
	}
	// Words without a rank are commands, not moves.
	for text, want := range map[string]bool{"clear": false, "back": false, "e4": true, "Nf3": true, "O-O": true, "e2e4": true} {
		if got := (chessUI{}).looksLikeMove(text); got != want {
			t.Errorf("looksLikeMove(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestSaveNeverWritesOverADatabase: save pointed at a database (an SQLite
// file, or a symbolic link to one) says so and leaves it as it was; the
// session goes on.
func TestSaveNeverWritesOverADatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "evolved.db")
	content := append([]byte("SQLite format 3\x00"), make([]byte, 84)...)
	if err := os.WriteFile(db, content, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "game.pgn")
	if err := os.Symlink(db, link); err != nil {
		t.Fatal(err)
	}
	out := runChess(t, chess.White, "e4", "save "+db, "save "+link, "save "+db+"-wal", "fen", "quit")
	if n := strings.Count(out, "refusing to write over a database"); n != 3 {
		t.Errorf("%d refusals, want 3:\n%s", n, out)
	}
	// The engine answered e4 with Na6 (material:1 is deterministic),
	// and fen shows the game as it was: the refusals changed nothing.
	if !strings.Contains(out, "r1bqkbnr/pppppppp/n7/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2") {
		t.Errorf("the session did not go on after the refusals:\n%s", out)
	}
	if got, _ := os.ReadFile(db); string(got) != string(content) {
		t.Error("save wrote over the database")
	}
	if _, err := os.Stat(db + "-wal"); err == nil {
		t.Error("save made a -wal beside the database")
	}
}
