package play

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"evolved/game"
	"evolved/game/chess"
	"evolved/games"
	"evolved/search"
)

// This file is the browser's side of package play: the same game and UI
// as the terminal sessions, with the position as cells a page can draw,
// the legal moves as cells it can click, and stored games replayed board
// by board. A browser game is a browserMatch over one game's Kind and UI;
// ReplayGame and RecordOf read the move text the daemon stores with the
// game's own record reader (games.Kind.ParseMoveText).

// Board is a position as a browser draws it: Files*Ranks cells row by row
// from the top of the board, the terminal's orientation.
type Board struct {
	Game  string `json:"game"`  // "draughts", "chess" or "xiangqi"
	Files int    `json:"files"` // columns: 8, 8, 9
	Ranks int    `json:"ranks"` // rows: 8, 8, 10
	// Cells holds Files*Ranks piece codes, row by row from the top of the board as the
	// terminal `evolved play` draws it (chess: rank 8 first, a-file first; xiangqi: Black's
	// side first, rank 10 first, file a first; draughts: square 1's row first, exactly as
	// drawDraughts lays it out). "" is an empty cell.
	// Codes: chess FEN letters ("K","Q","R","B","N","P" White, lower case Black);
	// xiangqi FEN letters ("K","A","B","N","R","C","P" Red, lower case Black);
	// draughts "b" black man, "B" black king, "w" white man, "W" white king.
	Cells []string `json:"cells"`
	// Labels names each cell in the game's notation: chess "a8".."h1", xiangqi the
	// coordinates of its moves ("a10".."i1", as in h3e3), draughts the square number
	// "1".."32" on playable squares and "" on the others.
	Labels []string `json:"labels"`
	ToMove string   `json:"to_move"` // "white", "black" or "red"
	// Last lists the cells the last move touched, in order: from, any intermediate
	// landing squares of a draughts multi-jump, to. Empty, not null, at the start.
	Last []int `json:"last"`
	// Check is the cell of the king (chess) or general (xiangqi) of the side to move
	// when it is in check, else -1.
	Check int    `json:"check"`
	FEN   string `json:"fen"`
}

// MoveOption is a legal move the person may choose on the board. Several
// options may share From and To (a chess promotion, a draughts capture that
// can take two routes, Chess960 castling next to a plain king move): the
// browser then asks which one by Text.
type MoveOption struct {
	From int `json:"from"` // cell index
	// To is the cell index the move ends on. Castling ends on the king's
	// square, or on the rook's when the king does not move (Chess960).
	To int `json:"to"`
	// Path lists a draughts capture's landing cells in order, the last equal
	// to To; it is empty for every other move.
	Path []int `json:"path,omitempty"`
	// Text is the move in the game's notation, exactly what the browser posts back
	// (chess SAN "Nf3", "e8=Q"; draughts PDN "9-14", "1x10x19"; xiangqi the coordinates "h3e3").
	Text string `json:"text"`
}

// State is a browser game as the person sees it. Its slices are never nil,
// so that they encode as [] rather than null.
type State struct {
	Board   Board        `json:"board"`
	Moves   []string     `json:"moves"`   // the moves so far, in notation, one per ply
	Legal   []MoveOption `json:"legal"`   // the person's moves now, in natural order; empty when over or the engine is to move
	Human   string       `json:"human"`   // the person's side: "white", "black" or "red"
	Engine  string       `json:"engine"`  // the engine's name
	Over    bool         `json:"over"`    // whether the game has ended
	Result  string       `json:"result"`  // "1-0", "0-1", "1/2-1/2", or "*" while playing (first player's view)
	Outcome string       `json:"outcome"` // a sentence: "White wins: checkmate", "" while playing
	Figures string       `json:"figures"` // the engine's last search figures, as the terminal shows them, or ""
}

// Match is a game between a person and an engine, for a browser. Not safe for
// concurrent use: the caller serialises calls (the web server holds a mutex per match).
type Match interface {
	// State returns the game as it stands. The caller owns the result.
	State() State
	// Play plays the person's move, given in the game's notation (any the terminal
	// accepts). Errors: ErrGameOver, ErrNotYourTurn, or an illegal/malformed move error
	// wrapping ErrBadMove (and the game package's error) whose message says why and
	// lists the legal moves, unless it lists the candidates of an ambiguous move.
	Play(text string) error
	// Reply lets the engine move when it is its turn and the game is not over; it does
	// nothing otherwise. It honours ctx: when ctx is done before or during the search,
	// no move is made and the error wraps ctx.Err().
	Reply(ctx context.Context) error
	// Record writes the game so far as a game record (PGN for chess and xiangqi,
	// PDN for draughts), with the player names: "You" and the engine's.
	Record(w io.Writer) error
}

// The errors of Match.Play; the errors it returns wrap one of them, so
// callers test them with errors.Is.
var (
	// ErrGameOver means the game has ended: no move can be played.
	ErrGameOver = errors.New("play: the game is over")
	// ErrNotYourTurn means the engine is to move.
	ErrNotYourTurn = errors.New("play: it is not your turn")
	// ErrBadMove means the text is not a legal move: malformed, illegal or ambiguous.
	ErrBadMove = errors.New("play: bad move")
)

// NewMatch starts a browser game of k, shown as ui, from opts.Start with
// opts.MaxMoves against opts.Engine, seeded with opts.Seed; the person
// plays opts.Human. ASCII and Record are ignored. The engine does not move
// until Reply is called, even when it plays first. The error names what is
// wrong with opts.Start.
func NewMatch[M comparable, S Playable[M]](k games.Kind[M, S], ui UI[M, S], opts Options[M, S]) (Match, error) {
	g, err := k.NewGame(opts.Start, games.Setup{MaxMoves: opts.MaxMoves})
	if err != nil {
		return nil, fmt.Errorf("play: start: %w", err)
	}
	e := opts.Engine.New()
	e.NewGame(opts.Seed)
	return &browserMatch[M, S]{kind: k, ui: ui, g: g, start: opts.Start, engine: e, name: opts.Engine.Name,
		unit:  cmp.Or(opts.Engine.Unit, ui.scoreUnit()),
		human: opts.Human, moves: []string{}, last: []int{}}, nil
}

// browserMatch is a Match over any game.
type browserMatch[M comparable, S Playable[M]] struct {
	kind    games.Kind[M, S]
	ui      UI[M, S]
	g       S
	start   string // the FEN the game began from ("" the standard start)
	engine  search.Player[M, S]
	name    string      // the engine's name
	unit    string      // the unit of the engine's scores
	human   game.Player // the person's side
	moves   []string    // the moves so far, as MoveOption.Text
	last    []int       // the cells the last move touched
	figures string      // the engine's last search figures
}

var _ Match = (*browserMatch[chess.Move, *chess.Game])(nil)

// State returns the game as it stands.
func (b *browserMatch[M, S]) State() State {
	o := b.g.Outcome()
	st := State{
		Board:   boardOf(b.kind, b.ui, b.g, b.last),
		Moves:   slices.Clone(b.moves),
		Legal:   []MoveOption{},
		Human:   b.kind.Sides[b.human&1],
		Engine:  b.name,
		Over:    o.Over(),
		Result:  o.Result.Tag(),
		Outcome: outcomeSentence(b.kind.Sides, o),
		Figures: b.figures,
	}
	if !o.Over() && b.g.ToMove() == b.human {
		st.Legal = options(b.ui, b.g)
	}
	return st
}

// Play plays the person's move.
func (b *browserMatch[M, S]) Play(text string) error {
	if o := b.g.Outcome(); o.Over() {
		return fmt.Errorf("%w (%s)", ErrGameOver, outcomeSentence(b.kind.Sides, o))
	}
	if b.g.ToMove() != b.human {
		return fmt.Errorf("%w: %s is to move", ErrNotYourTurn, b.name)
	}
	m, err, listed := b.ui.readMove(b.g, strings.TrimSpace(text))
	if err != nil {
		if listed {
			return fmt.Errorf("%w %q: %w", ErrBadMove, text, err)
		}
		var texts []string
		for _, o := range options(b.ui, b.g) {
			texts = append(texts, o.Text)
		}
		return fmt.Errorf("%w %q: %w; legal moves: %s", ErrBadMove, text, err, strings.Join(texts, ", "))
	}
	b.play(m)
	b.figures = ""
	return nil
}

// Reply lets the engine move.
func (b *browserMatch[M, S]) Reply(ctx context.Context) error {
	if b.g.Outcome().Over() || b.g.ToMove() == b.human {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("play: engine reply: %w", err)
	}
	start := time.Now()
	res, err := b.engine.Move(ctx, b.g)
	if err != nil {
		return fmt.Errorf("play: engine reply: %w", err)
	}
	elapsed := time.Since(start)
	// A search stopped by ctx still returns its best move so far: the
	// caller gave up on it, so it is not played.
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("play: engine reply: %w", err)
	}
	// An external engine may answer anything; Make needs a legal move.
	if !slices.Contains(b.g.LegalMoves(nil), res.Move) {
		return fmt.Errorf("play: engine reply: %s chose a move that is not legal here", b.name)
	}
	b.figures = searchFigures(res, elapsed, sideName(b.kind.Sides, b.g.ToMove()), b.unit)
	b.play(res.Move)
	return nil
}

// play makes m, legal now, and notes its text and cells.
func (b *browserMatch[M, S]) play(m M) {
	o := b.ui.option(b.g, m)
	b.moves = append(b.moves, o.Text)
	b.last = touched(o)
	b.g.Make(m)
}

// Record writes the game so far as a game record.
func (b *browserMatch[M, S]) Record(w io.Writer) error {
	if err := writeRecord(w, b.kind, b.g, b.start, b.human, b.name); err != nil {
		return fmt.Errorf("play: record: %w", err)
	}
	return nil
}

// boardOf returns the current position of g as a Board whose last move
// touched last.
func boardOf[M comparable, S Playable[M]](k games.Kind[M, S], ui UI[M, S], g S, last []int) Board {
	files, ranks, labels := ui.layout()
	codes, check := ui.cells(g)
	return Board{
		Game: k.Name, Files: files, Ranks: ranks, Cells: codes, Labels: labels,
		ToMove: k.Sides[g.ToMove()&1],
		Last:   slices.Clone(last),
		Check:  check,
		FEN:    k.FEN(g),
	}
}

// options returns the legal moves of g as options, in natural order of
// their text (9-13 before 10-14), as the terminal lists them.
func options[M comparable, S Playable[M]](ui UI[M, S], g S) []MoveOption {
	moves := g.LegalMoves(nil)
	out := make([]MoveOption, 0, len(moves))
	for _, m := range moves {
		out = append(out, ui.option(g, m))
	}
	slices.SortFunc(out, func(a, b MoveOption) int { return naturalCompare(a.Text, b.Text) })
	return out
}

// touched returns the cells a move touches, in order: from, the landing
// cells of a capture's path, or to.
func touched(o MoveOption) []int {
	if len(o.Path) > 0 {
		return append([]int{o.From}, o.Path...)
	}
	return []int{o.From, o.To}
}

// outcomeSentence words an outcome of a game with sides for a page,
// "White wins: checkmate", or returns "" for a game not over.
func outcomeSentence(sides [2]string, o game.Outcome) string {
	switch o.Result {
	case game.FirstWins:
		return sideName(sides, game.First) + " wins: " + o.Reason.String()
	case game.SecondWins:
		return sideName(sides, game.Second) + " wins: " + o.Reason.String()
	case game.Draw:
		return "Draw: " + o.Reason.String()
	}
	return ""
}

// Replay is a stored game, position by position, for a replay board.
type Replay struct {
	Boards []Board  `json:"boards"` // len(Moves)+1: the start, then after each move
	Moves  []string `json:"moves"`  // in notation, one per ply, as MoveOption.Text
}

// ReplayGame reads a stored game: gameName is "draughts", "chess" or
// "xiangqi", start a FEN of that game or "" for the standard start,
// moveText the game's move text as the daemon stores it (games.moves:
// games.Kind.MoveText; comments and a result are accepted too). The move
// text is read by the game's own record reader (games.Kind.ParseMoveText),
// so malformed text or an illegal move is that reader's error, naming the
// move (its number, or for xiangqi its ply) and its text.
func ReplayGame(gameName, start, moveText string) (Replay, error) {
	s, err := storedGame(gameName)
	if err == nil {
		var rep Replay
		if rep, err = s.replay(start, moveText); err == nil {
			return rep, nil
		}
	}
	return Replay{}, fmt.Errorf("play: replay %s: %w", gameName, err)
}

// RecordOf writes a stored game as a full game record: PGN for chess,
// PDN for draughts, xiangqi PGN (moves in coordinates, WXF as comments).
// gameName, start and moveText are read as ReplayGame reads them; first
// and second name the players in move order (chess White and Black,
// draughts Black and White, xiangqi Red as White and Black); result is
// the record's result from the first player's view ("1-0", "0-1",
// "1/2-1/2", "*"; "" reads as "*"). tags adds tags: Event, Site, Date and
// Round first, the players, then the others by name; the players, Result,
// FEN and SetUp come from the other arguments, never from tags. The writer
// adds FEN and SetUp for a start other than the standard one.
func RecordOf(w io.Writer, gameName, start, moveText, first, second, result string, tags map[string]string) error {
	s, err := storedGame(gameName)
	if err == nil {
		if err = s.record(w, start, moveText, first, second, result, tags); err == nil {
			return nil
		}
	}
	return fmt.Errorf("play: record %s: %w", gameName, err)
}

// stored is what ReplayGame and RecordOf do with a stored game of any
// game, its move and state types hidden.
type stored interface {
	replay(start, moveText string) (Replay, error)
	record(w io.Writer, start, moveText, first, second, result string, tags map[string]string) error
}

// storedGame returns the game called name, for its stored games.
func storedGame(name string) (stored, error) {
	var s stored
	err := games.Visit(name, games.Funcs{
		Draughts: func(k games.DraughtsKind) error { s = bind(k, DraughtsUI()); return nil },
		Chess:    func(k games.ChessKind) error { s = bind(k, ChessUI()); return nil },
		Xiangqi:  func(k games.XiangqiKind) error { s = bind(k, XiangqiUI()); return nil },
	})
	if err != nil {
		return nil, fmt.Errorf("unknown game %q: want draughts, chess or xiangqi", name)
	}
	return s, nil
}

// binding is a game and its UI, for its stored games.
type binding[M comparable, S Playable[M]] struct {
	kind games.Kind[M, S]
	ui   UI[M, S]
}

// bind returns k and ui as a stored.
func bind[M comparable, S Playable[M]](k games.Kind[M, S], ui UI[M, S]) stored {
	return binding[M, S]{k, ui}
}

// replay plays the moves of moveText from start and returns every
// position on the way. The game has no move limit, so that any stored
// game replays to its end.
func (b binding[M, S]) replay(start, moveText string) (Replay, error) {
	rec, err := b.kind.ParseMoveText(start, moveText)
	if err != nil {
		return Replay{}, err
	}
	g, err := b.kind.NewGame(rec.Start, games.Setup{})
	if err != nil {
		return Replay{}, err
	}
	rep := Replay{Boards: make([]Board, 0, len(rec.Moves)+1), Moves: make([]string, 0, len(rec.Moves))}
	last := []int{}
	for _, m := range rec.Moves {
		rep.Boards = append(rep.Boards, boardOf(b.kind, b.ui, g, last))
		o := b.ui.option(g, m)
		rep.Moves = append(rep.Moves, o.Text)
		last = touched(o)
		g.Make(m)
	}
	rep.Boards = append(rep.Boards, boardOf(b.kind, b.ui, g, last))
	return rep, nil
}

// record writes the game of moveText from start as a game record.
func (b binding[M, S]) record(w io.Writer, start, moveText, first, second, result string, tags map[string]string) error {
	rec, err := b.kind.ParseMoveText(start, moveText)
	if err != nil {
		return err
	}
	rec.Tags = recordTags(tags, b.kind.RecordTags[0], first, b.kind.RecordTags[1], second)
	rec.Result = result
	return b.kind.WriteRecord(w, rec)
}

// recordTags orders a record's tags: the first four of the Seven Tag Roster
// found in extra, the players, then the rest of extra by name, leaving out
// the tags the writers set themselves.
func recordTags(extra map[string]string, firstTag, first, secondTag, second string) [][2]string {
	var out [][2]string
	roster := []string{"Event", "Site", "Date", "Round"}
	for _, name := range roster {
		if v, ok := extra[name]; ok {
			out = append(out, [2]string{name, v})
		}
	}
	out = append(out, [2]string{firstTag, first}, [2]string{secondTag, second})
	for _, name := range slices.Sorted(maps.Keys(extra)) {
		switch {
		case slices.Contains(roster, name), name == firstTag, name == secondTag,
			name == "Result", name == "FEN", name == "SetUp":
			continue
		}
		out = append(out, [2]string{name, extra[name]})
	}
	return out
}
