package sprt

import (
	"fmt"
	"math"

	"evolved/elo"
)

// Pentanomial counts game pairs by their score from one player's side: [0]
// pairs lost twice, [1] a loss and a draw, [2] a win and a loss or two
// draws, [3] a win and a draw, [4] two wins (Fishtest's "Ptnml(0-2)").
// Counting pairs rather than games takes the correlation between the two
// games of an opening into account.
type Pentanomial [5]int

// Add counts one pair from the scores of its two games (1, 0.5 or 0 each).
func (p *Pentanomial) Add(first, second float64) {
	p[int(math.Round(2*(first+second)))]++
}

// Pairs returns the number of pairs counted.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// String formats the counts as Fishtest prints them: "3, 20, 50, 22, 5".
func (p Pentanomial) String() string {
	return fmt.Sprintf("%d, %d, %d, %d, %d", p[0], p[1], p[2], p[3], p[4])
}

// pdf returns the number of pairs and their distribution over the five
// cells, an empty cell counted as 0.001 pairs (Fishtest's regularisation).
func (p Pentanomial) pdf() (float64, [5]float64) {
	var n float64
	var out [5]float64
	for i, c := range p {
		out[i] = float64(c)
		if c == 0 {
			out[i] = 1e-3
		}
		n += out[i]
	}
	for i := range out {
		out[i] /= n
	}
	return n, out
}

// Stats are the statistics of a match in pairs, from one player's side.
type Stats struct {
	// Score is the mean score per game, from 0 to 1.
	Score float64
	// Elo is the Elo difference the score implies and EloCI the half-width
	// of its 95% interval, from the variance of the pair scores.
	Elo, EloCI float64
	// NElo is the normalized Elo (the score's excess over 1/2 per standard
	// deviation of a pair's score, times 800/ln 10 / √2, as Fishtest) and
	// NEloCI the half-width of its 95% interval.
	NElo, NEloCI float64
	// LOS is the likelihood of superiority: the probability, under a flat
	// prior, that the player is the stronger.
	LOS float64
}

// Stats returns the statistics of the pairs. With no pair, or pairs all of
// one score, the Elo is that of the score (infinite at 0 or 1) and the
// intervals are infinite.
func (p Pentanomial) Stats() Stats {
	n := float64(p.Pairs())
	if n == 0 {
		return Stats{Score: 0.5, EloCI: math.Inf(1), NEloCI: math.Inf(1), LOS: 0.5}
	}
	var pdf [5]float64
	for i, c := range p {
		pdf[i] = float64(c) / n
	}
	mu, v := moments(pdf)
	s := Stats{Score: mu, Elo: elo.Diff(mu)}
	if v == 0 {
		s.EloCI, s.NEloCI = math.Inf(1), math.Inf(1)
		switch {
		case mu > 0.5:
			s.LOS = 1
		case mu < 0.5:
			s.LOS = 0
		default:
			s.LOS = 0.5
		}
		return s
	}
	se := math.Sqrt(v / n) // of the mean per-game score
	lo, hi := math.Max(mu-elo.Z95*se, 1e-12), math.Min(mu+elo.Z95*se, 1-1e-12)
	s.EloCI = (elo.Diff(hi) - elo.Diff(lo)) / 2
	// Per game, a pair's variance is twice the per-game score's: σ_pg =
	// sqrt(2·v) with v the variance of the pair score per game.
	sigma := math.Sqrt(2 * v)
	s.NElo = (mu - 0.5) / sigma / ntPerNelo
	s.NEloCI = elo.Z95 * se / sigma / ntPerNelo
	s.LOS = 0.5 * (1 + math.Erf((mu-0.5)/se/math.Sqrt2))
	return s
}
