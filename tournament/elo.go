package tournament

import "math"

// EloFromScore returns the Elo difference that a score fraction implies
// under the logistic model, and the half-width of its 95% confidence
// interval, from a tally of wins, draws and losses. The variance is that of
// the per-game score (trinomial), carried to Elo by the delta method. A
// score of 0 or 1 has no finite estimate: it is then taken as half a game
// from the edge, with the variance of a win-or-loss game at that score, so
// that scripts always get numbers and a perfect score a wide interval.
func EloFromScore(wins, draws, losses int) (elo, halfWidth float64) {
	n := float64(wins + draws + losses)
	if n == 0 {
		return 0, math.Inf(1)
	}
	p := (float64(wins) + float64(draws)/2) / n
	variance := (float64(wins)*sq(1-p) + float64(draws)*sq(0.5-p) + float64(losses)*sq(p)) / n
	if lo, hi := 0.5/n, 1-0.5/n; p < lo || p > hi {
		p = math.Min(math.Max(p, lo), hi)
		variance = p * (1 - p)
	}
	se := math.Sqrt(variance / n)
	// d elo / d p = 400 / (ln 10 * p * (1-p)).
	return eloOf(p), 1.959964 * se * 400 / (math.Ln10 * p * (1 - p))
}

// eloOf returns the Elo difference at which the expected score is p.
func eloOf(p float64) float64 { return -400 * math.Log10(1/p-1) }

func sq(x float64) float64 { return x * x }
