package population

import (
	"math"
	"slices"
	"testing"

	"evolved/nnet"
	"evolved/seed"
	"evolved/tournament"
)

// TestBreedSPSAByHand checks SPSA's step against figures worked by hand:
// a mean and two pairs, pair 0's plus winning 3 and losing 1 of its 4
// games (r = 0.5), pair 1 drawing all 4 (r = 0), at rate 2: the new mean
// is mean + 2 x 0.5 / (2 x 2) x (plus0 - minus0) = mean + (plus0 -
// minus0)/4, half a step along pair 0's direction, and pair 1 moves
// nothing. The new pairs are the new mean's SignPerturbed from the seed
// the design names, and the lineage is the mean's.
func TestBreedSPSAByHand(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Optimizer, cfg.Size, cfg.FitnessMemory, cfg.SPSARate, cfg.SPSAGames = SPSA, 5, false, 2, 4
	cfg.Hidden = []int{6}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	st, err := New("draughts", nnet.NumDraughtsInputs, cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	st.Generation, st.NextID = 7, 40
	for i := range st.Agents {
		st.Agents[i].ID = int64(30 + i)
	}
	res := tournament.Results[int]{Points: []int{0, 5, -2, 0, 0}, Wins: []int{0, 3, 1, 0, 0}, Draws: []int{0, 0, 0, 4, 4}, Losses: []int{0, 1, 3, 0, 0}}
	next, err := breedSPSA(cfg, st, res)
	if err != nil {
		t.Fatal(err)
	}
	mean, plus, minus := st.Agents[0].Net.Weights(), st.Agents[1].Net.Weights(), st.Agents[2].Net.Weights()
	got := next.Agents[0].Net.Weights()
	for i, w := range mean {
		want := w + (plus[i]-minus[i])/4
		if math.Abs(got[i]-want) > 1e-6*max(1, math.Abs(want)) {
			t.Fatalf("weight %d of the new mean: %v, want %v", i, got[i], want)
		}
	}
	if a := next.Agents[0]; a.ID != 40 || a.Origin != Mutation || !slices.Equal(a.Parents, []int64{30}) {
		t.Errorf("new mean %d %s %v, want 40, mutation of 30", a.ID, a.Origin, a.Parents)
	}
	for k := range 2 {
		p, m := next.Agents[0].Net.SignPerturbed(seed.Rand(3, "draughts", 7, seed.Mutation, k), cfg.Steps())
		for j, want := range []*nnet.Net{p, m} {
			a := next.Agents[1+2*k+j]
			if !slices.Equal(a.Net.Weights(), want.Weights()) || a.ID != int64(41+2*k+j) || !slices.Equal(a.Parents, []int64{40}) {
				t.Errorf("pair %d agent %d: id %d parents %v, or a net other than the design's", k, j, a.ID, a.Parents)
			}
		}
	}
	if len(next.Agents) != 5 || next.NextID != 45 || next.Generation != 8 {
		t.Errorf("next generation %d with %d agents, next ID %d; want 8, 5, 45", next.Generation, len(next.Agents), next.NextID)
	}
}

// TestSPSASchedule checks the pairs' games: 2 pairs of 4 games, each pair
// of games from one opening with both colours, numbered pair by pair.
func TestSPSASchedule(t *testing.T) {
	want := []tournament.Pairing{
		{First: 1, Second: 2, OpeningIndex: 0}, {First: 2, Second: 1, OpeningIndex: 0},
		{First: 1, Second: 2, OpeningIndex: 1}, {First: 2, Second: 1, OpeningIndex: 1},
		{First: 3, Second: 4, OpeningIndex: 2}, {First: 4, Second: 3, OpeningIndex: 2},
		{First: 3, Second: 4, OpeningIndex: 3}, {First: 4, Second: 3, OpeningIndex: 3},
	}
	if got := spsaSchedule(5, 4); !slices.Equal(got, want) {
		t.Errorf("spsaSchedule(5, 4) = %v, want %v", got, want)
	}
	cfg := DefaultConfig()
	cfg.Optimizer, cfg.SPSAGames = SPSA, 4
	if got := cfg.FitnessGames(3, 15); got != 28 {
		t.Errorf("FitnessGames = %d, want 7 pairs x 4", got)
	}
}
