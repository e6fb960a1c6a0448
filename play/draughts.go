// Package play runs games between a person at a terminal and an engine:
// the board drawn after every move, moves typed in the game's own notation,
// and the commands a player expects (undo, hint, swap, save, load ...).
// Sessions read lines from an io.Reader and write to an io.Writer, so they
// work the same in a terminal, in tmux and in a pipe driven by a script.
package play

import (
	"context"
	"errors"
	"io"
	"strings"

	"evolved/game"
	"evolved/game/draughts"
	"evolved/player"
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
	// Record, if set, is a PDN file whose first game is replayed before play.
	Record string
}

// Draughts runs a draughts session until the person quits or the input
// ends. It returns nil then, and an error only if the input or output fails.
func Draughts(ctx context.Context, in io.Reader, out io.Writer, opts DraughtsOptions) error {
	s := newSession(draughtsRules{start: opts.Start, rules: opts.Rules}, opts.Engine, opts.Human, opts.ASCII, opts.Seed, opts.Record, in, out)
	return s.run(ctx, "English draughts")
}

// draughtsRules adapts English draughts to a session.
type draughtsRules struct {
	start draughts.Position
	rules draughts.Rules
}

func (r draughtsRules) newGame() *draughts.Game { return draughts.NewGame(r.start, r.rules) }

func (draughtsRules) draw(g *draughts.Game, ascii bool) string {
	return drawDraughts(g.Position(), ascii)
}

func (draughtsRules) sideName(p game.Player) string {
	if p == draughts.Black {
		return "Black"
	}
	return "White"
}

func (draughtsRules) formatMove(g *draughts.Game, m draughts.Move) string { return g.FormatMove(m) }

func (draughtsRules) parseMove(g *draughts.Game, text string) (draughts.Move, error, bool) {
	m, err := g.ParseMove(text)
	illegal := errors.Is(err, draughts.ErrIllegalMove) || errors.Is(err, draughts.ErrAmbiguousMove)
	return m, err, illegal
}

func (draughtsRules) looksLikeMove(text string) bool {
	return strings.ContainsAny(text, "-x0123456789")
}

func (draughtsRules) fen(g *draughts.Game) string { return g.Position().FEN() }

func (draughtsRules) history(g *draughts.Game) string {
	text, err := draughts.MoveText(g.Start(), g.Moves(nil))
	if err != nil {
		return ""
	}
	return text
}

func (draughtsRules) save(w io.Writer, g *draughts.Game, black, white string) error {
	return draughts.WritePDN(w, draughts.PDNGame{
		Tags:   []draughts.Tag{{Name: "Event", Value: "evolved play"}, {Name: "Black", Value: black}, {Name: "White", Value: white}},
		Start:  g.Start(),
		Moves:  g.Moves(nil),
		Result: draughts.ResultString(g.Outcome().Result),
	})
}

func (r draughtsRules) load(rd io.Reader) (*draughts.Game, error) {
	games, err := draughts.ReadPDN(rd)
	if err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, errors.New("no game in the file")
	}
	g := draughts.NewGame(games[0].Start, r.rules)
	for _, m := range games[0].Moves {
		g.Make(m)
	}
	return g, nil
}

func (draughtsRules) help() string {
	return "Moves: 11-15 (a step), 15x24 or 15x24x31 (captures, every landing square; the\nshort form 15x31 works when only one capture matches).\n"
}
