package xiangqi

import "evolved/game"

// perftMover is this package's game.Mover: Perft and Divide are
// game.Perft and game.Divide over it.
type perftMover struct{}

// Moves returns the legal moves of p.
func (perftMover) Moves(p Position) (moves [game.PerftMoves]Move, n int) {
	n = len(p.LegalMoves(moves[:0]))
	return moves, n
}

// Play returns the position after m.
func (perftMover) Play(p Position, m Move) Position { return p.Play(m) }

// Count returns the number of legal moves of p.
func (perftMover) Count(p Position) uint64 { return uint64(p.CountMoves()) }

// Perft3 returns perft(3) of p, bulk-counted.
func (perftMover) Perft3(p Position) uint64 {
	var moves, replies [MaxMoves]Move
	var n uint64
	for _, m := range p.LegalMoves(moves[:0]) {
		q := p.Play(m)
		for _, r := range q.LegalMoves(replies[:0]) {
			child := q.Play(r)
			n += uint64(child.CountMoves())
		}
	}
	return n
}

// Perft counts the leaf nodes of the legal move tree of p to the given depth
// (perft(0) = 1). The last ply is bulk-counted: its moves are counted with
// CountMoves, not played. Perft does not allocate.
func Perft(p Position, depth int) uint64 { return game.Perft(perftMover{}, p, depth) }

// DivideEntry is one line of a divided perft: a root move and the number of
// leaves below it.
type DivideEntry = game.DivideEntry[Move]

// Divide returns perft(depth-1) below each legal root move, in move
// generation order. depth must be at least 1.
func Divide(p Position, depth int) []DivideEntry { return game.Divide(perftMover{}, p, depth) }
