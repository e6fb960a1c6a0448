package games

import (
	"context"
	"fmt"

	"evolved/distill"
	"evolved/game/chess"
	"evolved/game/draughts"
	"evolved/game/xiangqi"
	"evolved/nnet"
	"evolved/player"
	"evolved/search"
	"evolved/tournament"
)

// distillDepth bounds the depth of a distillation's searches, which their
// node budget ends first.
const distillDepth = 30

// distillTableBits sizes each distillation search's transposition table,
// cleared before every position: 2^16 entries hold a search of a few
// thousand nodes with room to spare, and clearing them costs little
// beside it.
const distillTableBits = 16

// FENScorer is a distillation's search of the position a FEN of the game
// gives: its value in pawns (chess, xiangqi) or the net's units
// (draughts), from the side to move's point of view. It is Kind.Scorer's
// search, the one the local distillation runs on its typed positions, so
// the value of a position's FEN is that position's value there, bit for
// bit. A FENScorer holds its search's tables and is not safe for
// concurrent use: each goroutine makes its own.
type FENScorer func(ctx context.Context, fen string) (float64, error)

// scorer returns a distillation's scorer: ab's value of a position, in
// pawns (chess, xiangqi) or the net's units (draughts, unit
// player.NetScale), from a cleared table under nodes nodes, the game made
// by newGame. Every search starts afresh, so a value depends only on the
// position, the net and nodes: not on the positions searched before.
func scorer[M comparable, S search.Game[M], P any](ab *search.AlphaBeta[M, S], nodes int64, unit float64, newGame func(P) S) func(context.Context, P) (float64, error) {
	return func(ctx context.Context, p P) (float64, error) {
		ab.Reset()
		ab.Limits(distillDepth, nodes, 0)
		res := ab.Search(ctx, newGame(p))
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		return float64(res.Score) / unit, nil
	}
}

// chessScorer returns a distillation's search of chess positions with
// net under nodes nodes: the one place that makes it, for the local fit
// (chessDistill) and, through a FEN, for the cluster's workers
// (Kind.Scorer).
func chessScorer(net *nnet.Net, nodes int64) (func(context.Context, chess.Position) (float64, error), error) {
	ab, err := player.ChessNetSearch(net, distillDepth, distillTableBits)
	if err != nil {
		return nil, err
	}
	return scorer(ab, nodes, 100, func(p chess.Position) *chess.Game {
		rules := chess.DefaultRules()
		rules.Chess960 = !p.ClassicalCastling()
		return chess.NewGame(p, rules)
	}), nil
}

// xiangqiScorer is chessScorer for xiangqi.
func xiangqiScorer(net *nnet.Net, nodes int64) (func(context.Context, xiangqi.Position) (float64, error), error) {
	ab, err := player.XiangqiNetSearch(net, distillDepth, distillTableBits)
	if err != nil {
		return nil, err
	}
	return scorer(ab, nodes, 100, func(p xiangqi.Position) *xiangqi.Game {
		return xiangqi.NewGame(p, xiangqi.DefaultRules())
	}), nil
}

// draughtsScorer is chessScorer for draughts, whose values are in the
// net's units.
func draughtsScorer(net *nnet.Net, nodes int64) (func(context.Context, draughts.Position) (float64, error), error) {
	ab, err := player.DraughtsNetSearch(net, distillDepth, distillTableBits)
	if err != nil {
		return nil, err
	}
	return scorer(ab, nodes, player.NetScale, func(p draughts.Position) *draughts.Game {
		return draughts.NewGame(p, draughts.DefaultRules())
	}), nil
}

// newScorer returns a fit's newScorer: a fresh search of searchOf's for
// each worker, or one that fails with the error searchOf returned (a net
// of the wrong game, say).
func newScorer[P any](searchOf func(*nnet.Net, int64) (func(context.Context, P) (float64, error), error), net *nnet.Net, nodes int64) func() func(context.Context, P) (float64, error) {
	return func() func(context.Context, P) (float64, error) {
		s, err := searchOf(net, nodes)
		if err != nil {
			return func(context.Context, P) (float64, error) { return 0, err }
		}
		return s
	}
}

// fenScorer returns a Kind's Scorer: searchOf's search of the position
// parse reads from a FEN.
func fenScorer[P any](searchOf func(*nnet.Net, int64) (func(context.Context, P) (float64, error), error), parse func(string) (P, error)) func(*nnet.Net, int64) (FENScorer, error) {
	return func(net *nnet.Net, nodes int64) (FENScorer, error) {
		s, err := searchOf(net, nodes)
		if err != nil {
			return nil, fmt.Errorf("games: distillation search: %w", err)
		}
		return func(ctx context.Context, fen string) (float64, error) {
			p, err := parse(fen)
			if err != nil {
				return 0, err
			}
			return s(ctx, p)
		}, nil
	}
}

// startsOf returns the start positions of games, read by position.
func startsOf[M comparable, P any](games []tournament.Record[M], position func(string) (P, error)) ([]P, error) {
	out := make([]P, len(games))
	for i, g := range games {
		var err error
		if out[i], err = position(g.Start); err != nil {
			return nil, fmt.Errorf("distill: game %d: %w", i, err)
		}
	}
	return out, nil
}

// chessDistill is chess's Kind.Distill: net's linear weights fitted to
// searches of nodes nodes with it, as its agents search, from the quiet
// positions of games (package distill).
func chessDistill(ctx context.Context, net *nnet.Net, games []tournament.Record[chess.Move], nodes int64, opts distill.Options) (*nnet.Net, distill.Report, error) {
	starts, err := startsOf(games, chessPosition)
	if err != nil {
		return nil, distill.Report{}, err
	}
	in := make([]distill.Game, len(games))
	for i, g := range games {
		in[i] = distill.Game{Start: starts[i], Moves: g.Moves, Result: g.Outcome.Result}
	}
	scorers := newScorer(chessScorer, net, nodes)
	return distill.Fit(ctx, net, in, func() distill.Scorer { return scorers() }, opts)
}

// xiangqiDistill is chessDistill for xiangqi.
func xiangqiDistill(ctx context.Context, net *nnet.Net, games []tournament.Record[xiangqi.Move], nodes int64, opts distill.Options) (*nnet.Net, distill.Report, error) {
	starts, err := startsOf(games, xiangqiPosition)
	if err != nil {
		return nil, distill.Report{}, err
	}
	in := make([]distill.XiangqiGame, len(games))
	for i, g := range games {
		in[i] = distill.XiangqiGame{Start: starts[i], Moves: g.Moves, Result: g.Outcome.Result}
	}
	scorers := newScorer(xiangqiScorer, net, nodes)
	return distill.FitXiangqi(ctx, net, in, func() distill.XiangqiScorer { return scorers() }, opts)
}

// draughtsDistill is draughts' Kind.Distill: the whole net fitted to
// searches of nodes nodes with it, as its agents search, from the quiet
// positions of games (distill.FitDraughts).
func draughtsDistill(ctx context.Context, net *nnet.Net, games []tournament.Record[draughts.Move], nodes int64, opts distill.Options) (*nnet.Net, distill.Report, error) {
	starts, err := startsOf(games, draughtsPosition)
	if err != nil {
		return nil, distill.Report{}, err
	}
	in := make([]distill.DraughtsGame, len(games))
	for i, g := range games {
		in[i] = distill.DraughtsGame{Start: starts[i], Moves: g.Moves, Result: g.Outcome.Result}
	}
	scorers := newScorer(draughtsScorer, net, nodes)
	return distill.FitDraughts(ctx, net, in, func() distill.DraughtsScorer { return scorers() }, opts)
}
