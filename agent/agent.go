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
	"io/fs"
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
// "" for alpha-beta, "#LIST" for alpha-beta with the techniques and
// parameters of LIST (which the player package reads; here it need only
// be there), or "ept:N" for MCTS-EPT of N playouts a move (1 to
// MaxPlayouts, written without sign or leading zeros). It returns N (0
// for alpha-beta) and LIST, and ok false for anything else.
func ParseSearch(s string) (playouts int, settings string, ok bool) {
	if s == "" {
		return 0, "", true
	}
	if list, ok := strings.CutPrefix(s, "#"); ok {
		return 0, list, strings.TrimSpace(list) != ""
	}
	n, isEPT := strings.CutPrefix(s, "ept:")
	playouts, err := strconv.Atoi(n)
	if !isEPT || err != nil || playouts < 1 || playouts > MaxPlayouts || n != strconv.Itoa(playouts) {
		return 0, "", false
	}
	return playouts, "", true
}

// ErrInvalid is wrapped by every error about a malformed agent file.
var ErrInvalid = errors.New("agent: invalid agent file")

// MaxFileBytes is the largest agent file Read reads, 64 MiB. Read holds the
// whole file in memory to decode it. A weight takes about 20 bytes of JSON,
// twice that with its sigma, so the limit holds a net of over a million
// weights.
const MaxFileBytes = 64 << 20

// ErrTooLarge is wrapped by the error of Read for a file over MaxFileBytes,
// which it refuses unread rather than decode in part. It is not ErrInvalid:
// the file may be well formed, but this build does not read one that large.
var ErrTooLarge = errors.New("agent: file larger than the limit")

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
	// Settings are the alpha-beta techniques and parameters the agent was
	// evolved with when they were not the defaults (a run's search =
	// "#LIST"), LIST as search.ParseSettings reads it; absent otherwise.
	Settings string `json:"settings,omitempty"`
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
	inputs = nnet.GenomeInputs(inputs, f.Net.Flags()) // a draughts perspective net has features of its own
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

// Read reads and validates an agent file. A file over MaxFileBytes gives an
// error wrapping ErrTooLarge that states its size and the limit; when r is
// a regular file (an *os.File), its size is checked before anything is
// read.
func Read(r io.Reader) (File, error) {
	var f File
	if size, ok := fileSize(r); ok && size > MaxFileBytes {
		return f, fmt.Errorf("%w of %d bytes (%d MiB): %d bytes", ErrTooLarge, MaxFileBytes, MaxFileBytes>>20, size)
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return f, fmt.Errorf("agent: read: %w", err)
	}
	if len(data) > MaxFileBytes {
		return f, fmt.Errorf("%w of %d bytes (%d MiB)", ErrTooLarge, MaxFileBytes, MaxFileBytes>>20)
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

// fileSize returns the bytes left to read of r when r is a regular file
// that can tell its size (an *os.File): its size less the offset it is at.
// ok is false for other readers, whose size only reading tells.
func fileSize(r io.Reader) (size int64, ok bool) {
	st, ok := r.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return 0, false
	}
	info, err := st.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return 0, false
	}
	size = info.Size()
	if sk, ok := r.(io.Seeker); ok {
		if at, err := sk.Seek(0, io.SeekCurrent); err == nil {
			size -= at
		}
	}
	return size, true
}
