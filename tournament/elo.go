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

// Pair is the result of one game for ratings: Score is A's, 1 for a win,
// 0.5 for a draw, 0 for a loss.
type Pair struct {
	A, B  int
	Score float64
}

// Rating is an Elo estimate with the half-width of its 95% interval.
type Rating struct {
	Elo, HalfWidth float64
}

// Ratings estimates the Elo ratings of n players from game results by
// maximum likelihood under the logistic (Bradley-Terry) model, a draw
// counting as half a win and half a loss. The ratings are shifted to mean 0.
// To keep a player who won or lost every game finite, each player also gets
// one virtual draw against a fixed player rated 0 (a weak prior, as
// BayesElo uses). Intervals come from the inverse of the observed
// information matrix.
func Ratings(n int, games []Pair) []Rating {
	if n == 0 {
		return nil
	}
	r := make([]float64, n) // natural units: P(i beats j) = 1/(1+exp(r_j-r_i))
	grad := make([]float64, n)
	info := make([][]float64, n)
	for i := range info {
		info[i] = make([]float64, n)
	}
	// Newton's method on a concave log-likelihood converges in a few steps.
	for iter := 0; iter < 100; iter++ {
		for i := range n {
			// The prior: one draw against a player at 0.
			p := logistic(r[i])
			grad[i] = 0.5 - p
			clear(info[i])
			info[i][i] = p * (1 - p)
		}
		for _, g := range games {
			p := logistic(r[g.A] - r[g.B])
			grad[g.A] += g.Score - p
			grad[g.B] -= g.Score - p
			w := p * (1 - p)
			info[g.A][g.A] += w
			info[g.B][g.B] += w
			info[g.A][g.B] -= w
			info[g.B][g.A] -= w
		}
		step := solve(info, grad)
		maxStep := 0.0
		for i := range r {
			r[i] += step[i]
			maxStep = math.Max(maxStep, math.Abs(step[i]))
		}
		if maxStep < 1e-10 {
			break
		}
	}
	cov := invert(info)
	mean := 0.0
	for _, v := range r {
		mean += v / float64(n)
	}
	scale := 400 / math.Ln10
	out := make([]Rating, n)
	for i := range r {
		out[i] = Rating{Elo: (r[i] - mean) * scale, HalfWidth: 1.959964 * math.Sqrt(cov[i][i]) * scale}
	}
	return out
}

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// solve returns x with a·x = b by Gaussian elimination with partial
// pivoting; a is symmetric positive definite here, so it never fails.
func solve(a [][]float64, b []float64) []float64 {
	n := len(b)
	m := make([][]float64, n)
	for i := range m {
		m[i] = append(append(make([]float64, 0, n+1), a[i]...), b[i])
	}
	for c := range n {
		p := c
		for i := c + 1; i < n; i++ {
			if math.Abs(m[i][c]) > math.Abs(m[p][c]) {
				p = i
			}
		}
		m[c], m[p] = m[p], m[c]
		for i := c + 1; i < n; i++ {
			f := m[i][c] / m[c][c]
			for j := c; j <= n; j++ {
				m[i][j] -= f * m[c][j]
			}
		}
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := m[i][n]
		for j := i + 1; j < n; j++ {
			s -= m[i][j] * x[j]
		}
		x[i] = s / m[i][i]
	}
	return x
}

// invert returns the inverse of a, column by column.
func invert(a [][]float64) [][]float64 {
	n := len(a)
	inv := make([][]float64, n)
	for i := range inv {
		inv[i] = make([]float64, n)
	}
	e := make([]float64, n)
	for c := range n {
		clear(e)
		e[c] = 1
		col := solve(a, e)
		for i := range n {
			inv[i][c] = col[i]
		}
	}
	return inv
}
