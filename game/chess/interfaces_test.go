package chess_test

import (
	"evolved/game/chess"
	"evolved/search"
)

// A chess game supports null-move pruning and static exchange evaluation.
var (
	_ search.NullMover             = (*chess.Game)(nil)
	_ search.Exchanger[chess.Move] = (*chess.Game)(nil)
)
