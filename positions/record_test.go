package positions

import (
	"errors"
	"testing"
)

func TestRecordRoundTrip(t *testing.T) {
	r := Record{Score: -1234, Move: 0xbeef, Ply: 300, Result: Loss, Source: Tournament}
	for i := range r.Position {
		r.Position[i] = byte(3*i + 1)
	}
	var b [RecordSize]byte
	r.MarshalTo(b[:])
	// The layout is the format's: pin it byte by byte where the labels are.
	want := [8]byte{0x2e, 0xfb, 0xef, 0xbe, 0x2c, 0x01, 0xff, 0x02}
	if [8]byte(b[32:]) != want {
		t.Fatalf("labels % x, want % x", b[32:], want)
	}
	var got Record
	if err := got.Unmarshal(b[:]); err != nil {
		t.Fatal(err)
	}
	if got != r {
		t.Fatalf("round trip %+v, want %+v", got, r)
	}
}

func TestRecordUnmarshalRefuses(t *testing.T) {
	var ok Record
	ok.Source = DataGame
	var b [RecordSize]byte
	ok.MarshalTo(b[:])
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"short", b[:RecordSize-1]},
		{"result", func() []byte { c := b; c[38] = 3; return c[:] }()},
		{"source", func() []byte { c := b; c[39] = 0; return c[:] }()},
	} {
		var r Record
		if err := r.Unmarshal(tc.b); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: error %v, want ErrCorrupt", tc.name, err)
		}
	}
}

func TestKeyDiffers(t *testing.T) {
	var a, b Packed
	b[31] = 1
	if a.Key() == b.Key() {
		t.Fatal("positions differing in the last byte share a key")
	}
	if a.Key() != (&Packed{}).Key() {
		t.Fatal("the key of equal positions differs")
	}
}

func TestClampScore(t *testing.T) {
	for _, tc := range []struct {
		in   int
		want int16
	}{{0, 0}, {-5, -5}, {32000, 32000}, {32001, 32000}, {-100000, -32000}} {
		if got := ClampScore(tc.in); got != tc.want {
			t.Errorf("ClampScore(%d) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
