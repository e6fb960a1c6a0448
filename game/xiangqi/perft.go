package xiangqi

// perftPly is the per-ply state of Perft: the position and its moves.
type perftPly struct {
	pos   Position
	moves [MaxMoves]Move
}

// perftStackDepth is the number of plies whose state Perft keeps on the
// goroutine stack (about 0.7 KB each).
const perftStackDepth = 10

// Perft counts the leaf nodes of the legal move tree of p to the given depth
// (perft(0) = 1). The last ply is bulk-counted: its moves are counted with
// CountMoves, not played. Perft keeps its per-ply state on the goroutine's
// stack up to depth perftStackDepth+1 and does not allocate; deeper, it
// allocates that state once.
func Perft(p Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth == 1 {
		return uint64(p.CountMoves())
	}
	var fixed [perftStackDepth]perftPly
	var stack []perftPly
	if depth-1 <= len(fixed) {
		stack = fixed[:depth-1]
	} else {
		stack = make([]perftPly, depth-1)
	}
	stack[0].pos = p
	return perft(stack)
}

// perft counts the leaves below stack[0].pos at depth len(stack)+1 >= 2.
// Each child is built in the next ply's slot: a child passed by pointer to
// the recursive call would be moved to the heap, as escape analysis cannot
// see through recursion.
func perft(stack []perftPly) uint64 {
	ply := &stack[0]
	moves := ply.pos.LegalMoves(ply.moves[:0])
	var n uint64
	if len(stack) == 1 {
		for _, m := range moves {
			child := ply.pos.Play(m)
			n += uint64(child.CountMoves())
		}
		return n
	}
	next := &stack[1]
	for _, m := range moves {
		next.pos = ply.pos.Play(m)
		n += perft(stack[1:])
	}
	return n
}

// DivideEntry is one line of a divided perft: a root move and the number of
// leaves below it.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns perft(depth-1) below each legal root move, in move
// generation order. depth must be at least 1.
func Divide(p Position, depth int) []DivideEntry {
	var out []DivideEntry
	for _, m := range p.LegalMoves(nil) {
		out = append(out, DivideEntry{Move: m, Nodes: Perft(p.Play(m), depth-1)})
	}
	return out
}
