package cluster

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"

	"evolved/game"
)

// Jobs and results travel in a binary form (ProtocolVersion 4 on). A
// message is an envelope that every version keeps, then a body of the
// envelope's version:
//
//	job:    'E' 'J' version ID attempt                 body
//	result: 'E' 'R' version ID attempt worker          body
//
// The version is a uvarint, the attempt a varint, the ID and worker
// strings. A decoder that meets another version reads the envelope only,
// so that the job or result is refused by its version, naming it, and
// routed by its ID and attempt; a message that starts with '{' is read as
// version 3's JSON as far as those fields. Version 5's bodies, field by
// field in this order (version 4's result had no Scores):
//
//	job:    Kind Game Setup RunSeed Generation Index First Second OpeningIndex
//	        Genomes[0] Genomes[1] Positions Nodes Genome Reply
//	result: Start Moves Opening Result Reason Values Scores Error
//
// A string or bytes (Kind, Game, Setup, the FENs, ...) is a uvarint length
// and the bytes; unsigned integers (RunSeed, the move codes, counts) are
// uvarints, signed ones (Generation, Index, Nodes, Opening, the scores,
// ...) varints (zigzag); Result and Reason a byte each; a genome hash 0
// (none) or 32 and its 32 bytes; Positions, Moves, Values and Scores a
// count and the elements; a value a
// whole number of hundredths (the searches' pawns, most values) or its
// IEEE 754 bits (appendValue), so that it arrives to the bit. The setup stays games.Setup's JSON, some 50
// bytes, which workers decode refusing unknown fields.

// MaxMessage is the size in bytes of the largest job or result that is
// decoded: NATS's default max_payload (1 MiB), which no message of a
// server of default settings exceeds. Larger input is refused before it
// is read.
const MaxMessage = 1 << 20

// The first two bytes of a job and of a result. 'E' makes a JSON decoder
// (a worker of version 3) fail at once: "invalid character 'E' looking
// for beginning of value".
const (
	jobMagic    = "EJ"
	resultMagic = "ER"
)

// MarshalBinary returns the job's binary form (see AppendBinary).
func (j *Job) MarshalBinary() ([]byte, error) {
	return j.AppendBinary(make([]byte, 0, 192+len(j.Setup)+len(j.ID)+len(j.Reply)+positionsSize(j.Positions)))
}

// AppendBinary appends the job's binary form to b: the envelope of
// j.Version, then version 5's body whatever j.Version says. It refuses a
// negative version and genome hashes that are neither empty nor
// GenomeHash's 64 lowercase hex digits.
func (j *Job) AppendBinary(b []byte) ([]byte, error) {
	b, err := appendEnvelope(b, jobMagic, envelope{Version: j.Version, ID: j.ID, Attempt: j.Attempt})
	if err != nil {
		return b, err
	}
	b = appendString(b, j.Kind)
	b = appendString(b, j.Game)
	b = appendString(b, string(j.Setup))
	b = binary.AppendUvarint(b, j.RunSeed)
	for _, v := range [...]int{j.Generation, j.Index, j.First, j.Second, j.OpeningIndex} {
		b = binary.AppendVarint(b, int64(v))
	}
	for _, h := range [...]string{j.Genomes[0], j.Genomes[1]} {
		if b, err = appendHash(b, h); err != nil {
			return b, fmt.Errorf("%w: job %s: %w", ErrProtocol, j.ID, err)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(j.Positions)))
	for _, p := range j.Positions {
		b = appendString(b, p)
	}
	b = binary.AppendVarint(b, j.Nodes)
	if b, err = appendHash(b, j.Genome); err != nil {
		return b, fmt.Errorf("%w: job %s: %w", ErrProtocol, j.ID, err)
	}
	return appendString(b, j.Reply), nil
}

// UnmarshalBinary sets j to the job data holds. A job of another version
// is read as far as its envelope (Version, ID, Attempt) and of version 3
// (JSON) as far as the same fields, so that check refuses it by its
// version; malformed, truncated or oversized input, or bytes after the
// job, are refused with an error that wraps ErrProtocol and names the
// field.
func (j *Job) UnmarshalBinary(data []byte) error {
	*j = Job{}
	if old, ok, err := legacy(data, "job"); ok {
		j.Version, j.ID, j.Attempt = old.Version, old.ID, old.Attempt
		return err
	}
	r := decoder{data: data, what: "job"}
	e := r.envelope(jobMagic)
	j.Version, j.ID, j.Attempt = e.Version, e.ID, e.Attempt
	if r.err != nil || j.Version != ProtocolVersion {
		return r.err
	}
	switch kind := r.bytes("Kind"); string(kind) { // no copy for the kinds this build knows
	case SearchJob:
		j.Kind = SearchJob
	case DataJob:
		j.Kind = DataJob
	default:
		j.Kind = string(kind)
	}
	j.Game = r.string("Game")
	if setup := r.bytes("Setup"); len(setup) > 0 {
		j.Setup = bytes.Clone(setup)
	}
	j.RunSeed = r.uvarint("RunSeed")
	j.Generation = r.int("Generation")
	j.Index = r.int("Index")
	j.First = r.int("First")
	j.Second = r.int("Second")
	j.OpeningIndex = r.int("OpeningIndex")
	j.Genomes[0] = r.hash("Genomes[0]")
	j.Genomes[1] = r.hash("Genomes[1]")
	if n := r.count("Positions", 1); n > 0 {
		j.Positions = make([]string, n)
		for i := range j.Positions {
			j.Positions[i] = r.string("Positions")
		}
	}
	j.Nodes = r.varint("Nodes")
	j.Genome = r.hash("Genome")
	j.Reply = r.string("Reply")
	r.end()
	return r.err
}

// MarshalBinary returns the result's binary form (see AppendBinary).
func (res *Result) MarshalBinary() ([]byte, error) {
	return res.AppendBinary(make([]byte, 0, 64+len(res.ID)+len(res.Worker)+len(res.Start)+5*len(res.Moves)+8*len(res.Values)+3*len(res.Scores)+len(res.Error)))
}

// AppendBinary appends the result's binary form to b: the envelope of
// res.Version, then version 5's body whatever res.Version says. It
// refuses a negative version.
func (res *Result) AppendBinary(b []byte) ([]byte, error) {
	b, err := appendEnvelope(b, resultMagic, envelope{Version: res.Version, ID: res.ID, Attempt: res.Attempt, Worker: res.Worker})
	if err != nil {
		return b, err
	}
	b = appendString(b, res.Start)
	b = binary.AppendUvarint(b, uint64(len(res.Moves)))
	for _, m := range res.Moves {
		b = binary.AppendUvarint(b, m)
	}
	b = binary.AppendVarint(b, int64(res.Opening))
	b = append(b, byte(res.Result), byte(res.Reason))
	b = binary.AppendUvarint(b, uint64(len(res.Values)))
	for _, v := range res.Values {
		b = appendValue(b, v)
	}
	b = binary.AppendUvarint(b, uint64(len(res.Scores)))
	for _, v := range res.Scores {
		b = binary.AppendVarint(b, int64(v))
	}
	return appendString(b, res.Error), nil
}

// UnmarshalBinary sets res to the result data holds. A result of another
// version is read as far as its envelope (Version, ID, Attempt, Worker)
// and of version 3 (JSON) as far as the same fields, so that the
// coordinator refuses it by its version and names its worker; malformed,
// truncated or oversized input, or bytes after the result, are refused
// with an error that wraps ErrProtocol and names the field. Nothing in
// the result is checked beyond its form: the coordinator checks the
// game or the values against the job.
func (res *Result) UnmarshalBinary(data []byte) error {
	*res = Result{}
	if old, ok, err := legacy(data, "result"); ok {
		res.Version, res.ID, res.Attempt, res.Worker = old.Version, old.ID, old.Attempt, old.Worker
		return err
	}
	r := decoder{data: data, what: "result"}
	e := r.envelope(resultMagic)
	res.Version, res.ID, res.Attempt, res.Worker = e.Version, e.ID, e.Attempt, e.Worker
	if r.err != nil || res.Version != ProtocolVersion {
		return r.err
	}
	res.Start = r.string("Start")
	if n := r.count("Moves", 1); n > 0 {
		res.Moves = make([]uint64, n)
		for i := range res.Moves {
			res.Moves[i] = r.uvarint("Moves")
		}
	}
	res.Opening = r.int("Opening")
	res.Result = game.Result(r.byte("Result"))
	res.Reason = game.Reason(r.byte("Reason"))
	if n := r.count("Values", 1); n > 0 {
		res.Values = make([]float64, n)
		for i := range res.Values {
			res.Values[i] = r.value("Values")
		}
	}
	if n := r.count("Scores", 1); n > 0 {
		res.Scores = make([]int32, n)
		for i := range res.Scores {
			res.Scores[i] = r.int32("Scores")
		}
	}
	res.Error = r.string("Error")
	r.end()
	return r.err
}

// envelope is what every version of a job or result starts with, and what
// is read of a version 3 (JSON) one.
type envelope struct {
	Version int    `json:"v"`
	ID      string `json:"id"`
	Attempt int    `json:"attempt"`
	Worker  string `json:"worker"`
}

// legacy reads the envelope of a version 3 job or result (what is, a
// "job" or a "result"), JSON, and reports whether data is one: it starts,
// after JSON's white space, with '{'. It is an error for such a message to
// claim this version, which travels in binary.
func legacy(data []byte, what string) (envelope, bool, error) {
	if trimmed := bytes.TrimLeft(data, " \t\r\n"); len(trimmed) == 0 || trimmed[0] != '{' {
		return envelope{}, false, nil
	}
	var e envelope
	if len(data) > MaxMessage {
		return e, true, fmt.Errorf("%w: a JSON %s of %d bytes, more than %d", ErrProtocol, what, len(data), MaxMessage)
	}
	if err := json.Unmarshal(data, &e); err != nil {
		return envelope{}, true, fmt.Errorf("%w: a malformed JSON %s: %w", ErrProtocol, what, err)
	}
	if e.Version == ProtocolVersion {
		return e, true, fmt.Errorf("%w: %s %s: JSON that claims version %d, which travels in binary", ErrProtocol, what, e.ID, e.Version)
	}
	return e, true, nil
}

// appendEnvelope appends the envelope of a job (magic jobMagic) or a
// result (resultMagic, which alone carries the worker's name).
func appendEnvelope(b []byte, magic string, e envelope) ([]byte, error) {
	if e.Version < 0 {
		what := "job"
		if magic == resultMagic {
			what = "result"
		}
		return b, fmt.Errorf("%w: %s %s: version %d", ErrProtocol, what, e.ID, e.Version)
	}
	b = append(b, magic...)
	b = binary.AppendUvarint(b, uint64(e.Version))
	b = appendString(b, e.ID)
	b = binary.AppendVarint(b, int64(e.Attempt))
	if magic == resultMagic {
		b = appendString(b, e.Worker)
	}
	return b, nil
}

// appendString appends s, its length first.
func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendHash appends a genome hash: a 0, or 32 and its 32 bytes.
func appendHash(b []byte, h string) ([]byte, error) {
	if h == "" {
		return append(b, 0), nil
	}
	if len(h) != 64 {
		return b, fmt.Errorf("genome hash %q: want 64 lowercase hex digits or none", h)
	}
	b = append(b, 32)
	for i := 0; i < 64; i += 2 {
		hi, ok1 := unhex(h[i])
		lo, ok2 := unhex(h[i+1])
		if !ok1 || !ok2 {
			return b, fmt.Errorf("genome hash %q: want 64 lowercase hex digits or none", h)
		}
		b = append(b, hi<<4|lo)
	}
	return b, nil
}

// unhex returns the value of a lowercase hex digit: only lowercase, which
// is what GenomeHash writes and a decoded hash reads back as.
func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// appendValue appends a search's value: a value of hundredths (the
// searches' pawns) as a uvarint of its hundredths zigzagged and doubled,
// which float64(c)/100 gives back to the bit; any other (-0, NaN, a
// draughts net's units) as 1 and its IEEE 754 bits in 8 bytes,
// little-endian.
func appendValue(b []byte, v float64) []byte {
	if math.Abs(v) < 1<<40 {
		c := int64(math.Round(v * 100))
		if math.Float64bits(float64(c)/100) == math.Float64bits(v) {
			return binary.AppendUvarint(b, (uint64(c<<1)^uint64(c>>63))<<1)
		}
	}
	b = append(b, 1)
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}

// positionsSize returns the bytes the positions take in a job.
func positionsSize(ps []string) int {
	n := 0
	for _, p := range ps {
		n += 2 + len(p)
	}
	return n
}

// decoder reads a job or a result. Its first error sticks: every later
// read returns a zero value, and err names the first field that failed
// and the byte it starts at.
type decoder struct {
	data []byte
	off  int
	what string // "job" or "result"
	err  error
}

// fail records the first error, about field, which starts at byte at.
func (r *decoder) fail(field string, at int, format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: malformed %s: %s at byte %d: %s", ErrProtocol, r.what, field, at, fmt.Sprintf(format, args...))
	}
}

// magic reads the first two bytes, which must be want; it refuses input
// over MaxMessage before reading.
func (r *decoder) magic(want string) {
	switch {
	case len(r.data) > MaxMessage:
		r.err = fmt.Errorf("%w: a %s of %d bytes, more than %d", ErrProtocol, r.what, len(r.data), MaxMessage)
	case !bytes.HasPrefix(r.data, []byte(want)):
		r.err = fmt.Errorf("%w: not a %s: it starts with %q, not %q (binary) or '{' (JSON of version 3)",
			ErrProtocol, r.what, r.data[:min(len(r.data), 8)], want)
	default:
		r.off = 2
	}
}

// envelope reads the envelope of a job (magic jobMagic) or a result
// (resultMagic, with the worker's name).
func (r *decoder) envelope(magic string) envelope {
	r.magic(magic)
	e := envelope{Version: r.version(), ID: r.string("ID"), Attempt: r.int("Attempt")}
	if magic == resultMagic {
		e.Worker = r.string("Worker")
	}
	return e
}

// next returns the next n bytes, which alias the input.
func (r *decoder) next(field string, n int) []byte {
	if r.err == nil && n > len(r.data)-r.off {
		r.fail(field, r.off, "%d bytes, but only %d left", n, len(r.data)-r.off)
	}
	if r.err != nil {
		return make([]byte, n)
	}
	r.off += n
	return r.data[r.off-n : r.off]
}

func (r *decoder) byte(field string) byte { return r.next(field, 1)[0] }

func (r *decoder) uvarint(field string) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.data[r.off:])
	switch {
	case n == 0:
		r.fail(field, r.off, "truncated")
	case n < 0:
		r.fail(field, r.off, "a varint over 64 bits")
	default:
		r.off += n
	}
	return v
}

// varint reads a zigzag varint, as binary.Varint does.
func (r *decoder) varint(field string) int64 {
	u := r.uvarint(field)
	return int64(u>>1) ^ -int64(u&1)
}

// int reads a varint that must fit an int.
func (r *decoder) int(field string) int { return signed[int](r, field) }

// int32 reads a varint that must fit an int32.
func (r *decoder) int32(field string) int32 { return signed[int32](r, field) }

// signed reads a varint that must fit a T.
func signed[T int | int32](r *decoder, field string) T {
	at := r.off
	v := r.varint(field)
	if int64(T(v)) != v {
		r.fail(field, at, "%d does not fit an %T", v, T(0))
		return 0
	}
	return T(v)
}

// version reads the envelope's version, which must fit an int32.
func (r *decoder) version() int {
	at := r.off
	v := r.uvarint("version")
	if v > math.MaxInt32 {
		r.fail("version", at, "%d, beyond any version", v)
		return 0
	}
	return int(v)
}

// count reads the number of elements of a list, each at least size bytes:
// no more than the bytes left can hold, so that a lying count allocates
// nothing.
func (r *decoder) count(field string, size int) int {
	at := r.off
	n := r.uvarint(field)
	if left := uint64(len(r.data) - r.off); r.err == nil && n > left/uint64(size) {
		r.fail(field, at, "%d elements of at least %d bytes in the %d bytes left", n, size, left)
	}
	if r.err != nil {
		return 0
	}
	return int(n)
}

// bytes reads a length and that many bytes, which alias the input.
func (r *decoder) bytes(field string) []byte {
	at := r.off
	n := r.uvarint(field)
	if left := uint64(len(r.data) - r.off); r.err == nil && n > left {
		r.fail(field, at, "%d bytes, but only %d left", n, left)
	}
	if r.err != nil {
		return nil
	}
	r.off += int(n)
	return r.data[r.off-int(n) : r.off]
}

func (r *decoder) string(field string) string { return string(r.bytes(field)) }

// hash reads a genome hash, 0 or 32 and its bytes, as GenomeHash's hex.
func (r *decoder) hash(field string) string {
	at := r.off
	switch n := r.byte(field); {
	case r.err != nil || n == 0:
		return ""
	case n != 32:
		r.fail(field, at, "a hash of %d bytes, want 32 or none", n)
		return ""
	}
	raw := r.next(field, 32)
	if r.err != nil {
		return ""
	}
	var h [64]byte
	hex.Encode(h[:], raw)
	return string(h[:])
}

// value reads a search's value (appendValue).
func (r *decoder) value(field string) float64 {
	at := r.off
	u := r.uvarint(field)
	switch {
	case r.err != nil:
		return 0
	case u&1 == 0:
		x := u >> 1
		return float64(int64(x>>1)^-int64(x&1)) / 100
	case u != 1:
		r.fail(field, at, "a value marked %d, want an even number or 1", u)
		return 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(r.next(field, 8)))
}

// end refuses bytes after the message.
func (r *decoder) end() {
	if r.err == nil && r.off != len(r.data) {
		r.fail("the end", r.off, "%d bytes after the %s", len(r.data)-r.off, r.what)
	}
}
