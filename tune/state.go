package tune

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"evolved/search"
)

// ErrState is wrapped by the errors of a state file that is not one a
// tuning wrote.
var ErrState = errors.New("tune: bad state file")

// ReadState reads a state written by WriteTo and checks it: its settings,
// its start, and θ within the ranges of the parameters it names.
func ReadState(r io.Reader) (*State, error) {
	var st State
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrState, err)
	}
	start, err := st.start()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrState, err)
	}
	fresh, err := New(st.Settings, start)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrState, err)
	}
	if !slices.Equal(fresh.names(), st.names()) {
		return nil, fmt.Errorf("%w: θ names %s, its settings %s", ErrState, strings.Join(st.names(), ","), strings.Join(fresh.names(), ","))
	}
	for _, v := range st.Theta {
		if t := tunable(v.Name); v.Value < float64(t.Min) || v.Value > float64(t.Max) {
			return nil, fmt.Errorf("%w: %s = %g is out of its range %d to %d", ErrState, v.Name, v.Value, t.Min, t.Max)
		}
	}
	if st.Done < 0 || st.Done > st.Settings.Pairs || st.Wins+st.Draws+st.Losses != 2*st.Done || st.Wins < 0 || st.Draws < 0 || st.Losses < 0 {
		return nil, fmt.Errorf("%w: %d pairs done of %d with %d wins, %d draws and %d losses", ErrState, st.Done, st.Settings.Pairs, st.Wins, st.Draws, st.Losses)
	}
	batch := cmp.Or(st.Settings.Batch, DefaultBatch)
	if want := (st.Done+batch-1)/batch + 1; len(st.Path) != want {
		return nil, fmt.Errorf("%w: a path of %d points for %d pairs in batches of %d, want %d", ErrState, len(st.Path), st.Done, batch, want)
	}
	for _, point := range st.Path {
		if len(point) != len(st.Theta) {
			return nil, fmt.Errorf("%w: a point of the path with %d values for %d parameters", ErrState, len(point), len(st.Theta))
		}
	}
	return &st, nil
}

// WriteTo writes st as indented JSON, which ReadState reads back exactly
// (floats written in full).
func (st *State) WriteTo(w io.Writer) (int64, error) {
	b, err := json.MarshalIndent(st, "", " ")
	if err != nil {
		return 0, fmt.Errorf("tune: %w", err)
	}
	n, err := w.Write(append(b, '\n'))
	return int64(n), err
}

// Report writes a table of the tuned parameters: where each started, its
// value now rounded as the players use it, and unrounded.
func (st *State) Report(w io.Writer) error {
	start, err := st.start()
	if err != nil {
		return err
	}
	now, err := st.Params()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%-16s %6s %6s %9s\n", "parameter", "start", "tuned", "unrounded")
	for _, v := range st.Theta {
		a, _ := start.Value(v.Name)
		b, _ := now.Value(v.Name)
		mark := ""
		if a != b {
			mark = " *"
		}
		fmt.Fprintf(w, "%-16s %6d %6d %9s%s\n", v.Name, a, b, strconv.FormatFloat(v.Value, 'f', 2, 64), mark)
	}
	return nil
}

// StartParams returns the parameters the tuning started from.
func (st *State) StartParams() (search.Params, error) { return st.start() }

// Trajectory returns θ after every batch, as the number of pairs played
// then and each tuned parameter's distance from where it started, in its
// own steps (Tunable.Step): what a plot of the tuning draws. The first
// point is the start (0 pairs, every distance 0).
func (st *State) Trajectory() (pairs []int, names []string, steps [][]float64) {
	batch := cmp.Or(st.Settings.Batch, DefaultBatch)
	names = st.names()
	steps = make([][]float64, len(names))
	for j, point := range st.Path {
		pairs = append(pairs, min(j*batch, st.Settings.Pairs))
		for i, name := range names {
			steps[i] = append(steps[i], (point[i]-st.Path[0][i])/float64(tunable(name).Step))
		}
	}
	return pairs, names, steps
}
