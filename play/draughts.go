// Package play runs games between a person at a terminal and an engine:
// the board drawn after every move, moves typed in the game's own notation,
// and the commands a player expects (undo, hint, swap, save, load ...).
// Sessions read lines from an io.Reader and write to an io.Writer, so they
// work the same in a terminal, in tmux and in a pipe driven by a script.
package play

import (
	"context"
	"errors"
	"fmt"
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

func (draughtsRules) scoreUnit() string {
	return "the engine's units (material: 100 a man; a net: 10000 its full output; MCTS: per mille of wins)"
}

// parseMove reads a move in square numbers (11-15, 15x24x31) or in the
// board's coordinates (c3-d4, e3xg5xe7, or c3d4). A move that cannot be
// played gets the same message however it was typed: what is wrong, then
// the session's sorted list of legal moves; only an ambiguous short
// capture lists its candidates instead.
func (draughtsRules) parseMove(g *draughts.Game, text string) (draughts.Move, error, bool) {
	numbers, err := squareNumbers(text)
	if err != nil {
		return draughts.NoMove, err, false
	}
	m, err := g.ParseMove(numbers)
	switch {
	case errors.Is(err, draughts.ErrAmbiguousMove):
		return m, err, true
	case errors.Is(err, draughts.ErrIllegalMove):
		if numbers != text {
			return m, fmt.Errorf("%s (%s) is not a legal move here", text, numbers), false
		}
		return m, fmt.Errorf("%s is not a legal move here", text), false
	}
	return m, err, false
}

// squareNumbers rewrites a move typed in the board's coordinates into
// square numbers, as the board labels them: files a-h left to right, ranks
// 8 (top, Black's side) to 1, square 1 on b8 and 32 on g1. Text without a
// coordinate is returned unchanged. "c3d4" (no separator) is a step or a
// capture from c3 to d4.
func squareNumbers(text string) (string, error) {
	if !strings.ContainsAny(strings.ToLower(text), "abcdefgh") {
		return text, nil
	}
	t := strings.ToLower(strings.TrimSpace(text))
	if len(t) == 4 && !strings.ContainsAny(t, "-x:") {
		t = t[:2] + "-" + t[2:]
	}
	var b strings.Builder
	for i := 0; i < len(t); {
		switch c := t[i]; {
		case c == '-' || c == 'x' || c == ':':
			b.WriteByte(c)
			i++
		case c >= 'a' && c <= 'h' && i+1 < len(t) && t[i+1] >= '1' && t[i+1] <= '8':
			col, row := int(c-'a'), 8-int(t[i+1]-'0')
			if (row+col)%2 == 0 {
				return "", fmt.Errorf("%s is a light square: draughts is played on the dark squares", t[i:i+2])
			}
			fmt.Fprintf(&b, "%d", row*4+col/2+1)
			i += 2
		default:
			return "", fmt.Errorf("cannot read %q: write a move as square numbers (11-15, 15x24) or coordinates (c3-d4, e3xg5)", text)
		}
	}
	return b.String(), nil
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
	return "Moves: 11-15 (a step), 15x24 or 15x24x31 (captures, every landing square; the\nshort form 15x31 works when only one capture matches), in square numbers or\nin the board's coordinates: c3-d4, e3xg5xe7, or c3d4.\n"
}
