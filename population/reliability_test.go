package population

import (
	"math"
	"testing"
)

// TestReliability checks the pairs and the correlation against figures
// worked by hand: elites 1 and 2 of generation 0 (scores 1.0 and 0.5)
// score 0.8 and 0.2 in generation 1, whose elites 2 and 3 (0.2 and 0.6)
// score 0.4 and 0.9 in generation 2. The pairs (1, 0.8), (0.5, 0.2),
// (0.2, 0.4), (0.6, 0.9) have means 0.575 and 0.575, a sum of products of
// deviations of 0.1975 and sums of squares of 0.3275 each: r = 0.1975 /
// 0.3275 = 0.6031. A window of 3 keeps the last three
// pairs; a gap in the generations forgets the elites.
func TestReliability(t *testing.T) {
	agents := func(ids ...int64) []Agent {
		out := make([]Agent, len(ids))
		for i, id := range ids {
			out[i] = Agent{ID: id}
		}
		return out
	}
	r := NewReliability(100)
	r.Observe(0, agents(1, 2, 3), []float64{1.0, 0.5, 0.1}, []int{0, 1, 2}, 2)
	if c, n := r.Correlation(); n != 0 || !math.IsNaN(c) {
		t.Errorf("after one generation: %v over %d pairs, want NaN over 0", c, n)
	}
	r.Observe(1, agents(1, 2, 3, 4), []float64{0.8, 0.2, 0.6, 0.0}, []int{2, 1, 0, 3}, 2)
	r.Observe(2, agents(2, 3, 5), []float64{0.4, 0.9, 0.3}, []int{1, 0, 2}, 2)
	c, n := r.Correlation()
	if want := 0.1975 / 0.3275; n != 4 || math.Abs(c-want) > 1e-12 {
		t.Errorf("correlation %v over %d pairs, want %v over 4", c, n, want)
	}
	short := NewReliability(3)
	short.Observe(0, agents(1, 2, 3), []float64{1.0, 0.5, 0.1}, []int{0, 1, 2}, 2)
	short.Observe(1, agents(1, 2, 3, 4), []float64{0.8, 0.2, 0.6, 0.0}, []int{2, 1, 0, 3}, 2)
	short.Observe(2, agents(2, 3, 5), []float64{0.4, 0.9, 0.3}, []int{1, 0, 2}, 2)
	// (0.5, 0.2) (0.2, 0.4) (0.6, 0.9) in some order.
	c, n = short.Correlation()
	mx, my := 1.3/3, 1.5/3
	sxy := (0.5-mx)*(0.2-my) + (0.2-mx)*(0.4-my) + (0.6-mx)*(0.9-my)
	sxx := (0.5-mx)*(0.5-mx) + (0.2-mx)*(0.2-mx) + (0.6-mx)*(0.6-mx)
	syy := (0.2-my)*(0.2-my) + (0.4-my)*(0.4-my) + (0.9-my)*(0.9-my)
	if want := sxy / math.Sqrt(sxx*syy); n != 3 || math.Abs(c-want) > 1e-12 {
		t.Errorf("window of 3: %v over %d pairs, want %v over 3", c, n, want)
	}
	short.Observe(5, agents(2, 3), []float64{0.1, 0.1}, []int{0, 1}, 2)
	if _, n := short.Correlation(); n != 3 {
		t.Errorf("after a gap: %d pairs, want the 3 kept and none added", n)
	}
}
