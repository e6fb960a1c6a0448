package draughts

import "evolved/game"

// Perft counts the leaf nodes of the legal move tree of p to the given depth
// (perft(0) = 1), walking Routes as the published figures do. The last ply
// is bulk-counted: its moves are counted, not played. Perft reuses one
// buffer per ply and does not allocate per node.
//
// It is not game.Perft, which chess and xiangqi use: that one hands each
// ply's moves over by value, in arrays of game.PerftMoves moves, and for
// draughts (8-byte moves, few per ply) that copying made perft 1.5%
// slower.
func Perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth)
	for i := range bufs {
		bufs[i] = make([]Move, 0, 64)
	}
	return perft(p, depth, bufs)
}

func perft(p Position, depth int, bufs [][]Move) uint64 {
	if depth == 1 {
		return uint64(p.CountRoutes(bufs[0]))
	}
	moves := p.Routes(bufs[0])
	bufs[0] = moves[:0] // keep a grown buffer
	var n uint64
	if depth == 2 {
		// The last two plies without a call per child.
		for _, m := range moves {
			child := p.Play(m)
			n += uint64(child.CountRoutes(bufs[1]))
		}
		return n
	}
	for _, m := range moves {
		n += perft(p.Play(m), depth-1, bufs[1:])
	}
	return n
}

// DivideEntry is one line of a divided perft: a root move and the number of
// leaves below it.
type DivideEntry = game.DivideEntry[Move]

// Divide returns perft(depth-1) below each root route (see Routes), in move
// generation order. depth must be at least 1.
func Divide(p Position, depth int) []DivideEntry {
	var out []DivideEntry
	for _, m := range p.Routes(nil) {
		out = append(out, DivideEntry{Move: m, Nodes: Perft(p.Play(m), depth-1)})
	}
	return out
}
