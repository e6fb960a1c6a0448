package lineage_test

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"evolved/lineage"
)

// multiples returns the step whose weight first+i changes by qs[i]*2^k
// (none where qs[i] is 0).
func multiples(first int32, k int, qs []int64) []lineage.Change {
	var step []lineage.Change
	for i, q := range qs {
		if q != 0 {
			step = append(step, lineage.Change{Index: first + int32(i), Delta: float32(math.Ldexp(float64(q), k))})
		}
	}
	return step
}

// TestPackedStep: a step with ascending indices whose deltas share a
// power of two (what distill.FitDraughts makes of a whole net) is kept in
// the fewest bits that hold its largest multiple and its sign, over its
// whole span, and reads back exactly: the widths of a rounding fit (5
// bits for multiples up to 15), a byte, 16 and 32 bits, odd spans whose
// last byte is partly used, multiples that are all even (one bit fewer),
// and random steps of every width.
func TestPackedStep(t *testing.T) {
	for _, c := range []struct {
		name        string
		largest     int64
		span, every int
		width       int
	}{
		{"a rounding fit's 15", 15, 4102, 1, 5},
		{"7, an odd span", 7, 2997, 1, 4},
		{"127", 127, 2997, 1, 8},
		{"128", 128, 2997, 1, 9},
		{"32767, every third weight", 32767, 3000, 3, 16},
		{"2^30", 1 << 30, 5, 1, 32},
		{"1, two far apart", 1, 90000, 89999, 2},
	} {
		// Every multiple float32-exact, and one odd, so that 2^-12 is the
		// power of two.
		f := c.largest / 3
		if c.largest > 1<<24 {
			f = 1 << 26
		}
		qs := make([]int64, c.span)
		for i := 0; i < c.span; i += c.every {
			qs[i] = int64(i%7-3) * f
		}
		qs[0], qs[c.span-1] = c.largest, -c.largest
		if c.every == 1 {
			qs[1] = 1
		}
		step := multiples(11, -12, qs)
		b := lineage.EncodeStep(step)
		want := 17 + (c.width*c.span+7)/8
		if sparse := 4 + 8*len(step); sparse <= want {
			want = sparse
		}
		if len(b) != want {
			t.Errorf("%s: %d bytes, want %d", c.name, len(b), want)
		}
		if got, err := lineage.DecodeStep(b); err != nil || !slices.Equal(got, step) {
			t.Errorf("%s: did not read back: %v (%d changes, want %d)", c.name, err, len(got), len(step))
		}
	}
	even := multiples(0, -10, []int64{14, -6, 2, 0, 8}) // 7, -3, 1, 0, 4 times 2^-9
	if b := lineage.EncodeStep(even); len(b) != 17+(4*5+7)/8 {
		t.Errorf("even multiples: %d bytes, want the 4 bits of 7*2^-9", len(b))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		width := 2 + trial%31
		top := int64(1)<<(width-1) - 1
		qs := make([]int64, 1+rng.IntN(300))
		for i := range qs {
			qs[i] = rng.Int64N(2*top+1) - top
		}
		qs[0], qs[len(qs)-1] = top, 1 // 1: an odd multiple, so the power of two is 2^k itself
		step := multiples(int32(rng.IntN(1000)), rng.IntN(60)-40, qs)
		if got, err := lineage.DecodeStep(lineage.EncodeStep(step)); err != nil || !slices.Equal(got, step) {
			t.Fatalf("a random step of %d bits, %d weights: %v", width, len(qs), err)
		}
	}
}

// TestSparseStep: steps that have no packed form, or whose packed form
// is longer, keep the sparse form, 8 bytes a change, and read back.
func TestSparseStep(t *testing.T) {
	for name, step := range map[string][]lineage.Change{
		"two far apart":      {{Index: 5, Delta: 0.25}, {Index: 100000, Delta: -0.5}},
		"indices descending": {{Index: 9, Delta: 0.25}, {Index: 3, Delta: 0.5}, {Index: 4, Delta: 1}},
		"powers far apart":   {{Index: 0, Delta: 1e30}, {Index: 1, Delta: 1e-30}},
		"a zero delta":       {{Index: 0, Delta: 0.5}, {Index: 1, Delta: 0}},
	} {
		b := lineage.EncodeStep(step)
		if len(b) != 4+8*len(step) {
			t.Errorf("%s: %d bytes, want the sparse form's %d", name, len(b), 4+8*len(step))
		}
		if got, err := lineage.DecodeStep(b); err != nil || !slices.Equal(got, step) {
			t.Errorf("%s: did not read back: %v", name, err)
		}
	}
}

// legacyDense returns a step as builds before the packed form wrote it:
// marker, first index, span, k, then each multiple in width bytes.
func legacyDense(width int, first uint32, k int32, qs []int64) []byte {
	b := binary.LittleEndian.AppendUint32(nil, math.MaxUint32-uint32(2-width)) // int16: MaxUint32, int8: MaxUint32-1
	b = binary.LittleEndian.AppendUint32(b, first)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(qs)))
	b = binary.LittleEndian.AppendUint32(b, uint32(k))
	for _, q := range qs {
		if width == 1 {
			b = append(b, byte(int8(q)))
		} else {
			b = binary.LittleEndian.AppendUint16(b, uint16(int16(q)))
		}
	}
	return b
}

// TestLegacyDenseSteps: the int8 and int16 forms of the builds before
// the packed form, still in the databases they wrote, read as they were
// written.
func TestLegacyDenseSteps(t *testing.T) {
	qs := make([]int64, 2997)
	for i := range qs {
		qs[i] = int64(i%255 - 127)
	}
	for _, width := range []int{1, 2} {
		scaled := slices.Clone(qs)
		if width == 2 {
			for i := range scaled {
				scaled[i] *= 258
			}
		}
		got, err := lineage.DecodeStep(legacyDense(width, 3, -12, scaled))
		if want := multiples(3, -12, scaled); err != nil || !slices.Equal(got, want) {
			t.Errorf("the %d-byte dense form: %v (%d changes, want %d)", width, err, len(got), len(want))
		}
	}
}

// TestMalformedSteps: a blob that is not one of the forms is ErrRecipe,
// whatever is wrong with it.
func TestMalformedSteps(t *testing.T) {
	qs := make([]int64, 2997)
	for i := range qs {
		qs[i] = int64(i%31 - 15)
	}
	packed := lineage.EncodeStep(multiples(3, -12, qs))
	if packed[16] != 5 {
		t.Fatalf("the test's step takes %d bits a weight, want 5", packed[16])
	}
	with := func(b []byte, at int, v ...byte) []byte {
		b = slices.Clone(b)
		copy(b[at:], v)
		return b
	}
	pastLast := with(packed, len(packed)-1, packed[len(packed)-1]|0x80) // 2997*5 bits leave 3 of the last byte
	minimum := with(packed, 17, packed[17]&^0x1f|0x10)                  // the first multiple -16, which 5 bits never hold here
	int8s := legacyDense(1, 3, -12, qs)
	for name, bad := range map[string][]byte{
		"nothing":                       nil,
		"three bytes":                   {1, 0, 0},
		"a count it does not hold":      {2, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8},
		"packed: a short header":        packed[:16],
		"packed: a byte short":          packed[:len(packed)-1],
		"packed: a byte long":           append(slices.Clone(packed), 0),
		"packed: bits past its last":    pastLast,
		"packed: the least multiple":    minimum,
		"packed: 1 bit a weight":        with(packed, 16, 1),
		"packed: 33 bits a weight":      with(packed, 16, 33),
		"packed: a huge exponent":       with(packed, 12, 200, 0, 0, 0),
		"packed: spans nothing":         with(packed, 8, 0, 0, 0, 0),
		"packed: beyond any net":        with(packed, 4, 0xff, 0xff, 0xff, 0x7f),
		"int8: a short header":          int8s[:12],
		"int8: a byte short":            int8s[:len(int8s)-1],
		"int8: a huge exponent":         with(int8s, 12, 200, 0, 0, 0),
		"int8: its span too long":       with(int8s, 8, 0xff, 0xff, 0xff, 0x7f),
		"int16: the int8s' body length": with(int8s, 0, 0xff),
	} {
		if _, err := lineage.DecodeStep(bad); !errors.Is(err, lineage.ErrRecipe) {
			t.Errorf("%s: %v, want ErrRecipe", name, err)
		}
	}
}
