package cluster

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"evolved/game"
	"evolved/games"
	"evolved/nnet"
)

// wireSample is a job or a result as it goes on the wire, by name.
type wireSample struct {
	name   string
	job    *Job
	result *Result
}

// wireSamples returns real messages: a game of the default draughts
// experiment's shape (Blondie24 nets, depth 4) as Play makes its job and
// playJob its result, a search job of SearchBatch chess positions as
// Search makes it (1,500 nodes) and searchJob's values, a chess data
// game's job as PlayData makes it (2,000 nodes) and playJob's result with
// its scores, and a worker's error.
func wireSamples(tb testing.TB) []wireSample {
	tb.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(61, 4))
	var nets [2]*nnet.Net
	var hashes [2]string
	for i := range nets {
		n, err := nnet.Random([]int{nnet.NumDraughtsInputs, 40, 10, 1}, nnet.PieceDiff, rng)
		if err != nil {
			tb.Fatal(err)
		}
		nets[i] = n
		if hashes[i], _, err = GenomeHash(n); err != nil {
			tb.Fatal(err)
		}
	}
	setup, err := json.Marshal(games.Setup{Depth: 4})
	if err != nil {
		tb.Fatal(err)
	}
	gameJob := Job{Version: ProtocolVersion, Game: "draughts", Setup: setup, RunSeed: 8041, Generation: 316, Index: 187,
		First: 12, Second: 9, Genomes: hashes, Reply: resultSubject("draughts", 8041, 316)}
	gameJob.ID = jobID(gameJob.Game, gameJob.RunSeed, gameJob.Generation, gameJob.Index) + "/" + gameJob.digest()
	played, err := playJob(ctx, &gameJob, nets, nil)
	if err != nil {
		tb.Fatal(err)
	}
	played.Worker = "worker-host-1"

	k := games.Chess()
	flags := nnet.EvolvePieceValues | nnet.EvolvePST | nnet.EvolveTerms | nnet.EvolveMoreTerms
	chessNets := make([]*nnet.Net, 2)
	for i := range chessNets {
		if chessNets[i], err = nnet.RandomChess([]int{32, 8}, flags, rng); err != nil {
			tb.Fatal(err)
		}
	}
	fens := playedFENs(tb, k, playedRecords(tb, k, games.Setup{Depth: 1, MaxMoves: 100}, chessNets, 1, 0))
	if len(fens) < SearchBatch {
		tb.Fatalf("%d positions, want %d", len(fens), SearchBatch)
	}
	hash, _, err := GenomeHash(chessNets[0])
	if err != nil {
		tb.Fatal(err)
	}
	searches := Job{Version: ProtocolVersion, Kind: SearchJob, Game: "chess", RunSeed: 8041, Generation: 316,
		Positions: fens[:SearchBatch], Nodes: 1500, Genome: hash, Reply: searchSubject("chess", 8041, 316), Attempt: 1}
	searches.ID = searchJobID(searches.Game, searches.RunSeed, searches.Generation, 3) + "/" + searches.searchDigest()
	values, err := searchJob(ctx, &searches, chessNets[0], nil)
	if err != nil {
		tb.Fatal(err)
	}
	values.Worker = "worker-host-2"
	// A data game of the chess net, as the learning's data games are
	// played by default (population.DefaultLearnNodes, Bind's defaults).
	dataSetup, err := json.Marshal(games.Setup{Depth: 64, Nodes: 2000})
	if err != nil {
		tb.Fatal(err)
	}
	data := Job{Version: ProtocolVersion, Kind: DataJob, Game: "chess", Setup: dataSetup, RunSeed: 8041, Generation: 316, Index: 7,
		OpeningIndex: 7, Genomes: [2]string{hash, hash}, Reply: dataSubject("chess", 8041, 316)}
	data.ID = dataJobID(data.Game, data.RunSeed, data.Generation, data.Index) + "/" + data.digest()
	dataGame, err := playJob(ctx, &data, [2]*nnet.Net{chessNets[0], chessNets[0]}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	dataGame.Worker = "worker-host-4"
	failed := &Result{Version: ProtocolVersion, ID: gameJob.ID, Attempt: 2, Worker: "worker-host-3",
		Error: "job " + gameJob.ID + ": player 1: the net has 33 inputs, want 32"}
	return []wireSample{
		{name: "game job", job: &gameJob},
		{name: "game result", result: played},
		{name: "search job", job: &searches},
		{name: "search result", result: values},
		{name: "data job", job: &data},
		{name: "data result", result: dataGame},
		{name: "error result", result: failed},
	}
}

// marshal returns the sample's binary form.
func (s wireSample) marshal(tb testing.TB) []byte {
	tb.Helper()
	var data []byte
	var err error
	if s.job != nil {
		data, err = s.job.MarshalBinary()
	} else {
		data, err = s.result.MarshalBinary()
	}
	if err != nil {
		tb.Fatalf("%s: %v", s.name, err)
	}
	return data
}

// TestWireRoundTrip checks that real jobs and results come back from
// their binary form as they went, every field, the values to the bit,
// and that their form is smaller than version 3's JSON.
func TestWireRoundTrip(t *testing.T) {
	for _, s := range wireSamples(t) {
		data := s.marshal(t)
		var got, want any
		var again []byte
		var err error
		var js []byte
		if s.job != nil {
			var j Job
			err = j.UnmarshalBinary(data)
			got, want = j, *s.job
			again, _ = j.MarshalBinary()
			js, _ = json.Marshal(s.job)
		} else {
			var r Result
			err = r.UnmarshalBinary(data)
			got, want = r, *s.result
			again, _ = r.MarshalBinary()
			for i, v := range r.Values {
				if math.Float64bits(v) != math.Float64bits(s.result.Values[i]) {
					t.Errorf("%s: value %d is %v, sent %v", s.name, i, v, s.result.Values[i])
				}
			}
			js, _ = json.Marshal(s.result)
		}
		if err != nil {
			t.Errorf("%s: %v", s.name, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: decoded %+v\nsent %+v", s.name, got, want)
		}
		if !bytes.Equal(again, data) {
			t.Errorf("%s: encoded again, %x\nfirst %x", s.name, again, data)
		}
		if len(data) >= len(js) {
			t.Errorf("%s: %d bytes, JSON %d", s.name, len(data), len(js))
		}
		plies := ""
		if s.result != nil && len(s.result.Moves) > 0 {
			plies = fmt.Sprintf(" (%d plies, %d scores)", len(s.result.Moves), len(s.result.Scores))
		}
		t.Logf("%s: %d bytes, %d in JSON%s", s.name, len(data), len(js), plies)
	}
}

// TestWireFormat pins the binary form of a small job and result byte for
// byte, as codec.go's comment lays it out: a change of the format is a
// new protocol version.
func TestWireFormat(t *testing.T) {
	hash := strings.Repeat("0f", 32)
	job := Job{Version: ProtocolVersion, ID: "d/1", Attempt: 1, Game: "draughts", Setup: []byte(`{"Depth":4}`),
		RunSeed: 300, Generation: 2, Index: -1, First: 3, Second: 4, OpeningIndex: 5, Genomes: [2]string{hash, ""}, Reply: "r"}
	want := "454a" + "05" + "03642f31" + "02" + // 'E' 'J', version 5, "d/1", attempt 1 (zigzag 2)
		"00" + "08" + hex.EncodeToString([]byte("draughts")) + "0b" + hex.EncodeToString([]byte(`{"Depth":4}`)) + // kind "", game, setup
		"ac02" + "04" + "01" + "06" + "08" + "0a" + // seed 300, generation 2, index -1, first 3, second 4, opening 5
		"20" + strings.Repeat("0f", 32) + "00" + // genomes
		"00" + "00" + "00" + "0172" // no positions, 0 nodes, no genome, reply "r"
	data, err := job.MarshalBinary()
	if got := hex.EncodeToString(data); err != nil || got != want {
		t.Errorf("job: %s, %v\nwant %s", got, err, want)
	}
	res := Result{Version: ProtocolVersion, ID: "d/1", Attempt: 1, Worker: "w", Start: "S", Moves: []uint64{1, 300},
		Opening: 2, Result: game.SecondWins, Reason: game.MoveLimit, Values: []float64{-2.22, math.Copysign(0, -1)},
		Scores: []int32{-3, 200, math.MinInt32}, Error: "e"}
	want = "4552" + "05" + "03642f31" + "02" + "0177" + // 'E' 'R', version 5, "d/1", attempt 1, worker "w"
		"0153" + "02" + "01" + "ac02" + "04" + // start "S", two moves, 1 and 300, opening 2
		hex.EncodeToString([]byte{byte(game.SecondWins), byte(game.MoveLimit)}) +
		"02" + "f606" + "01" + "0000000000000080" + // two values: -222 hundredths (zigzag 443, doubled), -0 in its bits
		"03" + "05" + "9003" + "ffffffff0f" + // three scores, zigzag: -3, 200, -2^31
		"0165" // error "e"
	data, err = res.MarshalBinary()
	if got := hex.EncodeToString(data); err != nil || got != want {
		t.Errorf("result: %s, %v\nwant %s", got, err, want)
	}
}

// TestWireRefuses checks that malformed, truncated and oversized input,
// and bytes after a message, are refused with an error that wraps
// ErrProtocol and says what is wrong, and that every truncation of a
// real message is refused.
func TestWireRefuses(t *testing.T) {
	// head is a game job's encoding up to its genomes, here, as the
	// tests change them.
	head := []byte("EJ\x05\x01x\x00\x00\x08draughts\x00\x00\x00\x00\x00\x00\x00")
	withHash := append(bytes.Clone(head), 31)
	withHash = append(withHash, make([]byte, 31)...)
	lying := append(bytes.Clone(head), 0, 0)
	lying = binary.AppendUvarint(lying, 1<<40) // positions
	values := []byte("ER\x05\x01x\x00\x01w\x00\x00\x00\x00\x00")
	values = binary.AppendUvarint(values, 3) // three values in 2 bytes
	values = append(values, 1, 0)
	valid, err := (&Job{Version: ProtocolVersion, ID: "x", Reply: "r"}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		job  bool // a job, or else a result
		data []byte
		want string
	}{
		{"nothing", true, nil, `not a job: it starts with ""`},
		{"a result for a job", true, values, `not a job: it starts with "ER`},
		{"a job for a result", false, valid, `not a result: it starts with "EJ`},
		{"text", false, []byte("hello"), `not a result: it starts with "hello"`},
		{"oversized", true, append([]byte("EJ\x05"), make([]byte, MaxMessage)...), "a job of 1048579 bytes, more than 1048576"},
		{"oversized JSON", false, append([]byte("{"), make([]byte, MaxMessage)...), "a JSON result of 1048577 bytes"},
		{"a byte after", true, append(bytes.Clone(valid), 0), "the end at byte 22: 1 bytes after the job"},
		{"a varint of 11 bytes", true, []byte("EJ\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"), "version at byte 2: a varint over 64 bits"},
		{"version 2^40", true, binary.AppendUvarint([]byte("EJ"), 1<<40), "version at byte 2: 1099511627776, beyond any version"},
		{"an ID longer than the job", true, []byte("EJ\x05\x05abc"), "ID at byte 3: 5 bytes, but only 3 left"},
		{"a hash of 31 bytes", true, withHash, "Genomes[0] at byte 23: a hash of 31 bytes, want 32 or none"},
		{"2^40 positions", true, lying, "Positions at byte 25: 1099511627776 elements of at least 1 bytes in the 0 bytes left"},
		{"values short of their count", false, values, "Values at byte 13: 3 elements of at least 1 bytes in the 2 bytes left"},
		{"a value marked 3", false, []byte("ER\x05\x01x\x00\x01w\x00\x00\x00\x00\x00\x01\x03\x00"), "Values at byte 14: a value marked 3, want an even number or 1"},
		{"a value cut short", false, []byte("ER\x05\x01x\x00\x01w\x00\x00\x00\x00\x00\x01\x01\x00"), "Values at byte 15: 8 bytes, but only 1 left"},
		{"scores short of their count", false, []byte("ER\x05\x01x\x00\x01w\x00\x00\x00\x00\x00\x00\x03\x01\x02"), "Scores at byte 14: 3 elements of at least 1 bytes in the 2 bytes left"},
		{"a score beyond int32", false, binary.AppendVarint([]byte("ER\x05\x01x\x00\x01w\x00\x00\x00\x00\x00\x00\x01"), 1<<31), "Scores at byte 15: 2147483648 does not fit an int32"},
		{"JSON claiming this version", true, []byte(`{"v":5,"id":"x"}`), "job x: JSON that claims version 5, which travels in binary"},
		{"malformed JSON", false, []byte(` {"v":3,`), "a malformed JSON result: unexpected end of JSON input"},
	} {
		var err error
		if c.job {
			err = new(Job).UnmarshalBinary(c.data)
		} else {
			err = new(Result).UnmarshalBinary(c.data)
		}
		if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	for _, s := range wireSamples(t) {
		data := s.marshal(t)
		for n := range len(data) {
			var err error
			if s.job != nil {
				err = new(Job).UnmarshalBinary(data[:n])
			} else {
				err = new(Result).UnmarshalBinary(data[:n])
			}
			if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), "not a") && !strings.Contains(err.Error(), " left") && !strings.Contains(err.Error(), "truncated") {
				t.Fatalf("%s cut to %d of its %d bytes: %v, want it refused as cut short", s.name, n, len(data), err)
			}
		}
	}
}

// TestOtherVersions checks what a build of this version makes of jobs
// and results of others: a version 3 worker (JSON) fails on a binary job
// at its first byte; a job or result of version 3 (JSON), of the last
// version (4, binary, a result without Scores) or of the next version
// (binary, whatever its body) is read as far as its envelope and refused
// by the checks naming both versions.
func TestOtherVersions(t *testing.T) {
	samples := wireSamples(t)
	for _, s := range samples {
		var v3 Job // a worker of version 3 reads a job, or a coordinator a result, as JSON
		err := json.Unmarshal(s.marshal(t), &v3)
		var syntax *json.SyntaxError
		if !errors.As(err, &syntax) || syntax.Offset != 1 || err.Error() != "invalid character 'E' looking for beginning of value" {
			t.Errorf("%s read as JSON: %v, want a syntax error at its first byte", s.name, err)
		}
	}
	job, res := *samples[0].job, *samples[1].result
	job.Attempt, res.Attempt = 3, 3
	// encode returns m's form, JSON in version 3, else binary with its
	// last cut bytes replaced (the body of another layout).
	encode := func(m interface{ MarshalBinary() ([]byte, error) }, version, cut int) []byte {
		if version == 3 {
			data, _ := json.Marshal(m)
			return data
		}
		data, _ := m.MarshalBinary()
		return append(data[:len(data)-cut], "a body of another layout"...)
	}
	for _, c := range []struct {
		name    string
		job     bool
		version int
	}{{"a job of version 3", true, 3}, {"a job of the last version", true, ProtocolVersion - 1}, {"a job of the next version", true, ProtocolVersion + 1},
		{"a result of version 3", false, 3}, {"a result of the last version", false, ProtocolVersion - 1},
		{"a result of the next version", false, ProtocolVersion + 1}} {
		var got, want any
		var decodeErr, checkErr error
		var say string
		if c.job {
			var j Job
			sent := job
			sent.Version = c.version
			decodeErr, checkErr = j.UnmarshalBinary(encode(&sent, c.version, 10)), j.check()
			got, want = j, Job{Version: c.version, ID: job.ID, Attempt: 3}
			say = "job " + job.ID + " speaks version " + strconv.Itoa(c.version) + ", this build " + strconv.Itoa(ProtocolVersion)
		} else {
			var r Result
			sent := res
			sent.Version = c.version
			decodeErr = r.UnmarshalBinary(encode(&sent, c.version, 40))
			_, checkErr = checkValues(&job, &r)
			got, want = r, Result{Version: c.version, ID: res.ID, Attempt: 3, Worker: res.Worker}
			say = "the result speaks version " + strconv.Itoa(c.version) + ", this coordinator " + strconv.Itoa(ProtocolVersion)
		}
		if decodeErr != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, %v; want its envelope %+v", c.name, got, decodeErr, want)
		}
		if !errors.Is(checkErr, ErrProtocol) || !strings.Contains(checkErr.Error(), say) {
			t.Errorf("%s: the check says %v, want %q", c.name, checkErr, say)
		}
	}
}

// fuzzSeeds adds the corpus the fuzz tests start from: the real messages
// of wireSamples that are jobs (jobs true) or results, the same of
// version 3 in JSON, and of the next version.
func fuzzSeeds(f *testing.F, jobs bool) {
	for _, s := range wireSamples(f) {
		if (s.job != nil) != jobs {
			continue
		}
		f.Add(s.marshal(f))
		var old, next []byte
		if jobs {
			j := *s.job
			j.Version = 3
			old, _ = json.Marshal(j)
			j.Version = ProtocolVersion + 1
			next, _ = j.MarshalBinary()
		} else {
			r := *s.result
			r.Version = 3
			old, _ = json.Marshal(r)
			r.Version = ProtocolVersion + 1
			next, _ = r.MarshalBinary()
		}
		f.Add(old)
		f.Add(next)
	}
}

// FuzzJob decodes any bytes as a job: it is refused with ErrProtocol, or
// it is of another version and holds its envelope only, or it encodes
// again into bytes that decode into the same job and encode into the same
// bytes.
func FuzzJob(f *testing.F) {
	fuzzSeeds(f, true)
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecoded(t, data, func(j *Job) int { return j.Version },
			func(j *Job) Job { return Job{Version: j.Version, ID: j.ID, Attempt: j.Attempt} },
			func(a, b *Job) bool { return reflect.DeepEqual(a, b) })
	})
}

// FuzzResult is FuzzJob for results; the values are compared to the bit.
func FuzzResult(f *testing.F) {
	fuzzSeeds(f, false)
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecoded(t, data, func(r *Result) int { return r.Version },
			func(r *Result) Result {
				return Result{Version: r.Version, ID: r.ID, Attempt: r.Attempt, Worker: r.Worker}
			},
			func(a, b *Result) bool {
				if len(a.Values) != len(b.Values) {
					return false
				}
				for i, v := range a.Values {
					if math.Float64bits(v) != math.Float64bits(b.Values[i]) {
						return false
					}
				}
				x, y := *a, *b
				x.Values, y.Values = nil, nil
				return reflect.DeepEqual(x, y)
			})
	})
}

// checkDecoded is FuzzJob's and FuzzResult's property of data decoded as
// a T: refused with ErrProtocol; or of another version (version) and
// holding its envelope alone (bare); or encoded again into bytes that
// decode into the same T (same) and encode into the same bytes.
func checkDecoded[T any, P interface {
	*T
	MarshalBinary() ([]byte, error)
	UnmarshalBinary([]byte) error
}](t *testing.T, data []byte, version func(P) int, bare func(P) T, same func(a, b P) bool) {
	var v T
	if err := P(&v).UnmarshalBinary(data); err != nil {
		if !errors.Is(err, ErrProtocol) {
			t.Fatalf("%v does not wrap ErrProtocol", err)
		}
		return
	}
	if n := version(&v); n != ProtocolVersion {
		if !reflect.DeepEqual(v, bare(&v)) {
			t.Fatalf("a message of version %d holds more than its envelope: %+v", n, v)
		}
		return
	}
	again, err := P(&v).MarshalBinary()
	if err != nil {
		t.Fatalf("a decoded message does not encode: %v", err)
	}
	var k T
	if err := P(&k).UnmarshalBinary(again); err != nil || !same(&v, &k) {
		t.Fatalf("encoded again, %+v decodes into %+v, %v", v, k, err)
	}
	if third, _ := P(&k).MarshalBinary(); !bytes.Equal(third, again) {
		t.Fatalf("encoded a third time, %x, not %x", third, again)
	}
}
