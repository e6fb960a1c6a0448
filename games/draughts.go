package games

import (
	"fmt"
	"io"

	"evolved/game/draughts"
	"evolved/nnet"
	"evolved/player"
	"evolved/tournament"
)

// Draughts returns English draughts (checkers) on the 8x8 board: Black
// moves first, men 100 and kings 150 for material:D, PDN records, and the
// Blondie24 nets.
func Draughts() Kind[draughts.Move, *draughts.Game] {
	newGame := func(fen string, s Setup) (*draughts.Game, error) {
		pos, err := draughtsPosition(fen)
		if err != nil {
			return nil, err
		}
		return draughts.NewGame(pos, draughts.Rules{MaxMoves: s.MaxMoves}), nil
	}
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
		MoveText: func(start string, moves []draughts.Move) (string, error) {
			pos, err := draughtsPosition(start)
			if err != nil {
				return "", err
			}
			return draughts.MoveText(pos, moves)
		},
		ReadRecords: func(r io.Reader) ([]Record[draughts.Move], error) {
			games, err := draughts.ReadPDN(r)
			out := make([]Record[draughts.Move], len(games))
			for i, g := range games {
				out[i] = Record[draughts.Move]{Start: g.Start.FEN(), Moves: g.Moves, Result: g.Result}
				out[i].Outcome, _ = draughts.ParseResult(g.Result)
				for _, t := range g.Tags {
					out[i].Tags = append(out[i].Tags, [2]string{t.Name, t.Value})
				}
			}
			return out, err
		},
		WriteRecord: func(w io.Writer, rec Record[draughts.Move]) error {
			g := draughts.PDNGame{Moves: rec.Moves, Result: rec.Result}
			var err error
			if g.Start, err = draughtsPosition(rec.Start); err != nil {
				return fmt.Errorf("start: %w", err)
			}
			for _, t := range rec.Tags {
				g.Tags = append(g.Tags, draughts.Tag{Name: t[0], Value: t[1]})
			}
			return draughts.WritePDN(w, g)
		},
		ResultTag: draughts.ResultString,
		Distill:   draughtsDistill,
		Scorer:    fenScorer(draughtsScorer, draughts.ParseFEN),
		Perft:     perftOf(draughtsPosition, draughts.Perft),
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
	if fen == "" {
		return draughts.Start(), nil
	}
	return draughts.ParseFEN(fen)
}
