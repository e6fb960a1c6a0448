package population

import (
	"math"
	"math/rand/v2"
)

// Learner is an agent's learning settings (Config.LearnExplore): what its
// training (Env.Train) is given besides the positions.
type Learner struct {
	// Rate is Adam's step size (distill.TrainOptions.Rate).
	Rate float64 `json:"rate"`
	// Results is the share, 0 to MaxLearnResults, of a position's target
	// taken from its game's result, the rest from its search's score
	// (distill.TrainOptions.Results, where 0 means the trainer's default
	// and is given as a negative value).
	Results float64 `json:"results"`
}

// MinLearnRate, MaxLearnRate and MaxLearnResults are the bounds a
// perturbed Learner is held to: a rate within a factor of ten of the
// default's either way; at most half of the target from the results
// (25-40% is what the engines that train on their games use).
const (
	MinLearnRate    = 1e-4
	MaxLearnRate    = 1e-2
	MaxLearnResults = 0.5
)

// The spread of a mutant's settings around its parent's (Learner.Perturbed):
// the rate is multiplied by exp(learnRateSpread·N(0,1)), about ±28% a
// standard deviation; the results' share moves by learnResultsSpread·N(0,1).
const (
	learnRateSpread    = 0.25
	learnResultsSpread = 0.05
)

// DefaultLearner returns the settings of the training without
// Config.LearnExplore, which every learner starts from: one pass at rate
// 0.001 on the search's score alone, the best measured offline
// (docs/commands.md, "selfplay and train").
func DefaultLearner() Learner { return Learner{Rate: 0.001, Results: 0} }

// Perturbed returns l moved by one draw each from r, for a mutant: the
// rate times exp(0.25·N(0,1)) held to [MinLearnRate, MaxLearnRate], the
// results' share plus 0.05·N(0,1) held to [0, MaxLearnResults]. The rate
// is drawn first.
func (l Learner) Perturbed(r *rand.Rand) Learner {
	rate := l.Rate * math.Exp(learnRateSpread*r.NormFloat64())
	results := l.Results + learnResultsSpread*r.NormFloat64()
	return Learner{Rate: min(max(rate, MinLearnRate), MaxLearnRate), Results: min(max(results, 0), MaxLearnResults)}
}

// learner returns a's learning settings: its own, or the defaults when it
// carries none (a run that has just turned Config.LearnExplore on).
func (a Agent) learner() Learner {
	if a.Learner != nil {
		return *a.Learner
	}
	return DefaultLearner()
}
