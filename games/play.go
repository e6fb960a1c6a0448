package games

import (
	"fmt"
	"strings"
)

// ParseMoveText reads moveText, move text as MoveText writes it (comments
// and a result are read too), played from start (a FEN; "" for the
// standard start): what the database stores of a game. The record it
// returns has the start as a FEN and the moves; its other fields are the
// reader's. An error about start begins "start: "; the others are the
// game's record reader's, naming the move (its number, or for xiangqi its
// ply) and its text.
func (k Kind[M, S]) ParseMoveText(start, moveText string) (Record[M], error) {
	g, err := k.NewGame(start, Setup{})
	if err != nil {
		return Record[M]{}, fmt.Errorf("start: %w", err)
	}
	// Every game gets a FEN tag, the standard start's included, so that
	// empty move text is still a game; it shares the move text's first
	// line, so that the reader's line numbers are the move text's.
	recs, err := k.ReadRecords(strings.NewReader(fmt.Sprintf("[FEN %q] ", k.FEN(g)) + moveText))
	if err != nil {
		return Record[M]{}, err
	}
	if len(recs) != 1 {
		return Record[M]{}, fmt.Errorf("found %d games in the move text, want one", len(recs))
	}
	return recs[0], nil
}
