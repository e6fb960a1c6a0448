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
	"evolved/player"
	"evolved/search"
)

// rules is what a session needs of a game besides search.Game: how to
// start, draw and name things, and how to read and write its notations.
type rules[M comparable, S search.Game[M]] interface {
	// newGame returns a game from start (the options' start position).
	newGame() S
	// draw draws the current position.
	draw(s S, ascii bool) string
	// sideName names a player ("Black", "White").
	sideName(p game.Player) string
	// formatMove writes a move legal now, as a person reads it (SAN, PDN).
	formatMove(s S, m M) string
	// parseMove reads a person's move; illegal reports whether an error is
	// about a legal-looking move that cannot be played (its message then
	// lists what can be).
	parseMove(s S, text string) (m M, err error, illegal bool)
	// looksLikeMove tells a mistyped move from an unknown command.
	looksLikeMove(text string) bool
	// fen writes the current position.
	fen(s S) string
	// history writes the moves so far as numbered move text.
	history(s S) string
	// save writes the game as a game record; load reads the first game of
	// one into a new game.
	save(w io.Writer, s S, firstName, secondName string) error
	load(r io.Reader) (S, error)
	// help describes the move notation.
	help() string
	// scoreUnit names the unit of the engines' scores in this game.
	scoreUnit() string
}

// capturer is implemented by rules that can list the captured pieces,
// for the capture command.
type capturer[S any] interface {
	captured(s S, ascii bool) string
}

// session is a running game with a person.
type session[M comparable, S search.Game[M]] struct {
	rules     rules[M, S]
	newEngine func() search.Player[M, S]
	name      string // the engine's name
	seed      uint64
	ascii     bool
	g         S
	engine    search.Player[M, S]
	in        *bufio.Scanner
	out       io.Writer
	human     game.Player
	last      string // the last move, in notation
	figures   string // the engine's last search figures
	games     int    // games started, for the engine's seed
	record    string // a game record to load before play, if any
}

// newSession returns a session of the game r describes against engine,
// reading the person's lines from in and writing to out.
func newSession[M comparable, S search.Game[M]](r rules[M, S], engine player.Spec[M, S], human game.Player,
	ascii bool, seed uint64, record string, in io.Reader, out io.Writer) *session[M, S] {
	return &session[M, S]{rules: r, newEngine: engine.New, name: engine.Name, seed: seed, ascii: ascii,
		record: record, in: bufio.NewScanner(in), out: out, human: human}
}

// errQuit ends a session at the person's request.
var errQuit = errors.New("quit")

// run plays a session until the person quits or the input ends. It returns
// nil then, and an error only if the input or output fails.
func (s *session[M, S]) run(ctx context.Context, gameName string) error {
	s.restart()
	s.printf("evolved: %s against %s. You play %s. Type help for the commands.\n", gameName, s.name, s.rules.sideName(s.human))
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
		s.printf("%s> ", s.rules.sideName(s.g.ToMove()))
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

// restart starts a new game from the start position.
func (s *session[M, S]) restart() { s.begin(s.rules.newGame()) }

// begin makes g the game, with a fresh engine.
func (s *session[M, S]) begin(g S) {
	s.g = g
	s.engine = s.newEngine()
	s.engine.NewGame(s.seed + uint64(s.games))
	s.games++
	s.last, s.figures = "", ""
}

// printf writes to the session's output.
func (s *session[M, S]) printf(format string, args ...any) { fmt.Fprintf(s.out, format, args...) }

// engineMove lets the engine play.
func (s *session[M, S]) engineMove(ctx context.Context) {
	start := time.Now()
	res, err := s.engine.Move(ctx, s.g)
	if err != nil {
		s.printf("engine: %v\n", err)
		return
	}
	elapsed := time.Since(start)
	s.last = s.rules.formatMove(s.g, res.Move)
	s.figures = searchFigures(s.rules, res, elapsed, s.g.ToMove())
	s.g.Make(res.Move)
	s.display()
}

// searchFigures words an engine's search for a person: depth, nodes, speed
// and what its score means for mover, the side that was to move.
func searchFigures[M comparable, S search.Game[M]](r rules[M, S], res search.Result[M], elapsed time.Duration, mover game.Player) string {
	secs := elapsed.Seconds()
	if res.Nodes == 0 {
		// An external engine or a learned table reports no search.
		return fmt.Sprintf("moved in %.2f s (it reports no search figures)", secs)
	}
	return fmt.Sprintf("depth %d, %d nodes, %.0f nodes/s, %s",
		res.Depth, res.Nodes, float64(res.Nodes)/max(secs, 1e-9), describeScore(r, res.Score, mover))
}

// command carries out one line of input: a command or a move.
func (s *session[M, S]) command(ctx context.Context, line string) error {
	word, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch strings.ToLower(word) {
	case "":
		return nil
	case "help", "?":
		s.printf("%s%s", s.rules.help(), helpText)
	case "quit", "exit", "q":
		return errQuit
	case "display", "d":
		s.display()
	case "history", "h":
		s.history()
	case "fen":
		s.printf("%s\n", s.rules.fen(s.g))
	case "undo", "u":
		return s.undo()
	case "restart":
		s.restart()
		s.display()
	case "swap":
		s.human = s.human.Other()
		s.printf("You now play %s.\n", s.rules.sideName(s.human))
		s.display()
	case "hint":
		return s.hint(ctx)
	case "capture", "captured", "c":
		c, ok := s.rules.(capturer[S])
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
	m, err, illegal := s.rules.parseMove(s.g, text)
	if err != nil {
		if !illegal && !s.rules.looksLikeMove(text) {
			return fmt.Errorf("unknown command %q (type help for the commands)", text)
		}
		if illegal {
			return err // the message lists the candidates
		}
		return fmt.Errorf("%v\nlegal moves: %s", err, s.legalMoves())
	}
	s.last, s.figures = s.rules.formatMove(s.g, m), ""
	s.g.Make(m)
	s.display()
	return nil
}

// legalMoves lists the legal moves in notation, in natural order (numbers
// within the text compared as numbers: 9-13 before 10-14).
func (s *session[M, S]) legalMoves() string {
	var parts []string
	for _, m := range s.g.LegalMoves(nil) {
		parts = append(parts, s.rules.formatMove(s.g, m))
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
	s.printf("hint: %s (%s)\n", s.rules.formatMove(s.g, res.Move), describeScore(s.rules, res.Score, s.g.ToMove()))
	return nil
}

// describeScore says what a search score means for the side that was to
// move (search scores are from its point of view): a forced result and in
// how many plies, or the evaluation, whose side it favours and its unit.
func describeScore[M comparable, S search.Game[M]](r rules[M, S], score int, mover game.Player) string {
	side := r.sideName(mover)
	switch {
	case search.IsWin(score) && score > 0:
		return fmt.Sprintf("a forced win for %s in %d plies", side, search.Win-score)
	case search.IsWin(score):
		return fmt.Sprintf("a forced loss for %s in %d plies", side, search.Win+score)
	}
	return fmt.Sprintf("score %+d for %s: positive is good for %s, in %s", score, side, side, r.scoreUnit())
}

// save writes the game record to path.
func (s *session[M, S]) save(path string) (err error) {
	if path == "" {
		return errors.New("save needs a file name: save FILE")
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("save: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("save: %w", cerr)
		}
	}()
	first, second := "You", s.name
	if s.human != game.First {
		first, second = second, first
	}
	if err := s.rules.save(f, s.g, first, second); err != nil {
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
	g, err := s.rules.load(f)
	if err != nil {
		return fmt.Errorf("load %s: %w", path, err)
	}
	s.begin(g)
	s.printf("loaded %d moves from %s\n", g.Ply(), path)
	s.display()
	return nil
}

// history prints the moves so far.
func (s *session[M, S]) history() {
	if text := s.rules.history(s.g); text != "" {
		s.printf("%s\n", text)
		return
	}
	s.printf("no moves yet\n")
}

// describeOutcome words an outcome for a person.
func (s *session[M, S]) describeOutcome(o game.Outcome) string {
	switch o.Result {
	case game.FirstWins:
		return s.rules.sideName(game.First) + " wins, " + o.Reason.String()
	case game.SecondWins:
		return s.rules.sideName(game.Second) + " wins, " + o.Reason.String()
	}
	return "draw, " + o.Reason.String()
}

// display draws the board, then who is to move, the last move and the
// engine's figures.
func (s *session[M, S]) display() {
	s.printf("%s", s.rules.draw(s.g, s.ascii))
	line := fmt.Sprintf("%s to move", s.rules.sideName(s.g.ToMove()))
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
