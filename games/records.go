package games

import (
	"fmt"
	"io"

	"evolved/game/pgn"
)

// positionOr reads fen with parse, or returns start() when fen is "": how
// every Kind reads the start position of a game, a record or a perft.
func positionOr[P any](fen string, start func() P, parse func(string) (P, error)) (P, error) {
	if fen == "" {
		return start(), nil
	}
	return parse(fen)
}

// newGameOf is Kind.NewGame for a game whose start positions position
// reads from a FEN and newGame starts a game from under a Setup.
func newGameOf[P, S any](position func(string) (P, error), newGame func(P, Setup) S) func(string, Setup) (S, error) {
	return func(fen string, s Setup) (S, error) {
		pos, err := position(fen)
		if err != nil {
			var none S
			return none, err
		}
		return newGame(pos, s), nil
	}
}

// moveTextOf is Kind.MoveText for a game whose start positions position
// reads from a FEN ("" for the standard start) and whose moveText writes
// moves played from one.
func moveTextOf[P, M any](position func(string) (P, error), moveText func(P, []M) (string, error)) func(string, []M) (string, error) {
	return func(start string, moves []M) (string, error) {
		pos, err := position(start)
		if err != nil {
			return "", err
		}
		return moveText(pos, moves)
	}
}

// readRecordsOf is Kind.ReadRecords for a game whose record reader is
// read: its games, and those before an error, as Records made by record.
func readRecordsOf[G any, M comparable](read func(io.Reader) ([]G, error), record func(G) Record[M]) func(io.Reader) ([]Record[M], error) {
	return func(r io.Reader) ([]Record[M], error) {
		games, err := read(r)
		out := make([]Record[M], len(games))
		for i, g := range games {
			out[i] = record(g)
		}
		return out, err
	}
}

// writeRecordOf is Kind.WriteRecord for a game whose start positions
// position reads from a FEN and write writes a record from.
func writeRecordOf[P any, M comparable](position func(string) (P, error), write func(io.Writer, P, Record[M]) error) func(io.Writer, Record[M]) error {
	return func(w io.Writer, rec Record[M]) error {
		start, err := position(rec.Start)
		if err != nil {
			return fmt.Errorf("start: %w", err)
		}
		return write(w, start, rec)
	}
}

// tagPairs returns tags as a Record's name and value pairs, nil for none.
func tagPairs(tags []pgn.Tag) [][2]string {
	var out [][2]string
	for _, t := range tags {
		out = append(out, [2]string{t.Name, t.Value})
	}
	return out
}

// pgnTags returns a Record's name and value pairs as tags, nil for none.
func pgnTags(pairs [][2]string) []pgn.Tag {
	var out []pgn.Tag
	for _, t := range pairs {
		out = append(out, pgn.Tag{Name: t[0], Value: t[1]})
	}
	return out
}
