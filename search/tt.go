package search

// bound says how a stored score relates to the true value.
type bound uint8

const (
	boundNone  bound = iota
	boundExact       // the true value
	boundLower       // the true value is at least the score (a cutoff)
	boundUpper       // the true value is at most the score (no move raised alpha)
)

// ttEntry is one slot of the transposition table, packed into 16 bytes
// or less: the move first (8 bytes in draughts, 4 in chess and xiangqi),
// then the upper half of the position's hash (the lower bits chose the
// slot), the score, the depth, and the search's generation and the bound in
// one byte.
type ttEntry[M comparable] struct {
	move  M
	check uint32 // the hash's upper 32 bits
	score int16
	depth int8
	info  uint8 // generation<<2 | bound
}

func (e *ttEntry[M]) bound() bound      { return bound(e.info & 3) }
func (e *ttEntry[M]) generation() uint8 { return e.info >> 2 }

// generations is the number of distinct generations an entry can carry.
const generations = 64

// table is a transposition table of two-slot buckets indexed by the low
// bits of the position's hash. Each search is a generation. A result goes
// into its position's slot if the bucket has one; otherwise it replaces
// whichever of the two entries is worth less: an entry of an older
// generation (a search of an earlier move) before one of this search, the
// shallower before the deeper. An entry of this search is not overwritten
// for its own position by a shallower result unless that one is exact.
type table[M comparable] struct {
	buckets    [][2]ttEntry[M]
	mask       uint64
	generation uint8
}

// newTable returns a table of 1<<bits entries (1<<(bits-1) buckets).
func newTable[M comparable](bits int) *table[M] {
	n := uint64(1) << max(bits-1, 0)
	return &table[M]{buckets: make([][2]ttEntry[M], n), mask: n - 1}
}

// clear empties the table.
func (t *table[M]) clear() {
	clear(t.buckets)
	t.generation = 0
}

// age starts a new generation: the entries stored so far become older than
// the ones the next search stores.
func (t *table[M]) age() { t.generation = (t.generation + 1) % generations }

// probe returns the entry for key, if stored.
func (t *table[M]) probe(key uint64) (ttEntry[M], bool) {
	b := &t.buckets[key&t.mask]
	check := uint32(key >> 32)
	for i := range b {
		if e := b[i]; e.check == check && e.bound() != boundNone {
			return e, true
		}
	}
	return ttEntry[M]{}, false
}

// store records a search result for key. Win scores are stored relative to
// the position (distance to the win from here), not to the root.
func (t *table[M]) store(key uint64, move M, score, depth, ply int, b bound) {
	bucket := &t.buckets[key&t.mask]
	check := uint32(key >> 32)
	var zero M
	slot := -1
	for i := range bucket {
		if e := &bucket[i]; e.check == check && e.bound() != boundNone {
			if e.generation() == t.generation && int(e.depth) > depth && b != boundExact {
				return
			}
			if move == zero {
				move = e.move // keep the move a shallower search found
			}
			slot = i
			break
		}
	}
	if slot < 0 {
		slot = 0
		if t.worth(&bucket[1]) < t.worth(&bucket[0]) {
			slot = 1
		}
	}
	bucket[slot] = ttEntry[M]{
		move:  move,
		check: check,
		score: int16(toTT(score, ply)),
		depth: int8(max(-128, min(127, depth))),
		info:  t.generation<<2 | uint8(b),
	}
}

// permill returns how many of the table's first thousand entries (all of
// them in a smaller table) hold a result of the current search, per
// thousand entries sampled, as UCI's hashfull counts.
func (t *table[M]) permill() int {
	n, full := 0, 0
	for i := 0; i < len(t.buckets) && n < 1000; i++ {
		for j := range t.buckets[i] {
			e := &t.buckets[i][j]
			if e.bound() != boundNone && e.generation() == t.generation {
				full++
			}
			n++
		}
	}
	return full * 1000 / n
}

// worth ranks an entry for replacement: empty entries are worth nothing,
// entries of earlier searches less than this search's, then by depth.
func (t *table[M]) worth(e *ttEntry[M]) int {
	if e.bound() == boundNone {
		return -1 << 20
	}
	w := int(e.depth)
	if e.generation() != t.generation {
		w -= 256
	}
	return w
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
