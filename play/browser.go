package play

import (
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
	"evolved/game/draughts"
	"evolved/game/xiangqi"
	"evolved/player"
	"evolved/search"
)

// This file is the browser's side of package play: the same rules as the
// terminal sessions (rules[M, S] in session.go), with the position as cells
// a page can draw, the legal moves as cells it can click, and stored games
// replayed board by board. A browser game is a browserMatch over one
// game's browserRules; ReplayGame and RecordOf read the move text the
// daemon stores with the game packages' own readers.

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

// NewChessMatch starts a browser chess game from opts.Start under
// opts.Rules against opts.Engine, seeded with opts.Seed; the person plays
// opts.Human. ASCII and Record are ignored. The engine does not move
// until Reply is called, even when it plays White.
func NewChessMatch(opts ChessOptions) Match {
	return newBrowserMatch[chess.Move](chessRules{start: opts.Start, rules: opts.Rules}, opts.Engine, opts.Human, opts.Seed)
}

// NewDraughtsMatch starts a browser draughts game as NewChessMatch does.
func NewDraughtsMatch(opts DraughtsOptions) Match {
	return newBrowserMatch[draughts.Move](draughtsRules{start: opts.Start, rules: opts.Rules}, opts.Engine, opts.Human, opts.Seed)
}

// NewXiangqiMatch starts a browser xiangqi game as NewChessMatch does.
func NewXiangqiMatch(opts XiangqiOptions) Match {
	return newBrowserMatch[xiangqi.Move](xiangqiRules{start: opts.Start, rules: opts.Rules}, opts.Engine, opts.Human, opts.Seed)
}

// browserRules is what a browser game needs of a game besides rules: its
// board as cells and its moves as options.
type browserRules[M comparable, S search.Game[M]] interface {
	rules[M, S]
	// layout names the game and gives its board: files, ranks and each
	// cell's label.
	layout() (name string, files, ranks int, labels []string)
	// cells returns the piece codes of the current position's cells and the
	// cell of the side to move's king or general when it is in check, or -1.
	cells(s S) (codes []string, check int)
	// option returns m, legal now, as the browser offers it.
	option(s S, m M) MoveOption
	// readMove reads a person's move as parseMove does, with errors worded
	// for a page (no position in them); listed reports that the message
	// already lists the candidates.
	readMove(s S, text string) (m M, err error, listed bool)
}

// browserMatch is a Match over any game's rules.
type browserMatch[M comparable, S search.Game[M]] struct {
	rules   browserRules[M, S]
	g       S
	engine  search.Player[M, S]
	name    string      // the engine's name
	human   game.Player // the person's side
	moves   []string    // the moves so far, as MoveOption.Text
	last    []int       // the cells the last move touched
	figures string      // the engine's last search figures
}

var _ Match = (*browserMatch[chess.Move, *chess.Game])(nil)

// newBrowserMatch starts a game of r's start position against a fresh
// player of engine, seeded with seed.
func newBrowserMatch[M comparable, S search.Game[M]](r browserRules[M, S], engine player.Spec[M, S], human game.Player, seed uint64) *browserMatch[M, S] {
	e := engine.New()
	e.NewGame(seed)
	return &browserMatch[M, S]{rules: r, g: r.newGame(), engine: e, name: engine.Name, human: human, moves: []string{}, last: []int{}}
}

// State returns the game as it stands.
func (b *browserMatch[M, S]) State() State {
	o := b.g.Outcome()
	st := State{
		Board:   boardOf(b.rules, b.g, b.last),
		Moves:   slices.Clone(b.moves),
		Legal:   []MoveOption{},
		Human:   strings.ToLower(b.rules.sideName(b.human)),
		Engine:  b.name,
		Over:    o.Over(),
		Result:  o.Result.Tag(),
		Outcome: outcomeSentence(b.rules, o),
		Figures: b.figures,
	}
	if !o.Over() && b.g.ToMove() == b.human {
		st.Legal = options(b.rules, b.g)
	}
	return st
}

// Play plays the person's move.
func (b *browserMatch[M, S]) Play(text string) error {
	if o := b.g.Outcome(); o.Over() {
		return fmt.Errorf("%w (%s)", ErrGameOver, outcomeSentence(b.rules, o))
	}
	if b.g.ToMove() != b.human {
		return fmt.Errorf("%w: %s is to move", ErrNotYourTurn, b.name)
	}
	m, err, listed := b.rules.readMove(b.g, strings.TrimSpace(text))
	if err != nil {
		if listed {
			return fmt.Errorf("%w %q: %w", ErrBadMove, text, err)
		}
		var texts []string
		for _, o := range options(b.rules, b.g) {
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
	b.figures = searchFigures(b.rules, res, elapsed, b.g.ToMove())
	b.play(res.Move)
	return nil
}

// play makes m, legal now, and notes its text and cells.
func (b *browserMatch[M, S]) play(m M) {
	o := b.rules.option(b.g, m)
	b.moves = append(b.moves, o.Text)
	b.last = touched(o)
	b.g.Make(m)
}

// Record writes the game so far as a game record.
func (b *browserMatch[M, S]) Record(w io.Writer) error {
	first, second := "You", b.name
	if b.human != game.First {
		first, second = second, first
	}
	if err := b.rules.save(w, b.g, first, second); err != nil {
		return fmt.Errorf("play: record: %w", err)
	}
	return nil
}

// boardOf returns the current position of g as a Board whose last move
// touched last.
func boardOf[M comparable, S search.Game[M]](r browserRules[M, S], g S, last []int) Board {
	name, files, ranks, labels := r.layout()
	codes, check := r.cells(g)
	return Board{
		Game: name, Files: files, Ranks: ranks, Cells: codes, Labels: labels,
		ToMove: strings.ToLower(r.sideName(g.ToMove())),
		Last:   slices.Clone(last),
		Check:  check,
		FEN:    r.fen(g),
	}
}

// options returns the legal moves of g as options, in natural order of
// their text (9-13 before 10-14), as the terminal lists them.
func options[M comparable, S search.Game[M]](r browserRules[M, S], g S) []MoveOption {
	moves := g.LegalMoves(nil)
	out := make([]MoveOption, 0, len(moves))
	for _, m := range moves {
		out = append(out, r.option(g, m))
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

// outcomeSentence words an outcome for a page, "White wins: checkmate",
// or returns "" for a game not over.
func outcomeSentence[M comparable, S search.Game[M]](r rules[M, S], o game.Outcome) string {
	switch o.Result {
	case game.FirstWins:
		return r.sideName(game.First) + " wins: " + o.Reason.String()
	case game.SecondWins:
		return r.sideName(game.Second) + " wins: " + o.Reason.String()
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
// chess.MoveText, draughts.MoveText, xiangqi.MoveText; comments and a
// result are accepted too). The move text is read by the game package's
// own reader (chess.ParsePGN, draughts.ParsePDN, xiangqi.ReadRecords), so
// malformed text or an illegal move is that reader's error, naming the move
// (its number, or for xiangqi its ply) and its text.
func ReplayGame(gameName, start, moveText string) (Replay, error) {
	var (
		rep Replay
		err error
	)
	switch gameName {
	case "chess":
		var p chess.Position
		var moves []chess.Move
		if p, moves, err = readChess(start, moveText); err == nil {
			rep = replay[chess.Move, *chess.Game](chessRules{start: p}, moves)
		}
	case "draughts":
		var p draughts.Position
		var moves []draughts.Move
		if p, moves, err = readDraughts(start, moveText); err == nil {
			rep = replay[draughts.Move, *draughts.Game](draughtsRules{start: p}, moves)
		}
	case "xiangqi":
		var p xiangqi.Position
		var moves []xiangqi.Move
		if p, moves, err = readXiangqi(start, moveText); err == nil {
			rep = replay[xiangqi.Move, *xiangqi.Game](xiangqiRules{start: p}, moves)
		}
	default:
		err = unknownGame(gameName)
	}
	if err != nil {
		return Replay{}, fmt.Errorf("play: replay %s: %w", gameName, err)
	}
	return rep, nil
}

// replay plays moves, legal in turn, from r's start and returns every
// position on the way. r's rules have no move limit, so that any stored
// game replays to its end.
func replay[M comparable, S search.Game[M]](r browserRules[M, S], moves []M) Replay {
	g := r.newGame()
	rep := Replay{Boards: make([]Board, 0, len(moves)+1), Moves: make([]string, 0, len(moves))}
	last := []int{}
	for _, m := range moves {
		rep.Boards = append(rep.Boards, boardOf(r, g, last))
		o := r.option(g, m)
		rep.Moves = append(rep.Moves, o.Text)
		last = touched(o)
		g.Make(m)
	}
	rep.Boards = append(rep.Boards, boardOf(r, g, last))
	return rep
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
	var err error
	switch gameName {
	case "chess":
		var rec chess.PGNGame
		if rec.Start, rec.Moves, err = readChess(start, moveText); err == nil {
			for _, t := range recordTags(tags, "White", first, "Black", second) {
				rec.Tags = append(rec.Tags, chess.Tag{Name: t[0], Value: t[1]})
			}
			rec.Result = result
			err = chess.WritePGN(w, rec)
		}
	case "draughts":
		var rec draughts.PDNGame
		if rec.Start, rec.Moves, err = readDraughts(start, moveText); err == nil {
			for _, t := range recordTags(tags, "Black", first, "White", second) {
				rec.Tags = append(rec.Tags, draughts.Tag{Name: t[0], Value: t[1]})
			}
			rec.Result = result
			err = draughts.WritePDN(w, rec)
		}
	case "xiangqi":
		var rec xiangqi.Record
		if rec.Start, rec.Moves, err = readXiangqi(start, moveText); err == nil {
			rec.Tags = recordTags(tags, "White", first, "Black", second)
			rec.Result = result
			err = xiangqi.WriteRecord(w, rec)
		}
	default:
		err = unknownGame(gameName)
	}
	if err != nil {
		return fmt.Errorf("play: record %s: %w", gameName, err)
	}
	return nil
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

// unknownGame is the error for a game name that is none of ours.
func unknownGame(name string) error {
	return fmt.Errorf("unknown game %q: want draughts, chess or xiangqi", name)
}

// startTag returns a FEN tag for a record's header. Every stored game gets
// one, the standard start included, so that empty move text is still a
// game; it shares the move text's first line, so that the reader's line
// numbers are the move text's.
func startTag(fen string) string { return fmt.Sprintf("[FEN %q] ", fen) }

// readChess reads chess move text from start ("" for the standard one).
func readChess(start, moveText string) (chess.Position, []chess.Move, error) {
	p := chess.Start()
	if start != "" {
		var err error
		if p, err = chess.ParseFEN(start); err != nil {
			return p, nil, fmt.Errorf("start: %w", err)
		}
	}
	rec, err := chess.ParsePGN(startTag(p.FEN()) + moveText)
	if err != nil {
		return p, nil, err
	}
	return rec.Start, rec.Moves, nil
}

// readDraughts reads draughts move text from start ("" for the standard one).
func readDraughts(start, moveText string) (draughts.Position, []draughts.Move, error) {
	p := draughts.Start()
	if start != "" {
		var err error
		if p, err = draughts.ParseFEN(start); err != nil {
			return p, nil, fmt.Errorf("start: %w", err)
		}
	}
	rec, err := draughts.ParsePDN(startTag(p.FEN()) + moveText)
	if err != nil {
		return p, nil, err
	}
	return rec.Start, rec.Moves, nil
}

// readXiangqi reads xiangqi move text from start ("" for the standard one).
func readXiangqi(start, moveText string) (xiangqi.Position, []xiangqi.Move, error) {
	p := xiangqi.Start()
	if start != "" {
		var err error
		if p, err = xiangqi.ParseFEN(start); err != nil {
			return p, nil, fmt.Errorf("start: %w", err)
		}
	}
	recs, err := xiangqi.ReadRecords(strings.NewReader(startTag(p.FEN()) + moveText))
	if err != nil {
		return p, nil, err
	}
	if len(recs) != 1 {
		return p, nil, fmt.Errorf("found %d games in the move text, want one", len(recs))
	}
	return recs[0].Start, recs[0].Moves, nil
}

// Chess on a page: cell row*8+file, rank 8 first.

func (chessRules) layout() (string, int, int, []string) {
	labels := make([]string, 64)
	for i := range labels {
		labels[i] = chess.NewSquare(i%8, 7-i/8).String()
	}
	return "chess", 8, 8, labels
}

// chessCell returns the cell of square s.
func chessCell(s chess.Square) int { return (7-s.Rank())*8 + s.File() }

func (chessRules) cells(g *chess.Game) ([]string, int) {
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
func (chessRules) option(g *chess.Game, m chess.Move) MoveOption {
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
func (chessRules) readMove(g *chess.Game, text string) (chess.Move, error, bool) {
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
	reason := err.Error()
	if _, after, ok := strings.Cut(reason, " in "+p.FEN()+": "); ok {
		reason = after
	}
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

// Draughts on a page: the 64 squares of drawDraughts, square 1's row first;
// square n (bit n-1) is on row (n-1)/4, on the dark squares.

func (draughtsRules) layout() (string, int, int, []string) {
	labels := make([]string, 64)
	for sq := range 32 {
		labels[draughtsCell(sq)] = fmt.Sprint(sq + 1)
	}
	return "draughts", 8, 8, labels
}

// draughtsCell returns the cell of bit index sq (square sq+1), the inverse
// of drawDraughts' sq = row*4 + col/2 on squares where (row+col)%2 == 1.
func draughtsCell(sq int) int {
	row := sq / 4
	return row*8 + 2*(sq%4) + 1 - row%2
}

func (draughtsRules) cells(g *draughts.Game) ([]string, int) {
	p := g.Position()
	codes := make([]string, 64)
	for sq := range 32 {
		bit := uint32(1) << sq
		code := ""
		switch {
		case p.Black&bit != 0 && p.Kings&bit != 0:
			code = "B"
		case p.Black&bit != 0:
			code = "b"
		case p.White&bit != 0 && p.Kings&bit != 0:
			code = "W"
		case p.White&bit != 0:
			code = "w"
		}
		codes[draughtsCell(sq)] = code
	}
	return codes, -1
}

// option: a capture's path is its route's landing squares, so that a
// multi-jump is drawn and chosen square by square.
func (draughtsRules) option(g *draughts.Game, m draughts.Move) MoveOption {
	o := MoveOption{From: draughtsCell(m.From()), To: draughtsCell(m.To()), Text: g.FormatMove(m)}
	if m.IsCapture() {
		p := g.Position()
		route := p.Route(m)
		for _, n := range route[min(1, len(route)):] {
			o.Path = append(o.Path, draughtsCell(n-1))
		}
		if len(o.Path) == 0 { // no route found: at least the end
			o.Path = []int{o.To}
		}
	}
	return o
}

func (r draughtsRules) readMove(g *draughts.Game, text string) (draughts.Move, error, bool) {
	return r.parseMove(g, text)
}

// Xiangqi on a page: cell (9-rank)*9+file, Black's back rank (rank 10)
// first, as the terminal draws it.

func (xiangqiRules) layout() (string, int, int, []string) {
	labels := make([]string, xiangqi.Squares)
	for i := range labels {
		labels[i] = xiangqi.NewSquare(i%xiangqi.Files, xiangqi.Ranks-1-i/xiangqi.Files).String()
	}
	return "xiangqi", xiangqi.Files, xiangqi.Ranks, labels
}

// xiangqiCell returns the cell of square s.
func xiangqiCell(s xiangqi.Square) int { return (xiangqi.Ranks-1-s.Rank())*xiangqi.Files + s.File() }

func (xiangqiRules) cells(g *xiangqi.Game) ([]string, int) {
	p := g.Position()
	codes := make([]string, xiangqi.Squares)
	for i := range codes {
		pt, side := p.PieceAt(xiangqi.NewSquare(i%xiangqi.Files, xiangqi.Ranks-1-i/xiangqi.Files))
		switch {
		case pt == xiangqi.NoPieceType:
		case side == xiangqi.Red:
			codes[i] = pt.String()
		default:
			codes[i] = strings.ToLower(pt.String())
		}
	}
	check := -1
	if p.InCheck() {
		check = xiangqiCell(p.General(p.Side()))
	}
	return codes, check
}

// option: the text is the coordinates the game stores and its engines
// speak, not the terminal's "H8,H5 (h3e3)".
func (xiangqiRules) option(_ *xiangqi.Game, m xiangqi.Move) MoveOption {
	return MoveOption{From: xiangqiCell(m.From()), To: xiangqiCell(m.To()), Text: m.String()}
}

func (r xiangqiRules) readMove(g *xiangqi.Game, text string) (xiangqi.Move, error, bool) {
	return r.parseMove(g, text)
}
