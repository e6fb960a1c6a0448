// Package agent reads and writes agent files: an evolved champion exported
// from the database with everything needed to play it (game, net, search
// settings) and where it came from (run seed, generation, fitness, ladder
// result). The format is versioned JSON; the same champion always exports
// to the same bytes.
package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"evolved/nnet"
)

// FormatName is the value of every agent file's "format" field.
const FormatName = "evolved-agent"

// Version is the agent file version this build writes and reads.
const Version = 1

// MaxNodes bounds an agent's node budget per move.
const MaxNodes = 1e9

// MaxPlayouts bounds an agent's MCTS-EPT playouts per move.
const MaxPlayouts = 10_000_000

// ParseSearch reads how an agent searches, as a run's search key says it:
// "" for alpha-beta, or "ept:N" for MCTS-EPT of N playouts a move (1 to
// MaxPlayouts, written without sign or leading zeros). It returns N, 0 for
// alpha-beta, and ok false for anything else.
func ParseSearch(s string) (playouts int, ok bool) {
	if s == "" {
		return 0, true
	}
	n, isEPT := strings.CutPrefix(s, "ept:")
	playouts, err := strconv.Atoi(n)
	if !isEPT || err != nil || playouts < 1 || playouts > MaxPlayouts || n != strconv.Itoa(playouts) {
		return 0, false
	}
	return playouts, true
}

// ErrInvalid is wrapped by every error about a malformed agent file.
var ErrInvalid = errors.New("agent: invalid agent file")

// File is an agent file.
type File struct {
	Format     string     `json:"format"`
	Version    int        `json:"version"`
	Game       string     `json:"game"`
	Search     Search     `json:"search"`
	Provenance Provenance `json:"provenance"`
	Net        *nnet.Net  `json:"net"`
}

// Search holds the search settings the agent was evolved with.
type Search struct {
	// Depth is the alpha-beta depth in plies.
	Depth int `json:"depth"`
	// CaptureExtension extends the search while captures are pending.
	CaptureExtension bool `json:"capture_extension"`
	// Nodes, if positive, ends each move's search after about this many
	// nodes, Depth being then the deepest iteration (the run's nodes
	// setting); absent for runs without a budget.
	Nodes int64 `json:"nodes,omitempty"`
	// EPT, if positive, says the agent was evolved searching by MCTS with
	// early playout termination, EPT playouts a move each scored by its
	// net (a run's search = "ept:N"); Depth and Nodes then go unused.
	// Absent for alpha-beta.
	EPT int `json:"ept,omitempty"`
}

// Provenance says where an agent came from.
type Provenance struct {
	RunSeed    uint64 `json:"run_seed"`
	Generation int    `json:"generation"`
	AgentID    int64  `json:"agent_id"`
	Fitness    int    `json:"fitness"`
	// LadderMean is the champion's ladder mean, absent for a generation
	// that did not play the ladder; Improved is whether it was above 0.
	LadderMean *float64  `json:"ladder_mean,omitempty"`
	Improved   bool      `json:"improved"`
	Evolved    time.Time `json:"evolved"` // when its generation was committed
}

// knownGames are the games agent files exist for.
var knownGames = map[string]int{"draughts": nnet.NumDraughtsInputs, "chess": nnet.NumChessInputs, "xiangqi": nnet.NumXiangqiInputs}

// Validate checks a file's fields.
func (f *File) Validate() error {
	switch {
	case f.Format != FormatName:
		return fmt.Errorf("%w: format %q, want %q", ErrInvalid, f.Format, FormatName)
	case f.Version != Version:
		return fmt.Errorf("%w: version %d, this build reads version %d", ErrInvalid, f.Version, Version)
	case f.Net == nil:
		return fmt.Errorf("%w: no net", ErrInvalid)
	case f.Search.Depth < 1 || f.Search.Depth > 30:
		return fmt.Errorf("%w: search depth %d, want 1..30", ErrInvalid, f.Search.Depth)
	case f.Search.Nodes < 0 || f.Search.Nodes > MaxNodes:
		return fmt.Errorf("%w: search nodes %d, want 0 (no budget) to %d", ErrInvalid, f.Search.Nodes, int64(MaxNodes))
	case f.Search.EPT < 0 || f.Search.EPT > MaxPlayouts:
		return fmt.Errorf("%w: search ept %d, want 0 (alpha-beta) to %d playouts", ErrInvalid, f.Search.EPT, MaxPlayouts)
	}
	inputs, ok := knownGames[f.Game]
	if !ok {
		return fmt.Errorf("%w: unknown game %q", ErrInvalid, f.Game)
	}
	if sizes := f.Net.Sizes(); sizes[0] != inputs || sizes[len(sizes)-1] != 1 {
		return fmt.Errorf("%w: a %s net needs %d inputs and 1 output, this one has sizes %v", ErrInvalid, f.Game, inputs, sizes)
	}
	return nil
}

// Write writes f as indented JSON after validating it.
func Write(w io.Writer, f File) error {
	f.Format, f.Version = FormatName, Version
	f.Provenance.Evolved = f.Provenance.Evolved.UTC()
	if err := f.Validate(); err != nil {
		return err
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("agent: write: %w", err)
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("agent: write: %w", err)
	}
	return nil
}

// Read reads and validates an agent file.
func Read(r io.Reader) (File, error) {
	var f File
	data, err := io.ReadAll(io.LimitReader(r, 64<<20))
	if err != nil {
		return f, fmt.Errorf("agent: read: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return f, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if err := f.Validate(); err != nil {
		return f, err
	}
	return f, nil
}
