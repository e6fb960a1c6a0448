package xiangqi_test

import (
	"evolved/game/xiangqi"
	"evolved/search"
)

// A xiangqi game supports null-move pruning and static exchange evaluation.
var (
	_ search.NullMover               = (*xiangqi.Game)(nil)
	_ search.Exchanger[xiangqi.Move] = (*xiangqi.Game)(nil)
)
