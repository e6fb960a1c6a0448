package search

import "sync/atomic"

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

// ttBucket is two slots of the table and the lock that guards them while
// the table is shared by the threads of a parallel search (table.shared).
// The lock is CounterGo's gate: a thread that finds it taken does not
// wait, but treats the bucket as a miss (probe) or leaves it as it is
// (store), so no thread ever blocks and no entry is ever read half
// written. A table searched by one thread never touches it.
type ttBucket[M comparable] struct {
	lock  atomic.Uint32 // 1 while a thread of a shared table reads or writes slots
	slots [2]ttEntry[M]
}

// table is a transposition table of two-slot buckets indexed by the low
// bits of the position's hash. Each search is a generation. A result goes
// into its position's slot if the bucket has one; otherwise it replaces
// whichever of the two entries is worth less: an entry of an older
// generation (a search of an earlier move) before one of this search, the
// shallower before the deeper. An entry of this search is not overwritten
// for its own position by a shallower result unless that one is exact.
//
// A table is used by one goroutine at a time unless shared is set: then
// probe, store and permill may be called from several at once (the
// threads of one parallel search), and each takes its bucket's lock.
// shared, clear and age are changed only while no search runs (share).
//
// clear empties only the buckets stored into since the last clear while
// they are few (used), so that a table cleared before every short search
// (a distillation's, a few thousand nodes in a table of 2^16 entries)
// does not cost a pass over all its memory each time; once they are many,
// or a parallel search has stored into it, clear empties the whole table.
type table[M comparable] struct {
	buckets    []ttBucket[M]
	mask       uint64
	generation uint8
	shared     bool     // several threads search with the table: lock buckets
	used       []uint32 // the buckets stored into since the last clear, up to cap(used)
	spilled    bool     // more than cap(used) buckets, or a parallel search: clear all
}

// usedShare is the share of a table's buckets whose indices it lists for
// clear (one in usedShare): more than that and clearing them one by one
// would cost about what clearing the whole table does.
const usedShare = 16

// newTable returns a table of 1<<bits entries (1<<(bits-1) buckets).
func newTable[M comparable](bits int) *table[M] {
	n := uint64(1) << max(bits-1, 0)
	return &table[M]{buckets: make([]ttBucket[M], n), mask: n - 1, used: make([]uint32, 0, n/usedShare)}
}

// clear empties the table.
func (t *table[M]) clear() {
	if t.spilled {
		clear(t.buckets)
	} else {
		for _, i := range t.used {
			t.buckets[i] = ttBucket[M]{}
		}
	}
	t.used, t.spilled = t.used[:0], false
	t.generation = 0
}

// share makes the table shared by the threads of a parallel search, or
// no longer. Their stores are not listed (used), so the next clear
// empties the whole table.
func (t *table[M]) share(on bool) {
	t.shared = on
	t.spilled = t.spilled || on
}

// age starts a new generation: the entries stored so far become older than
// the ones the next search stores.
func (t *table[M]) age() { t.generation = (t.generation + 1) % generations }

// lock takes b's lock when the table is shared, and reports whether the
// caller may use b's slots: false when another thread holds it.
func (t *table[M]) lock(b *ttBucket[M]) bool {
	return !t.shared || b.lock.CompareAndSwap(0, 1)
}

// unlock releases what lock took.
func (t *table[M]) unlock(b *ttBucket[M]) {
	if t.shared {
		b.lock.Store(0)
	}
}

// probe returns the entry for key, if stored (and, in a shared table, if
// no other thread holds its bucket).
func (t *table[M]) probe(key uint64) (ttEntry[M], bool) {
	b := &t.buckets[key&t.mask]
	if !t.lock(b) {
		return ttEntry[M]{}, false
	}
	e, ok := b.find(uint32(key >> 32))
	t.unlock(b)
	return e, ok
}

// find returns the entry of b whose check is check, if any.
func (b *ttBucket[M]) find(check uint32) (ttEntry[M], bool) {
	for i := range b.slots {
		if e := b.slots[i]; e.check == check && e.bound() != boundNone {
			return e, true
		}
	}
	return ttEntry[M]{}, false
}

// store records a search result for key. Win scores are stored relative to
// the position (distance to the win from here), not to the root. In a
// shared table a bucket another thread holds is left as it is.
func (t *table[M]) store(key uint64, move M, score, depth, ply int, b bound) {
	i := key & t.mask
	bucket := &t.buckets[i]
	if !t.lock(bucket) {
		return
	}
	if !t.spilled && bucket.slots[0].bound() == boundNone && bucket.slots[1].bound() == boundNone {
		if len(t.used) == cap(t.used) {
			t.spilled = true
		} else {
			t.used = append(t.used, uint32(i))
		}
	}
	t.put(bucket, uint32(key>>32), move, score, depth, ply, b)
	t.unlock(bucket)
}

// put is store on a bucket the caller may write.
func (t *table[M]) put(bucket *ttBucket[M], check uint32, move M, score, depth, ply int, b bound) {
	var zero M
	slot := -1
	for i := range bucket.slots {
		if e := &bucket.slots[i]; e.check == check && e.bound() != boundNone {
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
		if t.worth(&bucket.slots[1]) < t.worth(&bucket.slots[0]) {
			slot = 1
		}
	}
	bucket.slots[slot] = ttEntry[M]{
		move:  move,
		check: check,
		score: int16(toTT(score, ply)),
		depth: int8(max(-128, min(127, depth))),
		info:  t.generation<<2 | uint8(b),
	}
}

// permill returns how many of the table's first thousand entries (all of
// them in a smaller table) hold a result of the current search, per
// thousand entries sampled, as UCI's hashfull counts. In a shared table
// the buckets other threads hold at that moment are not sampled.
func (t *table[M]) permill() int {
	n, full := 0, 0
	for i := 0; i < len(t.buckets) && n < 1000; i++ {
		b := &t.buckets[i]
		if !t.lock(b) {
			continue
		}
		for j := range b.slots {
			e := &b.slots[j]
			if e.bound() != boundNone && e.generation() == t.generation {
				full++
			}
			n++
		}
		t.unlock(b)
	}
	return full * 1000 / max(n, 1)
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
