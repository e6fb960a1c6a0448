package agent

import (
	"bytes"
	"errors"
	"math/rand/v2"
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
