package xiangqi

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"testing"
)

// TestZobristKeys pins the Zobrist keys: hashes are stored in databases and
// compared across processes, so the keys must stay bit-identical. The want
// digest is the SHA-256 of every key in the order of zobristKeys' fields and
// indexes, little-endian, taken from the tables of the generator the package
// had of its own before it drew them from game.SplitMix64.
func TestZobristKeys(t *testing.T) {
	var keys []uint64
	for c := range zobrist.cell {
		keys = append(keys, zobrist.cell[c][:]...)
	}
	keys = append(keys, zobrist.side)
	b, err := binary.Append(nil, binary.LittleEndian, keys)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("%x", sha256.Sum256(b)), "7e75485c49dad545232349452c437d7ccee99982cb3e31e1c5d3d58e7a389911"; got != want {
		t.Errorf("sha256 of the %d Zobrist keys = %s, want %s", len(keys), got, want)
	}
}
