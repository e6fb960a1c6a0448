package game

// Mover is what Perft needs of a game whose positions are of type P and
// moves of type M. A rules package implements it on an empty struct type.
//
// Perft calls a Mover's methods through the instantiation's dictionary:
// they are not inlined, and escape analysis cannot see through them, so a
// pointer passed to one escapes to the heap. Positions and moves therefore
// cross it by value, and the last three plies, where the time goes, are
// the game's own Perft3, in which its move generation is inlined; the
// calls through the dictionary are then a few per thousand leaves. (A
// Mover with a method per node, and pointers to Perft's per-ply state,
// made chess perft 43% slower and allocate at every node.)
type Mover[P, M any] interface {
	// Moves returns the moves of p that perft counts, in moves[:n]; n is
	// at most PerftMoves.
	Moves(p P) (moves [PerftMoves]M, n int)
	// Play returns the position after m, one of p's moves.
	Play(p P, m M) P
	// Count returns perft(p, 1), the number of p's moves, counted without
	// listing them where it can.
	Count(p P) uint64
	// Perft3 returns perft(p, 3), bulk-counted: the moves of each position
	// two plies after p, counted and summed, with the moves of the two
	// plies in buffers on the goroutine's stack.
	Perft3(p P) uint64
}

// PerftMoves is the room for moves that Mover.Moves returns: at least the
// largest number of legal moves of a position in any of our games (chess
// has at most 218).
const PerftMoves = 256

// Perft counts the leaf nodes of the tree of moves of p, as g lists them,
// to the given depth (perft(0) = 1). The last ply is bulk-counted: its
// moves are counted, not played. Perft does not allocate.
func Perft[P, M any, G Mover[P, M]](g G, p P, depth int) uint64 {
	switch {
	case depth <= 0:
		return 1
	case depth == 1:
		return g.Count(p)
	case depth == 3:
		return g.Perft3(p)
	}
	moves, count := g.Moves(p)
	var n uint64
	for _, m := range moves[:count] {
		n += Perft(g, g.Play(p, m), depth-1)
	}
	return n
}

// DivideEntry is one line of a divided perft: a root move and the number
// of leaves below it.
type DivideEntry[M any] struct {
	Move  M
	Nodes uint64
}

// Divide returns perft(depth-1) below each of p's moves, in g's order.
// depth must be at least 1.
func Divide[P, M any, G Mover[P, M]](g G, p P, depth int) []DivideEntry[M] {
	moves, count := g.Moves(p)
	out := make([]DivideEntry[M], count)
	for i, m := range moves[:count] {
		out[i] = DivideEntry[M]{Move: m, Nodes: Perft(g, g.Play(p, m), depth-1)}
	}
	return out
}
