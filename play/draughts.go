// Package play runs games between a person at a terminal and an engine:
// the board drawn after every move, moves typed in the game's own notation,
// and the commands a player expects (undo, hint, swap, save, load ...).
// Sessions read lines from an io.Reader and write to an io.Writer, so they
// work the same in a terminal, in tmux and in a pipe driven by a script.
package play

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"evolved/game"
	"evolved/game/draughts"
	"evolved/player"
	"evolved/search"
)

// DraughtsOptions configures a draughts session.
type DraughtsOptions struct {
	// Engine is the computer's player.
	Engine player.DraughtsSpec
	// Human is the side the person plays; the engine plays the other.
	Human game.Player
	// Start is the start position (draughts.Start() for a normal game).
	Start draughts.Position
	// Rules are the game's end rules.
	Rules draughts.Rules
	// ASCII draws pieces as letters instead of Unicode symbols.
	ASCII bool
	// Seed seeds the engine's random choices (MCTS players).
	Seed uint64
}

// session is a running draughts game with a person.
type session struct {
	opts    DraughtsOptions
	g       *draughts.Game
	engine  search.Player[draughts.Move, *draughts.Game]
	in      *bufio.Scanner
	out     io.Writer
	human   game.Player
	last    string // the last move, in notation
	figures string // the engine's last search figures
	games   int    // games started, for the engine's seed
}

// errQuit ends a session at the person's request.
var errQuit = errors.New("quit")

// Draughts runs a session until the person quits or the input ends. It
// returns nil then, and an error only if the input or output fails.
func Draughts(ctx context.Context, in io.Reader, out io.Writer, opts DraughtsOptions) error {
	s := &session{opts: opts, in: bufio.NewScanner(in), out: out, human: opts.Human}
	s.restart(opts.Start)
	s.printf("evolved: English draughts against %s. You play %s. Type help for the commands.\n", opts.Engine.Name, sideName(s.human))
	s.display()
	for {
		if err := ctx.Err(); err != nil {
			return nil
		}
		if o := s.g.Outcome(); o.Over() {
			s.printf("Game over: %s. Type restart, undo, save FILE or quit.\n", describeOutcome(o))
		} else if s.g.ToMove() != s.human {
			s.engineMove(ctx)
			continue
		}
		s.printf("%s> ", sideName(s.g.ToMove()))
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

// restart starts a new game from start.
func (s *session) restart(start draughts.Position) {
	s.g = draughts.NewGame(start, s.opts.Rules)
	s.engine = s.opts.Engine.New()
	s.engine.NewGame(s.opts.Seed + uint64(s.games))
	s.games++
	s.last, s.figures = "", ""
}

// printf writes to the session's output.
func (s *session) printf(format string, args ...any) { fmt.Fprintf(s.out, format, args...) }

// engineMove lets the engine play.
func (s *session) engineMove(ctx context.Context) {
	start := time.Now()
	res, err := s.engine.Move(ctx, s.g)
	if err != nil {
		s.printf("engine: %v\n", err)
		return
	}
	secs := time.Since(start).Seconds()
	s.last = s.g.FormatMove(res.Move)
	s.figures = fmt.Sprintf("depth %d, %d nodes, %.0f nodes/s, score %+d (for %s)",
		res.Depth, res.Nodes, float64(res.Nodes)/max(secs, 1e-9), res.Score, sideName(s.g.ToMove()))
	s.g.Make(res.Move)
	s.display()
}

// command carries out one line of input: a command or a move.
func (s *session) command(ctx context.Context, line string) error {
	word, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch strings.ToLower(word) {
	case "":
		return nil
	case "help", "?":
		s.printf("%s", helpText)
	case "quit", "exit", "q":
		return errQuit
	case "display", "d":
		s.display()
	case "history", "h":
		s.history()
	case "fen":
		s.printf("%s\n", s.g.Position().FEN())
	case "undo", "u":
		return s.undo()
	case "restart":
		s.restart(s.opts.Start)
		s.display()
	case "swap":
		s.human = s.human.Other()
		s.printf("You now play %s.\n", sideName(s.human))
		s.display()
	case "hint":
		return s.hint(ctx)
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
func (s *session) move(text string) error {
	if o := s.g.Outcome(); o.Over() {
		return fmt.Errorf("the game is over (%s)", describeOutcome(o))
	}
	m, err := s.g.ParseMove(text)
	if err != nil {
		if errors.Is(err, draughts.ErrSyntax) && !strings.ContainsAny(text, "-x0123456789") {
			return fmt.Errorf("unknown command %q (type help for the commands)", text)
		}
		if errors.Is(err, draughts.ErrIllegalMove) || errors.Is(err, draughts.ErrAmbiguousMove) {
			return err // the message lists the legal moves or the candidates
		}
		return fmt.Errorf("%v\nlegal moves: %s", err, s.legalMoves())
	}
	s.last, s.figures = s.g.FormatMove(m), ""
	s.g.Make(m)
	s.display()
	return nil
}

// legalMoves lists the legal moves in notation.
func (s *session) legalMoves() string {
	var parts []string
	for _, m := range s.g.LegalMoves(nil) {
		parts = append(parts, s.g.FormatMove(m))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}

// undo takes back moves until it is the person's turn again.
func (s *session) undo() error {
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
func (s *session) hint(ctx context.Context) error {
	if s.g.Outcome().Over() {
		return errors.New("the game is over")
	}
	adviser := s.opts.Engine.New()
	adviser.NewGame(s.opts.Seed)
	res, err := adviser.Move(ctx, s.g)
	if err != nil {
		return fmt.Errorf("hint: %w", err)
	}
	s.printf("hint: %s (score %+d)\n", s.g.FormatMove(res.Move), res.Score)
	return nil
}

// save writes the game as PDN.
func (s *session) save(path string) (err error) {
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
	black, white := "You", s.opts.Engine.Name
	if s.human == draughts.White {
		black, white = white, black
	}
	pdn := draughts.PDNGame{
		Tags:   []draughts.Tag{{Name: "Event", Value: "evolved play"}, {Name: "Black", Value: black}, {Name: "White", Value: white}},
		Start:  s.g.Start(),
		Moves:  s.g.Moves(nil),
		Result: draughts.ResultString(s.g.Outcome().Result),
	}
	if err := draughts.WritePDN(f, pdn); err != nil {
		return fmt.Errorf("save: %w", err)
	}
	s.printf("saved %d moves to %s\n", len(pdn.Moves), path)
	return nil
}

// load replays the first game of a PDN file.
func (s *session) load(path string) error {
	if path == "" {
		return errors.New("load needs a file name: load FILE")
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	defer f.Close()
	games, err := draughts.ReadPDN(f)
	if err != nil {
		return fmt.Errorf("load %s: %w", path, err)
	}
	if len(games) == 0 {
		return fmt.Errorf("load %s: no game in the file", path)
	}
	s.restart(games[0].Start)
	for _, m := range games[0].Moves {
		s.last = s.g.FormatMove(m)
		s.g.Make(m)
	}
	s.printf("loaded %d moves from %s\n", len(games[0].Moves), path)
	s.display()
	return nil
}

// history prints the moves so far as numbered PDN move text.
func (s *session) history() {
	text, err := draughts.MoveText(s.g.Start(), s.g.Moves(nil))
	if err != nil || text == "" {
		s.printf("no moves yet\n")
		return
	}
	s.printf("%s\n", text)
}

// describeOutcome words an outcome for a person.
func describeOutcome(o game.Outcome) string {
	switch o.Result {
	case game.FirstWins:
		return "Black wins, " + o.Reason.String()
	case game.SecondWins:
		return "White wins, " + o.Reason.String()
	}
	return "draw, " + o.Reason.String()
}

// sideName names a draughts side.
func sideName(p game.Player) string {
	if p == draughts.Black {
		return "Black"
	}
	return "White"
}

const helpText = `Moves: 11-15 (a step), 15x24 or 15x24x31 (captures, every landing square; the
short form 15x31 works when only one capture matches).
Commands:
  help        this text
  display     draw the board again
  history     the moves so far
  undo        take back your last move (and the engine's reply)
  restart     start a new game
  swap        change sides (the engine then plays for the side to move)
  hint        what the engine would play for you
  save FILE   write the game as PDN
  load FILE   replay the first game of a PDN file
  fen         the position as a PDN FEN
  quit        leave
`
