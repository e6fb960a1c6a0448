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

// scorer returns a distillation's scorer: ab's value of a position, in
// pawns (chess, xiangqi) or the net's units (draughts, unit
// player.NetScale), from a cleared table under nodes nodes, the game made
// by newGame.
func scorer[M comparable, S search.Game[M], P any](ab *search.AlphaBeta[M, S], err error, nodes int64, unit float64, newGame func(P) S) func(context.Context, P) (float64, error) {
	if err != nil {
		return func(context.Context, P) (float64, error) { return 0, err }
	}
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
	newScorer := func() distill.Scorer {
		ab, err := player.ChessNetSearch(net, distillDepth, distillTableBits)
		return scorer(ab, err, nodes, 100, func(p chess.Position) *chess.Game {
			rules := chess.DefaultRules()
			rules.Chess960 = !p.ClassicalCastling()
			return chess.NewGame(p, rules)
		})
	}
	return distill.Fit(ctx, net, in, newScorer, opts)
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
	newScorer := func() distill.XiangqiScorer {
		ab, err := player.XiangqiNetSearch(net, distillDepth, distillTableBits)
		return scorer(ab, err, nodes, 100, func(p xiangqi.Position) *xiangqi.Game {
			return xiangqi.NewGame(p, xiangqi.DefaultRules())
		})
	}
	return distill.FitXiangqi(ctx, net, in, newScorer, opts)
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
	newScorer := func() distill.DraughtsScorer {
		ab, err := player.DraughtsNetSearch(net, distillDepth, distillTableBits)
		return scorer(ab, err, nodes, player.NetScale, func(p draughts.Position) *draughts.Game {
			return draughts.NewGame(p, draughts.DefaultRules())
		})
	}
	return distill.FitDraughts(ctx, net, in, newScorer, opts)
}
