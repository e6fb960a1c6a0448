package elo

import "math"

// Pool estimates the Elo ratings of n players, none of them fixed, from
// their games, by maximum likelihood under the logistic (Bradley-Terry)
// model without advantage, a draw counting half a win; the ratings are
// shifted to mean 0. It measures players against each other within one
// tournament (the champion_elo of a generation's log line), not on a
// scale. To keep a player who won or lost every game finite, each player
// also gets one virtual draw against a fixed player rated 0; intervals come
// from the inverse of the observed information.
func Pool(n int, games []Game) []Rated {
	if n == 0 {
		return nil
	}
	r := make([]float64, n) // natural units: P(i beats j) = σ(r_i - r_j)
	grad := make([]float64, n)
	info := make([][]float64, n)
	for i := range info {
		info[i] = make([]float64, n)
	}
	// Newton's method on a concave log-likelihood converges in a few steps.
	for iter := 0; iter < 100; iter++ {
		for i := range n {
			// The prior: one draw against a player at 0.
			p := sigmoid(r[i])
			grad[i] = 0.5 - p
			clear(info[i])
			info[i][i] = p * (1 - p)
		}
		for _, g := range games {
			p := sigmoid(r[g.First] - r[g.Second])
			grad[g.First] += g.Score - p
			grad[g.Second] -= g.Score - p
			w := p * (1 - p)
			info[g.First][g.First] += w
			info[g.Second][g.Second] += w
			info[g.First][g.Second] -= w
			info[g.Second][g.First] -= w
		}
		step, err := solve(info, grad)
		if err != nil {
			break // cannot happen: the prior makes info positive definite
		}
		maxStep := 0.0
		for i := range r {
			r[i] += step[i]
			maxStep = math.Max(maxStep, math.Abs(step[i]))
		}
		if maxStep < 1e-10 {
			break
		}
	}
	cov, _ := invert(info)
	mean := 0.0
	for _, v := range r {
		mean += v / float64(n)
	}
	out := make([]Rated, n)
	for _, g := range games {
		out[g.First].Games++
		out[g.Second].Games++
	}
	for i := range r {
		out[i].Elo = (r[i] - mean) / eloScale
		if cov != nil {
			out[i].HalfWidth = Z95 * math.Sqrt(cov[i][i]) / eloScale
		}
	}
	return out
}
