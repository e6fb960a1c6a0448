package games

import (
	"context"
	"fmt"

	"evolved/distill"
	"evolved/game/chess"
	"evolved/game/xiangqi"
	"evolved/nnet"
	"evolved/player"
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

// chessDistill fits net's linear weights to searches of nodes nodes with
// it from the quiet positions of games (package distill), workers
// positions at once.
func chessDistill(ctx context.Context, net *nnet.Net, games []tournament.Record[chess.Move], nodes int64, workers int) (*nnet.Net, distill.Report, error) {
	return ChessDistill(ctx, net, games, nodes, distill.Options{Workers: workers})
}

// ChessDistill is chess's Kind.Distill with the fit's other options
// (steps, rate, progress): what evolved distill runs.
func ChessDistill(ctx context.Context, net *nnet.Net, games []tournament.Record[chess.Move], nodes int64, opts distill.Options) (*nnet.Net, distill.Report, error) {
	in := make([]distill.Game, len(games))
	for i, g := range games {
		start, err := chessPosition(g.Start)
		if err != nil {
			return nil, distill.Report{}, fmt.Errorf("distill: game %d: %w", i, err)
		}
		in[i] = distill.Game{Start: start, Moves: g.Moves}
	}
	newScorer := func() distill.Scorer {
		ab, err := player.ChessNetSearch(net, distillDepth, distillTableBits)
		if err != nil {
			return func(context.Context, chess.Position) (float64, error) { return 0, err }
		}
		return func(ctx context.Context, p chess.Position) (float64, error) {
			rules := chess.DefaultRules()
			rules.Chess960 = !p.ClassicalCastling()
			ab.Reset()
			ab.Limits(distillDepth, nodes, 0)
			res := ab.Search(ctx, chess.NewGame(p, rules))
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			return float64(res.Score) / 100, nil
		}
	}
	return distill.Fit(ctx, net, in, newScorer, opts)
}

// xiangqiDistill is chess's distillation for xiangqi: net's linear weights
// fitted to searches of nodes nodes with it, as its agents search, from
// the quiet positions of games.
func xiangqiDistill(ctx context.Context, net *nnet.Net, games []tournament.Record[xiangqi.Move], nodes int64, workers int) (*nnet.Net, distill.Report, error) {
	return XiangqiDistill(ctx, net, games, nodes, distill.Options{Workers: workers})
}

// XiangqiDistill is xiangqi's Kind.Distill with the fit's other options.
func XiangqiDistill(ctx context.Context, net *nnet.Net, games []tournament.Record[xiangqi.Move], nodes int64, opts distill.Options) (*nnet.Net, distill.Report, error) {
	in := make([]distill.XiangqiGame, len(games))
	for i, g := range games {
		start, err := xiangqiPosition(g.Start)
		if err != nil {
			return nil, distill.Report{}, fmt.Errorf("distill: game %d: %w", i, err)
		}
		in[i] = distill.XiangqiGame{Start: start, Moves: g.Moves}
	}
	newScorer := func() distill.XiangqiScorer {
		ab, err := player.XiangqiNetSearch(net, distillDepth, distillTableBits)
		if err != nil {
			return func(context.Context, xiangqi.Position) (float64, error) { return 0, err }
		}
		return func(ctx context.Context, p xiangqi.Position) (float64, error) {
			ab.Reset()
			ab.Limits(distillDepth, nodes, 0)
			res := ab.Search(ctx, xiangqi.NewGame(p, xiangqi.DefaultRules()))
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			return float64(res.Score) / 100, nil
		}
	}
	return distill.FitXiangqi(ctx, net, in, newScorer, opts)
}
