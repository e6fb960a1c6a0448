package draughts

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
	for c := range zobrist.piece {
		for k := range zobrist.piece[c] {
			keys = append(keys, zobrist.piece[c][k][:]...)
		}
	}
	keys = append(keys, zobrist.side)
	b, err := binary.Append(nil, binary.LittleEndian, keys)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("%x", sha256.Sum256(b)), "3c2416536a89eeb53669566d48d88e4a52cebd0ad7cf425e13ef3fe321bd2233"; got != want {
		t.Errorf("sha256 of the %d Zobrist keys = %s, want %s", len(keys), got, want)
	}
}
