package player

import (
	"fmt"
	"time"

	"evolved/game"
	"evolved/game/chess"
	"evolved/game/draughts"
	"evolved/nnet"
	"evolved/population"
	"evolved/search"
	"evolved/tournament"
)

// DraughtsSetup is how the draughts population plays: the agents' search
// depth, the opening plies and the move limit.
type DraughtsSetup struct {
	// Depth is the agents' alpha-beta depth in plies; default 4.
	Depth int
	// Nodes, if positive, also ends each move's search after about this
	// many nodes: the search deepens one ply at a time up to Depth and
	// plays the best move of the last iteration it completed, so with a
	// high Depth the budget decides how deep it looks. Node counts, unlike
	// time, make the games reproducible.
	Nodes int64
	// OpeningPlies is the number of random plies opening each game; default 4.
	OpeningPlies int
	// MaxMoves draws a game once each side has made this many moves; default 100.
	MaxMoves int
}

// DraughtsSpecies returns the genetic algorithm's binding to English
// draughts.
func DraughtsSpecies(setup DraughtsSetup) population.Species[draughts.Move, *draughts.Game] {
	if setup.Depth <= 0 {
		setup.Depth = 4
	}
	if setup.OpeningPlies <= 0 {
		setup.OpeningPlies = 4
	}
	if setup.MaxMoves <= 0 {
		setup.MaxMoves = 100
	}
	arena := DraughtsArena(draughts.Rules{MaxMoves: setup.MaxMoves}, setup.OpeningPlies)
	return netSpecies(arena, nnet.NumDraughtsInputs, func(net *nnet.Net) (DraughtsSpec, error) {
		spec, err := DraughtsNet("agent", net, setup.Depth)
		return WithNodes(spec, setup.Nodes), err
	}, ParseDraughts)
}

// ChessSetup is how the chess population plays.
type ChessSetup struct {
	// Depth is the agents' alpha-beta depth before quiescence; default 2.
	Depth int
	// Nodes, if positive, also ends each move's search after about this
	// many nodes: the search deepens one ply at a time up to Depth and
	// plays the best move of the last iteration it completed, so with a
	// high Depth the budget decides how deep it looks. Node counts, unlike
	// time, make the games reproducible.
	Nodes int64
	// OpeningPlies is the number of random plies opening each game; default 4.
	OpeningPlies int
	// MaxMoves draws a game once each side has made this many moves; default 100.
	MaxMoves int
	// AdjudicateMaterial, if positive, ends a game as a win for the side
	// that is this many pawns ahead (classic values) with the side to move
	// not in check; the reason is stored as "adjudicated".
	AdjudicateMaterial int
	// Chess960 starts each game from a seeded random Chess960 arrangement.
	Chess960 bool
}

// ChessSpecies returns the genetic algorithm's binding to chess.
func ChessSpecies(setup ChessSetup) population.Species[chess.Move, *chess.Game] {
	if setup.Depth <= 0 {
		setup.Depth = 2
	}
	if setup.OpeningPlies <= 0 {
		setup.OpeningPlies = 4
	}
	if setup.MaxMoves <= 0 {
		setup.MaxMoves = 100
	}
	arena := ChessArena(chess.Rules{MaxMoves: setup.MaxMoves, FiftyMoveRule: true}, setup.OpeningPlies, setup.Chess960)
	if margin := setup.AdjudicateMaterial; margin > 0 {
		arena.Adjudicate = adjudicateMaterial(margin, (ChessMaterial{}).Balance)
	}
	return netSpecies(arena, nnet.NumChessInputs, func(net *nnet.Net) (ChessSpec, error) {
		spec, err := ChessNet("agent", net, setup.Depth)
		return WithNodes(spec, setup.Nodes), err
	}, ParseChess)
}

// WithNodes returns spec whose players also end each move's search after
// about nodes nodes (see ChessSetup.Nodes), if nodes is positive and the
// players take limits (alpha-beta searchers do); spec itself otherwise. A
// clock given to a player later (a timed match) replaces the budget.
func WithNodes[M comparable, S search.Game[M]](spec Spec[M, S], nodes int64) Spec[M, S] {
	if nodes <= 0 || spec.New == nil {
		return spec
	}
	inner := spec.New
	spec.New = func() search.Player[M, S] {
		p := inner()
		if l, ok := p.(limiter); ok {
			l.Limits(0, nodes, 0)
		}
		return p
	}
	return spec
}

// limiter is a player whose search limits can be set: search.Searcher.
type limiter interface {
	Limits(depth int, nodes int64, t time.Duration)
}

// netSpecies binds a game's arena, its net players (agent) and its player
// specs (parse, for the baselines) into the genetic algorithm's species.
func netSpecies[M comparable, S search.Game[M]](arena tournament.Arena[M, S], inputs int,
	agent func(*nnet.Net) (Spec[M, S], error), parse func(string) (Spec[M, S], error)) population.Species[M, S] {
	return population.Species[M, S]{
		Arena: arena,
		Player: func(net *nnet.Net) (func() search.Player[M, S], error) {
			spec, err := agent(net)
			if err != nil {
				return nil, err
			}
			return spec.New, nil
		},
		Baseline: func(s string) (func() search.Player[M, S], error) {
			spec, err := parse(s)
			if err != nil {
				return nil, fmt.Errorf("baseline: %w", err)
			}
			return spec.New, nil
		},
		Inputs: inputs,
	}
}

// adjudicateMaterial ends a game, with the side to move not in check, as a
// win for the side whose lead by material (centipawns from the side to
// move's view, by lead) is at least margin*100.
func adjudicateMaterial[S interface {
	InCheck() bool
	ToMove() game.Player
}](margin int, lead func(S) int) func(S) (game.Outcome, bool) {
	return func(g S) (game.Outcome, bool) {
		if g.InCheck() {
			return game.Outcome{}, false
		}
		switch l := lead(g); {
		case l >= 100*margin:
			return game.Outcome{Result: game.WinFor(g.ToMove()), Reason: game.Adjudicated}, true
		case l <= -100*margin:
			return game.Outcome{Result: game.WinFor(g.ToMove().Other()), Reason: game.Adjudicated}, true
		}
		return game.Outcome{}, false
	}
}
