package player

import "math/bits"

// popcount returns the number of set bits of b.
func popcount(b uint32) int { return bits.OnesCount32(b) }
