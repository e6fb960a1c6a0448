package population

import "math"

// Reliability measures whether selection sees real differences: Pearson's
// correlation between an elite's score (points per game in the
// tournament, Report.Scores) in the generation that chose it and in the
// next, over the last generations' elites. Near 0 the elite was the
// luckiest of agents as good as each other, and what selection cannot
// tell apart drifts; near 1 the tournament measures the agents.
//
// A Reliability is not safe for concurrent use; the daemon keeps one per
// population.
type Reliability struct {
	window     int
	generation int               // the last generation observed, or -1
	chosen     map[int64]float64 // its elites' scores, by agent ID
	pairs      [][2]float64      // a ring of the last window pairs
	next       int               // where the ring's next pair goes
}

// NewReliability returns a Reliability over the last window pairs (an
// elite of 5 gives 5 a generation).
func NewReliability(window int) *Reliability {
	return &Reliability{window: max(window, 2), generation: -1}
}

// Observe adds a played generation: its agents, their Scores, its Ranking
// and the size of its elite (0 when it keeps none, as the evolution
// strategy). A generation that does not follow the last one observed
// (the daemon resumed later) starts the pairs afresh from it.
func (r *Reliability) Observe(generation int, agents []Agent, scores []float64, ranking []int, elite int) {
	if generation == r.generation+1 {
		for i, a := range agents {
			if before, ok := r.chosen[a.ID]; ok {
				r.add(before, scores[i])
			}
		}
	}
	r.generation = generation
	r.chosen = make(map[int64]float64, elite)
	for _, slot := range ranking[:min(elite, len(ranking))] {
		r.chosen[agents[slot].ID] = scores[slot]
	}
}

// add appends a pair, dropping the oldest beyond the window.
func (r *Reliability) add(x, y float64) {
	if len(r.pairs) < r.window {
		r.pairs = append(r.pairs, [2]float64{x, y})
		return
	}
	r.pairs[r.next] = [2]float64{x, y}
	r.next = (r.next + 1) % r.window
}

// Correlation returns Pearson's correlation over the pairs observed and
// their number; the correlation is NaN with fewer than 3 pairs or when
// either score never varies.
func (r *Reliability) Correlation() (float64, int) {
	n := len(r.pairs)
	if n < 3 {
		return math.NaN(), n
	}
	var mx, my float64
	for _, p := range r.pairs {
		mx, my = mx+p[0], my+p[1]
	}
	mx, my = mx/float64(n), my/float64(n)
	var sxy, sxx, syy float64
	for _, p := range r.pairs {
		dx, dy := p[0]-mx, p[1]-my
		sxy, sxx, syy = sxy+dx*dy, sxx+dx*dx, syy+dy*dy
	}
	if sxx == 0 || syy == 0 {
		return math.NaN(), n
	}
	return sxy / math.Sqrt(sxx*syy), n
}
