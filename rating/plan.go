package rating

import (
	"math"

	"evolved/elo"
)

// Spread limits, in Elo, of the targets Plan draws the next anchors around:
// never so narrow that one anchor takes every game (which says little about
// a model fitted over several), never wider than a strong prior would allow.
const (
	minSpread = 50
	maxSpread = 400
)

// Plan chooses the anchors of the next pairs of games. elos are the
// anchors' ratings, weakest first. With no estimate yet (known false) the
// pairs are spread evenly over the whole ladder; after that they go to the
// anchors nearest to targets spread around the estimate like its
// uncertainty (halfWidth, the 95% half-width) at the normal quantiles of
// (i+½)/pairs, so that most games are played where a game says most, near
// an even score, and the interval shrinks fast. It is a function of its
// arguments only, which keeps a rating reproducible.
func Plan(elos []float64, estimate, halfWidth float64, known bool, pairs int) []int {
	out := make([]int, pairs)
	lo, hi := elos[0], elos[len(elos)-1]
	for i := range out {
		q := (float64(i) + 0.5) / float64(pairs)
		var target float64
		if known {
			spread := math.Min(math.Max(halfWidth/elo.Z95, minSpread), maxSpread)
			target = estimate + spread*normalQuantile(q)
		} else {
			target = lo + q*(hi-lo)
		}
		out[i] = nearest(elos, target)
	}
	return out
}

// nearest returns the index of the rating closest to x (the weaker of two
// at the same distance).
func nearest(elos []float64, x float64) int {
	best := 0
	for i, e := range elos {
		if math.Abs(e-x) < math.Abs(elos[best]-x) {
			best = i
		}
	}
	return best
}

// normalQuantile returns the standard normal quantile of p in (0, 1).
func normalQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }
