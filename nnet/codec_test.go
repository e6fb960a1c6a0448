package nnet

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash/crc32"
	"math"
	"slices"
	"strings"
	"testing"
)

// perspectiveCodecFlags are the flags codecNets puts beside Perspective:
// none, each part of the genome that follows the net, and all of them.
var perspectiveCodecFlags = []Flags{0, SelfAdaptive, EvolveKing, EvolvePieceValues, EvolvePST | TaperedTables,
	EvolveTerms | EvolveMoreTerms | TaperedTerms | EvolveKingDanger,
	knownFlags &^ (Perspective | PieceDiff)}

// codecNets returns nets covering every flag combination (with
// Perspective, those of perspectiveCodecFlags) and a few shapes.
func codecNets(t testing.TB) []*Net {
	var nets []*Net
	for flags := Flags(0); flags <= knownFlags; flags++ {
		if flags&(EvolveMoreTerms|TaperedTerms) != 0 && flags&EvolveTerms == 0 ||
			flags&EvolveKingDanger != 0 && flags&EvolveMoreTerms == 0 ||
			flags&TaperedTables != 0 && flags&EvolvePST == 0 {
			continue // the more terms and the king danger table follow the basic terms, which tapering needs, as tapered tables need tables
		}
		if flags&Perspective != 0 && !slices.Contains(perspectiveCodecFlags, flags&^Perspective) {
			continue // its wide first layer makes each a slow case: a few cover the layout's parts
		}
		sizes := draughtsSizes
		switch {
		case flags&Perspective != 0:
			sizes = []int{NumChessInputs, 4, 1}
		case flags&(EvolvePST|EvolveTerms) != 0:
			sizes = ChessSizes(4) // tables and terms are for chess nets
		}
		nets = append(nets, testNet(t, sizes, flags, 80+uint64(flags)))
	}
	nets = append(nets, testNet(t, []int{3, 1}, 0, 90), testNet(t, []int{4, 5, 6, 2}, allExtras, 91))
	return nets
}

// TestBinaryRoundTrip checks that every net reads back equal, that the
// bytes are deterministic, and that WriteTo and ReadNet agree with
// MarshalBinary and UnmarshalBinary, including on a stream of several nets.
func TestBinaryRoundTrip(t *testing.T) {
	var stream bytes.Buffer
	nets := codecNets(t)
	for _, n := range nets {
		b1, err := n.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := n.Clone().MarshalBinary()
		if !bytes.Equal(b1, b2) || len(b1) != n.binarySize() {
			t.Fatalf("%v: MarshalBinary not deterministic or wrong size", n.Sizes())
		}
		var m Net
		if err := m.UnmarshalBinary(b1); err != nil {
			t.Fatalf("%v %v: %v", n.Sizes(), n.Flags(), err)
		}
		if !m.Equal(n) {
			t.Fatalf("%v %v: round trip changed the net", n.Sizes(), n.Flags())
		}
		if k, err := n.WriteTo(&stream); err != nil || k != int64(len(b1)) {
			t.Fatalf("WriteTo = %d, %v; want %d, nil", k, err, len(b1))
		}
	}
	for i, n := range nets {
		m, err := ReadNet(&stream)
		if err != nil || !m.Equal(n) {
			t.Fatalf("net %d of the stream: %v", i, err)
		}
	}
	if stream.Len() != 0 {
		t.Errorf("%d bytes left in the stream", stream.Len())
	}
	// -0 survives, bit for bit.
	n, _ := New([]int{1, 1}, 0)
	n, _ = n.WithWeights([]float64{math.Copysign(0, -1), 1})
	b, _ := n.MarshalBinary()
	var m Net
	if err := m.UnmarshalBinary(b); err != nil || !math.Signbit(m.w[0]) {
		t.Errorf("-0 weight: read %v, %v", m.w, err)
	}
}

// TestBinaryGolden pins version 1 of the format: a small net's exact bytes
// (0.1 is not a float32, so the values take 8 bytes).
func TestBinaryGolden(t *testing.T) {
	n, _ := New([]int{2, 1}, PieceDiff)
	n, _ = n.WithWeights([]float64{0.5, -1, 0.25, 0.1})
	got, _ := n.MarshalBinary()
	want := "45564e4e" + // magic "EVNN"
		"0100" + "0200" + "01000000" + // version 1, 2 layers, flags PieceDiff
		"02000000" + "01000000" + // sizes 2, 1
		"000000000000f83f" + // K = 1.5
		"04000000" + // 4 weights
		"000000000000e03f" + "000000000000f0bf" + "000000000000d03f" + "9a9999999999b93f"
	body, _ := hex.DecodeString(want)
	want += hex.EncodeToString(binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE(body)))
	if hex.EncodeToString(got) != want {
		t.Errorf("MarshalBinary =\n%x\nwant\n%s", got, want)
	}
}

// TestBinaryGoldenFloat32 pins version 2: the same net with float32 values
// takes 4 bytes a value, and reads back bit for bit.
func TestBinaryGoldenFloat32(t *testing.T) {
	n, _ := New([]int{2, 1}, PieceDiff)
	n, _ = n.WithWeights([]float64{0.5, -1, 0.25, float64(float32(0.1))})
	got, _ := n.MarshalBinary()
	want := "45564e4e" + // magic "EVNN"
		"0200" + "0200" + "01000000" + // version 2, 2 layers, flags PieceDiff
		"02000000" + "01000000" + // sizes 2, 1
		"0000c03f" + // K = 1.5
		"04000000" + // 4 weights
		"0000003f" + "000080bf" + "0000803e" + "cdcccc3d"
	body, _ := hex.DecodeString(want)
	want += hex.EncodeToString(binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE(body)))
	if hex.EncodeToString(got) != want {
		t.Errorf("MarshalBinary =\n%x\nwant\n%s", got, want)
	}
	var m Net
	if err := m.UnmarshalBinary(got); err != nil || !m.Equal(n) {
		t.Errorf("read back: %v, equal %v", err, m.Equal(n))
	}
	// One value that is not a float32 makes the whole net version 1.
	n, _ = n.WithWeights([]float64{0.5, -1, 0.25, 0.1})
	if b, _ := n.MarshalBinary(); b[4] != 1 || n.Float32Exact() {
		t.Errorf("a net with 0.1 as a float64: version %d, Float32Exact %v; want 1, false", b[4], n.Float32Exact())
	}
}

// withCRC returns b with its last four bytes replaced by the CRC-32 of the rest.
func withCRC(b []byte) []byte {
	b = bytes.Clone(b)
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
	return b
}

// TestBinaryErrors checks that each kind of damage gives its own error,
// names the operation, and never panics, in both versions of the format.
func TestBinaryErrors(t *testing.T) {
	evolved := testNet(t, []int{3, 2, 1}, allExtras, 92) // float32 values: version 2
	w := evolved.Weights()
	w[0] += 1e-12 // not a float32 any more: version 1
	wide, err := evolved.WithWeights(w)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []*Net{wide, evolved} {
		good, _ := n.MarshalBinary()
		width, version := 8, FormatVersion
		if n.Float32Exact() {
			width, version = 4, FormatVersionFloat32
		}
		if got := int(binary.LittleEndian.Uint16(good[4:])); got != version {
			t.Fatalf("version %d, want %d", got, version)
		}
		patch := func(off int, bytes ...byte) []byte {
			b := append([]byte(nil), good...)
			copy(b[off:], bytes)
			return b
		}
		nan := []byte{1, 0, 0, 0, 0, 0, 0xf8, 0x7f}
		if width == 4 {
			nan = []byte{1, 0, 0xc0, 0x7f}
		}
		weights := 12 + 4*3 + width + 4 // offset of the first weight
		for _, c := range []struct {
			name string
			data []byte
			want error
		}{
			{"empty", nil, ErrTruncated},
			{"bad magic", patch(0, 'E', 'V', 'N', 'X'), ErrMagic},
			{"a PNG", []byte("\x89PNG\r\n\x1a\n...."), ErrMagic},
			{"version 3", patch(4, 3, 0), ErrVersion},
			{"version 0", patch(4, 0, 0), ErrVersion},
			{"one layer", patch(6, 1, 0), ErrArchitecture},
			{"a layer of 0 nodes", patch(12+4, 0, 0, 0, 0), ErrArchitecture},
			{"a layer too wide", patch(12, 0, 0, 2, 0), ErrArchitecture},
			{"too many weights", patch(12, 0, 0, 1, 0, 0, 0, 1, 0), ErrArchitecture},
			{"unknown flag", patch(11, 0x80), ErrFlags}, // bit 31
			{"weight count", withCRC(patch(weights-4, 9)), ErrCorrupt},
			{"flipped weight bit", patch(weights+3, good[weights+3]^0x10), ErrChecksum},
			{"flipped checksum bit", patch(len(good)-1, good[len(good)-1]^1), ErrChecksum},
			{"NaN weight", withCRC(patch(weights, nan...)), ErrValue},
			{"negative sigma", withCRC(patch(weights+width*n.NumWeights()+width-1, 0xbf)), ErrValue},
			{"zero king", withCRC(patch(weights-4-width, make([]byte, width)...)), ErrValue},
			{"trailing byte", append(bytes.Clone(good), 0), ErrCorrupt},
		} {
			var m Net
			err := m.UnmarshalBinary(c.data)
			if !errors.Is(err, c.want) {
				t.Errorf("version %d, %s: error %v, want %v", version, c.name, err, c.want)
				continue
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "read net: nnet: ") {
				t.Errorf("version %d, %s: error %q does not name the operation and package", version, c.name, msg)
			}
		}
		// Every truncation is ErrTruncated.
		for i := range len(good) {
			if _, err := ReadNet(bytes.NewReader(good[:i])); !errors.Is(err, ErrTruncated) {
				t.Fatalf("version %d truncated to %d of %d bytes: error %v, want ErrTruncated", version, i, len(good), err)
			}
		}
	}
	// A reader's own error is passed on.
	boom := errors.New("boom")
	if _, err := ReadNet(failingReader{boom}); !errors.Is(err, boom) {
		t.Errorf("failing reader: error %v, want %v", err, boom)
	}
}

// failingReader fails every read.
type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) { return 0, r.err }

// TestBinaryLyingHeader checks that a header claiming the largest allowed
// net, followed by nothing, fails fast without allocating for it.
func TestBinaryLyingHeader(t *testing.T) {
	var b []byte
	b = append(b, Magic...)
	b = binary.LittleEndian.AppendUint16(b, FormatVersion)
	b = binary.LittleEndian.AppendUint16(b, 2)
	b = binary.LittleEndian.AppendUint32(b, uint32(SelfAdaptive))
	b = binary.LittleEndian.AppendUint32(b, 4095)
	b = binary.LittleEndian.AppendUint32(b, 4095)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(1.5))
	b = binary.LittleEndian.AppendUint32(b, 4095*4096)
	allocs := testing.AllocsPerRun(10, func() {
		if _, err := ReadNet(bytes.NewReader(b)); !errors.Is(err, ErrTruncated) {
			t.Fatalf("error %v, want ErrTruncated", err)
		}
	})
	if allocs > 20 {
		t.Errorf("%v allocations", allocs)
	}
}

// TestJSONRoundTrip checks JSON: exact round trips, determinism, the
// documented field names.
func TestJSONRoundTrip(t *testing.T) {
	for _, n := range codecNets(t) {
		b1, err := json.Marshal(n)
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := json.Marshal(n.Clone())
		if !bytes.Equal(b1, b2) {
			t.Fatal("MarshalJSON not deterministic")
		}
		var m Net
		if err := json.Unmarshal(b1, &m); err != nil {
			t.Fatalf("%v %v: %v", n.Sizes(), n.Flags(), err)
		}
		if !m.Equal(n) {
			t.Fatalf("%v %v: JSON round trip changed the net", n.Sizes(), n.Flags())
		}
	}
	n, _ := New([]int{2, 1}, PieceDiff|SelfAdaptive)
	n, _ = n.WithWeights([]float64{0.5, -1, 0.25, 2})
	got, _ := json.Marshal(n)
	want := `{"version":1,"sizes":[2,1],"flags":["piece-diff","self-adaptive"],"king":1.5,` +
		`"weights":[0.5,-1,0.25,2],"sigmas":[0.05,0.05,0.05,0.05]}`
	if string(got) != want {
		t.Errorf("MarshalJSON = %s, want %s", got, want)
	}
}

// TestJSONErrors checks each kind of bad JSON.
func TestJSONErrors(t *testing.T) {
	const base = `"sizes":[2,1],"flags":[],"king":1.5,"weights":[1,2,3]`
	for _, c := range []struct {
		name, data string
		want       error
	}{
		{"not JSON", `{"version":1,`, ErrCorrupt},
		{"no version", `{` + base + `}`, ErrVersion},
		{"version 2", `{"version":2,` + base + `}`, ErrVersion},
		{"unknown field", `{"version":1,"bias":0,` + base + `}`, ErrCorrupt},
		{"unknown flag", `{"version":1,"sizes":[2,1],"flags":["deep"],"king":1.5,"weights":[1,2,3]}`, ErrFlags},
		{"bad sizes", `{"version":1,"sizes":[2],"flags":[],"king":1.5,"weights":[1,2,3]}`, ErrArchitecture},
		{"weight count", `{"version":1,"sizes":[2,1],"flags":[],"king":1.5,"weights":[1,2]}`, ErrCorrupt},
		{"no king", `{"version":1,"sizes":[2,1],"flags":[],"weights":[1,2,3]}`, ErrCorrupt},
		{"negative king", `{"version":1,"sizes":[2,1],"flags":[],"king":-1,"weights":[1,2,3]}`, ErrValue},
		{"sigmas without flag", `{"version":1,` + base + `,"sigmas":[1,1,1]}`, ErrCorrupt},
		{"missing sigmas", `{"version":1,"sizes":[2,1],"flags":["self-adaptive"],"king":1.5,"weights":[1,2,3]}`, ErrCorrupt},
		{"negative sigma", `{"version":1,"sizes":[2,1],"flags":["self-adaptive"],"king":1.5,"weights":[1,2,3],"sigmas":[1,-1,1]}`, ErrValue},
		{"huge number", `{"version":1,"sizes":[2,1],"flags":[],"king":1.5,"weights":[1,2,1e999]}`, ErrCorrupt},
		{"two objects", `{"version":1,` + base + `}{}`, ErrCorrupt},
	} {
		var m Net
		err := json.Unmarshal([]byte(c.data), &m)
		if c.name == "not JSON" || c.name == "two objects" { // json.Unmarshal checks syntax itself
			err = m.UnmarshalJSON([]byte(c.data))
		}
		if !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
			continue
		}
		if !strings.Contains(err.Error(), "unmarshal net: nnet: ") {
			t.Errorf("%s: error %q does not name the operation and package", c.name, err)
		}
	}
}

// FuzzReadNet checks that ReadNet never panics, and that whatever it
// accepts writes back to exactly the bytes it read.
func FuzzReadNet(f *testing.F) {
	for _, n := range codecNets(f)[8:] {
		b, _ := n.MarshalBinary()
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	small, _ := New([]int{1, 1}, knownFlags&^(EvolvePST|EvolveTerms|EvolveMoreTerms|TaperedTerms|EvolveKingDanger|TaperedTables|Perspective)) // tables, terms and perspective need a chess net: codecNets has those
	b, _ := small.MarshalBinary()
	f.Add(b)
	f.Add([]byte(Magic))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		n, err := ReadNet(r)
		if err != nil {
			return
		}
		out, _ := n.MarshalBinary()
		if read := data[:len(data)-r.Len()]; !bytes.Equal(out, read) {
			t.Fatalf("read %x, wrote back %x", read, out)
		}
	})
}

// FuzzUnmarshalJSON checks that UnmarshalJSON never panics, and that
// whatever it accepts survives a JSON round trip.
func FuzzUnmarshalJSON(f *testing.F) {
	for _, n := range codecNets(f)[8:] {
		b, _ := json.Marshal(n)
		f.Add(b)
	}
	f.Add([]byte(`{"version":1,"sizes":[2,1],"flags":["piece-diff"],"king":1.5,"weights":[1,2,3,-0]}`))
	f.Add([]byte(`{"version":1,"sizes":[2,1],"flags":[],"king":1.5,"weights":[1,2]}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var n Net
		if err := n.UnmarshalJSON(data); err != nil {
			return
		}
		out, err := json.Marshal(&n)
		if err != nil {
			t.Fatal(err)
		}
		var m Net
		if err := json.Unmarshal(out, &m); err != nil || !m.Equal(&n) {
			t.Fatalf("round trip of %s: %v", out, err)
		}
	})
}
