package lineage

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"evolved/nnet"
)

// A step's compact forms (see EncodeStep) open with a marker where the
// sparse form has its count, which never comes near them (nets have at
// most nnet.MaxWeights weights). Builds before the packed form wrote
// int16s after denseMarker and int8s after denseByteMarker; they still
// read.
const (
	denseMarker     = math.MaxUint32
	denseByteMarker = math.MaxUint32 - 1
	packedMarker    = math.MaxUint32 - 2
	riceMarker      = math.MaxUint32 - 3
)

// The compact forms' bounds: the bits of each weight's multiple (packed)
// or of its remainder (Rice), the largest multiple, and the power of two
// the multiples count; and their header's length.
const (
	packedMinBits, packedMaxBits = 2, 32
	largestMultiple              = 1<<(packedMaxBits-1) - 1
	packedMinK, packedMaxK       = -200, 100
	compactHeader                = 17
)

// EncodeStep returns a distillation's step as storage keeps it, in the
// shortest of three forms, all little-endian.
//
// The sparse form: the number of changes (uint32), then each change's
// index (uint32) and delta (float32 bits).
//
// The compact forms, for changes with ascending indices (a fit over a
// whole net, such as distill.FitDraughts, changes nearly every weight)
// whose deltas are whole multiples q*2^k, |q| < 2^31, of the largest power
// of two that divides them all: a marker (uint32), the first index and
// the number of weights the step spans (uint32 each), k (int32), a
// parameter byte, then a stream of bits, from the low bit of the first
// byte on, that holds q for each weight of the span (0 where nothing
// changes), the last byte's unused bits 0:
//   - packed (packedMarker): the parameter is the bits b each q takes,
//     the fewest that hold the largest |q| and its sign; each q is b-bit
//     two's complement;
//   - Rice (riceMarker): the parameter is r; each q is z = 2q (q >= 0) or
//     -2q-1 (q < 0), written as z>>r one bits, a zero bit, then z's low
//     r bits. Short where most multiples are small: a draughts fit's
//     step, each change rounded to a multiple of at most 15 (distill's
//     stepLargest), takes about 3.6 bits a weight where packed it takes 5.
func EncodeStep(step []Change) []byte {
	best := encodeSparse(step)
	if m, ok := toMultiples(step); ok {
		for _, b := range [][]byte{m.packed(), m.rice()} {
			if len(b) < len(best) {
				best = b
			}
		}
	}
	return best
}

// encodeSparse returns step's sparse form.
func encodeSparse(step []Change) []byte {
	b := binary.LittleEndian.AppendUint32(make([]byte, 0, 4+8*len(step)), uint32(len(step)))
	for _, c := range step {
		b = binary.LittleEndian.AppendUint32(b, uint32(c.Index))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(c.Delta))
	}
	return b
}

// multiples is a step as whole multiples of one power of two: weight
// first+i changes by qs[i]*2^k.
type multiples struct {
	first uint32
	k     int
	qs    []int64
}

// toMultiples returns step as multiples of the largest power of two that
// divides all its deltas, if the compact forms can hold it.
func toMultiples(step []Change) (multiples, bool) {
	if len(step) == 0 {
		return multiples{}, false
	}
	k := math.MaxInt
	for i, c := range step {
		d := float64(c.Delta)
		if d == 0 || math.IsInf(d, 0) || math.IsNaN(d) || (i > 0 && c.Index <= step[i-1].Index) {
			return multiples{}, false
		}
		// d = frac * 2^e with frac's 24 significant bits a whole number
		// m * 2^-24: d is a whole multiple of 2^(e-24+trailing zeros of m).
		frac, e := math.Frexp(math.Abs(d))
		m := uint32(math.Ldexp(frac, 24))
		k = min(k, e-24+bits.TrailingZeros32(m))
	}
	if k < packedMinK || k > packedMaxK {
		return multiples{}, false
	}
	first := step[0].Index
	m := multiples{first: uint32(first), k: k, qs: make([]int64, step[len(step)-1].Index-first+1)}
	for _, c := range step {
		q := math.Ldexp(float64(c.Delta), -k)
		if math.Abs(q) > largestMultiple || float32(math.Ldexp(q, k)) != c.Delta {
			return multiples{}, false
		}
		m.qs[c.Index-first] = int64(q)
	}
	return m, true
}

// header returns the compact form's header: marker, first index, span, k
// and the parameter byte.
func (m multiples) header(marker uint32, param int, body int) []byte {
	b := binary.LittleEndian.AppendUint32(make([]byte, 0, compactHeader+body), marker)
	b = binary.LittleEndian.AppendUint32(b, m.first)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(m.qs)))
	b = binary.LittleEndian.AppendUint32(b, uint32(int32(m.k)))
	return append(b, byte(param))
}

// packed returns m's packed form.
func (m multiples) packed() []byte {
	var largest int64
	for _, q := range m.qs {
		largest = max(largest, q, -q)
	}
	width := max(packedMinBits, bits.Len64(uint64(largest))+1)
	var w bitWriter
	for _, q := range m.qs {
		w.write(uint64(q), width)
	}
	return append(m.header(packedMarker, width, len(w.buf)), w.buf...)
}

// zigzag maps q to 2q (q >= 0) or -2q-1 (q < 0), and unzigzag back.
func zigzag(q int64) uint64   { return uint64(q<<1) ^ uint64(q>>63) }
func unzigzag(z uint64) int64 { return int64(z>>1) ^ -int64(z&1) }

// rice returns m's Rice form with the parameter that makes it shortest.
func (m multiples) rice() []byte {
	best, bestBits := 0, uint64(math.MaxUint64)
	for r := range packedMaxBits {
		var n uint64
		for _, q := range m.qs {
			n += zigzag(q)>>r + 1 + uint64(r)
		}
		if n < bestBits {
			best, bestBits = r, n
		}
	}
	var w bitWriter
	for _, q := range m.qs {
		z := zigzag(q)
		for range z >> best {
			w.write(1, 1)
		}
		w.write(0, 1)
		w.write(z, best)
	}
	return append(m.header(riceMarker, best, len(w.buf)), w.buf...)
}

// bitWriter appends bits to buf from the low bit of each byte on.
type bitWriter struct {
	buf []byte
	n   uint64 // bits written
}

// write appends the width low bits of v.
func (w *bitWriter) write(v uint64, width int) {
	for i := range width {
		if w.n%8 == 0 {
			w.buf = append(w.buf, 0)
		}
		w.buf[w.n/8] |= byte(v>>i&1) << (w.n % 8)
		w.n++
	}
}

// bitReader reads what a bitWriter wrote.
type bitReader struct {
	buf []byte
	n   uint64 // bits read
}

// read returns the next width bits, false past the end.
func (r *bitReader) read(width int) (uint64, bool) {
	if r.n+uint64(width) > 8*uint64(len(r.buf)) {
		return 0, false
	}
	var v uint64
	for i := range width {
		v |= uint64(r.buf[r.n/8]>>(r.n%8)&1) << i
		r.n++
	}
	return v, true
}

// rest reports whether what is left is less than a byte of zero bits.
func (r *bitReader) rest() bool {
	left := 8*uint64(len(r.buf)) - r.n
	if left >= 8 {
		return false
	}
	v, _ := r.read(int(left))
	return v == 0
}

// DecodeStep reads what EncodeStep wrote, and the int16 and int8 dense
// forms of builds before; a blob that is not one of these is ErrRecipe.
func DecodeStep(b []byte) ([]Change, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("%w: a distillation's step of %d bytes", ErrRecipe, len(b))
	}
	switch n := binary.LittleEndian.Uint32(b); n {
	case packedMarker, riceMarker:
		return decodeCompact(b)
	case denseMarker:
		return decodeDense(b, 2)
	case denseByteMarker:
		return decodeDense(b, 1)
	default:
		if uint64(len(b)) != 4+8*uint64(n) {
			return nil, fmt.Errorf("%w: a distillation's step of %d bytes says it holds %d changes", ErrRecipe, len(b), n)
		}
		step := make([]Change, n)
		for i := range step {
			off := 4 + 8*i
			step[i] = Change{Index: int32(binary.LittleEndian.Uint32(b[off:])), Delta: math.Float32frombits(binary.LittleEndian.Uint32(b[off+4:]))}
		}
		return step, nil
	}
}

// checkSpan refuses a compact or dense step's span beyond any net and its
// power of two beyond what an encoder writes.
func checkSpan(first, span uint32, k int) error {
	switch {
	case span == 0 || uint64(first)+uint64(span) > nnet.MaxWeights:
		return fmt.Errorf("%w: a distillation's step spans weights %d to %d", ErrRecipe, first, uint64(first)+uint64(span))
	case k < packedMinK || k > packedMaxK:
		return fmt.Errorf("%w: a distillation's step in units of 2^%d", ErrRecipe, k)
	}
	return nil
}

// decodeCompact reads a step's packed or Rice form.
func decodeCompact(b []byte) ([]Change, error) {
	if len(b) < compactHeader {
		return nil, fmt.Errorf("%w: a compact distillation's step of %d bytes", ErrRecipe, len(b))
	}
	rice := binary.LittleEndian.Uint32(b) == riceMarker
	first, span := binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])
	k, param := int(int32(binary.LittleEndian.Uint32(b[12:]))), int(b[16])
	if err := checkSpan(first, span, k); err != nil {
		return nil, err
	}
	if rice && param >= packedMaxBits || !rice && (param < packedMinBits || param > packedMaxBits) {
		return nil, fmt.Errorf("%w: a compact distillation's step with parameter %d", ErrRecipe, param)
	}
	r := bitReader{buf: b[compactHeader:]}
	var step []Change
	for i := range span {
		var q int64
		if rice {
			var high uint64
			for {
				bit, ok := r.read(1)
				if !ok || high > largestMultiple {
					return nil, fmt.Errorf("%w: a Rice distillation's step ends or overflows at weight %d of %d", ErrRecipe, i, span)
				}
				if bit == 0 {
					break
				}
				high++
			}
			low, ok := r.read(param)
			if !ok {
				return nil, fmt.Errorf("%w: a Rice distillation's step ends at weight %d of %d", ErrRecipe, i, span)
			}
			q = unzigzag(high<<param | low)
		} else {
			v, ok := r.read(param)
			if !ok {
				return nil, fmt.Errorf("%w: a packed distillation's step ends at weight %d of %d", ErrRecipe, i, span)
			}
			q = int64(v<<(64-param)) >> (64 - param) // sign-extended
		}
		if q < -largestMultiple || q > largestMultiple || !rice && q < -(int64(1)<<(param-1)-1) {
			return nil, fmt.Errorf("%w: a compact distillation's step has a multiple %d, beyond its form's", ErrRecipe, q)
		}
		if q != 0 {
			step = append(step, Change{Index: int32(first + i), Delta: float32(math.Ldexp(float64(q), k))})
		}
	}
	if !r.rest() {
		return nil, fmt.Errorf("%w: a compact distillation's step has bits past its last weight", ErrRecipe)
	}
	return step, nil
}

// decodeDense reads the dense form of builds before the packed form: the
// packed form's header without its width, then each multiple in width
// bytes (1: int8, 2: int16).
func decodeDense(b []byte, width int) ([]Change, error) {
	if len(b) < 16 {
		return nil, fmt.Errorf("%w: a dense distillation's step of %d bytes", ErrRecipe, len(b))
	}
	first, span := binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])
	k := int(int32(binary.LittleEndian.Uint32(b[12:])))
	if err := checkSpan(first, span, k); err != nil {
		return nil, err
	}
	if uint64(len(b)) != 16+uint64(width)*uint64(span) {
		return nil, fmt.Errorf("%w: a dense distillation's step of %d bytes, %d a weight, says it spans %d weights", ErrRecipe, len(b), width, span)
	}
	var step []Change
	for i := range int(span) {
		q := int(int8(b[16+i]))
		if width == 2 {
			q = int(int16(binary.LittleEndian.Uint16(b[16+2*i:])))
		}
		if q != 0 {
			step = append(step, Change{Index: int32(first) + int32(i), Delta: float32(math.Ldexp(float64(q), k))})
		}
	}
	return step, nil
}
