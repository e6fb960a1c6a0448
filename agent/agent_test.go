package agent

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"evolved/nnet"
)

func sample(t *testing.T) File {
	t.Helper()
	net, err := nnet.Random([]int{nnet.NumDraughtsInputs, 40, 10, 1}, nnet.PieceDiff, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	return File{Game: "draughts", Search: Search{Depth: 4, CaptureExtension: true}, Net: net,
		Provenance: Provenance{RunSeed: 9, Generation: 12, AgentID: 170, Fitness: 31, Evolved: time.Date(2026, 11, 23, 1, 2, 3, 0, time.UTC)}}
}

func TestRoundTripIsByteIdentical(t *testing.T) {
	var a, b bytes.Buffer
	if err := Write(&a, sample(t)); err != nil {
		t.Fatal(err)
	}
	f, err := Read(bytes.NewReader(a.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !f.Net.Equal(sample(t).Net) || f.Provenance != sample(t).Provenance {
		t.Errorf("read back a different agent")
	}
	if err := Write(&b, f); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("writing what was read changed the bytes")
	}
}

func TestReadRejectsBadFiles(t *testing.T) {
	var good bytes.Buffer
	Write(&good, sample(t))
	cases := map[string]string{
		"not JSON":       "hello",
		"truncated":      good.String()[:good.Len()/2],
		"other format":   strings.Replace(good.String(), `"evolved-agent"`, `"something"`, 1),
		"newer version":  strings.Replace(good.String(), `"version": 1`, `"version": 2`, 1),
		"unknown game":   strings.Replace(good.String(), `"draughts"`, `"go"`, 1),
		"zero depth":     strings.Replace(good.String(), `"depth": 4`, `"depth": 0`, 1),
		"negative nodes": strings.Replace(good.String(), `"depth": 4`, `"depth": 4, "nodes": -5`, 1),
		"huge nodes":     strings.Replace(good.String(), `"depth": 4`, `"depth": 4, "nodes": 1000000000000`, 1),
		"unknown field":  strings.Replace(good.String(), `"game"`, `"colour": "red", "game"`, 1),
	}
	for name, text := range cases {
		if _, err := Read(strings.NewReader(text)); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want an invalid-file error", name, err)
		}
	}
}

// TestNodesAreWrittenOnlyWhenSet checks the node budget of Search: a file
// with one reads it back, and a file without one has no "nodes" field, so
// that agents of runs without a budget export to the bytes they always
// had.
func TestNodesAreWrittenOnlyWhenSet(t *testing.T) {
	var plain, budget bytes.Buffer
	if err := Write(&plain, sample(t)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), `"nodes"`) {
		t.Errorf("an agent without a node budget writes one:\n%.200s", plain.String())
	}
	f := sample(t)
	f.Search.Nodes = 5000
	if err := Write(&budget, f); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&budget)
	if err != nil {
		t.Fatal(err)
	}
	if back.Search != f.Search {
		t.Errorf("read back search %+v, want %+v", back.Search, f.Search)
	}
}

// TestReadRefusesLargeFiles checks MaxFileBytes at its boundary: input
// over it is refused with ErrTooLarge stating its size and the limit, and a
// valid agent still loads, up to the limit. The files are a valid agent
// followed by zeros, sparse, so that one over 64 MiB costs nothing to make:
// Read checks an *os.File's size before it reads (and used to load the
// agent, the rest unread). The streams, which Read must read to the limit
// to measure, and which are not short, are a valid agent with spaces after
// its opening brace: cut at the limit in its closing brace, Read used to
// fail with "unexpected EOF" (and one byte over, to load it, only its
// final newline cut).
func TestReadRefusesLargeFiles(t *testing.T) {
	var good bytes.Buffer
	if err := Write(&good, sample(t)); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		size   int64 // the input's size: good's bytes, then zeros (a file); or with spaces after "{" (a stream)
		stream bool  // a reader without Stat, not an *os.File
		err    error // wrapped by Read's error, nil for none
		text   string
	}{
		{name: "a valid agent", size: int64(good.Len())},
		{name: "one byte over the limit", size: MaxFileBytes + 1, err: ErrTooLarge,
			text: "agent: file larger than the limit of 67108864 bytes (64 MiB): 67108865 bytes"},
		{name: "a gigabyte", size: 1 << 30, err: ErrTooLarge,
			text: "agent: file larger than the limit of 67108864 bytes (64 MiB): 1073741824 bytes"},
		{name: "a stream at the limit", size: MaxFileBytes, stream: true},
		{name: "a stream one byte over the limit", size: MaxFileBytes + 1, stream: true, err: ErrTooLarge,
			text: "agent: file larger than the limit of 67108864 bytes (64 MiB)"},
		{name: "a stream cut in its closing brace", size: MaxFileBytes + 2, stream: true, err: ErrTooLarge,
			text: "agent: file larger than the limit of 67108864 bytes (64 MiB)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r io.Reader
			if c.stream {
				if testing.Short() {
					t.Skip("reads 64 MiB")
				}
				r = io.MultiReader(strings.NewReader("{"), io.LimitReader(spaces{}, c.size-int64(good.Len())), bytes.NewReader(good.Bytes()[1:]))
			} else {
				path := filepath.Join(t.TempDir(), "agent.json")
				if err := os.WriteFile(path, good.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(path, c.size); err != nil {
					t.Fatal(err)
				}
				f, err := os.Open(path)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				r = f
			}
			a, err := Read(r)
			if c.err == nil {
				if err != nil || !a.Net.Equal(sample(t).Net) {
					t.Errorf("Read = %v, want the sample agent", err)
				}
				return
			}
			if !errors.Is(err, c.err) || err.Error() != c.text {
				t.Errorf("Read = %v, want %q", err, c.text)
			}
		})
	}
}

// spaces reads as endless spaces.
type spaces struct{}

func (spaces) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}
