package population_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"slices"
	"testing"

	"evolved/game/draughts"
	"evolved/games"
	"evolved/nnet"
	"evolved/population"
	"evolved/tournament"
)

// smallConfig is a fast configuration: depth-1 agents, Blondie format.
func smallConfig(workers int) population.Config {
	cfg := population.DefaultConfig()
	cfg.Tournament = tournament.Config{Format: tournament.Blondie, Workers: workers}
	cfg.BaselineEvery, cfg.BaselineGames = 2, 4
	cfg.Baselines = []string{"random", "material:1"}
	return cfg
}

type dm = draughts.Move

var fast = population.LocalEnv(games.Draughts(), games.Setup{Depth: 1})

func encode(t *testing.T, st *population.State) []byte {
	t.Helper()
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestResumedRunIsIdentical(t *testing.T) {
	t.Run("blondie24", func(t *testing.T) { testResumedRunIsIdentical(t, 0) })
	t.Run("racing", func(t *testing.T) { testResumedRunIsIdentical(t, 60) })
	t.Run("spsa", func(t *testing.T) { testResumedRunIsIdentical(t, -1) })
}

// testResumedRunIsIdentical steps three generations straight and two,
// then a trip through JSON, then one more, with racing games a generation
// (-1: preset "spsa" instead, 4 games a pair).
func testResumedRunIsIdentical(t *testing.T, racing int) {
	ctx := context.Background()
	spsa := racing < 0
	racing = max(racing, 0)
	smallConfig := func(workers int) population.Config {
		cfg := smallConfig(workers)
		cfg.RacingGames = racing
		if spsa {
			cfg.Optimizer, cfg.SPSAGames, cfg.Tournament.Format = population.SPSA, 4, tournament.RoundRobin
		}
		return cfg
	}
	cfg := smallConfig(2)
	st, err := population.New("draughts", nnet.NumDraughtsInputs, cfg, 11)
	if err != nil {
		t.Fatal(err)
	}
	// Three generations straight.
	straight := st
	var reports []*population.Report[dm]
	for range 3 {
		var rep *population.Report[dm]
		if straight, rep, err = population.Step(ctx, fast, cfg, straight, nil); err != nil {
			t.Fatal(err)
		}
		reports = append(reports, rep)
	}
	// Two, then a trip through JSON, then one more with another worker count.
	resumed := st
	for range 2 {
		if resumed, _, err = population.Step(ctx, fast, cfg, resumed, nil); err != nil {
			t.Fatal(err)
		}
	}
	var reread population.State
	if err := json.Unmarshal(encode(t, resumed), &reread); err != nil {
		t.Fatal(err)
	}
	resumed, rep, err := population.Step(ctx, fast, smallConfig(1), &reread, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := encode(t, straight), encode(t, resumed); !bytes.Equal(a, b) {
		t.Errorf("state after 3 straight generations differs from 2 + JSON + 1 (%d vs %d bytes)", len(a), len(b))
	}
	want := reports[2]
	raced := 0
	for _, r := range reports {
		raced += r.Selection.RaceGames
		if len(r.Results.Games) != r.Scheduled+r.Selection.RaceGames || r.Selection.RaceGames > racing {
			t.Errorf("generation %d: %d games, %d scheduled and %d raced (budget %d)", r.Generation, len(r.Results.Games), r.Scheduled, r.Selection.RaceGames, racing)
		}
	}
	if racing > 0 && raced == 0 {
		t.Error("no generation raced")
	}
	if rep.Selection != want.Selection {
		t.Errorf("generation 2 selection %+v, want %+v", rep.Selection, want.Selection)
	}
	if !slices.Equal(rep.Results.Points, want.Results.Points) || !slices.Equal(rep.Ranking, want.Ranking) {
		t.Errorf("generation 2 points %v ranking %v, want %v %v", rep.Results.Points, rep.Ranking, want.Results.Points, want.Ranking)
	}
	for k := range rep.Results.Games {
		if !slices.Equal(rep.Results.Games[k].Moves, want.Results.Games[k].Moves) {
			t.Fatalf("generation 2 game %d differs after resuming", k)
		}
	}
	if spsa {
		if rep.ChampionSlot != 0 || len(rep.Results.Games) != 7*4 {
			t.Errorf("spsa: champion slot %d and %d games, want the mean and 7 pairs of 4", rep.ChampionSlot, len(rep.Results.Games))
		}
		for _, g := range rep.Results.Games {
			if g.First == 0 || g.Second == 0 || (g.First+1)/2 != (g.Second+1)/2 {
				t.Errorf("spsa: game %+v is not between a pair's agents", g.Pairing)
			}
		}
	} else if len(rep.Ratings) != 15 || rep.Ratings[rep.Ranking[0]].Elo <= rep.Ratings[rep.Ranking[14]].Elo {
		t.Errorf("ratings %v: the champion must rate above the last", rep.Ratings)
	}
	if rep.Ladder.Mean != want.Ladder.Mean || len(rep.Ladder.Opponents) != 2 {
		t.Errorf("ladder %+v, want %+v against 2 champions", rep.Ladder, want.Ladder)
	}
	// Generation 2 plays the baselines (every 2) and the champion of generation 1.
	if len(rep.Baselines) != 3 || rep.Baselines[2].Opponent != "champion:1" {
		t.Errorf("baselines %+v, want random, material:1, champion:1", rep.Baselines)
	}
	// The fitness games' time is part of the generation's, which also
	// played the ladder and the baselines.
	if rep.Fitness <= 0 || rep.Fitness >= rep.Elapsed {
		t.Errorf("fitness games took %v of the generation's %v, want a part of it", rep.Fitness, rep.Elapsed)
	}
}

func TestLadderScoring(t *testing.T) {
	ctx := context.Background()
	cfg := smallConfig(2)
	st, err := population.New("draughts", nnet.NumDraughtsInputs, cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	var rep *population.Report[dm]
	for g := range 7 {
		if st, rep, err = population.Step(ctx, fast, cfg, st, nil); err != nil {
			t.Fatal(err)
		}
		if n := len(rep.Ladder.Opponents); n != min(g, 5) {
			t.Fatalf("generation %d: ladder against %d champions, want %d", g, n, min(g, 5))
		}
	}
	mean := 0.0
	for i, m := range rep.Ladder.Opponents {
		if m.Wins+m.Draws+m.Losses != 6 {
			t.Errorf("opponent %d: %d games, want 6", i, m.Wins+m.Draws+m.Losses)
		}
		if want := float64(m.Wins-m.Losses) / 6; m.Mean != want {
			t.Errorf("opponent %d: mean %v, want (wins-losses)/6 = %v", i, m.Mean, want)
		}
		mean += m.Mean / 5
	}
	if diff := rep.Ladder.Mean - mean; diff > 1e-12 || diff < -1e-12 || rep.Ladder.Improved != (mean > 0) {
		t.Errorf("ladder mean %v improved %v, want %v and %v", rep.Ladder.Mean, rep.Ladder.Improved, mean, mean > 0)
	}
	if got, want := len(st.Champions), 7; got != want {
		t.Errorf("%d champions after 7 generations, want %d", got, want)
	}
}

// TestChampionNetsReadOnDemand checks that a state with a ChampionNet
// reader holds only the nets the next generation plays against, reads the
// others (the baseline's champion of half as many generations ago) when it
// needs them, and plays exactly the generations of a state that holds them
// all.
// onDemand returns a copy of *all that reads champions' nets through
// ChampionNet from whatever state *all holds then (standing in for the
// database), recording the generations read in reads, and fast's Env with
// that reader.
func onDemand(all **population.State, reads *[]int) (*population.State, population.Local[dm, *draughts.Game]) {
	lean, env := **all, fast
	env.ChampionNet = func(_ context.Context, g int) (*nnet.Net, error) {
		*reads = append(*reads, g)
		return (*all).Champions[g].Net, nil
	}
	return &lean, env
}

func TestChampionNetsReadOnDemand(t *testing.T) {
	ctx := context.Background()
	cfg := smallConfig(2)
	cfg.LadderChampions, cfg.LadderGames = 2, 2
	cfg.BaselineEvery, cfg.BaselineGames, cfg.Baselines = 4, 2, nil
	all, err := population.New("draughts", nnet.NumDraughtsInputs, cfg, 17)
	if err != nil {
		t.Fatal(err)
	}
	var reads []int
	st, lean := onDemand(&all, &reads)
	for gen := range 14 {
		var repAll, repLean *population.Report[dm]
		if all, repAll, err = population.Step(ctx, fast, cfg, all, nil); err != nil {
			t.Fatal(err)
		}
		if st, repLean, err = population.Step(ctx, lean, cfg, st, nil); err != nil {
			t.Fatalf("generation %d: %v", gen, err)
		}
		if !slices.Equal(repAll.Results.Points, repLean.Results.Points) || repAll.Ladder.Mean != repLean.Ladder.Mean ||
			len(repAll.Baselines) != len(repLean.Baselines) {
			t.Fatalf("generation %d plays differently with nets read on demand", gen)
		}
		for i := range repAll.Baselines {
			if repAll.Baselines[i].Opponent != repLean.Baselines[i].Opponent || repAll.Baselines[i].Score != repLean.Baselines[i].Score {
				t.Fatalf("generation %d baseline %d: %+v, want %+v", gen, i, repLean.Baselines[i], repAll.Baselines[i])
			}
		}
		var held []int
		for _, c := range st.Champions {
			if c.Net != nil {
				held = append(held, c.Generation)
			}
		}
		var window []int // the ladder's: the baseline's champion is read when needed
		for g := max(0, st.Generation-cfg.LadderChampions); g < st.Generation; g++ {
			window = append(window, g)
		}
		if !slices.Equal(held, window) {
			t.Fatalf("after generation %d the state holds the nets of %v, want %v", gen, held, window)
		}
	}
	// Generations 8 and 12 play the champions of 4 and 6, outside the
	// ladder's window of two: read once each, and nothing else is read.
	if !slices.Equal(reads, []int{4, 6}) {
		t.Errorf("read the champions of %v, want [4 6]", reads)
	}
}

// TestHallOfFame checks the hall of fame's games: every agent meets the
// champions of G-1, G-2, G-4 (at most HallOfFame of them) in pairs from one
// opening, the same openings for every agent, the points count in its fitness, and a state that reads nets on
// demand plays the same games while holding only the nets it needs.
func TestHallOfFame(t *testing.T) {
	ctx := context.Background()
	cfg := smallConfig(2)
	cfg.LadderChampions, cfg.LadderGames = 1, 2
	cfg.BaselineEvery = 0
	cfg.HallOfFame, cfg.HallGames = 3, 4
	all, err := population.New("draughts", nnet.NumDraughtsInputs, cfg, 23)
	if err != nil {
		t.Fatal(err)
	}
	var reads []int
	st, lean := onDemand(&all, &reads)
	scoring := tournament.DefaultScoring
	for gen := range 9 {
		var repAll, rep *population.Report[dm]
		if all, repAll, err = population.Step(ctx, fast, cfg, all, nil); err != nil {
			t.Fatal(err)
		}
		if st, rep, err = population.Step(ctx, lean, cfg, st, nil); err != nil {
			t.Fatalf("generation %d: %v", gen, err)
		}
		if !slices.Equal(repAll.Results.Points, rep.Results.Points) {
			t.Fatalf("generation %d plays differently with nets read on demand", gen)
		}
		wantHall := map[int][]int{0: nil, 1: {0}, 2: {1, 0}, 3: {2, 1}, 4: {3, 2, 0}, 8: {7, 6, 4}}
		if w, ok := wantHall[gen]; ok && !slices.Equal(rep.Hall, w) {
			t.Errorf("generation %d meets the champions of %v, want %v", gen, rep.Hall, w)
		}
		n := len(rep.Agents)
		if got, want := len(rep.Results.Games), cfg.FitnessGames(gen, n); got != want {
			t.Errorf("generation %d: %d fitness games, FitnessGames says %d", gen, got, want)
		}
		points := make([]int, n)
		met := map[[2]int]int{} // (agent, hall slot) -> games
		openings := map[int][]int{}
		for _, g := range rep.Results.Games {
			for side, slot := range []int{g.First, g.Second} {
				if slot >= n {
					continue
				}
				switch r := g.Outcome.Result.FirstScore(); {
				case r == 0.5:
					points[slot] += scoring.Draw
				case (r == 1) == (side == 0):
					points[slot] += scoring.Win
				default:
					points[slot] += scoring.Loss
				}
			}
			if g.Second >= n || g.First >= n {
				a, h := min(g.First, g.Second), max(g.First, g.Second)
				if a >= n || h >= n+len(rep.Hall) {
					t.Fatalf("generation %d: hall game between slots %d and %d", gen, g.First, g.Second)
				}
				met[[2]int{a, h}]++
				openings[g.OpeningIndex] = append(openings[g.OpeningIndex], g.First)
			}
		}
		if !slices.Equal(points, rep.Results.Points) {
			t.Errorf("generation %d: points %v, the games give %v", gen, rep.Results.Points, points)
		}
		if len(met) != n*len(rep.Hall) {
			t.Errorf("generation %d: %d agent-champion meetings, want %d", gen, len(met), n*len(rep.Hall))
		}
		for k, c := range met {
			if c != cfg.HallGames {
				t.Errorf("generation %d: agent %d met hall slot %d %d times, want %d", gen, k[0], k[1], c, cfg.HallGames)
			}
		}
		// Common random numbers: each opening starts one pair of games
		// (colours swapped) for every agent against one champion.
		for op, firsts := range openings {
			agents, champs := map[int]int{}, map[int]bool{}
			for _, f := range firsts {
				if f < n {
					agents[f]++
				} else {
					champs[f] = true
				}
			}
			if len(firsts) != 2*n || len(agents) != n || len(champs) != 1 {
				t.Errorf("generation %d: opening %d starts %d games, first movers %v, want one pair for each of the %d agents against one champion", gen, op, len(firsts), firsts, n)
			}
		}
		if want := len(rep.Hall) * cfg.HallGames / 2; len(openings) != want {
			t.Errorf("generation %d: the hall of fame plays %d openings, want %d", gen, len(openings), want)
		}
		for _, c := range st.Champions {
			if c.Net != nil && !slices.Contains(cfg.ChampionNets(st.Generation), c.Generation) {
				t.Errorf("after generation %d the state holds the net of champion %d, which generation %d does not meet", gen, c.Generation, st.Generation)
			}
		}
	}
	if len(reads) == 0 {
		t.Error("no champion was read on demand: the hall of fame should reach past the ladder's window")
	}
}

// TestEvolutionStrategy checks the ES generation: the mean in slot 0 with
// mirrored pairs around it, the mean as champion, the next mean recombined
// from the better half of the samples by rank, and a resumed run that plays
// on identically.
func TestEvolutionStrategy(t *testing.T) {
	ctx := context.Background()
	cfg := smallConfig(2)
	cfg.Optimizer = population.ES
	cfg.Elite, cfg.Crossovers, cfg.Mutants = 0, nil, nil // not used by ES
	cfg.BaselineEvery = 0
	st, err := population.New("draughts", nnet.NumDraughtsInputs, cfg, 31)
	if err != nil {
		t.Fatal(err)
	}
	mirrored := func(st *population.State) {
		t.Helper()
		mean := st.Agents[0].Net.Weights()
		for k := 1; k+1 < len(st.Agents); k += 2 {
			plus, minus := st.Agents[k].Net.Weights(), st.Agents[k+1].Net.Weights()
			moved := false
			for i := range mean {
				if d := plus[i] + minus[i] - 2*mean[i]; d > 1e-6 || d < -1e-6 {
					t.Fatalf("generation %d pair %d weight %d: %v and %v around %v, not mirrored", st.Generation, k/2, i, plus[i], minus[i], mean[i])
				}
				moved = moved || plus[i] != mean[i]
			}
			if !moved {
				t.Fatalf("generation %d pair %d equals the mean", st.Generation, k/2)
			}
		}
	}
	mirrored(st)
	for range 3 {
		next, rep, err := population.Step(ctx, fast, cfg, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep.ChampionSlot != 0 || rep.Champion.ID != st.Agents[0].ID {
			t.Errorf("generation %d: champion slot %d (agent %d), want the mean, slot 0", st.Generation, rep.ChampionSlot, rep.Champion.ID)
		}
		var best []int64
		for _, slot := range rep.Ranking {
			if slot != 0 && len(best) < (cfg.Size-1)/2 {
				best = append(best, st.Agents[slot].ID)
			}
		}
		if m := next.Agents[0]; m.Origin != population.Crossover || !slices.Equal(m.Parents, best) {
			t.Errorf("generation %d: next mean %s from %v, want crossover of the better half %v", st.Generation, m.Origin, m.Parents, best)
		}
		for _, a := range next.Agents[1:] {
			if a.Origin != population.Mutation || !slices.Equal(a.Parents, []int64{next.Agents[0].ID}) {
				t.Errorf("generation %d: sample %d %s from %v, want a mutation of the mean", next.Generation, a.ID, a.Origin, a.Parents)
			}
		}
		mirrored(next)
		// Resumed from its JSON, the generation plays the same.
		var back population.State
		if err := json.Unmarshal(encode(t, st), &back); err != nil {
			t.Fatal(err)
		}
		again, _, err := population.Step(ctx, fast, cfg, &back, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(encode(t, again), encode(t, next)) {
			t.Fatalf("generation %d resumed from JSON plays differently", st.Generation)
		}
		st = next
	}
	cfg.Size = 14
	if _, err := population.New("draughts", nnet.NumDraughtsInputs, cfg, 31); err == nil {
		t.Error("an ES population of 14 was accepted; it needs an odd size")
	}
}

// TestCurriculum steps a draughts population searching under 60 nodes a
// move with a check every 2 generations: generations 2 and 4 check (the
// champion against the champion of 2 generations before, 4 games) and
// the others do not; a check raises the budget by half exactly when the
// champion scores at most half; the next generation then plays under the
// raised budget (the Env's Game is asked for it), and a state read
// back from JSON carries it.
func TestCurriculum(t *testing.T) {
	ctx := context.Background()
	cfg := smallConfig(2)
	cfg.CurriculumEvery, cfg.CurriculumGames = 2, 4
	cfg.BaselineEvery = 0
	var asked []int64
	sp := askedEnv{population.LocalEnv(games.Draughts(), games.Setup{Depth: 3, Nodes: 60}), &asked}
	st, err := population.New("draughts", nnet.NumDraughtsInputs, cfg, 5)
	if err != nil {
		t.Fatal(err)
	}
	nodes, raised := int64(60), 0
	for g := range 7 {
		asked = nil
		next, rep, err := population.Step(ctx, sp, cfg, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st.Nodes > 0 && st.Nodes != 60 && !slices.Equal(asked, []int64{st.Nodes}) {
			t.Errorf("generation %d at %d nodes asked the Env for %v", g, st.Nodes, asked)
		}
		c := rep.Curriculum
		if (c != nil) != (g == 2 || g == 4 || g == 6) {
			t.Fatalf("generation %d: curriculum %+v", g, c)
		}
		if c != nil {
			want := nodes
			if c.Wins <= c.Losses {
				want = int64(math.Round(float64(nodes) * 1.5))
				raised++
			}
			if c.Opponent != g-2 || c.Wins+c.Draws+c.Losses != 4 || c.Nodes != nodes || c.Next != want || c.Raised != (want != nodes) {
				t.Errorf("generation %d: check %+v, want against %d, 4 games, %d -> %d nodes", g, c, g-2, nodes, want)
			}
			nodes = want
		}
		if next.Nodes != 0 && next.Nodes != nodes || next.Nodes == 0 && nodes != 60 {
			t.Errorf("generation %d: the next state's budget %d, want %d", g, next.Nodes, nodes)
		}
		var reread population.State
		if err := json.Unmarshal(encode(t, next), &reread); err != nil || reread.Nodes != next.Nodes {
			t.Fatalf("the budget %d did not survive JSON: %d, %v", next.Nodes, reread.Nodes, err)
		}
		st = next
	}
	if raised == 0 {
		t.Error("no check raised the budget: the raise was not tested")
	}
}

// TestThinnedLadderChangesNoGenome steps a run 23 generations with the
// ladder at every generation and again with ladder_later_every = 2 (every
// generation to 19, then every second): the states are the same bytes,
// and the second run's reports play the ladder exactly where LadderDue
// says, with its games, and nothing where it does not.
func TestThinnedLadderChangesNoGenome(t *testing.T) {
	ctx := context.Background()
	run := func(later int) (*population.State, []*population.Report[dm]) {
		cfg := smallConfig(2)
		cfg.LadderLaterEvery = later
		st, err := population.New("draughts", nnet.NumDraughtsInputs, cfg, 5)
		if err != nil {
			t.Fatal(err)
		}
		var reps []*population.Report[dm]
		for range 23 {
			var rep *population.Report[dm]
			if st, rep, err = population.Step(ctx, fast, cfg, st, nil); err != nil {
				t.Fatal(err)
			}
			reps = append(reps, rep)
		}
		return st, reps
	}
	every, _ := run(0)
	thinned, reps := run(2)
	if a, b := encode(t, every), encode(t, thinned); !bytes.Equal(a, b) {
		t.Fatalf("the thinned ladder changed the run: states of %d and %d bytes differ", len(a), len(b))
	}
	for _, rep := range reps {
		g := rep.Generation
		want := g < 20 || g%2 == 0
		ladderGames := 0
		for _, m := range rep.Ladder.Matches {
			ladderGames += len(m.Records)
		}
		switch {
		case rep.Ladder.Played != want:
			t.Errorf("generation %d: ladder played %v, want %v", g, rep.Ladder.Played, want)
		case want && g > 0 && (len(rep.Ladder.Opponents) != min(g, 5) || ladderGames != min(g, 5)*6):
			t.Errorf("generation %d: ladder of %d opponents and %d games, want %d and %d", g, len(rep.Ladder.Opponents), ladderGames, min(g, 5), min(g, 5)*6)
		case !want && (len(rep.Ladder.Opponents) != 0 || ladderGames != 0 || rep.Ladder.Mean != 0 || rep.Ladder.Improved):
			t.Errorf("generation %d: no ladder due, yet %+v", g, rep.Ladder)
		}
	}
}

// TestTitleMatch steps a run with a title match (champion_games): the
// champion is always a member and leads the ranking and the next elite,
// it changes hands only through a match the challenger won (counted here
// again from the games), and a run resumed through JSON plays the same
// matches.
func TestTitleMatch(t *testing.T) {
	ctx := context.Background()
	cfg := smallConfig(2)
	cfg.BaselineEvery = 0
	cfg.ChampionGames = 6
	st, err := population.New("draughts", nnet.NumDraughtsInputs, cfg, 31)
	if err != nil {
		t.Fatal(err)
	}
	var states []*population.State
	var reports []*population.Report[dm]
	played, taken := 0, 0
	for gen := range 8 {
		next, rep, err := population.Step(ctx, fast, cfg, st, nil)
		if err != nil {
			t.Fatalf("generation %d: %v", gen, err)
		}
		states, reports = append(states, st), append(reports, rep)
		c := rep.Challenge
		if rep.ChampionSlot != rep.Ranking[0] || next.Agents[0].ID != rep.Champion.ID || next.Agents[0].Origin != population.Elite {
			t.Errorf("generation %d: champion %d in slot %d, ranking %v, next generation's first elite %d: the champion must lead both",
				gen, rep.Champion.ID, rep.ChampionSlot, rep.Ranking, next.Agents[0].ID)
		}
		if gen == 0 {
			if c.Played || c.IncumbentID != 0 {
				t.Errorf("generation 0 played a title match: %+v", c)
			}
			st = next
			continue
		}
		incumbent := st.Champions[gen-1].AgentID
		if c.IncumbentID != incumbent {
			t.Errorf("generation %d: incumbent %d, want generation %d's champion %d", gen, c.IncumbentID, gen-1, incumbent)
		}
		if !c.Played {
			if rep.Champion.ID != incumbent {
				t.Errorf("generation %d: no match, yet the title went from %d to %d", gen, incumbent, rep.Champion.ID)
			}
			st = next
			continue
		}
		played++
		var w, d, l int
		for k, g := range c.Games {
			challengerFirst := st.Agents[g.First].ID == c.ChallengerID
			if st.Agents[g.First].ID+st.Agents[g.Second].ID != c.ChallengerID+incumbent || g.First == g.Second {
				t.Fatalf("generation %d: title game %d between agents %d and %d", gen, k, st.Agents[g.First].ID, st.Agents[g.Second].ID)
			}
			switch s := g.Outcome.Result.FirstScore(); {
			case s == 0.5:
				d++
			case (s == 1) == challengerFirst:
				w++
			default:
				l++
			}
		}
		if len(c.Games) != cfg.ChampionGames || [3]int{w, d, l} != [3]int{c.Wins, c.Draws, c.Losses} {
			t.Errorf("generation %d: %d title games counted %d-%d-%d, the games give %d-%d-%d", gen, len(c.Games), c.Wins, c.Draws, c.Losses, w, d, l)
		}
		want := incumbent
		if w > l {
			want, taken = c.ChallengerID, taken+1
		}
		if rep.Champion.ID != want || c.Replaced != (w > l) {
			t.Errorf("generation %d: challenger %d went %d-%d-%d against %d, champion %d (replaced %v), want %d", gen, c.ChallengerID, w, d, l, incumbent, rep.Champion.ID, c.Replaced, want)
		}
		st = next
	}
	t.Logf("%d title matches, %d taken", played, taken)
	if played == 0 || taken == played {
		t.Errorf("%d title matches, %d taken: the run should play some and keep the title in some", played, taken)
	}
	// Resumed through JSON at generation 5 with one worker: the same
	// matches and the same state after.
	var reread population.State
	if err := json.Unmarshal(encode(t, states[5]), &reread); err != nil {
		t.Fatal(err)
	}
	resumed, one := &reread, cfg
	one.Tournament.Workers = 1
	for gen := 5; gen < 8; gen++ {
		next, rep, err := population.Step(ctx, fast, one, resumed, nil)
		if err != nil {
			t.Fatal(err)
		}
		a, b := rep.Challenge, reports[gen].Challenge
		if a.Played != b.Played || a.ChallengerID != b.ChallengerID || [3]int{a.Wins, a.Draws, a.Losses} != [3]int{b.Wins, b.Draws, b.Losses} || rep.Champion.ID != reports[gen].Champion.ID {
			t.Errorf("generation %d resumed: challenge %+v champion %d, straight %+v champion %d", gen, a, rep.Champion.ID, b, reports[gen].Champion.ID)
		}
		resumed = next
	}
	if !bytes.Equal(encode(t, resumed), encode(t, st)) {
		t.Error("the state after 8 generations differs when resumed at 5")
	}
}

// askedEnv is a Local Env that notes the node budgets it is asked to bind
// the game at, other than the setup's own.
type askedEnv struct {
	population.Local[dm, *draughts.Game]
	asked *[]int64
}

// Game notes nodes and binds the game.
func (e askedEnv) Game(nodes int64) games.Binding[dm, *draughts.Game] {
	if nodes != 0 {
		*e.asked = append(*e.asked, nodes)
	}
	return e.Local.Game(nodes)
}
