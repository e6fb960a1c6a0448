package games

import (
	"io"
	"strings"

	"evolved/distill"
	"evolved/game"
	"evolved/game/xiangqi"
	"evolved/nnet"
	"evolved/player"
	"evolved/positions"
	"evolved/tournament"
)

// Xiangqi returns xiangqi (Chinese chess): Red moves first, PGN records
// with moves in coordinates, the classic program's players beside the
// material ones, and the nets with evolved piece values, tables and terms.
func Xiangqi() Kind[xiangqi.Move, *xiangqi.Game] {
	newGame := newGameOf(xiangqiPosition, func(pos xiangqi.Position, s Setup) *xiangqi.Game {
		return xiangqi.NewGame(pos, xiangqi.Rules{MaxMoves: s.MaxMoves})
	})
	return Kind[xiangqi.Move, *xiangqi.Game]{
		Name:         XiangqiName,
		Sides:        [2]string{"red", "black"},
		RecordTags:   [2]string{"White", "Black"},
		RecordExts:   []string{".pgn"},
		Inputs:       nnet.NumXiangqiInputs,
		DefaultDepth: 2,
		Parse:        player.ParseXiangqi,
		Net:          player.XiangqiNet,
		NetEPT:       player.XiangqiNetEPT,
		NewGame:      newGame,
		FEN:          func(g *xiangqi.Game) string { return g.Position().FEN() },
		Pack:         func(g *xiangqi.Game) positions.Packed { return positions.PackXiangqi(g.Current()) },
		Train:        distill.TrainXiangqi,
		PackMove:     positions.PackXiangqiMove,
		Position: func(line string) (string, error) {
			p, err := xiangqi.ParseFEN(line)
			return p.FEN(), err
		},
		Arena: func(s Setup) tournament.Arena[xiangqi.Move, *xiangqi.Game] {
			start := xiangqi.Start()
			a := tournament.Arena[xiangqi.Move, *xiangqi.Game]{
				Name:         XiangqiName,
				NewGame:      func() *xiangqi.Game { return xiangqi.NewGame(start, xiangqi.Rules{MaxMoves: s.MaxMoves}) },
				OpeningPlies: s.OpeningPlies,
			}
			if margin := s.AdjudicateMaterial; margin > 0 {
				a.Adjudicate = adjudicateMaterial(margin, player.XiangqiMaterial{}.Evaluate)
			}
			return a
		},
		MoveText: moveTextOf(xiangqiPosition, xiangqi.MoveText),
		ReadRecords: readRecordsOf(xiangqi.ReadRecords, func(rec xiangqi.Record) Record[xiangqi.Move] {
			outcome, _ := game.ParseTag(rec.Result)
			return Record[xiangqi.Move]{Tags: rec.Tags, Start: rec.Start.FEN(), Moves: rec.Moves, Result: rec.Result, Outcome: outcome}
		}),
		WriteRecord: writeRecordOf(xiangqiPosition, func(w io.Writer, start xiangqi.Position, rec Record[xiangqi.Move]) error {
			return xiangqi.WriteRecord(w, xiangqi.Record{Tags: rec.Tags, Start: start, Moves: rec.Moves, Result: rec.Result})
		}),
		ResultTag: xiangqi.ResultString,
		Perft:     perftOf(xiangqiPosition, xiangqi.Perft),
		Divide: divideOf(xiangqiPosition, xiangqi.Divide, func(p xiangqi.Position, m xiangqi.Move) string {
			return p.FormatUCI(m)
		}),
		Distill: distillOf(xiangqiPosition, func(start xiangqi.Position, moves []xiangqi.Move, r game.Result) distill.XiangqiGame {
			return distill.XiangqiGame{Start: start, Moves: moves, Result: r}
		}, xiangqiScorer, distill.FitXiangqi),
		Scorer: fenScorer(xiangqiScorer, xiangqi.ParseFEN),
		DescribeNet: func(w io.Writer, n *nnet.Net) error {
			var b strings.Builder
			writeValues(&b, []string{"advisor", "elephant", "horse", "chariot", "cannon", "soldier"}, n.XiangqiPieceValues())
			names, units, weights, k := nnet.XiangqiTermNames(), nnet.XiangqiTermUnits(), n.XiangqiTerms(), n.TermCount()
			writeTerms(&b, names[:k], units[:k], weights[:k])
			_, err := io.WriteString(w, b.String())
			return err
		},
	}
}

// xiangqiPosition reads fen, the start position when fen is "".
func xiangqiPosition(fen string) (xiangqi.Position, error) {
	return positionOr(fen, xiangqi.Start, xiangqi.ParseFEN)
}
