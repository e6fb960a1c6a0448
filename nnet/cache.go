package nnet

import (
	"math/bits"

	"evolved/game"
)

// EvalCache remembers evaluations by position hash and point of view: a
// fixed-size, power-of-two, direct-mapped table, always replacing. It is not
// safe for concurrent use: each search owns one. Probe and Store do not
// allocate.
//
// It pays: in BenchmarkSearchCache (depth-8 alpha-beta searches without a
// transposition table, a fresh cache each) about half the leaf evaluations
// hit, and searches run 1.5 times as fast with 16K entries (256 KiB) as
// without a cache; 256K entries hit hardly more. A search with a
// transposition table meets fewer repeated leaves, so measure again there.
// Since an evaluation gives the same bits whatever the path to a position,
// a cache changes only the speed of a search, never its result.
//
// An entry holds the full 64-bit key, so a false hit needs two positions
// with the same 64-bit Zobrist hash. Empty entries hold a key that cannot
// belong to their slot (the complement of the slot's index), so a fresh
// table has no false hits either, even for a hash of zero.
type EvalCache struct {
	entries []cacheEntry
	mask    uint64
}

// cacheEntry is one slot: 16 bytes, four to a 64-byte cache line.
type cacheEntry struct {
	key   uint64
	value float64
}

// povKey is xored into the hash of a position evaluated for the second
// player, so that the two points of view have different keys. Zobrist
// hashes of the games include the side to move, but an evaluation is asked
// for either side.
const povKey = 0x9E3779B97F4A7C15

// NewEvalCache returns a cache of at least entries entries (16 bytes each),
// rounded up to a power of two, and at least 2.
func NewEvalCache(entries int) *EvalCache {
	n := uint64(2)
	if entries > 2 {
		n = 1 << bits.Len64(uint64(entries-1))
	}
	c := &EvalCache{entries: make([]cacheEntry, n), mask: n - 1}
	c.Clear()
	return c
}

// Len returns the number of entries.
func (c *EvalCache) Len() int { return len(c.entries) }

// Clear empties the cache.
func (c *EvalCache) Clear() {
	for i := range c.entries {
		c.entries[i] = cacheEntry{key: ^uint64(i)}
	}
}

// key returns the cache key of a position hash and a point of view.
func cacheKey(hash uint64, pov game.Player) uint64 {
	return hash ^ povKey*uint64(pov&1)
}

// Probe returns the value stored for hash and pov, if there is one.
func (c *EvalCache) Probe(hash uint64, pov game.Player) (float64, bool) {
	k := cacheKey(hash, pov)
	e := &c.entries[k&c.mask]
	return e.value, e.key == k
}

// Store records value for hash and pov, replacing whatever the slot held.
func (c *EvalCache) Store(hash uint64, pov game.Player, value float64) {
	k := cacheKey(hash, pov)
	c.entries[k&c.mask] = cacheEntry{key: k, value: value}
}
