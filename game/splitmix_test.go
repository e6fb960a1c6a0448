package game

import "testing"

// TestSplitMix64 checks the first outputs of seeds 0 and 1234567 against
// those of Vigna's reference splitmix64.c (prng.di.unimi.it).
func TestSplitMix64(t *testing.T) {
	for _, c := range []struct {
		seed uint64
		want []uint64
	}{
		{0, []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}},
		{1234567, []uint64{0x599ed017fb08fc85, 0x2c73f08458540fa5, 0x883ebce5a3f27c77}},
	} {
		s := SplitMix64(c.seed)
		for i, want := range c.want {
			if got := s.Next(); got != want {
				t.Errorf("SplitMix64(%#x) output %d = %#016x, want %#016x", c.seed, i, got, want)
			}
		}
	}
}
