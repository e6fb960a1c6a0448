package tune

import (
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
