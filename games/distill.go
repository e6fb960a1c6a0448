package games

import (
	"context"
	"fmt"

	"evolved/distill"
	"evolved/game"
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
// (Kind.Distill) and, through a FEN, for the cluster's workers
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

// distillOf is a Kind.Distill: net's weights fitted by fit to searches of
// nodes nodes with it (searchOf's, as its agents search) from the quiet
// positions of games, each handed to fit as input makes it from its start
// (read by position), moves and result.
func distillOf[M comparable, P, G any, S ~func(context.Context, P) (float64, error)](
	position func(string) (P, error),
	input func(start P, moves []M, result game.Result) G,
	searchOf func(*nnet.Net, int64) (func(context.Context, P) (float64, error), error),
	fit func(context.Context, *nnet.Net, []G, func() S, distill.Options) (*nnet.Net, distill.Report, error),
) func(context.Context, *nnet.Net, []tournament.Record[M], int64, distill.Options) (*nnet.Net, distill.Report, error) {
	return func(ctx context.Context, net *nnet.Net, games []tournament.Record[M], nodes int64, opts distill.Options) (*nnet.Net, distill.Report, error) {
		in := make([]G, len(games))
		for i, g := range games {
			start, err := position(g.Start)
			if err != nil {
				return nil, distill.Report{}, fmt.Errorf("distill: game %d: %w", i, err)
			}
			in[i] = input(start, g.Moves, g.Outcome.Result)
		}
		scorers := newScorer(searchOf, net, nodes)
		return fit(ctx, net, in, func() S { return scorers() }, opts)
	}
}
