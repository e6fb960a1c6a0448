package lineage

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"evolved/nnet"
)

// A step's dense forms (see EncodeStep) open with a marker where the
// sparse form has its count, which never comes near them (nets have at
// most nnet.MaxWeights weights). Builds before the packed form wrote
// int16s after denseMarker and int8s after denseByteMarker; they still
// read.
const (
	denseMarker     = math.MaxUint32
	denseByteMarker = math.MaxUint32 - 1
	packedMarker    = math.MaxUint32 - 2
)

// The packed form's bounds: the bits of each weight's multiple, and the
// power of two the multiples count.
const (
	packedMinBits, packedMaxBits = 2, 32
	packedMinK, packedMaxK       = -200, 100
	packedHeader                 = 17
)

// EncodeStep returns a distillation's step as storage keeps it, in the
// shorter of two forms, all little-endian.
//
// The sparse form: the number of changes (uint32), then each change's
// index (uint32) and delta (float32 bits).
//
// The packed form, for changes with ascending indices (a fit over a whole
// net, such as distill.FitDraughts, changes nearly every weight): every
// delta is a whole multiple q*2^k of the largest power of two that
// divides them all; packedMarker (uint32), the first index and the number
// of weights the step spans (uint32 each), k (int32), the bits b each
// multiple takes (a byte: the fewest that hold the largest |q| and its
// sign), then q for each weight of the span, 0 where nothing changes, as
// b-bit two's complement, one after another from the low bits of the
// first byte on (the last byte's unused bits 0). A fit that rounds each
// change to a multiple of at most 15 (distill's stepLargest) so takes 5
// bits a weight.
func EncodeStep(step []Change) []byte {
	if b, ok := encodePacked(step); ok && len(b) < 4+8*len(step) {
		return b
	}
	b := binary.LittleEndian.AppendUint32(make([]byte, 0, 4+8*len(step)), uint32(len(step)))
	for _, c := range step {
		b = binary.LittleEndian.AppendUint32(b, uint32(c.Index))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(c.Delta))
	}
	return b
}

// encodePacked returns step's packed form, if it has one.
func encodePacked(step []Change) ([]byte, bool) {
	if len(step) == 0 {
		return nil, false
	}
	k := math.MaxInt
	for i, c := range step {
		d := float64(c.Delta)
		if d == 0 || math.IsInf(d, 0) || math.IsNaN(d) || (i > 0 && c.Index <= step[i-1].Index) {
			return nil, false
		}
		// d = frac * 2^e with frac's 24 significant bits a whole number
		// m * 2^-24: d is a whole multiple of 2^(e-24+trailing zeros of m).
		frac, e := math.Frexp(math.Abs(d))
		m := uint32(math.Ldexp(frac, 24))
		k = min(k, e-24+bits.TrailingZeros32(m))
	}
	if k < packedMinK || k > packedMaxK {
		return nil, false
	}
	var largest float64
	for _, c := range step {
		largest = max(largest, math.Abs(math.Ldexp(float64(c.Delta), -k)))
	}
	if largest >= 1<<(packedMaxBits-1) {
		return nil, false
	}
	width := bits.Len64(uint64(largest)) + 1
	first, span := step[0].Index, uint64(step[len(step)-1].Index-step[0].Index)+1
	b := binary.LittleEndian.AppendUint32(make([]byte, 0, packedHeader+packedSize(width, span)), packedMarker)
	b = binary.LittleEndian.AppendUint32(b, uint32(first))
	b = binary.LittleEndian.AppendUint32(b, uint32(span))
	b = binary.LittleEndian.AppendUint32(b, uint32(int32(k)))
	b = append(b, byte(width))
	body := make([]byte, packedSize(width, span))
	mask := uint64(1)<<width - 1
	for _, c := range step {
		q := int64(math.Ldexp(float64(c.Delta), -k))
		if float32(math.Ldexp(float64(q), k)) != c.Delta {
			return nil, false
		}
		at := uint64(c.Index-first) * uint64(width)
		v := uint64(q) & mask << (at % 8)
		for i := at / 8; v != 0; i++ {
			body[i] |= byte(v)
			v >>= 8
		}
	}
	return append(b, body...), true
}

// packedSize is the bytes span multiples of width bits take.
func packedSize(width int, span uint64) int { return int((uint64(width)*span + 7) / 8) }

// DecodeStep reads what EncodeStep wrote, and the int16 and int8 dense
// forms of builds before; a blob that is not one of these is ErrRecipe.
func DecodeStep(b []byte) ([]Change, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("%w: a distillation's step of %d bytes", ErrRecipe, len(b))
	}
	switch n := binary.LittleEndian.Uint32(b); n {
	case packedMarker:
		return decodePacked(b)
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

// checkSpan refuses a dense or packed step's span beyond any net and its
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

// decodePacked reads a step's packed form.
func decodePacked(b []byte) ([]Change, error) {
	if len(b) < packedHeader {
		return nil, fmt.Errorf("%w: a packed distillation's step of %d bytes", ErrRecipe, len(b))
	}
	first, span := binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:])
	k, width := int(int32(binary.LittleEndian.Uint32(b[12:]))), int(b[16])
	if err := checkSpan(first, span, k); err != nil {
		return nil, err
	}
	body := b[packedHeader:]
	switch {
	case width < packedMinBits || width > packedMaxBits:
		return nil, fmt.Errorf("%w: a packed distillation's step of %d bits a weight", ErrRecipe, width)
	case len(body) != packedSize(width, uint64(span)):
		return nil, fmt.Errorf("%w: a packed distillation's step of %d bytes, %d bits a weight, says it spans %d weights", ErrRecipe, len(b), width, span)
	case (uint64(width)*uint64(span))%8 != 0 && body[len(body)-1]>>((uint64(width)*uint64(span))%8) != 0:
		return nil, fmt.Errorf("%w: a packed distillation's step has bits past its last weight", ErrRecipe)
	}
	largest := int64(1)<<(width-1) - 1
	var step []Change
	for i := range uint64(span) {
		at := i * uint64(width)
		var v uint64
		for j := range uint64(width+7)/8 + 1 {
			if at/8+j < uint64(len(body)) {
				v |= uint64(body[at/8+j]) << (8 * j)
			}
		}
		// The width bits at at, sign-extended.
		q := int64(v>>(at%8)<<(64-width)) >> (64 - width)
		if q < -largest {
			return nil, fmt.Errorf("%w: a packed distillation's step has a multiple %d, beyond its %d bits' %d", ErrRecipe, q, width, largest)
		}
		if q != 0 {
			step = append(step, Change{Index: int32(first) + int32(i), Delta: float32(math.Ldexp(float64(q), k))})
		}
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
