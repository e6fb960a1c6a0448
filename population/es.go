package population

import (
	"fmt"
	"math"

	"evolved/nnet"
	"evolved/seed"
)

// The evolution strategy (Optimizer ES).
//
// A generation of size n holds the strategy's mean in slot 0 and
// (n-1)/2 mirrored pairs of samples around it, mean ± sigma*N(0, I), in
// slots 1, 2 (pair 0), 3, 4 (pair 1) and so on. All of them play the
// generation's tournament. The next mean moves from the mean towards the
// better half of the samples (mu = (n-1)/2 of them, by rank), weighted
// ln(mu + 1/2) - ln(i) for the i-th best and normalised to sum 1: Hansen's
// (mu/mu_w, lambda)-ES with a learning rate of 1 and a fixed step size,
// sigma = MutationStep(K) * MutationScale. The mirrored pairs cancel the
// sampling noise of the step to first order, and the weighted mean
// averages the tournament's noise over mu samples instead of trusting the
// luckiest, which is what a genetic algorithm's selection does. The
// champion is the mean, the strategy's estimate of the best genome.

// esSigma returns the standard deviation of the samples' steps for nets of
// k weights.
func (c Config) esSigma(k int) float64 { return float64(nnet.MutationStep(k) * c.mutationScale()) }

// esWeights returns the recombination weights of the mu best samples, best
// first: ln(mu+1/2) - ln(i) for i = 1..mu, normalised to sum 1.
func esWeights(mu int) []float64 {
	w := make([]float64, mu)
	sum := 0.0
	for i := range w {
		w[i] = math.Log(float64(mu)+0.5) - math.Log(float64(i+1))
		sum += w[i]
	}
	for i := range w {
		w[i] /= sum
	}
	return w
}

// esSamples returns the mirrored pairs around mean for a generation of
// size agents, pair k drawn from rngFor(k), in slot order.
func esSamples(cfg Config, mean *nnet.Net, size int, perturb func(k int, mean *nnet.Net, sigma float64) (plus, minus *nnet.Net)) []*nnet.Net {
	sigma := cfg.esSigma(mean.NumWeights())
	var out []*nnet.Net
	for k := range (size - 1) / 2 {
		plus, minus := perturb(k, mean, sigma)
		out = append(out, plus, minus)
	}
	return out
}

// breedES makes the next generation of the strategy from the ranking of
// this one: the new mean (origin Crossover, its parents the mu samples it
// was recombined from, best first), then the mirrored pairs around it
// (origin Mutation, the mean their parent), pair k drawn from
// seed.Rand(run seed, game, generation, seed.Mutation, k).
func breedES(cfg Config, st *State, ranking []int) (*State, error) {
	next := &State{Game: st.Game, Seed: st.Seed, Generation: st.Generation + 1, NextID: st.NextID}
	gen, game := st.Generation, st.Game
	var best []int // the samples' slots by rank, the mean left out
	for _, slot := range ranking {
		if slot != 0 {
			best = append(best, slot)
		}
	}
	mu := len(best) / 2
	parents := make([]*nnet.Net, mu)
	ids := make([]int64, mu)
	for i, slot := range best[:mu] {
		parents[i], ids[i] = st.Agents[slot].Net, st.Agents[slot].ID
	}
	mean, err := st.Agents[0].Net.Recombined(parents, esWeights(mu))
	if err != nil {
		return nil, fmt.Errorf("population: generation %d: new mean: %w", gen, err)
	}
	meanID := next.NextID
	next.Agents = append(next.Agents, Agent{ID: meanID, Net: mean, Origin: Crossover, Parents: ids})
	next.NextID++
	for _, net := range esSamples(cfg, mean, cfg.Size, func(k int, m *nnet.Net, sigma float64) (*nnet.Net, *nnet.Net) {
		return m.Perturbed(seed.Rand(st.Seed, game, gen, seed.Mutation, k), sigma)
	}) {
		next.Agents = append(next.Agents, Agent{ID: next.NextID, Net: net, Origin: Mutation, Parents: []int64{meanID}})
		next.NextID++
	}
	return next, nil
}
