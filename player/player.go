// Package player turns the player specifications of the command line and
// the configuration (SPEC: `random`, `material:D`, `mcts:N`, an agent
// file, ...; Forms lists them all) into players of a game. It is where
// search, nnet and the games meet; search itself stays game-independent.
package player

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"evolved/agent"
	"evolved/search"
)

// Spec is a parsed player specification: a name for tables and records,
// and a constructor of fresh, independent instances (one per concurrent
// game).
type Spec[M comparable, S search.Game[M]] struct {
	Name string
	New  func() search.Player[M, S]
	// Unit names the unit of the players' scores when it is not the
	// game's usual one (centipawns in chess and xiangqi): UnitWins for
	// MCTS, draughts' material and net units; "" otherwise.
	Unit string
}

// UnitWins is the unit of the scores of MCTS players: the win rate of the
// move, per mille.
const UnitWins = "per mille of wins"

// Constructors adapts a spec parser (ParseDraughts, ParseChess,
// ParseXiangqi) to one that returns just the constructor of players, as
// rating ladders and the daemon's ratings take it.
func Constructors[M comparable, S search.Game[M]](parse func(string) (Spec[M, S], error)) func(string) (func() search.Player[M, S], error) {
	return func(spec string) (func() search.Player[M, S], error) {
		p, err := parse(spec)
		return p.New, err
	}
}

// ErrSpec is wrapped by every error about a malformed player specification.
var ErrSpec = errors.New("player: bad player spec")

// Limits bounding what a spec may ask for, so that a typo cannot start a
// search that never ends.
const (
	maxDepth    = 30
	maxPlayouts = agent.MaxPlayouts
)

// parsed is a spec split into its kind and numeric argument.
type parsed struct {
	kind string
	arg  int
	rest string // what follows a second colon, for kinds that take more
}

// randomSpec is the spec of a player that plays uniformly random moves.
func randomSpec[M comparable, S search.Game[M]]() Spec[M, S] {
	return Spec[M, S]{Name: "random", New: func() search.Player[M, S] { return search.NewRandom[M, S]() }}
}

// alphaBetaSpec is the spec of an alpha-beta search on eval with opts,
// whose scores are in unit.
func alphaBetaSpec[M comparable, S search.Game[M]](spec, unit string, eval search.Evaluator[S], opts search.Options) Spec[M, S] {
	return Spec[M, S]{Name: spec, Unit: unit, New: func() search.Player[M, S] {
		return search.Searcher[M, S]{AlphaBeta: search.NewAlphaBeta[M, S](eval, opts)}
	}}
}

// mctsSpec is the spec of MCTS players with opts whose playouts eval
// scores through winRate.
func mctsSpec[M comparable, S search.Game[M]](name string, opts search.MCTSOptions, eval search.Evaluator[S], winRate func(int) float64) Spec[M, S] {
	return Spec[M, S]{Name: name, Unit: UnitWins, New: func() search.Player[M, S] {
		return search.NewMCTSPlayer(search.NewMCTS[M, S](opts, eval, winRate))
	}}
}

// mctsOptions returns the options of mcts:N (p.kind "mcts") or ept:N
// ("ept", MCTS with early playout termination).
func mctsOptions(p parsed) search.MCTSOptions {
	if p.kind == "ept" {
		return eptOptions(p.arg)
	}
	return search.MCTSOptions{Playouts: p.arg}
}

// parse splits "kind[:N[:rest]]" and checks N for the kinds that take one;
// game names the game whose parser calls it, for the error of an unknown
// kind.
func parse(spec, game string) (parsed, error) {
	kind, argText, hasArg := strings.Cut(strings.TrimSpace(spec), ":")
	p := parsed{kind: strings.ToLower(kind)}
	switch p.kind {
	case "random":
		if hasArg {
			return p, fmt.Errorf("%w %q: random takes no argument", ErrSpec, spec)
		}
		return p, nil
	case "material", "pst", "pesto", "mcts", "ept":
		if !hasArg {
			return p, fmt.Errorf("%w %q: %s needs a number, as in %s:4", ErrSpec, spec, p.kind, p.kind)
		}
		argText, p.rest, _ = strings.Cut(argText, ":")
		n, err := strconv.Atoi(argText)
		limit := maxPlayouts
		if p.kind == "material" || p.kind == "pst" || p.kind == "pesto" {
			limit = maxDepth
		}
		if err != nil || n < 1 || n > limit {
			return p, fmt.Errorf("%w %q: %s takes a whole number from 1 to %d", ErrSpec, spec, p.kind, limit)
		}
		p.arg = n
		return p, nil
	}
	return p, unknownPlayer(spec, game)
}
