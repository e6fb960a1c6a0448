package chess

// MakeNull passes the turn, for null-move pruning in search: the other side
// moves next, nothing moves, and an en passant right lapses (the hash is
// that of the same position with the other side to move and no en passant
// square). The halfmove clock and the move number advance as for a move,
// so the 50-move rule still counts the plies before the pass. The history
// records the pass as an entry whose move is NoMove, where repetitions stop
// looking back (see game.History.Repetitions): a pass never makes a
// repetition. Moves lists a pass as NoMove.
//
// The side to move must not be in check: passing would leave its king en
// prise, and what follows (move generation, Outcome) is undefined. MakeNull
// does not test it, as search knows it already.
func (g *Game) MakeNull() {
	top, next := g.history.Push()
	next.Pos = top.Pos.PlayNull()
	next.Move = NoMove
}

// UnmakeNull takes back the last MakeNull. It panics if the last entry of
// the history is not a pass (at the start, or after a move).
func (g *Game) UnmakeNull() {
	if !g.history.PopPass(NoMove) {
		panic("chess: UnmakeNull without a MakeNull")
	}
}

// NullSafe reports whether the side to move has a knight, bishop, rook or
// queen: with pawns and the king alone, zugzwang is common enough that a
// search should not assume a pass to be its worst move.
func (g *Game) NullSafe() bool {
	p := &g.history.Top().Pos
	return (p.pieces[Knight]|p.pieces[Bishop]|p.pieces[Rook]|p.pieces[Queen])&p.colors[p.side&1] != 0
}
