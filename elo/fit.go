package elo

import (
	"errors"
	"fmt"
	"math"
)

// Game is one game between two players of a pool, as a rating fit reads
// it: who moved first, who moved second, and the first mover's score (1 for
// a win, 0.5 for a draw, 0 for a loss).
type Game struct {
	First, Second int
	Score         float64
}

// Model holds what the fit learns about the games besides the ratings.
type Model struct {
	// Advantage is the first mover's advantage in Elo.
	Advantage float64
	// DrawRatio is the share of drawn games.
	DrawRatio float64
	// Dispersion is the variance of a game's score relative to that of a
	// game without draws at the same expected score (at most 1): draws
	// make scores less variable, and the intervals narrower by its square
	// root.
	Dispersion float64
}

// Rated is one player's fitted rating.
type Rated struct {
	// Elo is the rating on the pool's scale.
	Elo float64
	// HalfWidth is the half-width of its 95% interval, taking the fixed
	// players' ratings as exact (0 for a fixed player).
	HalfWidth float64
	// Games counts the real games the player played.
	Games int
}

// ErrFit is wrapped by the errors of a fit that cannot be made.
var ErrFit = errors.New("elo: cannot fit")

// PriorWeight is the weight, in games, of the virtual draw that every two
// players who met get in a fit (as BayesElo's prior): it keeps a player who
// won or lost every game at a finite rating, and weighs little against the
// tens of real games a rating rests on.
const PriorWeight = 0.5

// Fit estimates by maximum likelihood the ratings of the players whose
// fixed entry is NaN, from games among n players, holding the others at
// their fixed ratings. The model is Ordo's: the first mover's expected
// score is F(d) = 1/(1+10^(-d/400)), d the difference of the two ratings
// plus the first move's advantage (fitted too), a draw counting half a
// win; the estimate maximises Σ s·log F(d) + (1-s)·log F(-d) over the
// games' scores s. A difference on this scale is thus the Elo difference a
// match's score implies, as `evolved match` prints it and as engine rating
// lists use it. Draws are modelled in the variance: the intervals, from the
// inverse of the observed information, are scaled by the games' dispersion
// (Model.Dispersion), which draws make smaller than a win-or-loss game's.
// Every two players who met also share a virtual draw of PriorWeight games
// without advantage, so that a perfect score has a finite rating.
//
// At least one player must be fixed, or the scale has no origin; every free
// player must be connected to a fixed one through the games.
func Fit(fixed []float64, games []Game) ([]Rated, Model, error) {
	n := len(fixed)
	free := make([]int, n) // index of each free player's parameter, or -1
	nFree := 0
	for i, r := range fixed {
		free[i] = -1
		if math.IsNaN(r) {
			free[i] = nFree
			nFree++
		}
	}
	if nFree == n {
		return nil, Model{}, fmt.Errorf("%w: no player has a fixed rating, so the scale has no origin", ErrFit)
	}
	out := make([]Rated, n)
	draws := 0
	for _, g := range games {
		if g.First < 0 || g.First >= n || g.Second < 0 || g.Second >= n || g.First == g.Second {
			return nil, Model{}, fmt.Errorf("%w: game between players %d and %d of %d", ErrFit, g.First, g.Second, n)
		}
		if g.Score != 0 && g.Score != 0.5 && g.Score != 1 {
			return nil, Model{}, fmt.Errorf("%w: score %v is not 0, 0.5 or 1", ErrFit, g.Score)
		}
		if g.Score == 0.5 {
			draws++
		}
		out[g.First].Games++
		out[g.Second].Games++
	}
	if err := connected(fixed, games); err != nil {
		return nil, Model{}, err
	}
	p := problem{fixed: fixed, free: free, nFree: nFree, games: games, priors: priorPairs(games)}
	theta, info := p.maximise(p.start())
	cov, err := invert(info)
	if err != nil {
		return nil, Model{}, fmt.Errorf("%w: %v", ErrFit, err)
	}
	model := Model{Advantage: theta[nFree], Dispersion: p.dispersion(theta)}
	if len(games) > 0 {
		model.DrawRatio = float64(draws) / float64(len(games))
	}
	for i := range out {
		if k := free[i]; k >= 0 {
			out[i].Elo = theta[k]
			out[i].HalfWidth = Z95 * math.Sqrt(math.Max(cov[k][k]*model.Dispersion, 0))
		} else {
			out[i].Elo = fixed[i]
		}
	}
	return out, model, nil
}

// connected checks that every free player reaches a fixed one through the
// games, which a finite fit needs.
func connected(fixed []float64, games []Game) error {
	n := len(fixed)
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, g := range games {
		parent[find(g.First)] = find(g.Second)
	}
	anchored := make(map[int]bool)
	for i, r := range fixed {
		if !math.IsNaN(r) {
			anchored[find(i)] = true
		}
	}
	for i, r := range fixed {
		if math.IsNaN(r) && !anchored[find(i)] {
			return fmt.Errorf("%w: player %d played no game that links it to a player of fixed rating", ErrFit, i)
		}
	}
	return nil
}

// pair is two players who met: they share PriorWeight games' virtual draw.
type pair struct{ a, b int }

// priorPairs returns every pair of players who met, once, in order of
// their first game (so that the fit is a function of its input order only).
func priorPairs(games []Game) []pair {
	seen := make(map[pair]bool)
	var out []pair
	for _, g := range games {
		p := pair{min(g.First, g.Second), max(g.First, g.Second)}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// problem is the log-likelihood of a fit as a function of its parameter
// vector θ: the free ratings in Elo, then the advantage in Elo.
type problem struct {
	fixed  []float64
	free   []int
	nFree  int
	games  []Game
	priors []pair
}

// start returns the first iterate: free players at the mean fixed rating,
// no advantage.
func (p *problem) start() []float64 {
	theta := make([]float64, p.nFree+1)
	mean, k := 0.0, 0
	for _, r := range p.fixed {
		if !math.IsNaN(r) {
			mean += r
			k++
		}
	}
	mean /= float64(k)
	for i := range p.nFree {
		theta[i] = mean
	}
	return theta
}

// rating returns player i's rating under θ.
func (p *problem) rating(theta []float64, i int) float64 {
	if k := p.free[i]; k >= 0 {
		return theta[k]
	}
	return p.fixed[i]
}

// advantagePrior is the standard deviation, in Elo, of a weak normal prior
// on the first move's advantage: it changes next to nothing when the games
// have both colours, and keeps the fit finite when they do not.
const advantagePrior = 1000

// evaluate returns the log-likelihood at θ and, when grad and hess are not
// nil, fills them with its gradient and Hessian.
func (p *problem) evaluate(theta, grad []float64, hess [][]float64) float64 {
	if grad != nil {
		clear(grad)
		for _, row := range hess {
			clear(row)
		}
	}
	adv := p.nFree // index of the advantage
	c := eloScale
	ll := 0.0
	// add adds one term w·(s·log σ(u) + (1-s)·log σ(-u)), u the first
	// player's lead (plus the advantage when withAdv) in natural units.
	add := func(first, second int, withAdv bool, score, w float64) {
		d := p.rating(theta, first) - p.rating(theta, second)
		if withAdv {
			d += theta[adv]
		}
		u := d * c
		e := sigmoid(u)
		ll += w * (score*logSigmoid(u) + (1-score)*logSigmoid(-u))
		if grad == nil {
			return
		}
		d1 := w * (score - e) * c
		d2 := -w * e * (1 - e) * c * c
		idx := [3]int{p.free[first], p.free[second], -1}
		if withAdv {
			idx[2] = adv
		}
		sign := [3]float64{1, -1, 1}
		for a := range 3 {
			if idx[a] < 0 {
				continue
			}
			grad[idx[a]] += sign[a] * d1
			for b := range 3 {
				if idx[b] >= 0 {
					hess[idx[a]][idx[b]] += sign[a] * sign[b] * d2
				}
			}
		}
	}
	for _, g := range p.games {
		add(g.First, g.Second, true, g.Score, 1)
	}
	for _, pr := range p.priors {
		add(pr.a, pr.b, false, 0.5, PriorWeight)
	}
	const v = advantagePrior * advantagePrior
	ll -= 0.5 * theta[adv] * theta[adv] / v
	if grad != nil {
		grad[adv] -= theta[adv] / v
		hess[adv][adv] -= 1 / v
	}
	return ll
}

// dispersion returns the games' Pearson dispersion at θ: the squared
// deviations of the scores from their expectations over the variance that
// games without draws would have, capped at 1 (draws can only make a
// game's score less variable). Without games it is 1.
func (p *problem) dispersion(theta []float64) float64 {
	num, den := 0.0, 0.0
	for _, g := range p.games {
		d := p.rating(theta, g.First) - p.rating(theta, g.Second) + theta[p.nFree]
		e := sigmoid(d * eloScale)
		num += (g.Score - e) * (g.Score - e)
		den += e * (1 - e)
	}
	if den == 0 {
		return 1
	}
	return math.Min(num/den, 1)
}

// sigmoid returns the logistic function 1/(1+e^(-x)) without overflow.
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// logSigmoid returns log σ(x) without overflow for large |x|.
func logSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

// maxStep bounds a Newton step of the fit, in Elo per parameter.
const maxStep = 200

// maximise runs Newton steps from θ, each at most maxStep Elo long, halved while they do not improve the
// log-likelihood (which is concave), until the gradient vanishes, and
// returns the optimum and the observed information there (the negative
// Hessian).
func (p *problem) maximise(theta []float64) ([]float64, [][]float64) {
	d := len(theta)
	grad := make([]float64, d)
	hess := make([][]float64, d)
	info := make([][]float64, d)
	for i := range hess {
		hess[i], info[i] = make([]float64, d), make([]float64, d)
	}
	trial := make([]float64, d)
	ll := p.evaluate(theta, grad, hess)
	negate := func() {
		for i := range d {
			for j := range d {
				info[i][j] = -hess[i][j]
			}
		}
	}
	for iter := 0; iter < 200 && norm(grad) > 1e-10; iter++ {
		negate()
		step, err := solve(info, grad)
		if err != nil {
			break
		}
		// A Newton step from far away can leap to where every game is
		// predicted with certainty: there the information vanishes and no
		// later step finds the way back. Steps of at most maxStep Elo
		// keep the iterate where the curvature still guides it.
		longest := 0.0
		for _, x := range step {
			longest = math.Max(longest, math.Abs(x))
		}
		if longest > maxStep {
			for i := range step {
				step[i] *= maxStep / longest
			}
		}
		improved := false
		for scale := 1.0; scale > 1e-6 && !improved; scale /= 2 {
			for i := range d {
				trial[i] = theta[i] + scale*step[i]
			}
			if l := p.evaluate(trial, nil, nil); l >= ll {
				copy(theta, trial)
				ll = p.evaluate(theta, grad, hess)
				improved = true
			}
		}
		if !improved {
			break // at the optimum to machine precision
		}
	}
	negate()
	return theta, info
}

func norm(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}

// solve returns x with a·x = b by Gaussian elimination with partial
// pivoting, or an error when a is singular.
func solve(a [][]float64, b []float64) ([]float64, error) {
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
		if m[p][c] == 0 || math.IsNaN(m[p][c]) {
			return nil, errors.New("singular information matrix")
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
	return x, nil
}

// invert returns the inverse of a, column by column.
func invert(a [][]float64) ([][]float64, error) {
	n := len(a)
	inv := make([][]float64, n)
	for i := range inv {
		inv[i] = make([]float64, n)
	}
	e := make([]float64, n)
	for c := range n {
		clear(e)
		e[c] = 1
		col, err := solve(a, e)
		if err != nil {
			return nil, err
		}
		for i := range n {
			inv[i][c] = col[i]
		}
	}
	return inv, nil
}
