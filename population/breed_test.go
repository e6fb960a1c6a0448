package population

import (
	"errors"
	"math"
	"slices"
	"testing"

	"evolved/game/chess"
	"evolved/game/draughts"
	"evolved/lineage"
	"evolved/nnet"
	"evolved/seed"
	"evolved/tournament"
)

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("default config: %v", err)
	}
	bad := map[string]func(*Config){
		"sizes do not add up":             func(c *Config) { c.Size = 16 },
		"rank outside elite":              func(c *Config) { c.Mutants = []int{4, 6} },
		"self crossover":                  func(c *Config) { c.Crossovers = [][2]int{{1, 1}, {2, 3}} },
		"no hidden layer":                 func(c *Config) { c.Hidden = nil },
		"odd ladder games":                func(c *Config) { c.LadderGames = 5 },
		"unknown format":                  func(c *Config) { c.Tournament.Format = "swiss" },
		"value step without piece values": func(c *Config) { c.ValueMutationScale = 0.05 },
		"table scale step without tables": func(c *Config) { c.TableScaleStep = 0.05 },
		"table scale step above the bound": func(c *Config) {
			c.Flags |= nnet.EvolvePST
			c.TableScaleStep = MaxTableScaleStep * 2
		},
		"negative rounds": func(c *Config) { c.Tournament.Rounds = -1 },
		"too many rounds": func(c *Config) { c.Tournament.Rounds = MaxRounds + 1 },
		"rounds of blondie": func(c *Config) {
			c.Tournament.Format = tournament.Blondie
			c.Tournament.Rounds = 2
		},
		"value step above 1": func(c *Config) {
			c.Flags |= nnet.EvolvePieceValues
			c.ValueMutationScale = 1.5
		},
	}
	ok := DefaultConfig()
	ok.Flags |= nnet.EvolvePieceValues
	ok.ValueMutationScale = 0.05
	if err := ok.Validate(); err != nil {
		t.Errorf("a value step with evolvable piece values: %v", err)
	}
	ok = DefaultConfig()
	ok.Tournament.Format, ok.Tournament.Rounds = tournament.RoundRobin, MaxRounds
	if err := ok.Validate(); err != nil {
		t.Errorf("%d rounds of a round robin: %v", MaxRounds, err)
	}
	if got, want := ok.FitnessGames(0, 15), 210*MaxRounds; got != want {
		t.Errorf("%d rounds of 15 agents: %d fitness games, want %d", MaxRounds, got, want)
	}
	for name, mutate := range bad {
		c := DefaultConfig()
		mutate(&c)
		if err := c.Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: Validate() = %v, want ErrConfig", name, err)
		}
	}
}

// breedCase returns a generation 3 of draughts ranked and scored for the
// breeding tests: slots ranked 1st..15th 7, 2, 9, 0, 14, then the rest;
// slot i scored i points in 10 games; slot 7 (ranked first) had played
// before, 30 points in 20 games, which carry over with this generation's.
func breedCase(t *testing.T) (Config, *State, []int, tournament.Results[draughts.Move]) {
	t.Helper()
	cfg := DefaultConfig()
	st, err := New("draughts", nnet.NumDraughtsInputs, cfg, 5)
	if err != nil {
		t.Fatal(err)
	}
	st.Generation = 3
	ranking := []int{7, 2, 9, 0, 14, 1, 3, 4, 5, 6, 8, 10, 11, 12, 13}
	st.Agents[7].PastPoints, st.Agents[7].PastGames = 30, 20
	var results tournament.Results[draughts.Move]
	for i := range st.Agents {
		results.Points = append(results.Points, i)
		results.Wins, results.Draws, results.Losses = append(results.Wins, 5), append(results.Draws, 3), append(results.Losses, 2)
	}
	return cfg, st, ranking, results
}

func TestBreedFollowsTheDesign(t *testing.T) {
	cfg, st, ranking, results := breedCase(t)
	next, err := breed(cfg, st, ranking, results, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range [][2]int{{37, 30}, {2, 10}, {9, 10}, {0, 10}, {14, 10}} {
		if a := next.Agents[k]; a.PastPoints != want[0] || a.PastGames != want[1] {
			t.Errorf("elite %d: past %d points in %d games, want %d in %d", k+1, a.PastPoints, a.PastGames, want[0], want[1])
		}
	}
	for _, a := range next.Agents[cfg.Elite:] {
		if a.PastPoints != 0 || a.PastGames != 0 {
			t.Errorf("new agent %d starts with a past: %d points in %d games", a.ID, a.PastPoints, a.PastGames)
		}
	}
	if len(next.Agents) != 15 || next.Generation != 4 {
		t.Fatalf("%d agents in generation %d, want 15 in generation 4", len(next.Agents), next.Generation)
	}
	r := func(k int) Agent { return st.Agents[ranking[k-1]] }
	// 1..5: the elite, unchanged, same IDs, in rank order.
	for k := 1; k <= 5; k++ {
		a := next.Agents[k-1]
		if a.ID != r(k).ID || a.Net != r(k).Net || a.Origin != Elite {
			t.Errorf("slot %d: %+v, want rank %d's agent %d kept as elite", k-1, a.ID, k, r(k).ID)
		}
	}
	// Then for pairs (1,2) and (2,3): the node-swap children and both
	// parents mutated, each from its derived seed.
	mutation := 0
	slot := 5
	for i, pair := range [][2]int{{1, 2}, {2, 3}} {
		dom, sub := r(pair[0]), r(pair[1])
		c1, c2, node, err := nnet.Crossover(dom.Net, sub.Net, seed.Rand(5, "draughts", 3, seed.Crossover, i))
		if err != nil {
			t.Fatal(err)
		}
		want := []struct {
			net     *nnet.Net
			origin  Origin
			parents []int64
		}{
			{c1, Crossover, []int64{dom.ID, sub.ID}},
			{c2, Crossover, []int64{sub.ID, dom.ID}},
			{dom.Net.Mutated(seed.Rand(5, "draughts", 3, seed.Mutation, mutation)), Mutation, []int64{dom.ID}},
			{sub.Net.Mutated(seed.Rand(5, "draughts", 3, seed.Mutation, mutation+1)), Mutation, []int64{sub.ID}},
		}
		mutation += 2
		for _, w := range want {
			a := next.Agents[slot]
			if !a.Net.Equal(w.net) || a.Origin != w.origin || !slices.Equal(a.Parents, w.parents) {
				t.Errorf("slot %d: origin %s parents %v, want %s from %v (and its exact net)", slot, a.Origin, a.Parents, w.origin, w.parents)
			}
			if a.Origin == Crossover && *a.Node != node {
				t.Errorf("slot %d: node %v, want %v", slot, *a.Node, node)
			}
			slot++
		}
	}
	// Then ranks 4 and 5 mutated.
	for _, k := range []int{4, 5} {
		a := next.Agents[slot]
		w := r(k).Net.Mutated(seed.Rand(5, "draughts", 3, seed.Mutation, mutation))
		if !a.Net.Equal(w) || !slices.Equal(a.Parents, []int64{r(k).ID}) {
			t.Errorf("slot %d: parents %v, want rank %d (%d) mutated", slot, a.Parents, k, r(k).ID)
		}
		mutation++
		slot++
	}
	// New genomes get fresh, consecutive IDs.
	for i, a := range next.Agents[5:] {
		if want := st.NextID + int64(i); a.ID != want {
			t.Errorf("new agent %d: ID %d, want %d", i, a.ID, want)
		}
	}
}

// TestBreedWithTheChampionLearnt: with the champion distilled, the elite
// are new genomes in rank order (the next IDs, origin Distilled, each
// elite its parent, its past kept): the champion's is the fitted genome,
// each other's its elite moved by the fit's step, hidden layers and all
// (the step is 0 there); they breed as the elite (the first child and
// rank 1's mutant come from the fitted genome), and the population's
// size is as without it.
func TestBreedWithTheChampionLearnt(t *testing.T) {
	cfg, st, ranking, results := breedCase(t)
	plain, err := breed(cfg, st, ranking, results, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	champ := st.Agents[7]
	// The fit's step: 0.25 on the last three weights.
	w := champ.Net.Weights()
	for i := len(w) - 3; i < len(w); i++ {
		w[i] += 0.25
	}
	learnt, err := champ.Net.WithWeights(w)
	if err != nil {
		t.Fatal(err)
	}
	next, err := breed(cfg, st, ranking, results, learnt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(next.Agents) != len(plain.Agents) || next.NextID != plain.NextID+int64(cfg.Elite) {
		t.Fatalf("%d agents, next ID %d; without it %d, %d", len(next.Agents), next.NextID, len(plain.Agents), plain.NextID)
	}
	for k := range cfg.Elite {
		a, e := next.Agents[k], st.Agents[ranking[k]]
		want := plain.Agents[k]
		if a.ID != st.NextID+int64(k) || a.Origin != Distilled || !slices.Equal(a.Parents, []int64{e.ID}) ||
			a.Recipe == nil || a.Recipe.Op != lineage.Distill || len(a.Recipe.Step) != 3 ||
			a.PastPoints != want.PastPoints || a.PastGames != want.PastGames {
			t.Errorf("elite %d: %+v; want agent %d distilled from %d with the past %d/%d", k+1, a, st.NextID+int64(k), e.ID, want.PastPoints, want.PastGames)
		}
		ew, aw := e.Net.Weights(), a.Net.Weights()
		for i := range ew {
			d := 0.0
			if i >= len(ew)-3 {
				d = 0.25
			}
			if math.Abs(aw[i]-ew[i]-d) > 1e-6 {
				t.Fatalf("elite %d weight %d: %v from %v, want a step of %v", k+1, i, aw[i], ew[i], d)
			}
		}
	}
	// The champion's place holds the fitted genome, each weight rounded
	// to a float32 as every distilled genome's is.
	for i := range w {
		w[i] = float64(float32(w[i]))
	}
	if want, err := champ.Net.WithWeights(w); err != nil || !next.Agents[0].Net.Equal(want) {
		t.Errorf("the champion's place does not hold the fitted genome (%v)", err)
	}
	learnt = next.Agents[0].Net
	// The first crossover's parents and rank 1's mutant are the new
	// elites, from their nets.
	c1, _, _, err := nnet.Crossover(learnt, next.Agents[1].Net, seed.Rand(5, "draughts", 3, seed.Crossover, 0))
	if err != nil {
		t.Fatal(err)
	}
	if a := next.Agents[cfg.Elite]; !slices.Equal(a.Parents, []int64{next.Agents[0].ID, next.Agents[1].ID}) || !a.Net.Equal(c1) {
		t.Errorf("the first child: parents %v, want %d and %d, from their nets", a.Parents, next.Agents[0].ID, next.Agents[1].ID)
	}
	m := learnt.Mutated(seed.Rand(5, "draughts", 3, seed.Mutation, 0))
	if a := next.Agents[cfg.Elite+2]; !slices.Equal(a.Parents, []int64{next.Agents[0].ID}) || !a.Net.Equal(m) || a.Origin != Mutation {
		t.Errorf("rank 1's mutant: parents %v, want %d, mutated from the fitted net", a.Parents, next.Agents[0].ID)
	}
	for i, a := range next.Agents[cfg.Elite:] {
		if want := st.NextID + int64(cfg.Elite) + int64(i); a.ID != want {
			t.Errorf("new agent %d: ID %d, want %d", i, a.ID, want)
		}
	}
}

func TestRankBreaksTiesBySlot(t *testing.T) {
	got := rank([]int{3, 5, 3, -1, 5})
	if want := []int{1, 4, 0, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("rank = %v, want %v", got, want)
	}
}

// TestRankByMean checks FitnessMemory's ranking: points per game over the
// past and this generation, exact fractions, ties by slot.
func TestRankByMean(t *testing.T) {
	agents := []Agent{
		{PastPoints: 0, PastGames: 0},    // slot 0: 6/10 now      = 0.6
		{PastPoints: 30, PastGames: 20},  // slot 1: (30+2)/30     = 1.0667
		{PastPoints: 100, PastGames: 90}, // slot 2: (100+10)/100  = 1.1
		{PastPoints: 5, PastGames: 10},   // slot 3: (5+7)/20      = 0.6, ties slot 0
		{PastPoints: -40, PastGames: 90}, // slot 4: (-40+20)/100  = -0.2, though best now
	}
	r := tournament.Results[draughts.Move]{
		Points: []int{6, 2, 10, 7, 20},
		Wins:   []int{4, 2, 5, 4, 9}, Draws: []int{4, 6, 3, 5, 1}, Losses: []int{2, 2, 2, 1, 0},
	}
	if got, want := rankByMean(agents, r, 0), []int{2, 1, 0, 3, 4}; !slices.Equal(got, want) {
		t.Errorf("rankByMean = %v, want %v", got, want)
	}
	// With caution 1, by the mean less one standard error. The pooled
	// spread, by hand: 24 wins, 19 draws, 7 losses in 50 games; mean
	// (48-7)/50 = 0.82, mean square (96+7)/50 = 2.06, sigma =
	// sqrt(2.06-0.6724) = 1.17796. Slot 0: 0.6 - 1.178/sqrt(10) = 0.2275;
	// slot 1: 1.0667 - 1.178/sqrt(30) = 0.8516; slot 2: 1.1 - 0.1178 =
	// 0.9822; slot 3: 0.6 - 1.178/sqrt(20) = 0.3366; slot 4: -0.3178. Slot
	// 3 now beats slot 0: the same mean, on twice the games.
	if got, want := pooledSpread(r), 1.1779643458101778; math.Abs(got-want) > 1e-12 {
		t.Errorf("pooledSpread = %v, want %v", got, want)
	}
	if got, want := rankByMean(agents, r, 1), []int{2, 1, 3, 0, 4}; !slices.Equal(got, want) {
		t.Errorf("rankByMean with caution 1 = %v, want %v", got, want)
	}
	// A newcomer with the best mean (1.2 on 10 games) falls behind the
	// elites with 1.1 on 100 games and 1.0667 on 30 at caution 1: the
	// pooled sigma is now 1.1560 (30 wins, 23 draws, 7 losses), so 1.2 -
	// 0.3656 = 0.8344 < 1.0667 - 0.2111 = 0.8556 < 1.1 - 0.1156.
	newcomer := append(slices.Clone(agents), Agent{})
	r2 := r
	r2.Points, r2.Wins, r2.Draws, r2.Losses = append(slices.Clone(r.Points), 12), append(slices.Clone(r.Wins), 6),
		append(slices.Clone(r.Draws), 4), append(slices.Clone(r.Losses), 0)
	if got := rankByMean(newcomer, r2, 0); got[0] != 5 {
		t.Errorf("by the mean the newcomer should lead: %v", got)
	}
	if got, want := rankByMean(newcomer, r2, 1), []int{2, 1, 5, 3, 0, 4}; !slices.Equal(got, want) {
		t.Errorf("with caution 1 = %v, want %v: the elites ahead of the newcomer", got, want)
	}
	if got, want := rank(r.Points), []int{4, 2, 3, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("rank = %v, want %v (this generation alone)", got, want)
	}
}

// TestESWeights checks the recombination weights against Hansen's formula
// worked out for mu = 3: ln(3.5) - ln(i), normalised.
func TestESWeights(t *testing.T) {
	w := esWeights(3)
	raw := []float64{1.252762968495368, 0.5596157879354227, 0.15415067982725836} // ln 3.5, ln 1.75, ln(3.5/3)
	sum := raw[0] + raw[1] + raw[2]
	for i := range w {
		if d := w[i] - raw[i]/sum; d > 1e-15 || d < -1e-15 {
			t.Errorf("weight %d = %v, want %v", i+1, w[i], raw[i]/sum)
		}
	}
}

// TestBreedStepsPieceValues checks that ValueMutationScale and
// TableScaleStep reach the mutation: every mutant of a chess population is its parent mutated by
// nnet.Steps with the configured scales, from the seed the design derives
// (as TestBreedFollowsTheDesign checks for draughts).
func TestBreedStepsPieceValues(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Hidden = []int{8, 4}
	cfg.Flags = nnet.EvolvePieceValues | nnet.EvolvePST
	cfg.MutationScale, cfg.TableMutationScale, cfg.ValueMutationScale, cfg.TableScaleStep = 0.1, 0.1, 0.05, 0.2
	st, err := New("chess", nnet.NumChessInputs, cfg, 5)
	if err != nil {
		t.Fatal(err)
	}
	st.Generation = 3
	ranking := make([]int, len(st.Agents))
	var results tournament.Results[chess.Move]
	for i := range st.Agents {
		ranking[i] = i
		results.Points = append(results.Points, len(st.Agents)-i)
		results.Wins, results.Draws, results.Losses = append(results.Wins, 5), append(results.Draws, 3), append(results.Losses, 2)
	}
	next, err := breed(cfg, st, ranking, results, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[int64]*nnet.Net{}
	for _, a := range st.Agents {
		byID[a.ID] = a.Net
	}
	mutants, moved := 0, 0
	for _, a := range next.Agents {
		if a.Origin != Mutation {
			continue
		}
		want := byID[a.Parents[0]].MutatedBySteps(seed.Rand(5, "chess", 3, seed.Mutation, mutants), nnet.Steps{Net: 0.1, Tables: 0.1, Values: 0.05, TableScale: 0.2})
		if !a.Net.Equal(want) {
			t.Errorf("mutant %d of agent %d is not its parent mutated with the configured steps", mutants, a.Parents[0])
		}
		before, after := byID[a.Parents[0]].PieceValues(), a.Net.PieceValues()
		if math.Abs(after[4]-before[4]) > 0.09 { // the queen: up to 0.45 a step; as a table, up to 0.0005
			moved++
		}
		mutants++
	}
	if mutants != 6 || moved < 3 {
		t.Errorf("%d mutants, %d of them with the queen stepped by more than 0.09 pawns; want 6, most", mutants, moved)
	}
}

// TestQuietNetStartsQuiet checks generation 0 with QuietNet: each agent is
// the random net the design's seed draws, quieted (for ES: the mean
// quieted, the samples around it), and every other choice is unchanged.
func TestQuietNetStartsQuiet(t *testing.T) {
	for _, opt := range []Optimizer{Blondie24, ES} {
		cfg := DefaultConfig()
		cfg.Optimizer = opt
		cfg.Flags = nnet.EvolvePieceValues | nnet.EvolvePST
		loud, err := New("chess", nnet.NumChessInputs, cfg, 9)
		if err != nil {
			t.Fatal(err)
		}
		cfg.QuietNet = true
		quiet, err := New("chess", nnet.NumChessInputs, cfg, 9)
		if err != nil {
			t.Fatal(err)
		}
		for i, a := range quiet.Agents {
			want := loud.Agents[i].Net.Quieted()
			if opt == ES && i > 0 {
				// Sample pair k is the quieted mean perturbed from seed.Init k+1.
				mean := quiet.Agents[0].Net
				plus, minus := mean.Perturbed(seed.Rand(9, "chess", 0, seed.Init, (i-1)/2+1), cfg.esSigma(mean.NumWeights()))
				want = map[bool]*nnet.Net{true: plus, false: minus}[i%2 == 1]
			}
			if !a.Net.Equal(want) {
				t.Errorf("%s: agent %d is not the design's random net quieted", opt, i)
			}
			if a.ID != loud.Agents[i].ID || a.Origin != loud.Agents[i].Origin {
				t.Errorf("%s: agent %d is %d (%s), want %d (%s)", opt, i, a.ID, a.Origin, loud.Agents[i].ID, loud.Agents[i].Origin)
			}
		}
	}
}

// TestLadderMeanIsExact checks the ladder's mean from counts: 9 wins and 9
// losses over five opponents of 6 games each balance to exactly 0, not
// improved (the sum of fractions left 6.9e-18, which counted as
// improved); one more win makes it 1/30 and improved.
func TestLadderMeanIsExact(t *testing.T) {
	balanced := []LadderMatch{{Wins: 3, Draws: 3}, {Losses: 2, Draws: 4}, {Wins: 1, Losses: 4, Draws: 1}, {Wins: 5, Losses: 1}, {Losses: 2, Draws: 4}}
	if mean, improved := ladderMean(balanced); mean != 0 || improved {
		t.Errorf("balanced ladder: mean %v, improved %v; want 0, false", mean, improved)
	}
	balanced[1] = LadderMatch{Wins: 1, Losses: 2, Draws: 3}
	if mean, improved := ladderMean(balanced); mean != 1.0/30 || !improved {
		t.Errorf("one more win: mean %v, improved %v; want 1/30, true", mean, improved)
	}
	if mean, improved := ladderMean(nil); mean != 0 || improved {
		t.Errorf("no opponent: mean %v, improved %v", mean, improved)
	}
}
