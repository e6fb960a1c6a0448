package player

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"evolved/game"
	"evolved/game/chess"
	"evolved/game/xiangqi"
	"evolved/search"
	"evolved/uci"
)

// uciRules is what the UCI player needs of a game: the start position and
// moves as the engine reads them, how to read the engine's move, and the
// options the game needs set on the engine.
type uciRules[M comparable, S search.Game[M]] interface {
	// position returns the start FEN, the moves played since in the
	// engine's notation, and the engine options the game needs (a variant,
	// Chess960).
	position(s S) (fen string, moves []string, options map[string]string)
	// parse reads the engine's move in the current position.
	parse(s S, text string) (M, error)
}

// uciPlayer plays the moves of an external engine. It starts the engine on
// first use and keeps it for the games that follow, restarting it when the
// options the game needs change; Close shuts it down.
type uciPlayer[M comparable, S search.Game[M]] struct {
	rules   uciRules[M, S]
	path    string
	options map[string]string // the spec's options
	limits  uci.Limits
	engine  *uci.Engine
	started map[string]string // the game options the running engine has
	// clock is set by SetClock in timed games: mine, theirs and the increment.
	clock [3]time.Duration
}

// parseUCI reads uci:PATH[:name=value...]; the pseudo-options depth=N,
// nodes=N and movetime=MS set the search limit (default movetime 100 ms),
// every other pair is an engine option.
func parseUCI[M comparable, S search.Game[M]](spec, rest string, rules uciRules[M, S]) (*uciPlayer[M, S], error) {
	parts := strings.Split(rest, ":")
	if parts[0] == "" {
		return nil, fmt.Errorf("%w %q: uci needs the engine's path, as in uci:/usr/games/stockfish", ErrSpec, spec)
	}
	p := &uciPlayer[M, S]{rules: rules, path: parts[0], options: map[string]string{}}
	for _, kv := range parts[1:] {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("%w %q: %q is not name=value", ErrSpec, spec, kv)
		}
		n, numErr := strconv.Atoi(value)
		switch strings.ToLower(name) {
		case "depth":
			p.limits.Depth = n
		case "nodes":
			p.limits.Nodes = int64(n)
		case "movetime":
			p.limits.MoveTime = time.Duration(n) * time.Millisecond
		default:
			p.options[name] = value
			continue
		}
		if numErr != nil || n < 1 {
			return nil, fmt.Errorf("%w %q: %s takes a positive whole number", ErrSpec, spec, name)
		}
	}
	return p, nil
}

// clone returns a fresh player with the same settings and no engine.
func (u *uciPlayer[M, S]) clone() *uciPlayer[M, S] {
	return &uciPlayer[M, S]{rules: u.rules, path: u.path, options: maps.Clone(u.options), limits: u.limits}
}

// EngineLimits replaces the spec's limit for the searches that follow: a
// depth, a node count or a move time, the first non-zero of them (all
// zero: 100 ms a move). It is not named Limits, the alpha-beta searchers'
// method, so that WithNodes, which gives those a node budget, leaves an
// engine at the limit its spec names; `evolved suite` calls it.
func (u *uciPlayer[M, S]) EngineLimits(depth int, nodes int64, movetime time.Duration) {
	u.limits = uci.Limits{Depth: depth, Nodes: nodes, MoveTime: movetime}
}

// SetClock hands the engine its clock for the next move (timed games).
func (u *uciPlayer[M, S]) SetClock(mine, theirs, inc time.Duration) {
	u.clock = [3]time.Duration{mine, theirs, inc}
}

// NewGame tells a running engine that a game begins. A failure here shows
// in the next Move, which starts the engine afresh.
func (u *uciPlayer[M, S]) NewGame(uint64) {
	if u.engine != nil {
		if err := u.engine.NewGame(context.Background()); err != nil {
			u.engine.Close()
			u.engine = nil
		}
	}
}

// Prepare starts the engine for the game s is in, unless it runs with the
// options that game needs, and waits until it answers isready: the
// tournament calls it before the clock starts, so that an engine's start-up
// and any work left from its last command are not charged to its clock.
func (u *uciPlayer[M, S]) Prepare(ctx context.Context, s S) error {
	_, _, gameOptions := u.rules.position(s)
	if u.engine != nil && maps.Equal(gameOptions, u.started) {
		return u.engine.Ready(ctx)
	}
	if u.engine != nil {
		u.engine.Close()
		u.engine = nil
	}
	opts := maps.Clone(u.options)
	maps.Copy(opts, gameOptions)
	e, err := uci.Start(ctx, u.path, opts) // the handshake ends with isready
	if err != nil {
		return err
	}
	u.engine, u.started = e, gameOptions
	return nil
}

// Move asks the engine for its move in the current position, starting the
// engine first when Prepare has not. The result's Depth and Nodes are what
// the engine's last info line said (zero if it said nothing).
func (u *uciPlayer[M, S]) Move(ctx context.Context, s S) (search.Result[M], error) {
	fen, moves, gameOptions := u.rules.position(s)
	if u.engine == nil || !maps.Equal(gameOptions, u.started) {
		if err := u.Prepare(ctx, s); err != nil {
			return search.Result[M]{}, err
		}
	}
	limits := u.limits
	if mine, theirs, inc := u.clock[0], u.clock[1], u.clock[2]; mine > 0 {
		limits = uci.Limits{WTime: mine, BTime: theirs, WInc: inc, BInc: inc}
		if s.ToMove() == game.Second {
			limits.WTime, limits.BTime = theirs, mine
		}
	}
	reply, err := u.engine.Go(ctx, fen, moves, limits)
	if err != nil {
		return search.Result[M]{}, err
	}
	m, err := u.rules.parse(s, reply.Move)
	if err != nil {
		return search.Result[M]{}, fmt.Errorf("%s played %q: %w", u.engine.Name(), reply.Move, err)
	}
	return search.Result[M]{Move: m, Depth: reply.Depth, Nodes: reply.Nodes}, nil
}

// Close shuts the engine down.
func (u *uciPlayer[M, S]) Close() error {
	if u.engine == nil {
		return nil
	}
	err := u.engine.Close()
	u.engine = nil
	return err
}

// chessUCI speaks chess to a UCI engine, setting UCI_Chess960 for games
// that start from an arrangement without classical castling.
type chessUCI struct{}

func (chessUCI) position(g *chess.Game) (string, []string, map[string]string) {
	start := g.Start()
	chess960 := !start.ClassicalCastling()
	moves := g.Moves(nil)
	texts := make([]string, len(moves))
	pos := start
	for i, m := range moves {
		texts[i] = pos.FormatUCI(m, chess960)
		pos = pos.Play(m)
	}
	opts := map[string]string{}
	if chess960 {
		opts["UCI_Chess960"] = "true"
	}
	return start.FEN(), texts, opts
}

func (chessUCI) parse(g *chess.Game, text string) (chess.Move, error) {
	start := g.Start()
	p := g.Position()
	return p.ParseUCI(text, !start.ClassicalCastling())
}

// xiangqiUCI speaks xiangqi to a UCI engine that knows UCI_Variant
// xiangqi, such as Fairy-Stockfish.
type xiangqiUCI struct{}

func (xiangqiUCI) position(g *xiangqi.Game) (string, []string, map[string]string) {
	moves := g.Moves(nil)
	texts := make([]string, len(moves))
	for i, m := range moves {
		texts[i] = m.String()
	}
	return g.Start().FEN(), texts, map[string]string{"UCI_Variant": "xiangqi"}
}

func (xiangqiUCI) parse(g *xiangqi.Game, text string) (xiangqi.Move, error) {
	p := g.Position()
	return p.ParseUCI(text)
}
