package search

// bound says how a stored score relates to the true value.
type bound uint8

const (
	boundNone  bound = iota
	boundExact       // the true value
	boundLower       // the true value is at least the score (a cutoff)
	boundUpper       // the true value is at most the score (no move raised alpha)
)

// ttEntry is one slot of the transposition table.
type ttEntry[M comparable] struct {
	key   uint64
	move  M
	score int32
	depth int8
	bound bound
}

// table is a transposition table: a power-of-two array of entries indexed by
// the low bits of the position's hash. A slot is replaced when the new
// entry's depth is at least the old one's or the slot holds another
// position.
type table[M comparable] struct {
	entries []ttEntry[M]
	mask    uint64
}

// newTable returns a table of 1<<bits entries.
func newTable[M comparable](bits int) *table[M] {
	n := uint64(1) << bits
	return &table[M]{entries: make([]ttEntry[M], n), mask: n - 1}
}

// clear empties the table.
func (t *table[M]) clear() { clear(t.entries) }

// probe returns the entry for key, if stored.
func (t *table[M]) probe(key uint64) (ttEntry[M], bool) {
	e := t.entries[key&t.mask]
	return e, e.bound != boundNone && e.key == key
}

// store records a search result for key. Win scores are stored relative to
// the position (distance to the win from here), not to the root.
func (t *table[M]) store(key uint64, move M, score, depth, ply int, b bound) {
	e := &t.entries[key&t.mask]
	if e.key == key && int(e.depth) > depth && e.bound != boundNone {
		return
	}
	*e = ttEntry[M]{key: key, move: move, score: int32(toTT(score, ply)), depth: int8(depth), bound: b}
}

// toTT converts a score from root-relative to node-relative.
func toTT(score, ply int) int {
	switch {
	case score > Win-maxPly:
		return score + ply
	case score < -Win+maxPly:
		return score - ply
	}
	return score
}

// fromTT converts a stored node-relative score back to root-relative.
func fromTT(score, ply int) int {
	switch {
	case score > Win-maxPly:
		return score - ply
	case score < -Win+maxPly:
		return score + ply
	}
	return score
}
