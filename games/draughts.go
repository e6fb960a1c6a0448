package games

import (
	"fmt"
	"io"

	"evolved/distill"
	"evolved/game"
	"evolved/game/draughts"
	"evolved/nnet"
	"evolved/player"
	"evolved/tournament"
)

// Draughts returns English draughts (checkers) on the 8x8 board: Black
// moves first, men 100 and kings 150 for material:D, PDN records, and the
// Blondie24 nets.
func Draughts() Kind[draughts.Move, *draughts.Game] {
	newGame := newGameOf(draughtsPosition, func(pos draughts.Position, s Setup) *draughts.Game {
		return draughts.NewGame(pos, draughts.Rules{MaxMoves: s.MaxMoves})
	})
	return Kind[draughts.Move, *draughts.Game]{
		Name:         DraughtsName,
		Sides:        [2]string{"black", "white"},
		RecordTags:   [2]string{"Black", "White"},
		RecordExts:   []string{".pdn", ".pgn"},
		Inputs:       nnet.NumDraughtsInputs,
		DefaultDepth: 4,
		Parse:        player.ParseDraughts,
		Net:          player.DraughtsNet,
		NetEPT:       player.DraughtsNetEPT,
		NewGame:      newGame,
		FEN:          func(g *draughts.Game) string { return g.Position().FEN() },
		Position: func(line string) (string, error) {
			p, err := draughts.ParseFEN(line)
			return p.FEN(), err
		},
		Arena: func(s Setup) tournament.Arena[draughts.Move, *draughts.Game] {
			start := draughts.Start()
			return tournament.Arena[draughts.Move, *draughts.Game]{
				Name:         DraughtsName,
				NewGame:      func() *draughts.Game { return draughts.NewGame(start, draughts.Rules{MaxMoves: s.MaxMoves}) },
				OpeningPlies: s.OpeningPlies,
			}
		},
		MoveText: moveTextOf(draughtsPosition, draughts.MoveText),
		ReadRecords: readRecordsOf(draughts.ReadPDN, func(g draughts.PDNGame) Record[draughts.Move] {
			outcome, _ := draughts.ParseResult(g.Result)
			return Record[draughts.Move]{Tags: tagPairs(g.Tags), Start: g.Start.FEN(), Moves: g.Moves, Result: g.Result, Outcome: outcome}
		}),
		WriteRecord: writeRecordOf(draughtsPosition, func(w io.Writer, start draughts.Position, rec Record[draughts.Move]) error {
			return draughts.WritePDN(w, draughts.PDNGame{Tags: pgnTags(rec.Tags), Start: start, Moves: rec.Moves, Result: rec.Result})
		}),
		ResultTag: draughts.ResultString,
		// The whole net fitted (distill.FitDraughts).
		Distill: distillOf(draughtsPosition, func(start draughts.Position, moves []draughts.Move, r game.Result) distill.DraughtsGame {
			return distill.DraughtsGame{Start: start, Moves: moves, Result: r}
		}, draughtsScorer, distill.FitDraughts),
		Scorer: fenScorer(draughtsScorer, draughts.ParseFEN),
		Perft:  perftOf(draughtsPosition, draughts.Perft),
		Divide: divideOf(draughtsPosition, draughts.Divide, func(p draughts.Position, m draughts.Move) string {
			return p.FormatMove(m)
		}),
		DescribeNet: func(w io.Writer, n *nnet.Net) error {
			_, err := fmt.Fprintf(w, "king value: %.3f men\n", n.King())
			return err
		},
	}
}

// draughtsPosition reads fen, the start position when fen is "".
func draughtsPosition(fen string) (draughts.Position, error) {
	return positionOr(fen, draughts.Start, draughts.ParseFEN)
}
