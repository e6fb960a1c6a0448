package draughts

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"evolved/game"
)

// gameMoves formats g's moves along the game.
func gameMoves(g PDNGame) []string {
	var out []string
	p := g.Start
	for _, m := range g.Moves {
		out = append(out, p.FormatMove(m))
		p = p.Play(m)
	}
	return out
}

// finalPosition returns the position after g's moves.
func finalPosition(g PDNGame) Position {
	p := g.Start
	for _, m := range g.Moves {
		p = p.Play(m)
	}
	return p
}

// gameDiff describes how got differs from want, or returns "".
func gameDiff(got, want PDNGame) string {
	var diffs []string
	if !slices.Equal(got.Tags, want.Tags) {
		diffs = append(diffs, fmt.Sprintf("tags %q, want %q", got.Tags, want.Tags))
	}
	if got.Start != want.Start {
		diffs = append(diffs, fmt.Sprintf("start %s, want %s", got.Start.FEN(), want.Start.FEN()))
	}
	if !slices.Equal(got.Moves, want.Moves) {
		diffs = append(diffs, fmt.Sprintf("moves %v, want %v", gameMoves(got), gameMoves(want)))
	}
	if got.Result != want.Result {
		diffs = append(diffs, fmt.Sprintf("result %q, want %q", got.Result, want.Result))
	}
	return strings.Join(diffs, "; ")
}

// readFixture reads a PDN file of testdata.
func readFixture(t *testing.T, name string) ([]PDNGame, []byte) {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	games, err := ReadPDN(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("ReadPDN(%s): %v", name, err)
	}
	return games, data
}

// writeGame returns WritePDN's output for g, failing the test on an error.
func writeGame(t *testing.T, g PDNGame) string {
	t.Helper()
	var b strings.Builder
	if err := WritePDN(&b, g); err != nil {
		t.Fatalf("WritePDN: %v", err)
	}
	return b.String()
}

const glasgowFinal = "W:W11,17,21,25,26,28,29,30,31,32:B1,2,4,5,6,7,9,10,12"

func TestReadPDN_Openings(t *testing.T) {
	games, _ := readFixture(t, "openings.pdn")
	want := []struct {
		event string
		moves int
		final string
	}{
		{"Glasgow opening", 11, glasgowFinal},
		{"Old Fourteenth opening", 17, "W:W19,20,21,23,24,25,26,27,29,30,32:B1,3,5,7,9,10,11,12,14,15,18"},
		{"Single Corner opening", 8, "B:W18,21,22,23,24,26,27,28,30,31,32:B1,2,3,5,6,7,8,9,10,11,12"},
	}
	if len(games) != len(want) {
		t.Fatalf("read %d games, want %d", len(games), len(want))
	}
	for i, w := range want {
		g := games[i]
		if got := g.Tag("Event"); got != w.event {
			t.Errorf("game %d: Event %q, want %q", i+1, got, w.event)
		}
		if len(g.Moves) != w.moves || g.Result != "*" || g.Start != Start() {
			t.Errorf("game %d: %d moves, result %q, start %s; want %d moves, *, the start position", i+1, len(g.Moves), g.Result, g.Start.FEN(), w.moves)
		}
		if got := finalPosition(g).FEN(); got != w.final {
			t.Errorf("game %d: final position %s, want %s", i+1, got, w.final)
		}
		// Every tag is there already, so writing adds none and reading the
		// output gives the game back exactly.
		back, err := ParsePDN(writeGame(t, g))
		if err != nil {
			t.Fatalf("game %d: ParsePDN(WritePDN(g)): %v", i+1, err)
		}
		if d := gameDiff(back, g); d != "" {
			t.Errorf("game %d: round trip: %s", i+1, d)
		}
	}
}

func TestReadPDN_RandomFixture(t *testing.T) {
	// testdata/random.pdn holds three games of random play written by
	// WritePDN, with multi-jumps, kings and a king's triple jump, each
	// played until the side to move had no legal move. Its FinalFEN tags
	// record the last position.
	games, data := readFixture(t, "random.pdn")
	if len(games) != 3 {
		t.Fatalf("read %d games, want 3", len(games))
	}
	var written strings.Builder
	for i, g := range games {
		final := finalPosition(g)
		if got, want := final.FEN(), g.Tag("FinalFEN"); got != want {
			t.Errorf("game %d: final position %s, want %s", i+1, got, want)
		}
		if n := len(final.Moves(nil)); n != 0 {
			t.Errorf("game %d: %d legal moves at the end, want none", i+1, n)
		}
		winner := ResultString(game.WinFor(final.Side.Other()))
		if g.Result != winner || g.Tag("Result") != winner {
			t.Errorf("game %d: result %q, Result tag %q; want %q", i+1, g.Result, g.Tag("Result"), winner)
		}
		written.WriteString(writeGame(t, g))
	}
	// The file was written by WritePDN: writing the games again gives it
	// back byte for byte.
	if got := written.String(); got != string(data) {
		t.Errorf("WritePDN of the games read differs from testdata/random.pdn:\n%s", got)
	}
}

func TestParsePDN_Syntax(t *testing.T) {
	const text = `; a comment line
% an escape line
[Event "The \"Glasgow\" test"]
[Site "C:\\games\x"]
[Date "2024.01.02"] [Round "1"]
[ Black   "Black, B." ]
[White "White, W."]
[Result "1-0"]
[GameType "21,B,8,8,N1,0"]
[annotator_2 "a [bracket], a {brace}; and (parenthesis)"]
{A comment before the moves,
spanning lines (with a parenthesis}
1. 11-15 23-19 $1 2. 08-11! 22-17?! {comment} 3.11-16 (3. 9-13 17x10 (3... 6x15 {nested )}) 7x14) 24-20 ; 11-15 to the end of the line
4. 16x23 27x18x11 (4... 27x11 $2) 5. 7x16* 20x11(!) 6. 3-7!! 1-0
`
	g, err := ParsePDN(text)
	if err != nil {
		t.Fatal(err)
	}
	wantTags := []Tag{
		{Name: "Event", Value: `The "Glasgow" test`},
		{Name: "Site", Value: `C:\games\x`},
		{Name: "Date", Value: "2024.01.02"},
		{Name: "Round", Value: "1"},
		{Name: "Black", Value: "Black, B."},
		{Name: "White", Value: "White, W."},
		{Name: "Result", Value: "1-0"},
		{Name: "GameType", Value: "21,B,8,8,N1,0"},
		{Name: "annotator_2", Value: "a [bracket], a {brace}; and (parenthesis)"},
	}
	if !slices.Equal(g.Tags, wantTags) {
		t.Errorf("tags =\n%q\nwant\n%q", g.Tags, wantTags)
	}
	wantMoves := []string{"11-15", "23-19", "8-11", "22-17", "11-16", "24-20", "16x23", "27x18x11", "7x16", "20x11", "3-7"}
	if got := gameMoves(g); !slices.Equal(got, wantMoves) {
		t.Errorf("moves = %q\nwant %q", got, wantMoves)
	}
	if g.Result != "1-0" || g.Start != Start() {
		t.Errorf("result %q, start %s; want 1-0 from the start position", g.Result, g.Start.FEN())
	}
	if got := finalPosition(g).FEN(); got != glasgowFinal {
		t.Errorf("final position %s, want %s", got, glasgowFinal)
	}
	if got := g.Tag("Annotator"); got != "" {
		t.Errorf(`Tag("Annotator") = %q, want "" (names are case-sensitive)`, got)
	}
}

func TestParsePDN_SetUp(t *testing.T) {
	// White to move first from a FEN: the first move number has dots.
	const fen = "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"
	g, err := ParsePDN(`[SetUp "1"] [FEN "` + fen + `"]
1... 10-14 2. 16-19 14-17 3. 22x13 *`)
	if err != nil {
		t.Fatal(err)
	}
	if g.Start != fenPosition(t, fen) {
		t.Errorf("start %s, want %s", g.Start.FEN(), fen)
	}
	if got, want := gameMoves(g), []string{"10-14", "16-19", "14-17", "22x13"}; !slices.Equal(got, want) {
		t.Errorf("moves = %q, want %q", got, want)
	}
	// A FEN tag given with ranges is kept as written when it describes the
	// start; it still sets the start.
	g, err = ParsePDN(`[FEN "B:W21-32:B1-12"] 1. 11-15 *`)
	if err != nil || g.Start != Start() || g.Tag("FEN") != "B:W21-32:B1-12" {
		t.Errorf("FEN tag with ranges: %v, start %s, tag %q", err, g.Start.FEN(), g.Tag("FEN"))
	}
}

func TestReadPDN_Games(t *testing.T) {
	const text = "\uFEFF[Event \"one\"]\r\n1. 11-15 23-19\r\n" + // no result: ends where tags begin
		"[Event \"two\"]\n1. 9-13 *\n" +
		"1. 10-14 1/2-1/2\n" + // no tags
		"[Event \"four\"] 0-1 " + // no moves
		"{trailing comment}\n"
	games, err := ReadPDN(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		event  string
		moves  []string
		result string
	}{
		{"one", []string{"11-15", "23-19"}, "*"},
		{"two", []string{"9-13"}, "*"},
		{"", []string{"10-14"}, "1/2-1/2"},
		{"four", nil, "0-1"},
	}
	if len(games) != len(want) {
		t.Fatalf("read %d games, want %d", len(games), len(want))
	}
	for i, w := range want {
		g := games[i]
		if g.Tag("Event") != w.event || !slices.Equal(gameMoves(g), w.moves) || g.Result != w.result {
			t.Errorf("game %d: event %q, moves %q, result %q; want %q, %q, %q",
				i+1, g.Tag("Event"), gameMoves(g), g.Result, w.event, w.moves, w.result)
		}
	}
	for _, empty := range []string{"", " \n\t", "{just a comment}\n; and another", "% escape"} {
		games, err := ReadPDN(strings.NewReader(empty))
		if err != nil || len(games) != 0 {
			t.Errorf("ReadPDN(%q) = %d games, %v; want none", empty, len(games), err)
		}
	}
}

func TestReadPDN_Result(t *testing.T) {
	tests := []struct {
		tag  string // "" for no Result tag
		text string // move text, with or without a result
		want string
	}{
		{"", "1. 11-15", "*"},
		{"", "1. 11-15 1-0", "1-0"},
		{"1-0", "1. 11-15", "1-0"},
		{"1-0", "1. 11-15 *", "1-0"},
		{"*", "1. 11-15 0-1", "0-1"},
		{"2-0", "1. 11-15 1-0", "1-0"},
		{"1/2-1/2", "1. 11-15 1-1", "1-1"},
		{"0-0", "1. 11-15 0-0", "0-0"},
		{"Black wins on time", "1. 11-15 0-2", "0-2"},
		{"Black wins on time", "1. 11-15", "*"},
		{"", "1. 11-15 2. *", "*"},
	}
	for _, tt := range tests {
		text := tt.text
		if tt.tag != "" {
			text = `[Result "` + tt.tag + `"]` + "\n" + text
		}
		g, err := ParsePDN(text)
		if err != nil {
			t.Errorf("ParsePDN(%q): %v", text, err)
			continue
		}
		if g.Result != tt.want {
			t.Errorf("ParsePDN(%q).Result = %q, want %q", text, g.Result, tt.want)
		}
	}
}

func TestReadPDN_Errors(t *testing.T) {
	tests := []struct {
		name string
		text string
		err  error
		game int
		line int
		msg  string // the exact message, or a prefix of it ending in "..."
	}{
		{
			name: "illegal move",
			text: "[Event \"x\"]\n1. 11-15 23-19\n2. 8-11 9-14 *",
			err:  ErrIllegalMove, game: 1, line: 3,
			msg: `draughts: pdn game 1, line 3: move 2... "9-14" (position W:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,15): illegal in this position; legal moves: 19-16, 21-17, 22-17, 22-18, 24-20, 26-23, 27-23`,
		},
		{
			name: "illegal move in the second game, CR line ends",
			text: "1. 11-15 *\r[Event \"y\"]\r\n1. 11-15\r2. 9-14 *",
			err:  ErrIllegalMove, game: 2, line: 4,
			msg: `draughts: pdn game 2, line 4: move 1... "9-14" (position W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15): illegal in this position; legal moves: ...`,
		},
		{
			name: "ambiguous short capture",
			text: "[FEN \"B:W18,19,26,27:B15\"]\n\n1. 15x31 *",
			err:  ErrAmbiguousMove, game: 1, line: 3,
			msg: `draughts: pdn game 1, line 3: move 1. "15x31" (position B:W18,19,26,27:B15): ambiguous: 15x22x31 and 15x24x31 (give the full route)`,
		},
		{
			name: "move after the game is over",
			text: "[FEN \"B:W14:B9\"]\n1. 9x18 22-17",
			err:  ErrIllegalMove, game: 1, line: 2,
			msg: `draughts: pdn game 1, line 2: move 1... "22-17" (position W:W:B18): illegal in this position; there are no legal moves`,
		},
		{
			name: "not a move", text: "1. e3-f4 *", err: ErrSyntax, game: 1, line: 1,
			msg: `draughts: pdn game 1, line 1: move 1. "e3-f4" (position ` + startFEN + `): not a move: expected a square number at "e3-f4"`,
		},
		{name: "square out of range", text: "1. 11-15 23-19\n2. 8-11 33-28", err: ErrSyntax, game: 1, line: 2},
		{
			name: "unclosed comment", text: "1. 11-15 {oops\n\n", err: ErrSyntax, game: 1, line: 1,
			msg: "draughts: pdn game 1, line 1: comment opened on line 1 is not closed",
		},
		{
			name: "unclosed variation", text: "1. 11-15\n(23-19 (22-18) 1-0", err: ErrSyntax, game: 1, line: 2,
			msg: "draughts: pdn game 1, line 2: variation opened on line 2 is not closed",
		},
		{name: "unclosed comment in a variation", text: "1. 11-15 (23-19 {x) 1-0", err: ErrSyntax, game: 1, line: 1},
		{name: "stray )", text: "1. 11-15 ) *", err: ErrSyntax, game: 1, line: 1, msg: `draughts: pdn game 1, line 1: unexpected ')'`},
		{name: "stray }", text: "1. 11-15 } *", err: ErrSyntax, game: 1, line: 1},
		{name: "stray ]", text: "] 1. 11-15", err: ErrSyntax, game: 1, line: 1},
		{name: "stray quote", text: "1. 11-15 \"x\"", err: ErrSyntax, game: 1, line: 1},
		{
			name: "unclosed tag value", text: "[Event \"abc]\n1. 11-15", err: ErrSyntax, game: 1, line: 1,
			msg: "draughts: pdn game 1, line 1: tag Event: value not closed on its line",
		},
		{name: "tag value at the end", text: `[Event "abc\"]`, err: ErrSyntax, game: 1, line: 1},
		{
			name: "unquoted tag value", text: "[Event abc]", err: ErrSyntax, game: 1, line: 1,
			msg: "draughts: pdn game 1, line 1: tag Event: value must be a quoted string",
		},
		{name: "tag without ]", text: "[Event \"abc\"\n1. 11-15", err: ErrSyntax, game: 1, line: 1},
		{name: "tag without name", text: "[\"abc\"]", err: ErrSyntax, game: 1, line: 1},
		{name: "tag name with a digit first", text: "[1Event \"abc\"]", err: ErrSyntax, game: 1, line: 1},
		{name: "empty file tag", text: "[", err: ErrSyntax, game: 1, line: 1},
		{
			name: "tag twice", text: "[Event \"a\"]\n[Event \"b\"]", err: ErrSyntax, game: 1, line: 2,
			msg: "draughts: pdn game 1, line 2: tag Event given twice",
		},
		{
			name: "bad FEN tag", text: "[Event \"a\"]\n[FEN \"B:W33:B1\"]", err: ErrSyntax, game: 1, line: 2,
			msg: `draughts: pdn game 1, line 2: tag FEN "B:W33:B1": square 33 out of range 1..32`,
		},
		{name: "impossible FEN tag", text: "[FEN \"B:W1:B2\"]", err: ErrInvalidPosition, game: 1, line: 1},
		{
			name: "other game type", text: "[GameType \"20\"]", err: ErrUnsupported, game: 1, line: 1,
			msg: `draughts: pdn game 1, line 1: GameType "20" is not English draughts (21)`,
		},
		{name: "set-up in the moves", text: "1. 11-15 /W:W22:B9/ 2. 9-14", err: ErrUnsupported, game: 1, line: 1},
		{
			name: "contradicting results", text: "[Result \"1-0\"]\n1. 11-15 0-1", err: ErrSyntax, game: 1, line: 2,
			msg: `draughts: pdn game 1, line 2: result 0-1 in the move text contradicts [Result "1-0"]`,
		},
		{name: "NAG without a number", text: "1. 11-15 $ *", err: ErrSyntax, game: 1, line: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, err := ReadPDN(strings.NewReader(tt.text))
			if !errors.Is(err, tt.err) {
				t.Fatalf("ReadPDN(%q) = %d games, %v; want an error wrapping %v", tt.text, len(games), err, tt.err)
			}
			var pe *PDNError
			if !errors.As(err, &pe) || pe.Game != tt.game || pe.Line != tt.line {
				t.Errorf("error %v: want a *PDNError for game %d, line %d", err, tt.game, tt.line)
			}
			if len(games) != tt.game-1 {
				t.Errorf("returned %d games with the error, want the %d before it", len(games), tt.game-1)
			}
			if prefix, ok := strings.CutSuffix(tt.msg, "..."); ok {
				if !strings.HasPrefix(err.Error(), prefix) {
					t.Errorf("error\n got %s\nwant %s", err, tt.msg)
				}
			} else if tt.msg != "" && err.Error() != tt.msg {
				t.Errorf("error\n got %s\nwant %s", err, tt.msg)
			}
		})
	}
}

func TestParsePDN_GameCount(t *testing.T) {
	for _, text := range []string{"", "1. 11-15 * 1. 9-13 *"} {
		if _, err := ParsePDN(text); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParsePDN(%q) error = %v, want one wrapping ErrSyntax", text, err)
		}
	}
}

func TestParseResult(t *testing.T) {
	tests := []struct {
		in   string
		want game.Result
		ok   bool
	}{
		{"1-0", game.FirstWins, true},
		{"2-0", game.FirstWins, true},
		{"0-1", game.SecondWins, true},
		{"0-2", game.SecondWins, true},
		{"1/2-1/2", game.Draw, true},
		{"1-1", game.Draw, true},
		{"*", game.Ongoing, true},
		{"0-0", game.Ongoing, true},
		{"", game.Ongoing, false},
		{"1:0", game.Ongoing, false},
		{"½-½", game.Ongoing, false},
	}
	for _, tt := range tests {
		if got, ok := ParseResult(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("ParseResult(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	for r, want := range map[game.Result]string{
		game.FirstWins: "1-0", game.SecondWins: "0-1", game.Draw: "1/2-1/2", game.Ongoing: "*",
	} {
		if got := ResultString(r); got != want {
			t.Errorf("ResultString(%v) = %q, want %q", r, got, want)
		}
	}
	if Black != game.First {
		t.Fatal("Black is not the first player: the result convention needs revisiting")
	}
}

func TestPDNGame_Outcome(t *testing.T) {
	tests := []struct {
		text string
		want game.Result
	}{
		// Black takes White's last man: the board says Black won, whichever
		// convention the result was written in.
		{`[FEN "B:W14:B9"] 1. 9x18 1-0`, game.FirstWins},
		{`[FEN "B:W14:B9"] 1. 9x18 0-1`, game.FirstWins},
		{`[FEN "B:W14:B9"] 1. 9x18 *`, game.FirstWins},
		// White's king blocks Black's last man, on 28: White won, written
		// in the chess convention.
		{`[FEN "W:WK27:B28"] 1... 27-32 1-0`, game.SecondWins},
		// Otherwise the string decides, in PDN's convention.
		{"1. 11-15 1-0", game.FirstWins},
		{"1. 11-15 2-0", game.FirstWins},
		{"1. 11-15 0-1", game.SecondWins},
		{"1. 11-15 1/2-1/2", game.Draw},
		{"1. 11-15 1-1", game.Draw},
		{"1. 11-15 0-0", game.Ongoing},
		{"1. 11-15 *", game.Ongoing},
	}
	for _, tt := range tests {
		g, err := ParsePDN(tt.text)
		if err != nil {
			t.Errorf("ParsePDN(%q): %v", tt.text, err)
			continue
		}
		if got := g.Outcome(); got != tt.want {
			t.Errorf("ParsePDN(%q).Outcome() = %v, want %v", tt.text, got, tt.want)
		}
	}
	// A game built by hand with an illegal move falls back on the string.
	g := PDNGame{Start: Start(), Moves: []Move{newMove(21, 17, 0)}, Result: "0-1"}
	if got := g.Outcome(); got != game.SecondWins {
		t.Errorf("Outcome() with an illegal move = %v, want %v", got, game.SecondWins)
	}
}

func TestPDNGame_Tag(t *testing.T) {
	var g PDNGame
	g.SetTag("Event", "a")
	g.SetTag("Site", "b")
	g.SetTag("Event", "c")
	if want := []Tag{{Name: "Event", Value: "c"}, {Name: "Site", Value: "b"}}; !slices.Equal(g.Tags, want) {
		t.Errorf("tags = %q, want %q", g.Tags, want)
	}
	if g.Tag("Event") != "c" || g.Tag("Site") != "b" || g.Tag("Round") != "" {
		t.Errorf("Tag: Event %q, Site %q, Round %q; want c, b and nothing", g.Tag("Event"), g.Tag("Site"), g.Tag("Round"))
	}
}

// movesOf parses a line of moves from start, failing the test on an error.
func movesOf(t *testing.T, start Position, line string) []Move {
	t.Helper()
	var out []Move
	p := start
	for _, s := range strings.Fields(line) {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
		p = p.Play(m)
	}
	return out
}

func TestWritePDN(t *testing.T) {
	g := PDNGame{
		Tags:   []Tag{{Name: "Event", Value: `A "quoted" \ event`}, {Name: "Black", Value: "B"}, {Name: "White", Value: "W"}},
		Start:  Start(),
		Moves:  movesOf(t, Start(), "11-15 23-19 8-11"),
		Result: "",
	}
	want := `[Event "A \"quoted\" \\ event"]
[Black "B"]
[White "W"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[Result "*"]
[GameType "21"]

1. 11-15 23-19 2. 8-11 *

`
	if got := writeGame(t, g); got != want {
		t.Errorf("WritePDN =\n%s\nwant\n%s", got, want)
	}

	// White first from a FEN: SetUp and FEN are added, the numbering starts
	// with "1...", and a Result tag that disagrees is overwritten.
	const fen = "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"
	start := fenPosition(t, fen)
	g = PDNGame{
		Tags:   []Tag{{Name: "Result", Value: "1-0"}, {Name: "Event", Value: "?"}, {Name: "Site", Value: "?"}, {Name: "Date", Value: "????.??.??"}, {Name: "Round", Value: "?"}, {Name: "Black", Value: "?"}, {Name: "White", Value: "?"}},
		Start:  start,
		Moves:  movesOf(t, start, "10-14 16-19 14-17 22x13"),
		Result: "0-1",
	}
	want = `[Result "0-1"]
[Event "?"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[Black "?"]
[White "?"]
[GameType "21"]
[SetUp "1"]
[FEN "` + fen + `"]

1... 10-14 2. 16-19 14-17 3. 22x13 0-1

`
	if got := writeGame(t, g); got != want {
		t.Errorf("WritePDN =\n%s\nwant\n%s", got, want)
	}

	// A Result tag that means the same as the result is kept, and so is a
	// FEN tag that describes the start; one that does not is replaced.
	g = PDNGame{Tags: []Tag{{Name: "Result", Value: "2-0"}, {Name: "FEN", Value: "B:W21-32:B1-12"}}, Start: Start(), Result: "1-0"}
	if got := writeGame(t, g); !strings.HasPrefix(got, "[Result \"2-0\"]\n[FEN \"B:W21-32:B1-12\"]\n") {
		t.Errorf("WritePDN =\n%s\nwant the Result and FEN tags kept as given", got)
	}
	g = PDNGame{Tags: []Tag{{Name: "FEN", Value: "B:W21-32:B1-12"}}, Start: start}
	if got := writeGame(t, g); !strings.HasPrefix(got, "[SetUp \"1\"]\n[FEN \""+fen+"\"]\n[Event") {
		t.Errorf("WritePDN =\n%s\nwant the FEN tag replaced in place and SetUp inserted before it", got)
	}
	g = PDNGame{Tags: []Tag{{Name: "SetUp", Value: "0"}, {Name: "Event", Value: "e"}}, Start: start}
	if got := writeGame(t, g); !strings.HasPrefix(got, "[SetUp \"1\"]\n[Event \"e\"]\n") || !strings.Contains(got, "[FEN \""+fen+"\"]\n") {
		t.Errorf("WritePDN =\n%s\nwant SetUp set to 1 in place and the FEN tag appended", got)
	}
}

func TestWritePDN_Errors(t *testing.T) {
	start := Start()
	tests := []struct {
		name string
		g    PDNGame
		err  error
		msg  string
	}{
		{"bad result", PDNGame{Start: start, Result: "1-2"}, ErrSyntax,
			`draughts: write pdn: result "1-2" is not a PDN result (1-0, 0-1, 1/2-1/2, *, 2-0, 0-2, 1-1 or 0-0)`},
		{"illegal move", PDNGame{Start: start, Moves: movesOf(t, start, "11-15 23-19 8-11")[1:]}, ErrIllegalMove,
			`draughts: write pdn: move 1. 23-19 (position ` + startFEN + `): illegal in this position`},
		{"no move", PDNGame{Start: start, Moves: []Move{NoMove}}, ErrIllegalMove, ""},
		{"tag name", PDNGame{Start: start, Tags: []Tag{{Name: "My Tag", Value: "x"}}}, ErrSyntax,
			`draughts: write pdn: tag name "My Tag" is not a letter followed by letters, digits and underscores`},
		{"empty tag name", PDNGame{Start: start, Tags: []Tag{{Name: "", Value: "x"}}}, ErrSyntax, ""},
		{"line break", PDNGame{Start: start, Tags: []Tag{{Name: "Event", Value: "a\nb"}}}, ErrSyntax,
			"draughts: write pdn: tag Event: value has a line break"},
		{"tag twice", PDNGame{Start: start, Tags: []Tag{{Name: "Event", Value: "a"}, {Name: "Event", Value: "b"}}}, ErrSyntax,
			"draughts: write pdn: tag Event given twice"},
		{"start", PDNGame{Start: NewPosition(squareBits(1), squareBits(1), 0, Black)}, ErrInvalidPosition,
			"draughts: write pdn: start position: square 1 holds both a black and a white piece"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		err := WritePDN(&b, tt.g)
		if !errors.Is(err, tt.err) {
			t.Errorf("%s: WritePDN error = %v, want one wrapping %v", tt.name, err, tt.err)
			continue
		}
		if tt.msg != "" && err.Error() != tt.msg {
			t.Errorf("%s: WritePDN error\n got %s\nwant %s", tt.name, err, tt.msg)
		}
		if b.Len() != 0 {
			t.Errorf("%s: WritePDN wrote %q with its error, want nothing", tt.name, b.String())
		}
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWritePDN_WriterError(t *testing.T) {
	err := WritePDN(failingWriter{}, PDNGame{Start: Start()})
	if err == nil || err.Error() != "draughts: write pdn: disk full" {
		t.Errorf("WritePDN to a failing writer = %v, want draughts: write pdn: disk full", err)
	}
}

// randomGame plays a random game of at most maxPlies plies from start.
func randomGame(rng *rand.Rand, start Position, maxPlies int) PDNGame {
	g := PDNGame{Start: start, Result: ResultUnknown}
	p := start
	var buf []Move
	for len(g.Moves) < maxPlies {
		buf = p.Moves(buf)
		if len(buf) == 0 {
			g.Result = ResultString(game.WinFor(p.Side.Other()))
			break
		}
		m := buf[rng.IntN(len(buf))]
		g.Moves = append(g.Moves, m)
		p = p.Play(m)
	}
	return g
}

func TestPDN_RandomRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 0x70646e)) // "pdn"
	games := 200
	if testing.Short() {
		games = 40
	}
	starts := []Position{Start(), fenPosition(t, "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29")}
	var all strings.Builder
	var want []PDNGame
	for i := range games {
		g := randomGame(rng, starts[i%len(starts)], 300)
		g.Tags = []Tag{{Name: "Event", Value: fmt.Sprintf("random %d", i)}}
		text := writeGame(t, g)
		for n, line := range strings.Split(text, "\n") {
			if len(line) >= 80 {
				t.Fatalf("game %d, line %d has %d columns, want fewer than 80:\n%s", i, n+1, len(line), line)
			}
		}
		back, err := ParsePDN(text)
		if err != nil {
			t.Fatalf("game %d: ParsePDN(WritePDN(g)): %v\n%s", i, err, text)
		}
		// WritePDN added the default tags; the rest must come back as given.
		if back.Tags[0] != g.Tags[0] || back.Tag("Result") != g.Result {
			t.Errorf("game %d: tags %q", i, back.Tags)
		}
		g.Tags = back.Tags
		if d := gameDiff(back, g); d != "" {
			t.Fatalf("game %d: round trip: %s\n%s", i, d, text)
		}
		if back.Outcome() != func() game.Result { r, _ := ParseResult(g.Result); return r }() {
			t.Errorf("game %d: Outcome() = %v, result %q", i, back.Outcome(), g.Result)
		}
		all.WriteString(text)
		want = append(want, g)
	}
	// The games written one after another read back as a file.
	got, err := ReadPDN(strings.NewReader(all.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("read %d games, want %d", len(got), len(want))
	}
	for i := range got {
		if d := gameDiff(got[i], want[i]); d != "" {
			t.Fatalf("game %d of the file: %s", i, d)
		}
	}
}
