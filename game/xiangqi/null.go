package xiangqi

import "math/bits"

// MakeNull passes the turn, for null-move pruning in search: the other side
// moves next and nothing moves (the hash is that of the same position with
// the other side to move). The halfmove clock and the move number advance
// as for a move. The history records the pass as an entry whose move is
// NoMove, where repetitions, and with them the perpetual check rule, stop
// looking back (see game.History.Repetitions): a pass never makes a
// repetition. LastMove and Moves show a pass as NoMove.
//
// The side to move must not be in check: MakeNull panics if it is (the
// history knows it at no cost).
func (g *Game) MakeNull() {
	if g.history.Top().Info.check {
		panic("xiangqi: MakeNull in check")
	}
	top, next := g.history.Push()
	next.Pos = top.Pos.PlayNull()
	next.Move = NoMove
	// The side that passed was not in check, so in a legal position the
	// other side, now to move, is not either; ask anyway, so that the flag
	// stays what InCheck and the perpetual check rule read whatever the
	// position.
	next.Info.check = next.Pos.InCheck()
}

// UnmakeNull takes back the last MakeNull. It panics if the last entry of
// the history is not a pass (at the start, or after a move).
func (g *Game) UnmakeNull() {
	if !g.history.PopPass(NoMove) {
		panic("xiangqi: UnmakeNull without a MakeNull")
	}
}

// NullSafe reports whether the side to move has a chariot, horse or
// cannon: with soldiers, advisors and elephants alone, zugzwang is common
// enough that a search should not assume a pass to be its worst move.
func (g *Game) NullSafe() bool {
	p := &g.history.Top().Pos
	us := p.side & 1
	for w := range 2 {
		for set := p.occ[us][w]; set != 0; set &= set - 1 {
			switch cellType(p.board[w*64+bits.TrailingZeros64(set)]) {
			case Chariot, Horse, Cannon:
				return true
			}
		}
	}
	return false
}
