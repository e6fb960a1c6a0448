package positions

import "testing"

func TestDedupTable(t *testing.T) {
	tab := newDedupTable(8)
	// Keys of distinct slots, the segments' numbers across 1<<16.
	keys := []uint64{0xaaaa_0000_0000_0001, 0xbbbb_0000_0000_0002, 0xcccc_0000_0000_0003, 0xdddd_0000_0000_0004}
	seqs := []uint64{65534, 65535, 65536, 65537}
	for i, k := range keys {
		if tab.seen(k) {
			t.Fatalf("key %#x seen in an empty table", k)
		}
		tab.insert(k, seqs[i])
	}
	if !tab.seen(keys[2]) || tab.seen(keys[2]^1<<40) {
		t.Fatal("seen: want the key, not another of its slot")
	}
	tab.forget(65534, 2)
	for i, k := range keys {
		if got, want := tab.seen(k), i >= 2; got != want {
			t.Errorf("after forgetting segments 65534 and 65535: seen(key of segment %d) = %v, want %v", seqs[i], got, want)
		}
	}
	tab.insert(keys[2]^1<<40, 65538) // evicts the key of its slot
	if tab.seen(keys[2]) || !tab.seen(keys[2]^1<<40) {
		t.Fatal("insert: want the slot's key replaced")
	}
	tab.reset()
	if tab.seen(keys[3]) {
		t.Fatal("seen after reset")
	}
}
