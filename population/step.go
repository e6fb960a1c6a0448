package population

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"evolved/elo"
	"evolved/games"
	"evolved/lineage"
	"evolved/nnet"
	"evolved/positions"
	"evolved/search"
	"evolved/seed"
	"evolved/tournament"
)

// Report is what a generation did: its tournament, ranking, champion,
// ladder and baselines.
type Report[M comparable] struct {
	Generation int
	// Agents is the population that played, in slot order; Results and
	// Ranking index it.
	Agents []Agent
	// Hall lists the generations of the hall of fame's champions: in
	// Results.Games slot len(Agents)+k is the champion of generation Hall[k].
	Hall []int
	// Results holds the fitness games, the tournament's, then the hall of
	// fame's, then the race's; its points and counts are the agents', every
	// kind together.
	Results tournament.Results[M]
	// Scheduled is the number of games of Results.Games before the race's:
	// the tournament's and the hall of fame's.
	Scheduled int
	// Scores are the agents' points per game in those scheduled games, by
	// slot: every agent meets the same opponents there, so scores are
	// comparable between agents and generations (the race's games are
	// played only by some, against the strongest).
	Scores []float64
	// Selection says how sure the choice of the elite was, and what the
	// race spent.
	Selection Selection
	// Ranking lists agent slots from best to worst: by points (with
	// Config.FitnessMemory by points per game over every generation played),
	// ties broken by slot (elites come first, in their previous rank order);
	// with a title match (Config.ChampionGames) the champion first.
	Ranking []int
	// ChampionSlot is the champion's slot: Ranking[0], or for ES the mean's
	// (slot 0); Champion is Agents[ChampionSlot].
	ChampionSlot int
	Champion     Agent
	// Ratings are the agents' Elo ratings by maximum likelihood over the
	// tournament's games (mean 0), with 95% intervals, by slot.
	Ratings []elo.Rated
	Ladder  Ladder[M]
	// Baselines is empty in generations without baseline games.
	Baselines []Baseline[M]
	// Challenge is the title match (Config.ChampionGames); its Played is
	// false without one.
	Challenge Challenge[M]
	// Curriculum is the check of the curriculum, in the generations that
	// make one (Config.CurriculumEvery); nil in the others.
	Curriculum *CurriculumCheck
	// Distill is the distillation of the champion, in the generations
	// that make one (Config.DistillEvery); nil in the others.
	Distill *DistillReport
	// Data holds the positions of the generation's data games
	// (Config.LearnEvery), for the run's position store.
	Data []positions.Record `json:"-"`
	// Learn is the champion's training, in the generations that make one
	// (Config.LearnEvery); nil in the others.
	Learn *LearnReport
	// Learners are the elite's trainings, by rank, the champion's first
	// (Learn points to it), in the generations that make them with
	// Config.LearnExplore; nil in the others.
	Learners []LearnReport
	// Elapsed is the generation's time; Fitness the part of it spent on
	// the games that decide the ranking (the tournament's, the hall of
	// fame's, the race's and the title match's), the rest going to the ladder, the
	// baselines, the curriculum and breeding.
	Elapsed, Fitness time.Duration
}

// Ladder is the champion's match against the previous champions.
type Ladder[M comparable] struct {
	// Played reports whether the generation played the ladder
	// (Config.LadderDue); the other fields are zero when it did not.
	Played    bool
	Opponents []LadderMatch
	// Mean is the mean of the per-opponent means; Improved is Mean > 0.
	// Without previous champions both are zero.
	Mean     float64
	Improved bool
	// Matches holds the games, parallel to Opponents.
	Matches []tournament.MatchResult[M] `json:"-"`
}

// LadderMatch is the champion's result against one previous champion,
// scored 1 / 0 / -1 per game.
type LadderMatch struct {
	Generation          int
	Wins, Draws, Losses int
	Mean                float64
}

// Baseline is the champion's match against a fixed player or an old champion.
type Baseline[M comparable] struct {
	// Opponent is a player spec, or "champion:N" for generation N's champion.
	Opponent            string
	Wins, Draws, Losses int
	// Score is the champion's score fraction; Elo and HalfWidth the Elo
	// difference it implies with its 95% interval.
	Score, Elo, HalfWidth float64
	Match                 tournament.MatchResult[M] `json:"-"`
}

// Step plays the generation st holds and returns the state of the next one
// with a report of this one. st is not modified. Everything the generation
// needs of the world it asks env; obs, if not nil, hears its progress.
// Cancelling ctx abandons the generation and returns the context's error.
//
// A generation, in order: its fitness games (the tournament and the hall
// of fame's), the selection (a race, a title match), the champion's
// measurements (ladder, baselines, curriculum), its distillation, and the
// breeding of the next generation.
func Step[M comparable, S search.Game[M]](ctx context.Context, env Env[M, S], cfg Config, st *State, obs Observer) (*State, *Report[M], error) {
	start := time.Now()
	g, err := begin(ctx, env, cfg, st, obs)
	if err != nil {
		return nil, nil, err
	}
	rep, err := g.playFitness(ctx)
	if err != nil {
		return nil, nil, err
	}
	if err := g.selectElite(ctx, rep); err != nil {
		return nil, nil, err
	}
	rep.Fitness = time.Since(start)
	if err := g.measure(ctx, rep); err != nil {
		return nil, nil, err
	}
	var learnt *nnet.Net // the champion distilled, whose step the whole elite takes
	var own []*nnet.Net  // with Config.LearnExplore, each elite's trained net, by rank
	if cfg.distillDue(g.gen) {
		if learnt, rep.Distill, err = g.distillChampion(ctx, rep.Champion, rep.Results.Games); err != nil {
			return nil, nil, err
		}
	}
	if g.cfg.LearnEvery > 0 {
		if learnt, own, err = g.learn(ctx, rep, learnt); err != nil {
			return nil, nil, err
		}
	}
	next, err := g.breedNext(rep, learnt, own)
	if err != nil {
		return nil, nil, err
	}
	rep.Elapsed = time.Since(start)
	return next, rep, nil
}

// generation is a generation under way: what Step's phases share.
type generation[M comparable, S search.Game[M]] struct {
	env Env[M, S]
	cfg Config
	st  *State
	obs Observer
	gen int
	// game is the game at the generation's node budget, nodes that budget
	// (0 without one).
	game  games.Binding[M, S]
	nodes int64
	// champions holds the nets of the earlier champions the generation
	// meets, by generation (Config.ChampionNets).
	champions map[int]*nnet.Net
	// hall lists the hall of fame's generations; nets holds each fitness
	// slot's net (the agents', then the hall of fame's champions'), and
	// schedule the tournament's and the hall of fame's games.
	hall     []int
	nets     []*nnet.Net
	schedule []tournament.Pairing
}

// begin checks the state against cfg, binds the game at the generation's
// node budget, reads the champions it meets and draws its schedule.
func begin[M comparable, S search.Game[M]](ctx context.Context, env Env[M, S], cfg Config, st *State, obs Observer) (*generation[M, S], error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(st.Agents) != cfg.Size {
		return nil, fmt.Errorf("%w: the state holds %d agents, the config says %d", ErrConfig, len(st.Agents), cfg.Size)
	}
	g := &generation[M, S]{env: env, cfg: cfg, st: st, obs: obs, gen: st.Generation, game: env.Game(0)}
	alphaBeta := g.game.AlphaBeta()
	if alphaBeta {
		g.nodes = g.game.Setup.Nodes
	}
	if st.Nodes > 0 && st.Nodes != g.nodes {
		if !alphaBeta {
			return nil, fmt.Errorf("population: generation %d: the curriculum raised the node budget to %d, and the game's search has none", g.gen, st.Nodes)
		}
		g.game, g.nodes = env.Game(st.Nodes), st.Nodes
	}
	if cfg.CurriculumEvery > 0 && (g.nodes <= 0 || !alphaBeta) {
		return nil, fmt.Errorf("%w: curriculum_every = %d needs a node budget to raise (nodes > 0, alpha-beta)", ErrConfig, cfg.CurriculumEvery)
	}
	var err error
	if g.champions, err = championNets(ctx, cfg, st, env.Champions()); err != nil {
		return nil, err
	}
	if cfg.Optimizer == SPSA {
		g.schedule = spsaSchedule(len(st.Agents), cfg.spsaGames())
	} else if g.schedule, err = tournament.Schedule(cfg.Tournament, len(st.Agents), seed.Rand(st.Seed, st.Game, g.gen, seed.Schedule, 0)); err != nil {
		return nil, fmt.Errorf("population: generation %d: %w", g.gen, err)
	}
	// The hall of fame's champions join the tournament as slots n, n+1, ...
	// and its games follow the tournament's in the schedule, so that
	// without a hall of fame the tournament is what it always was.
	g.hall = cfg.HallGenerations(g.gen)
	g.nets = make([]*nnet.Net, 0, len(st.Agents)+len(g.hall))
	for _, a := range st.Agents {
		g.nets = append(g.nets, a.Net)
	}
	for _, h := range g.hall {
		g.nets = append(g.nets, g.champions[h])
	}
	g.schedule = append(g.schedule, hallSchedule(g.schedule, len(st.Agents), len(g.hall), cfg.HallGames)...)
	return g, nil
}

// playFitness plays the tournament and the hall of fame's games and
// returns the report of their results and the agents' scores.
func (g *generation[M, S]) playFitness(ctx context.Context) (*Report[M], error) {
	var progress func(done, total int)
	if g.obs != nil {
		progress = g.obs.Played
	}
	played, err := g.env.Play(ctx, g.game, g.nets, g.schedule, 0, g.cfg.Tournament, g.st.Seed, g.gen, progress)
	if err != nil {
		return nil, fmt.Errorf("population: generation %d: %w", g.gen, err)
	}
	results := tournament.Tally(len(g.nets), played, g.cfg.Tournament.Scoring)
	n := len(g.st.Agents)
	results.Points, results.Wins, results.Draws, results.Losses = results.Points[:n], results.Wins[:n], results.Draws[:n], results.Losses[:n]
	rep := &Report[M]{Generation: g.gen, Agents: g.st.Agents, Hall: g.hall, Results: results, Scheduled: len(results.Games)}
	rep.Scores = make([]float64, n)
	for i := range n {
		rep.Scores[i] = float64(results.Points[i]) / float64(max(results.Wins[i]+results.Draws[i]+results.Losses[i], 1))
	}
	return rep, nil
}

// selectElite ranks the agents (by a race, by their mean over every
// generation played, or by points), says how sure the elite's boundary
// is, plays the title match and names the champion.
func (g *generation[M, S]) selectElite(ctx context.Context, rep *Report[M]) error {
	cfg, n := g.cfg, len(g.st.Agents)
	sigma := pooledSpread(rep.Results)
	var err error
	switch {
	case cfg.RacingGames > 0:
		openings := nextOpening(g.schedule) // the hall of fame's included: schedule holds its games
		if rep.Results, rep.Ranking, rep.Selection, err = race(ctx, cfg, g.st.Agents, rep.Results, len(g.nets), sigma, openings, g.racer()); err != nil {
			return fmt.Errorf("population: generation %d: %w", g.gen, err)
		}
	case cfg.FitnessMemory:
		rep.Ranking = rankByMean(g.st.Agents, rep.Results, cfg.FitnessCaution)
	default:
		rep.Ranking = rank(rep.Results.Points)
	}
	if cfg.RacingGames == 0 && cfg.Optimizer != SPSA { // SPSA ranks nothing: its mean moves by the pairs' results
		boundary := cfg.Elite
		if cfg.Optimizer.Mirrored() {
			boundary = n / 2
		}
		rep.Selection.Sure = sureOf(rep.Ranking, standings(cfg, g.st.Agents, rep.Results, sigma), boundary)
	}
	if cfg.ChampionGames > 0 {
		if rep.Challenge, rep.Ranking, err = challenge(ctx, cfg, g.st, rep.Ranking, rep.Results.Games, g.racer()); err != nil {
			return err
		}
	}
	rep.ChampionSlot = rep.Ranking[0]
	if cfg.Optimizer.Mirrored() {
		rep.ChampionSlot = 0 // the strategy's mean
	}
	rep.Champion = g.st.Agents[rep.ChampionSlot]
	rep.Ratings = elo.Pool(n, pairs(rep.Results, n))
	return nil
}

// measure plays the champion's measurements that are due: the ladder,
// the baselines and the curriculum's check.
func (g *generation[M, S]) measure(ctx context.Context, rep *Report[M]) error {
	champ, err := g.game.Player(rep.Champion.Net)
	if err != nil {
		return fmt.Errorf("population: generation %d: champion %d: %w", g.gen, rep.Champion.ID, err)
	}
	if g.cfg.LadderDue(g.gen) {
		if rep.Ladder, err = g.ladder(ctx, champ); err != nil {
			return err
		}
	}
	if g.cfg.BaselineDue(g.gen) {
		if rep.Baselines, err = g.baselines(ctx, champ); err != nil {
			return err
		}
	}
	if g.cfg.curriculumDue(g.gen) {
		if rep.Curriculum, err = checkCurriculum(ctx, g.game, g.cfg, g.st, g.nodes, g.champions[g.gen-g.cfg.CurriculumEvery], champ); err != nil {
			return err
		}
	}
	return nil
}

// breedNext breeds the next generation by the optimizer and carries the
// run's champions and node budget over to it; learnt and own are breed's.
func (g *generation[M, S]) breedNext(rep *Report[M], learnt *nnet.Net, own []*nnet.Net) (*State, error) {
	cfg, st := g.cfg, g.st
	var next *State
	var err error
	switch cfg.Optimizer {
	case ES:
		next, err = breedES(cfg, st, rep.Ranking)
	case SPSA:
		next, err = breedSPSA(cfg, st, rep.Results)
	default:
		next, err = breed(cfg, st, rep.Ranking, rep.Results, learnt, own)
	}
	if err != nil {
		return nil, err
	}
	if rep.Distill != nil {
		rep.Distill.AgentID = next.Agents[0].ID
	}
	next.Nodes = st.Nodes
	if rep.Curriculum != nil {
		next.Nodes = rep.Curriculum.Next
	}
	next.Champions = append(slices.Clip(st.Champions), Champion{
		Generation: g.gen, AgentID: rep.Champion.ID, Net: rep.Champion.Net, Points: rep.Results.Points[rep.ChampionSlot],
	})
	if g.env.Champions() != nil {
		g.keepNeeded(next)
	}
	return next, nil
}

// keepNeeded leaves in next's champions (a copy of st's) only the nets
// the next generation plays against, with those read this time: only this
// generation's opponents and its champion hold nets, so few are visited.
func (g *generation[M, S]) keepNeeded(next *State) {
	keep := g.cfg.ChampionNets(g.gen + 1)
	for _, c := range append(g.cfg.ChampionNets(g.gen), g.gen) { // the only ones that may hold nets
		if !slices.Contains(keep, c) {
			next.Champions[c].Net = nil
		}
	}
	for c, net := range g.champions { // those read this time, kept if needed
		if slices.Contains(keep, c) {
			next.Champions[c].Net = net
		}
	}
}

// championNets returns the nets of the champions Step plays against in
// st's generation, by generation: from st.Champions, or read with read
// (Env.Champions) where the state no longer holds them.
func championNets(ctx context.Context, cfg Config, st *State, read func(context.Context, int) (*nnet.Net, error)) (map[int]*nnet.Net, error) {
	nets := map[int]*nnet.Net{}
	for _, g := range cfg.ChampionNets(st.Generation) {
		if g >= len(st.Champions) {
			return nil, fmt.Errorf("population: generation %d: the state holds %d champions, not generation %d's", st.Generation, len(st.Champions), g)
		}
		net := st.Champions[g].Net
		if net == nil {
			if read == nil {
				return nil, fmt.Errorf("population: generation %d: the net of generation %d's champion is missing", st.Generation, g)
			}
			var err error
			if net, err = read(ctx, g); err != nil {
				return nil, fmt.Errorf("population: generation %d: read the champion of generation %d: %w", st.Generation, g, err)
			}
		}
		nets[g] = net
	}
	return nets, nil
}

// rank returns the slots ordered by points, best first, ties by slot.
func rank(points []int) []int {
	order := make([]int, len(points))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return points[b] - points[a] })
	return order
}

// rankByMean returns the slots ordered by points per game over every
// generation each agent has played, this one included, best first, ties
// by slot. Without caution the means are compared as exact fractions
// (cross-multiplied); with it, each mean less caution standard errors is
// compared, computed with IEEE operations that no platform fuses, so the
// order is the same on every machine either way.
func rankByMean[M comparable](agents []Agent, r tournament.Results[M], caution float64) []int {
	order := make([]int, len(agents))
	points, games := make([]int64, len(agents)), make([]int64, len(agents))
	for i, a := range agents {
		order[i] = i
		points[i] = int64(a.PastPoints + r.Points[i])
		games[i] = int64(a.PastGames + r.Wins[i] + r.Draws[i] + r.Losses[i])
	}
	if caution > 0 {
		sigma := pooledSpread(r)
		score := make([]float64, len(agents))
		for i := range agents {
			g := float64(max(games[i], 1))
			mean := float64(points[i]) / g
			se := float64(sigma / math.Sqrt(g))
			score[i] = mean - float64(caution*se)
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(score[b], score[a]) })
		return order
	}
	slices.SortStableFunc(order, func(a, b int) int {
		// points[a]/games[a] against points[b]/games[b]; an agent without
		// games (none in practice) counts as 0 points a game.
		pa, pb := points[a]*max(games[b], 1), points[b]*max(games[a], 1)
		switch {
		case pa > pb:
			return -1
		case pa < pb:
			return 1
		}
		return 0
	})
	return order
}

// pooledSpread returns the standard deviation of one game's points (win 2,
// draw 0, loss -1) over every game of the generation's fitness games, from
// each side; 1 when there are none.
func pooledSpread[M comparable](r tournament.Results[M]) float64 {
	var w, d, l int64
	for i := range r.Points {
		w, d, l = w+int64(r.Wins[i]), d+int64(r.Draws[i]), l+int64(r.Losses[i])
	}
	n := float64(w + d + l)
	if n == 0 {
		return 1
	}
	mean := float64(2*w-l) / n
	second := float64(4*w+l) / n
	v := second - float64(mean*mean)
	if v <= 0 {
		return 1
	}
	return math.Sqrt(v)
}

// ladder plays the champion against the last cfg.LadderChampions champions,
// in a generation where the ladder is due (Config.LadderDue).
func (g *generation[M, S]) ladder(ctx context.Context, champ func() search.Player[M, S]) (Ladder[M], error) {
	cfg, st, sp, nets := g.cfg, g.st, g.game, g.champions
	l := Ladder[M]{Played: true}
	first := max(0, len(st.Champions)-cfg.LadderChampions)
	for k, old := range st.Champions[first:] {
		opp, err := sp.Player(nets[old.Generation])
		if err != nil {
			return l, fmt.Errorf("population: ladder: champion of generation %d: %w", old.Generation, err)
		}
		res, err := tournament.Match(ctx, sp.Arena, champ, opp, tournament.MatchOptions{
			Games: cfg.LadderGames, Concurrency: cfg.Tournament.Workers, Slots: cfg.Tournament.Slots,
			Seed: seed.Derive(st.Seed, st.Game, st.Generation, seed.Ladder, k),
		})
		if err != nil {
			return l, fmt.Errorf("population: ladder against generation %d: %w", old.Generation, err)
		}
		m := LadderMatch{Generation: old.Generation, Wins: res.Wins, Draws: res.Draws, Losses: res.Losses}
		m.Mean = float64(res.Wins-res.Losses) / float64(cfg.LadderGames)
		l.Opponents = append(l.Opponents, m)
		l.Matches = append(l.Matches, res)
	}
	l.Mean, l.Improved = ladderMean(l.Opponents)
	return l, nil
}

// ladderMean returns the mean of the per-opponent means of (wins - losses)
// / games and whether it is above 0, from the counts: every opponent
// plays as many games, so it is the net count over all games, exactly 0
// when wins and losses balance (summing the fractions left 6.9e-18 for 9
// wins and 9 losses, which counted as improved).
func ladderMean(opponents []LadderMatch) (float64, bool) {
	net, games := 0, 0
	for _, m := range opponents {
		net += m.Wins - m.Losses
		games += m.Wins + m.Draws + m.Losses
	}
	if games == 0 {
		return 0, false
	}
	return float64(net) / float64(games), net > 0
}

// baselines plays the champion against the fixed baselines and against the
// champion of half as many generations ago.
func (g *generation[M, S]) baselines(ctx context.Context, champ func() search.Player[M, S]) ([]Baseline[M], error) {
	cfg, st, sp, nets := g.cfg, g.st, g.game, g.champions
	if cfg.BaselineGames == 0 {
		return nil, nil
	}
	type opponent struct {
		name string
		make func() search.Player[M, S]
	}
	var opps []opponent
	for _, spec := range cfg.Baselines {
		p, err := sp.Baseline(spec)
		if err != nil {
			return nil, fmt.Errorf("population: baseline %q: %w", spec, err)
		}
		opps = append(opps, opponent{spec, p})
	}
	if half := st.Generation / 2; st.Generation >= 2 && half < len(st.Champions) {
		p, err := sp.Player(nets[half])
		if err != nil {
			return nil, fmt.Errorf("population: baseline champion %d: %w", half, err)
		}
		opps = append(opps, opponent{fmt.Sprintf("champion:%d", half), p})
	}
	var out []Baseline[M]
	for k, o := range opps {
		res, err := tournament.Match(ctx, sp.Arena, champ, o.make, tournament.MatchOptions{
			Games: cfg.BaselineGames, Concurrency: cfg.Tournament.Workers, Slots: cfg.Tournament.Slots,
			Seed: seed.Derive(st.Seed, st.Game, st.Generation, seed.Baseline, k),
		})
		if err != nil {
			return nil, fmt.Errorf("population: baseline %s: %w", o.name, err)
		}
		d, hw := elo.Estimate(res.Wins, res.Draws, res.Losses)
		out = append(out, Baseline[M]{Opponent: o.name, Wins: res.Wins, Draws: res.Draws, Losses: res.Losses,
			Score: res.Score(), Elo: d, HalfWidth: hw, Match: res})
	}
	return out, nil
}

// breed makes the next generation from the ranking: the elite unchanged in
// rank order, then for each crossover pair its two node-swap children and
// both parents mutated, then the mutants. With learnt, the champion
// distilled (Config.DistillEvery), the whole elite takes the step the
// champion's fit took before it breeds: every elite, the champion first,
// is replaced by itself with that change of its linear weights (learnt's
// weights less the champion's, as float32s; the nets' hidden layers do not
// move), made by a lineage.Distill recipe that carries the step, so that
// storage keeps the step and not the weights. Each is a new genome
// (origin Distilled, the elite it came from its parent, the next IDs in
// rank order) that keeps its elite's past games, as the change is the
// same for all; and the children are theirs, so what the fit learnt is
// what the population inherits.
//
// With own (Config.LearnExplore: each elite's trained net, by rank), each
// elite takes its own step instead, own[r-1]'s weights less its own; and
// every agent of the next generation carries its learning settings: an
// elite its own, a crossover child its first parent's, a mutant its
// parent's perturbed (Learner.Perturbed) from the stream seed.Learner of
// its mutation's index, apart from the nets' streams, so that the nets
// draw the numbers they draw without it.
func breed[M comparable](cfg Config, st *State, ranking []int, results tournament.Results[M], learnt *nnet.Net, own []*nnet.Net) (*State, error) {
	b := &brood{cfg: cfg, st: st, next: &State{Game: st.Game, Seed: st.Seed, Generation: st.Generation + 1, NextID: st.NextID}}
	if err := keepElite(b, ranking, results, learnt, own); err != nil {
		return nil, err
	}
	byRank := func(r int) Agent {
		if (learnt != nil || own != nil) && r <= cfg.Elite {
			return b.next.Agents[r-1]
		}
		return st.Agents[ranking[r-1]]
	}
	gen := st.Generation
	for i, pair := range cfg.Crossovers {
		dom, sub := byRank(pair[0]), byRank(pair[1])
		r1 := lineage.Recipe{Op: lineage.CrossoverFirst, Index: i}
		r2 := lineage.Recipe{Op: lineage.CrossoverSecond, Index: i}
		c1, node, err := b.child(r1, dom, sub)
		if err != nil {
			return nil, fmt.Errorf("population: generation %d: crossover of ranks %v: %w", gen, pair, err)
		}
		c2, _, err := b.child(r2, sub, dom)
		if err != nil {
			return nil, fmt.Errorf("population: generation %d: crossover of ranks %v: %w", gen, pair, err)
		}
		b.add(c1, Crossover, &node, &r1, dom.ID, sub.ID)
		b.inherit(dom.learner())
		b.add(c2, Crossover, &node, &r2, sub.ID, dom.ID)
		b.inherit(sub.learner())
		if err := b.mutate(dom); err != nil {
			return nil, err
		}
		if err := b.mutate(sub); err != nil {
			return nil, err
		}
	}
	for _, r := range cfg.Mutants {
		if err := b.mutate(byRank(r)); err != nil {
			return nil, err
		}
	}
	return b.next, nil
}

// keepElite puts the elite into the next generation in rank order: each
// unchanged, with learnt moved by the distillation's step, or moved by
// its own training's step (own; see breed).
func keepElite[M comparable](b *brood, ranking []int, results tournament.Results[M], learnt *nnet.Net, own []*nnet.Net) error {
	st := b.st
	var step []lineage.Change // learnt's change of the champion's weights
	if learnt != nil {
		step = netStep(learnt, st.Agents[ranking[0]].Net)
	}
	for r := 1; r <= b.cfg.Elite; r++ {
		slot := ranking[r-1]
		a := st.Agents[slot]
		pastPoints := a.PastPoints + results.Points[slot]
		pastGames := a.PastGames + results.Wins[slot] + results.Draws[slot] + results.Losses[slot]
		if learnt == nil && own == nil {
			b.next.Agents = append(b.next.Agents, Agent{ID: a.ID, Net: a.Net, Origin: Elite, Parents: []int64{a.ID},
				PastPoints: pastPoints, PastGames: pastGames})
			b.inherit(a.learner())
			continue
		}
		if own != nil {
			step = netStep(own[r-1], a.Net)
		}
		recipe := lineage.Recipe{Op: lineage.Distill, Step: step}
		net, _, err := b.child(recipe, a)
		if err != nil {
			return fmt.Errorf("population: generation %d: the distillation's step on elite %d: %w", st.Generation, a.ID, err)
		}
		b.add(net, Distilled, nil, &recipe, a.ID)
		b.inherit(a.learner())
		b.next.Agents[len(b.next.Agents)-1].PastPoints, b.next.Agents[len(b.next.Agents)-1].PastGames = pastPoints, pastGames
	}
	return nil
}

// netStep returns the change of from's weights that makes to's, each
// difference as a float32.
func netStep(to, from *nnet.Net) []lineage.Change {
	var step []lineage.Change
	fw := from.Weights()
	for i, w := range to.Weights() {
		if w != fw[i] {
			step = append(step, lineage.Change{Index: int32(i), Delta: float32(w - fw[i])})
		}
	}
	return step
}

// brood is the next generation as breed makes it.
type brood struct {
	cfg       Config
	st        *State
	next      *State
	mutations int // the mutants made so far
}

// add appends a new genome, with the run's next ID.
func (b *brood) add(net *nnet.Net, origin Origin, node *nnet.Node, recipe *lineage.Recipe, parents ...int64) {
	b.next.Agents = append(b.next.Agents, Agent{ID: b.next.NextID, Net: net, Origin: origin, Parents: parents, Node: node, Recipe: recipe})
	b.next.NextID++
}

// child makes a genome through its lineage.Recipe, the one implementation
// storage also rebuilds dropped genomes with.
func (b *brood) child(r lineage.Recipe, parents ...Agent) (*nnet.Net, nnet.Node, error) {
	nets := make([]*nnet.Net, len(parents))
	for i, p := range parents {
		nets[i] = p.Net
	}
	return r.Make(b.st.Seed, b.st.Game, b.st.Generation, b.cfg.Steps(), nets...)
}

// mutate adds the next mutant of a, with a's learning settings perturbed
// (Config.LearnExplore).
func (b *brood) mutate(a Agent) error {
	r := lineage.Recipe{Op: lineage.Mutation, Index: b.mutations}
	net, _, err := b.child(r, a)
	if err != nil {
		return fmt.Errorf("population: generation %d: mutation %d: %w", b.st.Generation, b.mutations, err)
	}
	b.add(net, Mutation, nil, &r, a.ID)
	if b.cfg.LearnExplore {
		b.inherit(a.learner().Perturbed(seed.Rand(b.st.Seed, b.st.Game, b.st.Generation, seed.Learner, b.mutations)))
	}
	b.mutations++
	return nil
}

// inherit gives the agent added last the learning settings l, when the
// run evolves learners (Config.LearnExplore).
func (b *brood) inherit(l Learner) {
	if b.cfg.LearnExplore {
		b.next.Agents[len(b.next.Agents)-1].Learner = &l
	}
}

// pairs turns the games among the first n slots (the population's, not
// the hall of fame's) into rating pairs, scored for the first player.
func pairs[M comparable](r tournament.Results[M], n int) []elo.Game {
	out := make([]elo.Game, 0, len(r.Games))
	for _, g := range r.Games {
		if g.First < n && g.Second < n {
			out = append(out, elo.Game{First: g.First, Second: g.Second, Score: g.Outcome.Result.FirstScore()})
		}
	}
	return out
}

// hallSchedule returns the hall of fame's games: every agent (slots 0..n-1)
// against every hall champion (slots n..n+hall-1), games/2 pairs each, the
// two games of a pair from one opening, numbered after schedule's. Every
// agent meets a champion from the same openings (common random numbers):
// agents that play alike then play the same games, and their points differ
// only where their play does.
func hallSchedule(schedule []tournament.Pairing, n, hall, games int) []tournament.Pairing {
	first := nextOpening(schedule)
	out := make([]tournament.Pairing, 0, n*hall*games)
	for i := range n {
		for k := range hall {
			for j := range games / 2 {
				opening := first + k*games/2 + j
				out = append(out, tournament.Pairing{First: i, Second: n + k, OpeningIndex: opening},
					tournament.Pairing{First: n + k, Second: i, OpeningIndex: opening})
			}
		}
	}
	return out
}

// nextOpening returns the first opening index that schedule does not use:
// where games added after it (the hall of fame's, the race's) begin.
func nextOpening(schedule []tournament.Pairing) int {
	next := 0
	for _, p := range schedule {
		next = max(next, p.OpeningIndex+1)
	}
	return next
}
