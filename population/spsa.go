package population

import (
	"cmp"
	"fmt"

	"evolved/nnet"
	"evolved/seed"
	"evolved/tournament"
)

// SPSA (Optimizer SPSA), after Spall and Fishtest's tuner.
//
// A generation of size n holds the mean in slot 0 and P = (n-1)/2
// mirrored pairs in slots 1, 2 (pair 0), 3, 4 (pair 1) and so on: plus =
// mean + s*d, minus = mean - s*d, d a random sign for every weight and s
// the weight's mutation step (nnet.Net.SignPerturbed). Each pair plays
// itself only, spsaGames games (pairs of games from one opening, one with
// each colour), and its result is r = (wins of plus - wins of minus) /
// games, in [-1, 1]. The next mean is
//
//	mean + rate * (1/P) * sum over pairs of r * (plus - minus) / 2
//
// (nnet.Net.Recombined with the pair's nets weighted ±rate*r/(2P)): each
// weight moves by rate*r times its step in the pair's direction, so on
// average along the gradient of the expected score. A genetic algorithm
// has to tell its agents apart; SPSA needs only that the pairs' results
// lean, on average over many generations, towards the better direction:
// differences far below what 28 games can rank still move the mean. The
// mean plays no fitness game; it is the champion, which the ladder and
// the baselines measure.

// spsaGames returns the games each pair plays.
func (c Config) spsaGames() int { return cmp.Or(c.SPSAGames, DefaultSPSAGames) }

// spsaRate returns the mean's step multiplier.
func (c Config) spsaRate() float64 { return cmp.Or(c.SPSARate, 1) }

// spsaSchedule returns the games of SPSA's generation of n agents: pair k
// (slots 2k+1 and 2k+2) plays games games, pair j of them from opening
// k*games/2 + j, plus moving first in the first game.
func spsaSchedule(n, games int) []tournament.Pairing {
	var out []tournament.Pairing
	for k := range (n - 1) / 2 {
		plus, minus := 2*k+1, 2*k+2
		for j := range games / 2 {
			opening := k*games/2 + j
			out = append(out, tournament.Pairing{First: plus, Second: minus, OpeningIndex: opening},
				tournament.Pairing{First: minus, Second: plus, OpeningIndex: opening})
		}
	}
	return out
}

// breedSPSA makes the next generation from this one's pairs' results: the
// new mean (origin Mutation, its parent the mean), then its mirrored
// pairs (origin Mutation, the new mean their parent), pair k drawn from
// seed.Rand(run seed, game, generation, seed.Mutation, k).
func breedSPSA[M comparable](cfg Config, st *State, results tournament.Results[M]) (*State, error) {
	next := &State{Game: st.Game, Seed: st.Seed, Generation: st.Generation + 1, NextID: st.NextID}
	gen, game := st.Generation, st.Game
	pairs := (len(st.Agents) - 1) / 2
	parents := make([]*nnet.Net, 0, 2*pairs)
	weights := make([]float64, 0, 2*pairs)
	for k := range pairs {
		plus := 2*k + 1
		games := results.Wins[plus] + results.Draws[plus] + results.Losses[plus]
		r := float64(results.Wins[plus]-results.Losses[plus]) / float64(max(games, 1))
		w := float64(cfg.spsaRate()*r) / float64(2*pairs)
		parents = append(parents, st.Agents[plus].Net, st.Agents[plus+1].Net)
		weights = append(weights, w, -w)
	}
	mean, err := st.Agents[0].Net.Recombined(parents, weights)
	if err != nil {
		return nil, fmt.Errorf("population: generation %d: new mean: %w", gen, err)
	}
	meanID := next.NextID
	next.Agents = append(next.Agents, Agent{ID: meanID, Net: mean, Origin: Mutation, Parents: []int64{st.Agents[0].ID}})
	next.NextID++
	for k := range pairs {
		plus, minus := mean.SignPerturbed(seed.Rand(st.Seed, game, gen, seed.Mutation, k), cfg.Steps())
		for _, net := range []*nnet.Net{plus, minus} {
			next.Agents = append(next.Agents, Agent{ID: next.NextID, Net: net, Origin: Mutation, Parents: []int64{meanID}})
			next.NextID++
		}
	}
	return next, nil
}
