package elo

import "math"

// Z95 is the standard normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// eloScale converts Elo to the natural units of the logistic: a difference
// of d Elo is an expected score of 1/(1+10^(-d/400)) = σ(d·eloScale).
const eloScale = math.Ln10 / 400

// Expected returns the score a player expects, from 0 to 1, at an Elo
// difference d over its opponent: 1/(1+10^(-d/400)).
func Expected(d float64) float64 { return 1 / (1 + math.Pow(10, -d/400)) }

// Diff returns the Elo difference at which the expected score is s, the
// inverse of Expected: -400·log10(1/s-1), infinite at 0 and 1.
func Diff(s float64) float64 { return -400 * math.Log10(1/s-1) }

// Estimate returns the Elo difference that a tally of wins, draws and
// losses implies under the logistic model, and the half-width of its 95%
// confidence interval. The variance is that of the per-game score
// (trinomial), carried to Elo by the delta method. A score of 0 or 1 has
// no finite estimate: it is then taken as half a game from the edge, with
// the variance of a win-or-loss game at that score, so that scripts always
// get numbers and a perfect score a wide interval. With no game the
// difference is 0 and the interval infinite.
func Estimate(wins, draws, losses int) (diff, halfWidth float64) {
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
	// d Elo / d p = 400 / (ln 10 · p · (1-p)). The quantile is Z95 rounded
	// to 1.959964, as it always was here: the baselines' intervals are
	// stored, and a run's database stays the same bit for bit.
	return Diff(p), 1.959964 * se * 400 / (math.Ln10 * p * (1 - p))
}

func sq(x float64) float64 { return x * x }
