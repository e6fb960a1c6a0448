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

// compactSizes returns the bytes of qs's packed and Rice forms, as
// EncodeStep's documentation defines them: a 17-byte header, then b bits
// a multiple (the fewest, at least 2, that hold the largest |q| and its
// sign), or z>>r + 1 + r bits a multiple (z = 2q or -2q-1) for the best r.
func compactSizes(qs []int64) (packed, rice int) {
	var largest int64
	for _, q := range qs {
		largest = max(largest, q, -q)
	}
	width := 2
	for int64(1)<<(width-1)-1 < largest {
		width++
	}
	riceBits := math.MaxInt
	for r := range 32 {
		n := 0
		for _, q := range qs {
			z := 2 * q
			if q < 0 {
				z = -2*q - 1
			}
			n += int(z>>r) + 1 + r
		}
		riceBits = min(riceBits, n)
	}
	return 17 + (width*len(qs)+7)/8, 17 + (riceBits+7)/8
}

// marker is the first four bytes of a step's form.
func marker(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }

// TestCompactStep: a step with ascending indices whose deltas share a
// power of two (what distill.FitDraughts makes of a whole net) is kept in
// the shortest of the packed form, the Rice form and the sparse one, and
// reads back exactly: multiples up to 7, 15 (a rounding fit's), 127, 128,
// 32767 and 2^30, odd spans whose last byte is partly used, a step that
// changes every third weight, multiples that are all even (a power of two
// more), and random steps, uniform (packed) and mostly small (Rice).
func TestCompactStep(t *testing.T) {
	for _, c := range []struct {
		name        string
		largest     int64
		span, every int
	}{
		{"15 over a draughts net", 15, 4102, 1},
		{"7, an odd span", 7, 2997, 1},
		{"127", 127, 2997, 1},
		{"128", 128, 2997, 1},
		{"32767, every third weight", 32767, 3000, 3},
		{"2^30", 1 << 30, 5, 1},
		{"1, two far apart", 1, 90000, 89999},
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
		packed, rice := compactSizes(qs)
		if want := min(packed, rice, 4+8*len(step)); len(b) != want {
			t.Errorf("%s: %d bytes, want %d (packed %d, Rice %d, sparse %d)", c.name, len(b), want, packed, rice, 4+8*len(step))
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
	for trial := range 400 {
		width := 2 + trial%23 // up to 24 bits: every multiple float32-exact
		top := int64(1)<<(width-1) - 1
		qs := make([]int64, 1+rng.IntN(300))
		small := trial%2 == 1 // mostly small: a geometric |q|, as a rounding fit's
		for i := range qs {
			if small {
				q := int64(0)
				for q < top && rng.IntN(3) > 0 {
					q++
				}
				qs[i] = q * (1 - 2*rng.Int64N(2))
			} else {
				qs[i] = rng.Int64N(2*top+1) - top
			}
		}
		qs[0], qs[len(qs)-1] = top, 1 // 1: an odd multiple, so the power of two is 2^k itself
		step := multiples(int32(rng.IntN(1000)), rng.IntN(60)-40, qs)
		b := lineage.EncodeStep(step)
		packed, rice := compactSizes(qs)
		if want := min(packed, rice, 4+8*len(step)); len(b) != want {
			t.Fatalf("a random step of %d bits, %d weights (mostly small %v): %d bytes, want %d", width, len(qs), small, len(b), want)
		}
		if got, err := lineage.DecodeStep(b); err != nil || !slices.Equal(got, step) {
			t.Fatalf("a random step of %d bits, %d weights (mostly small %v): %v", width, len(qs), small, err)
		}
	}
}

// TestFormsChosen: a rounding fit's step over a draughts net, mostly
// small multiples up to 15, is kept in the Rice form, about a quarter
// shorter than packed; multiples spread evenly up to 15 are kept packed,
// 5 bits a weight.
func TestFormsChosen(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	laplace, even := make([]int64, 4102), make([]int64, 4102)
	for i := range laplace {
		laplace[i] = max(-15, min(15, int64(math.Round(rng.ExpFloat64()*2.2*float64(1-2*rng.IntN(2))))))
		even[i] = rng.Int64N(31) - 15
	}
	laplace[0], even[0] = 15, 15
	laplace[1], even[1] = 1, 1
	b := lineage.EncodeStep(multiples(0, -12, laplace))
	packed, rice := compactSizes(laplace)
	if marker(b) != math.MaxUint32-3 || len(b) != rice || rice > packed*4/5 {
		t.Errorf("mostly small multiples: marker %#x, %d bytes; want the Rice form's %d, a fifth or more below packed's %d", marker(b), len(b), rice, packed)
	}
	b = lineage.EncodeStep(multiples(0, -12, even))
	if packed, _ := compactSizes(even); marker(b) != math.MaxUint32-2 || len(b) != packed || packed != 17+(5*4102+7)/8 {
		t.Errorf("evenly spread multiples: marker %#x, %d bytes; want the packed form's %d", marker(b), len(b), 17+(5*4102+7)/8)
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
	smallQs := make([]int64, 2997)
	for i := range smallQs {
		smallQs[i] = int64(i%5 - 2)
	}
	smallQs[0] = 15
	rice := lineage.EncodeStep(multiples(3, -12, smallQs))
	if marker(rice) != math.MaxUint32-3 {
		t.Fatalf("the test's mostly small step is not kept in the Rice form")
	}
	ones := append(slices.Clone(rice[:17]), slices.Repeat([]byte{0xff}, 600)...)
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
		"Rice: a byte short":            rice[:len(rice)-1],
		"Rice: a byte long":             append(slices.Clone(rice), 0),
		"Rice: bits past its last":      with(rice, len(rice)-1, rice[len(rice)-1]|0x80),
		"Rice: a parameter of 32":       with(rice, 16, 32),
		"Rice: ones without end":        ones,
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
