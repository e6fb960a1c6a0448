package games

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"evolved/distill"
	"evolved/game"
	"evolved/game/chess"
	"evolved/nnet"
	"evolved/player"
	"evolved/positions"
	"evolved/tournament"
)

// Chess returns chess, with Chess960 starts on request: White moves first,
// PGN records (FEN and X-FEN starts), the material and piece-square
// players and the nets with evolved piece values, tables and terms.
func Chess() Kind[chess.Move, *chess.Game] {
	rules := func(s Setup, pos chess.Position) chess.Rules {
		return chess.Rules{MaxMoves: s.MaxMoves, FiftyMoveRule: true, Chess960: !pos.ClassicalCastling()}
	}
	newGame := newGameOf(chessPosition, func(pos chess.Position, s Setup) *chess.Game {
		return chess.NewGame(pos, rules(s, pos))
	})
	fen := func(g *chess.Game) string {
		p := g.Position()
		return p.FEN()
	}
	return Kind[chess.Move, *chess.Game]{
		Name:         ChessName,
		Sides:        [2]string{"white", "black"},
		RecordTags:   [2]string{"White", "Black"},
		RecordExts:   []string{".pgn"},
		Inputs:       nnet.NumChessInputs,
		DefaultDepth: 2,
		Parse:        player.ParseChess,
		Net:          player.ChessNet,
		NetEPT:       player.ChessNetEPT,
		NewGame:      newGame,
		FEN:          fen,
		Pack:         func(g *chess.Game) positions.Packed { return positions.PackChess(g.Current()) },
		Train:        distill.TrainChess,
		PackMove:     positions.PackChessMove,
		Position: func(line string) (string, error) {
			// An EPD line: its first four FEN fields, then operations.
			fields := strings.Fields(line)
			if len(fields) < 4 {
				return "", fmt.Errorf("%q is not an EPD position", line)
			}
			p, err := chess.ParseFEN(strings.Join(fields[:4], " ") + " 0 1")
			return p.FEN(), err
		},
		Arena: func(s Setup) tournament.Arena[chess.Move, *chess.Game] {
			start := chess.Start()
			a := tournament.Arena[chess.Move, *chess.Game]{
				Name:         ChessName,
				NewGame:      func() *chess.Game { return chess.NewGame(start, rules(s, start)) },
				OpeningPlies: s.OpeningPlies,
			}
			if s.Chess960 {
				a.Start = func(rng *rand.Rand) *chess.Game {
					pos, err := chess.Chess960(rng.IntN(960))
					if err != nil {
						// IntN(960) is always a valid Scharnagl number.
						panic("games: " + err.Error())
					}
					r := rules(s, pos)
					r.Chess960 = true
					return chess.NewGame(pos, r)
				}
				a.Describe = fen
			}
			if margin := s.AdjudicateMaterial; margin > 0 {
				a.Adjudicate = adjudicateMaterial(margin, player.ChessMaterial{}.Balance)
			}
			return a
		},
		MoveText: moveTextOf(chessPosition, chess.MoveText),
		ReadRecords: readRecordsOf(chess.ReadPGN, func(g chess.PGNGame) Record[chess.Move] {
			outcome, _ := game.ParseTag(g.Result)
			return Record[chess.Move]{Tags: tagPairs(g.Tags), Start: g.Start.FEN(), Moves: g.Moves, Result: g.Result, Outcome: outcome}
		}),
		WriteRecord: writeRecordOf(chessPosition, func(w io.Writer, start chess.Position, rec Record[chess.Move]) error {
			return chess.WritePGN(w, chess.PGNGame{Tags: pgnTags(rec.Tags), Start: start, Moves: rec.Moves, Result: rec.Result})
		}),
		ResultTag: chess.ResultString,
		Perft:     perftOf(chessPosition, chess.Perft),
		// UCI notation, Chess960 castling as king takes rook when the
		// position is a Chess960 one, as Stockfish's divide prints it.
		Divide: divideOf(chessPosition, chess.Divide, func(p chess.Position, m chess.Move) string {
			return p.FormatUCI(m, !p.ClassicalCastling())
		}),
		// The linear weights fitted (package distill).
		Distill: distillOf(chessPosition, func(start chess.Position, moves []chess.Move, r game.Result) distill.Game {
			return distill.Game{Start: start, Moves: moves, Result: r}
		}, chessScorer, distill.Fit),
		Scorer: fenScorer(chessScorer, chess.ParseFEN),
		DescribeNet: func(w io.Writer, n *nnet.Net) error {
			var b strings.Builder
			writeValues(&b, []string{"pawn", "knight", "bishop", "rook", "queen"}, n.PieceValues())
			names, units, weights, k := nnet.ChessTermNames(), nnet.ChessTermUnits(), n.ChessTerms(), n.TermCount()
			if n.Flags()&nnet.TaperedTerms == 0 {
				writeTerms(&b, names[:k], units[:k], weights[:k])
			} else { // a row for each phase of each term
				endgame := n.ChessEndgameTerms()
				var tn []string
				var tu, tw []float64
				for i := range k {
					tn, tu, tw = append(tn, names[i]+" (mg)", names[i]+" (eg)"), append(tu, units[i], units[i]), append(tw, weights[i], endgame[i])
				}
				writeTerms(&b, tn, tu, tw)
			}
			_, err := io.WriteString(w, b.String())
			return err
		},
	}
}

// chessPosition reads fen (FEN, X-FEN or Shredder-FEN), the start position
// when fen is "".
func chessPosition(fen string) (chess.Position, error) {
	return positionOr(fen, chess.Start, chess.ParseFEN)
}
