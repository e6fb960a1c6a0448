package population

import (
	"math"
	"slices"
	"testing"

	"evolved/lineage"
	"evolved/nnet"
	"evolved/seed"
)

// TestLearnerPerturbed checks a mutant's settings against the formula
// from the stream's own draws, the rate drawn first, and that they are
// held to their bounds: a rate at the upper bound or a share of 0 stays
// within them whatever the draw, and both bounds are reached.
func TestLearnerPerturbed(t *testing.T) {
	var lowRate, highRate, noResults bool
	for i := range 200 {
		for _, from := range []Learner{DefaultLearner(), {Rate: MaxLearnRate, Results: 0.3}, {Rate: MinLearnRate, Results: MaxLearnResults}} {
			got := from.Perturbed(seed.Rand(9, "chess", 4, seed.Learner, i))
			r := seed.Rand(9, "chess", 4, seed.Learner, i)
			rate := from.Rate * math.Exp(0.25*r.NormFloat64())
			results := from.Results + 0.05*r.NormFloat64()
			want := Learner{Rate: min(max(rate, 1e-4), 1e-2), Results: min(max(results, 0), 0.5)}
			if got != want {
				t.Fatalf("%+v perturbed by stream %d = %+v, want %+v", from, i, got, want)
			}
			if again := from.Perturbed(seed.Rand(9, "chess", 4, seed.Learner, i)); again != got {
				t.Fatalf("%+v perturbed by stream %d twice: %+v and %+v", from, i, got, again)
			}
			lowRate = lowRate || got.Rate == MinLearnRate
			highRate = highRate || got.Rate == MaxLearnRate
			noResults = noResults || (got.Results == 0 && from.Results == 0)
		}
	}
	if !lowRate || !highRate || !noResults {
		t.Errorf("200 draws never held a rate to %v (%v), to %v (%v), or a share to 0 (%v)", MinLearnRate, lowRate, MaxLearnRate, highRate, noResults)
	}
	if d := DefaultLearner(); d.Rate != 0.001 || d.Results != 0 {
		t.Errorf("the default learner %+v, want rate 0.001 and results 0 (the search's score alone)", d)
	}
}

// TestBreedInheritsLearners breeds breedCase's generation with
// LearnExplore, each agent with settings of its own (rank 5's none, so the
// defaults): the elite keep theirs, each crossover child takes its first
// parent's, each mutant its parent's perturbed by the stream seed.Learner
// of its mutation's index; and every agent's genome, ID, parents and
// recipe are those breed makes without LearnExplore, whose agents carry
// no settings.
func TestBreedInheritsLearners(t *testing.T) {
	cfg, st, ranking, results := breedCase(t)
	plain, err := breed(cfg, st, ranking, results, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range st.Agents {
		st.Agents[i].Learner = &Learner{Rate: 0.001 * float64(i+1), Results: 0.01 * float64(i)}
	}
	st.Agents[ranking[4]].Learner = nil
	cfg.LearnExplore = true
	next, err := breed(cfg, st, ranking, results, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	rank := func(k int) Learner { return st.Agents[ranking[k-1]].learner() }
	mutant := func(k, index int) Learner {
		return rank(k).Perturbed(seed.Rand(st.Seed, st.Game, st.Generation, seed.Learner, index))
	}
	// The elite, then pair (1,2): its children and both parents mutated,
	// then pair (2,3)'s, then the mutants of ranks 4 and 5.
	want := []Learner{rank(1), rank(2), rank(3), rank(4), DefaultLearner(),
		rank(1), rank(2), mutant(1, 0), mutant(2, 1),
		rank(2), rank(3), mutant(2, 2), mutant(3, 3),
		mutant(4, 4), mutant(5, 5)}
	if len(next.Agents) != len(want) {
		t.Fatalf("%d agents, want %d", len(next.Agents), len(want))
	}
	for i, a := range next.Agents {
		if a.Learner == nil || *a.Learner != want[i] {
			t.Errorf("slot %d (%s of %v): settings %+v, want %+v", i, a.Origin, a.Parents, a.Learner, want[i])
		}
		p := plain.Agents[i]
		if p.Learner != nil || a.ID != p.ID || !a.Net.Equal(p.Net) || a.Origin != p.Origin || !slices.Equal(a.Parents, p.Parents) || !sameRecipe(a.Recipe, p.Recipe) {
			t.Errorf("slot %d: agent %d (%s) differs from the one bred without learners, %d (%s)", i, a.ID, a.Origin, p.ID, p.Origin)
		}
	}
}

// sameRecipe reports whether a and b are the same recipe, or both nil.
func sameRecipe(a, b *lineage.Recipe) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Op == b.Op && a.Index == b.Index && slices.Equal(a.Step, b.Step)
}

// TestBreedLearnersTakeTheirOwnSteps breeds with each elite's own trained
// net (own): each elite is a new genome (origin Distilled, its elite its
// parent, its past and settings kept) whose recipe holds its own change
// and makes the trained net; the steps differ between the elite, and the
// children breed from the new elite's nets.
func TestBreedLearnersTakeTheirOwnSteps(t *testing.T) {
	cfg, st, ranking, results := breedCase(t)
	cfg.LearnExplore = true
	own := make([]*nnet.Net, cfg.Elite)
	for k := range own {
		w := st.Agents[ranking[k]].Net.Weights()
		for i := range k + 1 { // rank k+1 moves its first k+1 weights by 0.25
			w[i] += 0.25
		}
		var err error
		if own[k], err = st.Agents[ranking[k]].Net.WithWeights(w); err != nil {
			t.Fatal(err)
		}
		st.Agents[ranking[k]].Learner = &Learner{Rate: 0.002 * float64(k+1), Results: 0.1}
	}
	plain, err := breed(cfg, st, ranking, results, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	next, err := breed(cfg, st, ranking, results, nil, own)
	if err != nil {
		t.Fatal(err)
	}
	for k := range cfg.Elite {
		a, e, p := next.Agents[k], st.Agents[ranking[k]], plain.Agents[k]
		if a.ID != st.NextID+int64(k) || a.Origin != Distilled || !slices.Equal(a.Parents, []int64{e.ID}) ||
			a.Recipe == nil || a.Recipe.Op != lineage.Distill || len(a.Recipe.Step) != k+1 ||
			a.PastPoints != p.PastPoints || a.PastGames != p.PastGames || *a.Learner != *e.Learner {
			t.Errorf("elite %d: %+v; want agent %d with its own step of %d weights from %d, its past and settings kept", k+1, a, st.NextID+int64(k), k+1, e.ID)
		}
		aw, ow := a.Net.Weights(), own[k].Weights()
		for i := range ow {
			if math.Abs(aw[i]-ow[i]) > 1e-6 {
				t.Fatalf("elite %d weight %d: %v, its trained net's %v", k+1, i, aw[i], ow[i])
			}
		}
	}
	c1, _, _, err := nnet.Crossover(next.Agents[0].Net, next.Agents[1].Net, seed.Rand(st.Seed, st.Game, st.Generation, seed.Crossover, 0))
	if err != nil {
		t.Fatal(err)
	}
	if a := next.Agents[cfg.Elite]; !a.Net.Equal(c1) || *a.Learner != *next.Agents[0].Learner {
		t.Errorf("the first child does not come from the new nets of ranks 1 and 2, with rank 1's settings")
	}
}
