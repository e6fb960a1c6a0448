// Package sprt holds the statistics of a match played in game pairs (one
// opening, both colours), as Fishtest and fastchess compute them: the
// pentanomial counts of pair scores, the Elo and normalized Elo they imply
// with their intervals, the likelihood of superiority, and the sequential
// probability ratio test that stops a match as soon as it can tell a
// change worth elo1 from one worth elo0.
//
// The log-likelihood ratio is the generalized one of Fishtest's stats
// (M. Van den Bergh, "A practical introduction to the GSPRT" and its
// support notes): for each hypothesis the maximum-likelihood distribution of
// the pair scores under the constraint that its expected score (logistic
// bounds) or its t-value (normalized bounds) is the hypothesis's, and the
// log of their likelihood ratio on the observed pairs. The tests check the
// values against the LLRs Stockfish's commit messages publish.
package sprt

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"evolved/elo"
)

// Model says how the bounds of a test are expressed.
type Model string

const (
	// Logistic bounds are Elo differences as a match's score implies them,
	// the scale `evolved match` and `evolved rate` print.
	Logistic Model = "logistic"
	// Normalized bounds are normalized Elo (Fishtest's nElo since 2020):
	// the score's excess over 1/2 in units of its standard deviation, which
	// makes a test's length independent of the draw ratio.
	Normalized Model = "normalized"
)

// Test is a sequential probability ratio test of H0: the Elo difference is
// Elo0 against H1: it is Elo1, with error rates Alpha (accepting H1 when H0
// holds) and Beta (accepting H0 when H1 holds).
type Test struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
	Model       Model
}

// ErrSpec is wrapped by the errors of a malformed test specification.
var ErrSpec = errors.New("sprt: bad test")

// Parse reads a test "elo0=0,elo1=10,alpha=0.05,beta=0.05[,model=logistic]".
// elo0 and elo1 are required; alpha and beta default to 0.05, the model
// to logistic (fastchess's default is normalized; logistic is the scale
// the rest of evolved speaks).
func Parse(spec string) (Test, error) {
	t := Test{Alpha: 0.05, Beta: 0.05, Model: Logistic}
	seen := map[string]bool{}
	for _, part := range strings.Split(spec, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if !ok || key == "" {
			return Test{}, fmt.Errorf("%w %q: %q is not key=value", ErrSpec, spec, part)
		}
		if seen[key] {
			return Test{}, fmt.Errorf("%w %q: %s given twice", ErrSpec, spec, key)
		}
		seen[key] = true
		if key == "model" {
			switch m := Model(strings.ToLower(value)); m {
			case Logistic, Normalized:
				t.Model = m
			default:
				return Test{}, fmt.Errorf("%w %q: model %q (want logistic or normalized)", ErrSpec, spec, value)
			}
			continue
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return Test{}, fmt.Errorf("%w %q: %s=%q is not a number", ErrSpec, spec, key, value)
		}
		switch key {
		case "elo0":
			t.Elo0 = x
		case "elo1":
			t.Elo1 = x
		case "alpha":
			t.Alpha = x
		case "beta":
			t.Beta = x
		default:
			return Test{}, fmt.Errorf("%w %q: unknown key %q (want elo0, elo1, alpha, beta, model)", ErrSpec, spec, key)
		}
	}
	switch {
	case !seen["elo0"] || !seen["elo1"]:
		return Test{}, fmt.Errorf("%w %q: elo0 and elo1 are required", ErrSpec, spec)
	case t.Elo0 >= t.Elo1:
		return Test{}, fmt.Errorf("%w %q: elo0 must be below elo1", ErrSpec, spec)
	case math.Abs(t.Elo0) > 1000 || math.Abs(t.Elo1) > 1000:
		return Test{}, fmt.Errorf("%w %q: bounds beyond ±1000 Elo", ErrSpec, spec)
	case !(t.Alpha > 0 && t.Alpha < 0.5) || !(t.Beta > 0 && t.Beta < 0.5):
		return Test{}, fmt.Errorf("%w %q: alpha and beta must lie strictly between 0 and 0.5", ErrSpec, spec)
	}
	return t, nil
}

// String formats the test as Parse reads it.
func (t Test) String() string {
	return fmt.Sprintf("elo0=%g,elo1=%g,alpha=%g,beta=%g,model=%s", t.Elo0, t.Elo1, t.Alpha, t.Beta, t.Model)
}

// Bounds returns the LLR thresholds: at or below lower the test accepts
// H0, at or above upper H1 (Wald's approximations).
func (t Test) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// Decision is the state of a test.
type Decision int

const (
	// Continue means neither bound is reached.
	Continue Decision = iota
	// AcceptH0 means the LLR reached the lower bound.
	AcceptH0
	// AcceptH1 means the LLR reached the upper bound.
	AcceptH1
)

// String returns "H0", "H1" or "continue".
func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0"
	case AcceptH1:
		return "H1"
	}
	return "continue"
}

// Decide returns the test's decision on the pairs p.
func (t Test) Decide(p Pentanomial) (Decision, float64) {
	llr := t.LLR(p)
	lower, upper := t.Bounds()
	switch {
	case llr >= upper:
		return AcceptH1, llr
	case llr <= lower:
		return AcceptH0, llr
	}
	return Continue, llr
}

// ntPerNelo is 1 / (800/ln 10): a t-value per normalized Elo point.
const ntPerNelo = math.Ln10 / 800

// LLR returns the generalized log-likelihood ratio of H1 against H0 on the
// pairs p. Empty cells are given 0.001 pairs, as Fishtest does, so that
// the maximum-likelihood distributions exist; with no pair at all it is 0.
func (t Test) LLR(p Pentanomial) float64 {
	if p.Pairs() == 0 {
		return 0
	}
	n, pdf := p.pdf()
	var p0, p1 [5]float64
	switch t.Model {
	case Normalized:
		// Per pair, a t-value is √2 times the per-game one.
		t0, t1 := t.Elo0*ntPerNelo*math.Sqrt2, t.Elo1*ntPerNelo*math.Sqrt2
		p0, p1 = mleTValue(pdf, 0.5, t0), mleTValue(pdf, 0.5, t1)
	default:
		p0, p1 = mleExpected(pdf, elo.Expected(t.Elo0)), mleExpected(pdf, elo.Expected(t.Elo1))
	}
	llr := 0.0
	for i := range pdf {
		llr += pdf[i] * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return n * llr
}

// pairScores are the pair scores of the pentanomial cells, per game: 0,
// ¼, ½, ¾, 1.
var pairScores = [5]float64{0, 0.25, 0.5, 0.75, 1}

// mleExpected returns the maximum-likelihood distribution over the pair
// scores with expectation s, given the observed one: p̂ᵢ/(1+x(aᵢ-s)), x
// the root of Σ p̂ᵢ(aᵢ-s)/(1+x(aᵢ-s)) = 0 (Van den Bergh, "Support for the
// MLE of a multinomial distribution", Proposition 1.1).
func mleExpected(pdf [5]float64, s float64) [5]float64 {
	var shifted [5]float64
	for i, a := range pairScores {
		shifted[i] = a - s
	}
	x := secular(pdf, shifted)
	var out [5]float64
	for i := range pdf {
		out[i] = pdf[i] / (1 + x*shifted[i])
	}
	return out
}

// mleTValue returns the maximum-likelihood distribution over the pair
// scores whose t-value (μ-ref)/σ is t, given the observed one, by the
// fixed-point iteration of Van den Bergh's "Normalized Elo: practical
// considerations", section 4.1.
func mleTValue(pdf [5]float64, ref, t float64) [5]float64 {
	var out [5]float64
	for i := range out {
		out[i] = 1.0 / 5
	}
	for range 10 {
		prev := out
		mu, v := moments(out)
		sigma := math.Sqrt(v)
		var shifted [5]float64
		for i, a := range pairScores {
			d := (mu - a) / sigma
			shifted[i] = a - ref - t*sigma*(1+d*d)/2
		}
		x := secular(pdf, shifted)
		change := 0.0
		for i := range pdf {
			out[i] = pdf[i] / (1 + x*shifted[i])
			change = math.Max(change, math.Abs(out[i]-prev[i]))
		}
		if change < 1e-9 {
			break
		}
	}
	return out
}

// secular solves Σ pᵢaᵢ/(1+x·aᵢ) = 0 for x between -1/max(a) and
// -1/min(a), where the left side falls from +∞ to -∞; a must hold values
// of both signs. Bisection to the last bit: the function is monotone.
func secular(p, a [5]float64) float64 {
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, v := range a {
		if v > 0 {
			lo = math.Max(lo, -1/v)
		} else if v < 0 {
			hi = math.Min(hi, -1/v)
		}
	}
	f := func(x float64) float64 {
		s := 0.0
		for i := range p {
			s += p[i] * a[i] / (1 + x*a[i])
		}
		return s
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid == lo || mid == hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}

// moments returns the mean and variance of the pair scores under pdf.
func moments(pdf [5]float64) (mean, variance float64) {
	for i, a := range pairScores {
		mean += pdf[i] * a
	}
	for i, a := range pairScores {
		variance += pdf[i] * (a - mean) * (a - mean)
	}
	return mean, variance
}
