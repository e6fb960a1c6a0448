package positions

// dedupTable is a Store's table of the positions it holds, by which Add
// drops duplicates: direct-mapped, 1<<bits slots of one uint64 each, so
// its memory is fixed whatever the store holds. A slot is a key's low
// bits (key & mask); its entry is the key's high 48 bits and the low 16
// bits of the sequence number of the segment that holds the position, 0
// meaning empty. A key that lands in a taken slot evicts the entry there,
// so a duplicate is sometimes written again: the table trades a few
// copies for a bound.
//
// The table holds entries of live segments only: when segments are
// dropped, forget clears their entries. Its content is then a function of
// the live records alone (each slot names the last live record written to
// it), which is what a rebuild from the segments gives, so a store
// reopened after a crash decides every later duplicate as the store that
// never stopped would.
type dedupTable struct {
	slots []uint64
	mask  uint64
}

// newDedupTable returns an empty table of 1<<bits slots.
func newDedupTable(bits int) dedupTable {
	return dedupTable{slots: make([]uint64, 1<<bits), mask: 1<<bits - 1}
}

// seen reports whether the table holds key.
func (t *dedupTable) seen(key uint64) bool {
	e := t.slots[key&t.mask]
	return e != 0 && e>>16 == key>>16
}

// insert records key as held by segment seq, evicting the slot's entry.
func (t *dedupTable) insert(key, seq uint64) {
	t.slots[key&t.mask] = key>>16<<16 | seq&0xffff
}

// forget clears the entries of the n segments from first on. The
// segments named in the table must span fewer than 1<<16 sequence
// numbers (Store keeps fewer than maxSegments live), or an entry of a
// kept segment would look like one of a dropped segment.
func (t *dedupTable) forget(first, n uint64) {
	for i, e := range t.slots {
		if e != 0 && (e-first)&0xffff < n {
			t.slots[i] = 0
		}
	}
}

// reset empties the table.
func (t *dedupTable) reset() { clear(t.slots) }
