// Package play runs games between a person and an engine: at a terminal
// the board drawn after every move, moves typed in the game's own notation,
// and the commands a player expects (undo, hint, swap, save, load ...); in a
// browser the board as cells and the legal moves as options (Match), and
// stored games replayed board by board (ReplayGame).
//
// One session and one Match serve every game: they take the game's
// games.Kind (its start, positions, records and players) and its UI, the
// little that differs in how a person sees and types it (DraughtsUI,
// ChessUI, XiangqiUI). Sessions read lines from an io.Reader and write to an
// io.Writer, so they work the same in a terminal, in tmux and in a pipe
// driven by a script.
package play

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"evolved/game"
	"evolved/games"
	"evolved/outfile"
	"evolved/player"
	"evolved/search"
)

// Playable is what play needs of a game's state besides search's view of
// it: the moves made since its start, for the history and the records.
type Playable[M comparable] interface {
	search.Game[M]
	// Moves appends the moves made since the start to buf[:0].
	Moves(buf []M) []M
}

// UI is how a person sees and types one game: its board drawn for a
// terminal and laid out for a browser, its help text and its move
// notations as people write them. DraughtsUI, ChessUI and XiangqiUI return
// the three games'; the rest (start, positions, records) is the game's
// games.Kind.
type UI[M comparable, S Playable[M]] interface {
	// title names the game in a session's greeting ("Chess").
	title() string
	// help describes the move notation, before the commands.
	help() string
	// scoreUnit names the unit of the engines' scores in this game, for
	// an engine whose spec names none (player.Spec.Unit).
	scoreUnit() string
	// draw draws the current position for a terminal, seen from the
	// person's side where the game's diagrams are (chess: the person's
	// pieces at the bottom).
	draw(g S, ascii bool, human game.Player) string
	// formatMove writes a move legal now, as a person reads it (SAN, PDN).
	formatMove(g S, m M) string
	// parseMove reads a person's move; illegal reports whether an error is
	// about a legal-looking move that cannot be played (its message then
	// lists what can be).
	parseMove(g S, text string) (m M, err error, illegal bool)
	// looksLikeMove tells a mistyped move from an unknown command.
	looksLikeMove(text string) bool

	// layout gives the board for a browser: files, ranks and each cell's
	// label.
	layout() (files, ranks int, labels []string)
	// cells returns the piece codes of the current position's cells and the
	// cell of the side to move's king or general when it is in check, or -1.
	cells(g S) (codes []string, check int)
	// option returns m, legal now, as the browser offers it.
	option(g S, m M) MoveOption
	// readMove reads a person's move as parseMove does, with errors worded
	// for a page (no position in them); listed reports that the message
	// already lists the candidates.
	readMove(g S, text string) (m M, err error, listed bool)
}

// historian is implemented by UIs that list the moves so far their own
// way, for the history command; the others show the game's move text.
type historian[S any] interface {
	history(g S) string
}

// capturer is implemented by UIs that can list the captured pieces,
// for the capture command.
type capturer[S any] interface {
	captured(g S, ascii bool) string
}

// Options configures a game with a person, at a terminal (Terminal) or in
// a browser (NewMatch).
type Options[M comparable, S search.Game[M]] struct {
	// Engine is the computer's player.
	Engine player.Spec[M, S]
	// Human is the side the person plays; the engine plays the other.
	Human game.Player
	// Start is the start position, a FEN of the game; "" for the standard
	// start.
	Start string
	// MaxMoves draws a game once each side has made this many moves; 0 for
	// no limit.
	MaxMoves int
	// ASCII draws pieces as letters instead of Unicode symbols or Chinese
	// glyphs. Terminal only.
	ASCII bool
	// Seed seeds the engine's random choices (MCTS players).
	Seed uint64
	// Record, if set, is a game record file (PDN for draughts, PGN
	// otherwise) whose first game is replayed before play. Terminal only.
	Record string
	// Guard checks the files the save command writes (nil: a guard that
	// knows no database by name, which still refuses any SQLite file), so
	// that saving a game never writes over a database. Terminal only.
	Guard *outfile.Guard
}

// session is a running game with a person.
type session[M comparable, S Playable[M]] struct {
	kind       games.Kind[M, S]
	ui         UI[M, S]
	setup      games.Setup // the game's rules: its move limit
	restartFEN string      // the options' start, for restart
	newEngine  func() search.Player[M, S]
	name       string // the engine's name
	unit       string // the unit of the engine's scores
	seed       uint64
	ascii      bool
	g          S
	start      string // the FEN the current game began from ("" the standard start)
	engine     search.Player[M, S]
	in         *bufio.Scanner
	out        io.Writer
	human      game.Player
	last       string // the last move, in notation
	figures    string // the engine's last search figures
	games      int    // games started, for the engine's seed
	record     string // a game record to load before play, if any
	guard      *outfile.Guard
}

// Terminal runs a session of game k, shown as ui, until the person quits
// or the input ends, reading the person's lines from in and writing to
// out. It returns nil then, and an error only if opts.Start is not a
// position of the game or the input or output fails.
func Terminal[M comparable, S Playable[M]](ctx context.Context, k games.Kind[M, S], ui UI[M, S], in io.Reader, out io.Writer, opts Options[M, S]) error {
	s := &session[M, S]{kind: k, ui: ui, setup: games.Setup{MaxMoves: opts.MaxMoves}, restartFEN: opts.Start,
		newEngine: opts.Engine.New, name: opts.Engine.Name, unit: cmp.Or(opts.Engine.Unit, ui.scoreUnit()), seed: opts.Seed, ascii: opts.ASCII,
		record: opts.Record, in: bufio.NewScanner(in), out: out, human: opts.Human, guard: cmp.Or(opts.Guard, outfile.NewGuard())}
	if _, err := k.NewGame(opts.Start, s.setup); err != nil {
		return fmt.Errorf("play: start: %w", err)
	}
	return s.run(ctx)
}

// errQuit ends a session at the person's request.
var errQuit = errors.New("quit")

// run plays a session until the person quits or the input ends. It returns
// nil then, and an error only if the input or output fails.
func (s *session[M, S]) run(ctx context.Context) error {
	s.restart()
	s.printf("evolved: %s against %s. You play %s. Type help for the commands.\n", s.ui.title(), s.name, s.side(s.human))
	if s.record != "" {
		if err := s.load(s.record); err != nil {
			return err
		}
	} else {
		s.display()
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil
		}
		if o := s.g.Outcome(); o.Over() {
			s.printf("Game over: %s. Type restart, undo, save FILE or quit.\n", s.describeOutcome(o))
		} else if s.g.ToMove() != s.human {
			s.engineMove(ctx)
			continue
		}
		s.printf("%s> ", s.side(s.g.ToMove()))
		if !s.in.Scan() {
			s.printf("\n")
			return s.in.Err()
		}
		err := s.command(ctx, strings.TrimSpace(s.in.Text()))
		if errors.Is(err, errQuit) {
			return nil
		}
		if err != nil {
			s.printf("%v\n", err)
		}
	}
}

// restart starts a new game from the options' start position.
func (s *session[M, S]) restart() {
	g, _ := s.kind.NewGame(s.restartFEN, s.setup) // checked by Terminal
	s.begin(g, s.restartFEN)
}

// begin makes g, begun from start (a FEN), the game, with a fresh engine.
func (s *session[M, S]) begin(g S, start string) {
	s.g, s.start = g, start
	s.engine = s.newEngine()
	s.engine.NewGame(s.seed + uint64(s.games))
	s.games++
	s.last, s.figures = "", ""
}

// printf writes to the session's output.
func (s *session[M, S]) printf(format string, args ...any) { fmt.Fprintf(s.out, format, args...) }

// side names a player as the session shows it ("Black").
func (s *session[M, S]) side(p game.Player) string { return sideName(s.kind.Sides, p) }

// sideName names player p of a game with sides ("black", "white") as a
// sentence starts it: "Black".
func sideName(sides [2]string, p game.Player) string {
	name := sides[p&1]
	return strings.ToUpper(name[:1]) + name[1:]
}

// engineMove lets the engine play.
func (s *session[M, S]) engineMove(ctx context.Context) {
	start := time.Now()
	res, err := s.engine.Move(ctx, s.g)
	if err != nil {
		s.printf("engine: %v\n", err)
		return
	}
	elapsed := time.Since(start)
	s.last = s.ui.formatMove(s.g, res.Move)
	s.figures = searchFigures(res, elapsed, s.side(s.g.ToMove()), s.unit)
	s.g.Make(res.Move)
	s.display()
}

// searchFigures words an engine's search for a person: depth, nodes, speed
// and what its score means for mover, the side that was to move, in unit.
func searchFigures[M comparable](res search.Result[M], elapsed time.Duration, mover, unit string) string {
	secs := elapsed.Seconds()
	if res.Nodes == 0 {
		// An external engine or a learned table reports no search.
		return fmt.Sprintf("moved in %.2f s (it reports no search figures)", secs)
	}
	return fmt.Sprintf("depth %d, %d nodes, %.0f nodes/s, %s",
		res.Depth, res.Nodes, float64(res.Nodes)/max(secs, 1e-9), describeScore(res.Score, mover, unit))
}

// command carries out one line of input: a command or a move.
func (s *session[M, S]) command(ctx context.Context, line string) error {
	word, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch strings.ToLower(word) {
	case "":
		return nil
	case "help", "?":
		s.printf("%s%s", s.ui.help(), helpText)
	case "quit", "exit", "q":
		return errQuit
	case "display", "d":
		s.display()
	case "history", "h":
		s.history()
	case "fen":
		s.printf("%s\n", s.kind.FEN(s.g))
	case "undo", "u":
		return s.undo()
	case "restart":
		s.restart()
		s.display()
	case "swap":
		s.human = s.human.Other()
		s.printf("You now play %s.\n", s.side(s.human))
		s.display()
	case "hint":
		return s.hint(ctx)
	case "capture", "captured", "c":
		c, ok := s.ui.(capturer[S])
		if !ok {
			return errors.New("capture: this game has no list of captured pieces; see the board")
		}
		s.printf("%s", c.captured(s.g, s.ascii))
	case "save":
		return s.save(arg)
	case "load":
		return s.load(arg)
	default:
		return s.move(line)
	}
	return nil
}

// move plays the person's move, or explains why it cannot be played.
func (s *session[M, S]) move(text string) error {
	if o := s.g.Outcome(); o.Over() {
		return fmt.Errorf("the game is over (%s)", s.describeOutcome(o))
	}
	m, err, illegal := s.ui.parseMove(s.g, text)
	if err != nil {
		if !illegal && !s.ui.looksLikeMove(text) {
			return fmt.Errorf("unknown command %q (type help for the commands)", text)
		}
		if illegal {
			return err // the message lists the candidates
		}
		return fmt.Errorf("%v\nlegal moves: %s", err, s.legalMoves())
	}
	s.last, s.figures = s.ui.formatMove(s.g, m), ""
	s.g.Make(m)
	s.display()
	return nil
}

// legalMoves lists the legal moves in notation, in natural order (numbers
// within the text compared as numbers: 9-13 before 10-14).
func (s *session[M, S]) legalMoves() string {
	var parts []string
	for _, m := range s.g.LegalMoves(nil) {
		parts = append(parts, s.ui.formatMove(s.g, m))
	}
	if len(parts) == 0 {
		return "none"
	}
	slices.SortFunc(parts, naturalCompare)
	return strings.Join(parts, ", ")
}

// naturalCompare orders strings as people do: runs of digits by their
// value, the rest byte by byte.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Compare(len(na), len(nb)); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digitRun returns the length of the run of ASCII digits that starts s.
func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// undo takes back moves until it is the person's turn again.
func (s *session[M, S]) undo() error {
	if s.g.Ply() == 0 {
		return errors.New("nothing to undo")
	}
	s.g.Unmake()
	for s.g.Ply() > 0 && s.g.ToMove() != s.human {
		s.g.Unmake()
	}
	s.last, s.figures = "", ""
	if s.g.ToMove() != s.human {
		// Back at the start with the engine to move: it moves again, so
		// swap sides instead of undoing into an endless loop.
		s.printf("Back at the start position; the engine moves first.\n")
	}
	s.display()
	return nil
}

// hint shows what the engine would play for the person.
func (s *session[M, S]) hint(ctx context.Context) error {
	if s.g.Outcome().Over() {
		return errors.New("the game is over")
	}
	adviser := s.newEngine()
	adviser.NewGame(s.seed)
	res, err := adviser.Move(ctx, s.g)
	if err != nil {
		return fmt.Errorf("hint: %w", err)
	}
	s.printf("hint: %s (%s)\n", s.ui.formatMove(s.g, res.Move), describeScore(res.Score, s.side(s.g.ToMove()), s.unit))
	return nil
}

// describeScore says what a search score means for side, the side that
// was to move (search scores are from its point of view): a forced result
// and in how many plies, or the evaluation, whose side it favours and its
// unit.
func describeScore(score int, side, unit string) string {
	switch {
	case search.IsWin(score) && score > 0:
		return fmt.Sprintf("a forced win for %s in %d plies", side, search.Win-score)
	case search.IsWin(score):
		return fmt.Sprintf("a forced loss for %s in %d plies", side, search.Win+score)
	}
	return fmt.Sprintf("score %+d for %s: positive is good for %s, in %s", score, side, side, unit)
}

// save writes the game record to path, whole, through the session's guard.
func (s *session[M, S]) save(path string) error {
	if path == "" {
		return errors.New("save needs a file name: save FILE")
	}
	err := s.guard.Write(path, func(w io.Writer) error { return writeRecord(w, s.kind, s.g, s.start, s.human, s.name) })
	if err != nil {
		return fmt.Errorf("save: %w", err)
	}
	s.printf("saved %d moves to %s\n", s.g.Ply(), path)
	return nil
}

// load replays the first game of a game record.
func (s *session[M, S]) load(path string) error {
	if path == "" {
		return errors.New("load needs a file name: load FILE")
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	defer f.Close()
	g, start, err := s.readRecord(f)
	if err != nil {
		return fmt.Errorf("load %s: %w", path, err)
	}
	s.begin(g, start)
	s.printf("loaded %d moves from %s\n", g.Ply(), path)
	s.display()
	return nil
}

// readRecord reads the first game of a game record into a new game under
// the session's rules, and returns it with its start.
func (s *session[M, S]) readRecord(r io.Reader) (S, string, error) {
	var none S
	recs, err := s.kind.ReadRecords(r)
	if err != nil {
		return none, "", err
	}
	if len(recs) == 0 {
		return none, "", errors.New("no game in the file")
	}
	g, err := s.kind.NewGame(recs[0].Start, s.setup)
	if err != nil {
		return none, "", err
	}
	for _, m := range recs[0].Moves {
		g.Make(m)
	}
	return g, recs[0].Start, nil
}

// writeRecord writes g, begun from start, as a game record of game k
// between the person, who plays human, and the engine called engine,
// dated today.
func writeRecord[M comparable, S Playable[M]](w io.Writer, k games.Kind[M, S], g S, start string, human game.Player, engine string) error {
	first, second := "You", engine
	if human != game.First {
		first, second = second, first
	}
	return k.WriteRecord(w, games.Record[M]{
		Tags:   [][2]string{{"Event", "evolved play"}, {"Date", time.Now().Format("2006.01.02")}, {k.RecordTags[0], first}, {k.RecordTags[1], second}},
		Start:  start,
		Moves:  g.Moves(nil),
		Result: k.ResultTag(g.Outcome().Result),
	})
}

// history prints the moves so far: the UI's list, or the game's move text.
func (s *session[M, S]) history() {
	var text string
	if h, ok := s.ui.(historian[S]); ok {
		text = h.history(s.g)
	} else if t, err := s.kind.MoveText(s.start, s.g.Moves(nil)); err == nil {
		text = t
	}
	if text != "" {
		s.printf("%s\n", text)
		return
	}
	s.printf("no moves yet\n")
}

// describeOutcome words an outcome for a person.
func (s *session[M, S]) describeOutcome(o game.Outcome) string {
	switch o.Result {
	case game.FirstWins:
		return s.side(game.First) + " wins, " + o.Reason.String()
	case game.SecondWins:
		return s.side(game.Second) + " wins, " + o.Reason.String()
	}
	return "draw, " + o.Reason.String()
}

// display draws the board, then who is to move, the last move and the
// engine's figures.
func (s *session[M, S]) display() {
	s.printf("%s", s.ui.draw(s.g, s.ascii, s.human))
	line := fmt.Sprintf("%s to move", s.side(s.g.ToMove()))
	if s.g.ToMove() == s.human {
		line += " (you)"
	}
	if s.last != "" {
		line += ", last move " + s.last
	}
	s.printf("%s\n", line)
	if s.figures != "" {
		s.printf("engine: %s\n", s.figures)
	}
}

const helpText = `Commands:
  help        this text
  display     draw the board again
  history     the moves so far
  undo        take back your last move (and the engine's reply)
  restart     start a new game
  swap        change sides (the engine then plays for the side to move)
  hint        what the engine would play for you
  save FILE   write the game record (PDN for draughts, PGN otherwise)
  load FILE   replay the first game of a game record
  fen         the position as FEN
  quit        leave
`
