package game

// SplitMix64 is the splitmix64 generator of Steele, Lea and Flood (as in
// Vigna's reference code): its value is the state, which each call of Next
// advances by a constant before mixing it into an output. The rules
// packages draw their Zobrist keys from it with fixed seeds, so hashes are
// the same in every run and on every machine; they are stored in databases
// and compared across processes, so the sequence must never change.
type SplitMix64 uint64

// Next advances the state and returns its next output.
func (s *SplitMix64) Next() uint64 {
	*s += 0x9E3779B97F4A7C15
	x := uint64(*s)
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	return x ^ x>>31
}
