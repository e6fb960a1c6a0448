package plot

import (
	"fmt"

	"evolved/tune"
)

// Tuning returns the chart of an SPSA tuning (evolved tune): each tuned
// parameter's distance from its start, in its own steps, against the
// pairs played, so that parameters of any scale share one axis and a
// drift stands out from the noise around 0.
func Tuning(st *tune.State) Chart {
	pairs, names, steps := st.Trajectory()
	x := make([]float64, len(pairs))
	for i, p := range pairs {
		x[i] = float64(p)
	}
	ch := Chart{
		Title:  fmt.Sprintf("tune: %s at %d nodes a move, %d of %d pairs", st.Settings.Player, st.Settings.Nodes, st.Done, st.Settings.Pairs),
		XLabel: "game pairs", YLabel: "change from the start, in steps", IntegerX: true,
	}
	for i, name := range names {
		ch.Series = append(ch.Series, Series{Name: name, X: x, Y: steps[i]})
	}
	return ch
}
