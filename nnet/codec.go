package nnet

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
)

// The binary format, version 1. All integers and floats are little-endian;
// floats are IEEE 754 binary64 bit patterns, so a net reads back bit for bit.
//
//	offset  size  field
//	0       4     magic "EVNN"
//	4       2     format version (uint16) = 1
//	6       2     number of layers L (uint16), inputs and output included
//	8       4     flags (uint32, see Flags)
//	12      4*L   layer sizes (uint32 each), inputs first
//	        8     K, the king value (float64)
//	        4     number of weights W (uint32); must match sizes and flags
//	        8*W   the weights in storage order (see Net)
//	        8*W   the sigmas, present only with SelfAdaptive
//	        4     CRC-32 (IEEE) of every byte before it
//
// Version 2 is the same layout with every float (K, weights, sigmas) an
// IEEE 754 binary32 of 4 bytes. The writer uses it exactly when every value
// of the net is a float32 (Float32Exact), as the values of evolved nets
// are, so it halves what a genome costs and still reads back bit for bit;
// any other net is written as version 1.
//
// The same net always gives the same bytes. A reader checks, in order, the
// magic, the version, the architecture and flags, the weight count, the
// checksum, then the values; each failure wraps the matching sentinel error.

// Magic is the first four bytes of a net in the binary format.
const Magic = "EVNN"

// FormatVersion is the version of the JSON format, and of the binary
// format with binary64 values. The binary reader also reads
// FormatVersionFloat32.
const FormatVersion = 1

// FormatVersionFloat32 is the version of the binary format with binary32
// values, which MarshalBinary writes for a net whose values are all float32s.
const FormatVersionFloat32 = 2

// MarshalBinary returns n in the binary format.
func (n *Net) MarshalBinary() ([]byte, error) {
	return n.AppendBinary(make([]byte, 0, n.binarySize()))
}

// binarySize returns the length of n in the binary format.
func (n *Net) binarySize() int {
	width := 8
	if n.Float32Exact() {
		width = 4
	}
	return 12 + 4*len(n.sizes) + width + 4 + width*(len(n.w)+len(n.sigma)) + 4
}

// Float32Exact reports whether every value of n (K, the weights and the
// sigmas) is exactly a float32. It holds for every net that Random and the
// variation operators make, and decides the binary format's version.
func (n *Net) Float32Exact() bool {
	exact := func(x float64) bool { return float64(float32(x)) == x || math.IsNaN(x) }
	if !exact(n.king) {
		return false
	}
	for _, w := range n.w {
		if !exact(w) {
			return false
		}
	}
	for _, s := range n.sigma {
		if !exact(s) {
			return false
		}
	}
	return true
}

// AppendBinary appends n in the binary format to b: version 2 (binary32
// values) when n.Float32Exact(), else version 1.
func (n *Net) AppendBinary(b []byte) ([]byte, error) {
	start := len(b)
	version := uint16(FormatVersion)
	value := func(b []byte, x float64) []byte { return binary.LittleEndian.AppendUint64(b, math.Float64bits(x)) }
	if n.Float32Exact() {
		version = FormatVersionFloat32
		value = func(b []byte, x float64) []byte {
			return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(x)))
		}
	}
	b = append(b, Magic...)
	b = binary.LittleEndian.AppendUint16(b, version)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(n.sizes)))
	b = binary.LittleEndian.AppendUint32(b, uint32(n.flags))
	for _, s := range n.sizes {
		b = binary.LittleEndian.AppendUint32(b, uint32(s))
	}
	b = value(b, n.king)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(n.w)))
	for _, w := range n.w {
		b = value(b, w)
	}
	for _, s := range n.sigma {
		b = value(b, s)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:])), nil
}

// WriteTo writes n in the binary format to w. It implements io.WriterTo.
func (n *Net) WriteTo(w io.Writer) (int64, error) {
	b, _ := n.MarshalBinary()
	k, err := w.Write(b)
	if err != nil {
		return int64(k), fmt.Errorf("write net: %w", err)
	}
	return int64(k), nil
}

// UnmarshalBinary sets n to the net in data, which must hold exactly one
// net in the binary format (trailing bytes are ErrCorrupt). On error n is
// unchanged.
func (n *Net) UnmarshalBinary(data []byte) error {
	r := bytes.NewReader(data)
	m, err := ReadNet(r)
	if err != nil {
		return err
	}
	if r.Len() != 0 {
		return fmt.Errorf("read net: %w: %d bytes after the checksum", ErrCorrupt, r.Len())
	}
	*n = *m
	return nil
}

// ReadNet reads one net in the binary format from r, reading no further
// than its checksum, so nets can be concatenated in one stream. Errors wrap
// ErrMagic, ErrVersion, ErrArchitecture, ErrFlags, ErrCorrupt, ErrTruncated,
// ErrChecksum or ErrValue, or the reader's own error; ReadNet never panics,
// and allocates in proportion to the bytes actually read, not to what a
// corrupt header claims.
func ReadNet(r io.Reader) (*Net, error) {
	n, err := readNet(r)
	if err != nil {
		return nil, fmt.Errorf("read net: %w", err)
	}
	return n, nil
}

// netReader reads little-endian fields and keeps a CRC-32 of what it read.
type netReader struct {
	r   io.Reader
	crc uint32
	buf [8]byte
}

// read fills b, naming what in an error.
func (nr *netReader) read(b []byte, what string) error {
	if _, err := io.ReadFull(nr.r, b); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("%w: in %s", ErrTruncated, what)
		}
		return fmt.Errorf("%s: %w", what, err)
	}
	nr.crc = crc32.Update(nr.crc, crc32.IEEETable, b)
	return nil
}

func (nr *netReader) uint16(what string) (uint16, error) {
	err := nr.read(nr.buf[:2], what)
	return binary.LittleEndian.Uint16(nr.buf[:2]), err
}

func (nr *netReader) uint32(what string) (uint32, error) {
	err := nr.read(nr.buf[:4], what)
	return binary.LittleEndian.Uint32(nr.buf[:4]), err
}

// floats reads count floats of width bytes (8: binary64, 4: binary32), a
// chunk at a time so that a lying header costs no more memory than the
// data present.
func (nr *netReader) floats(count, width int, what string) ([]float64, error) {
	const chunk = 512
	out := make([]float64, 0, min(count, chunk))
	var raw [8 * chunk]byte
	for len(out) < count {
		k := min(count-len(out), chunk)
		if err := nr.read(raw[:width*k], what); err != nil {
			return nil, err
		}
		for i := range k {
			if width == 4 {
				out = append(out, float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))))
			} else {
				out = append(out, math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:])))
			}
		}
	}
	return out, nil
}

func readNet(r io.Reader) (*Net, error) {
	nr := &netReader{r: r}
	var magic [4]byte
	if err := nr.read(magic[:], "magic"); err != nil {
		return nil, err
	}
	if string(magic[:]) != Magic {
		return nil, fmt.Errorf("%w: %q, want %q", ErrMagic, magic[:], Magic)
	}
	version, err := nr.uint16("version")
	if err != nil {
		return nil, err
	}
	width := 8
	switch version {
	case FormatVersion:
	case FormatVersionFloat32:
		width = 4
	default:
		return nil, fmt.Errorf("%w: version %d, want %d or %d", ErrVersion, version, FormatVersion, FormatVersionFloat32)
	}
	layers, err := nr.uint16("layer count")
	if err != nil {
		return nil, err
	}
	flags, err := nr.uint32("flags")
	if err != nil {
		return nil, err
	}
	if layers < 2 || layers > MaxLayers {
		return nil, fmt.Errorf("%w: %d layers, want 2 to %d", ErrArchitecture, layers, MaxLayers)
	}
	n := &Net{flags: Flags(flags), sizes: make([]int, layers)}
	for i := range n.sizes {
		s, err := nr.uint32("layer sizes")
		if err != nil {
			return nil, err
		}
		n.sizes[i] = int(min(s, MaxLayerSize+1)) // layout rejects it; no overflow on 32-bit int
	}
	count, err := n.layout()
	if err != nil {
		return nil, err
	}
	king, err := nr.floats(1, width, "king value")
	if err != nil {
		return nil, err
	}
	n.king = king[0]
	stored, err := nr.uint32("weight count")
	if err != nil {
		return nil, err
	}
	if int64(stored) != int64(count) {
		return nil, fmt.Errorf("%w: %d weights, architecture %v with flags %v has %d", ErrCorrupt, stored, n.sizes, n.flags, count)
	}
	if n.w, err = nr.floats(count, width, "weights"); err != nil {
		return nil, err
	}
	if n.flags&SelfAdaptive != 0 {
		if n.sigma, err = nr.floats(count, width, "sigmas"); err != nil {
			return nil, err
		}
	}
	sum := nr.crc
	stored, err = nr.uint32("checksum")
	if err != nil {
		return nil, err
	}
	if stored != sum {
		return nil, fmt.Errorf("%w: stored %#08x, computed %#08x", ErrChecksum, stored, sum)
	}
	if err := n.validate(); err != nil {
		return nil, err
	}
	return n, nil
}

// netJSON is the JSON form of a Net: the same fields as the binary format,
// with the flags as names.
type netJSON struct {
	Version *int      `json:"version"`
	Sizes   []int     `json:"sizes"`
	Flags   []string  `json:"flags"`
	King    *float64  `json:"king"`
	Weights []float64 `json:"weights"`
	Sigmas  []float64 `json:"sigmas,omitempty"`
}

// MarshalJSON returns n as a JSON object:
//
//	{"version":1,"sizes":[91,40,10,1],"flags":["piece-diff"],"king":1.5,
//	 "weights":[...],"sigmas":[...]}
//
// weights (and sigmas, present only with SelfAdaptive) are in storage order
// (see Net); numbers are written in the shortest form that reads back to
// the same float64, so a JSON round trip is exact.
func (n *Net) MarshalJSON() ([]byte, error) {
	version, king := FormatVersion, n.king
	flags := []string{}
	for i, name := range flagNames {
		if n.flags&(1<<i) != 0 {
			flags = append(flags, name)
		}
	}
	b, err := json.Marshal(netJSON{
		Version: &version, Sizes: n.sizes, Flags: flags, King: &king,
		Weights: n.w, Sigmas: n.sigma,
	})
	if err != nil {
		return nil, fmt.Errorf("marshal net: %w", err)
	}
	return b, nil
}

// UnmarshalJSON sets n from MarshalJSON's format. Unknown fields, a missing
// or other version, unknown flag names, a weight or sigma count that does
// not match the architecture, and values out of their domain are errors
// wrapping the matching sentinel. On error n is unchanged.
func (n *Net) UnmarshalJSON(data []byte) error {
	m, err := unmarshalJSON(data)
	if err != nil {
		return fmt.Errorf("unmarshal net: %w", err)
	}
	*n = *m
	return nil
}

func unmarshalJSON(data []byte) (*Net, error) {
	var j netJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the object", ErrCorrupt)
	}
	if j.Version == nil {
		return nil, fmt.Errorf("%w: no version field", ErrVersion)
	}
	if *j.Version != FormatVersion {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrVersion, *j.Version, FormatVersion)
	}
	n := &Net{sizes: j.Sizes}
	for _, name := range j.Flags {
		bit := -1
		for i, known := range flagNames {
			if name == known {
				bit = i
			}
		}
		if bit < 0 {
			return nil, fmt.Errorf("%w: %q", ErrFlags, name)
		}
		n.flags |= 1 << bit
	}
	count, err := n.layout()
	if err != nil {
		return nil, err
	}
	if j.King == nil {
		return nil, fmt.Errorf("%w: no king field", ErrCorrupt)
	}
	n.king = *j.King
	if len(j.Weights) != count {
		return nil, fmt.Errorf("%w: %d weights, architecture %v with flags %v has %d", ErrCorrupt, len(j.Weights), n.sizes, n.flags, count)
	}
	n.w = j.Weights
	switch {
	case n.flags&SelfAdaptive != 0 && len(j.Sigmas) != count:
		return nil, fmt.Errorf("%w: %d sigmas, want %d", ErrCorrupt, len(j.Sigmas), count)
	case n.flags&SelfAdaptive == 0 && j.Sigmas != nil:
		return nil, fmt.Errorf("%w: sigmas without the self-adaptive flag", ErrCorrupt)
	}
	n.sigma = j.Sigmas
	if err := n.validate(); err != nil {
		return nil, err
	}
	return n, nil
}
