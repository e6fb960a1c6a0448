package population

import (
	"context"
	"fmt"
	"time"

	"evolved/distill"
	"evolved/games"
	"evolved/lineage"
	"evolved/nnet"
	"evolved/positions"
)

// LearnReport is a generation's training of one agent (Config.LearnEvery).
type LearnReport struct {
	// Parent is the agent trained: the champion, whose genome, distilled
	// first when the distillation was due too, took the step the whole
	// elite takes; with Config.LearnExplore, each elite member in turn,
	// which keeps its own step.
	Parent int64
	// Learner is the settings it trained with.
	Learner Learner
	// Report is the training's: the positions read, trained on and held
	// out, and the loss before and after.
	distill.TrainReport
	// Took is the time the training took.
	Took time.Duration
}

// learnStepLargest is the largest multiple of its power of two to which a
// training's step is rounded (distill.RoundStep), so that storage keeps
// it in about a byte a weight.
const learnStepLargest = 127

// learnDue reports whether generation's champion trains: the last of
// every LearnEvery generations.
func (c Config) learnDue(generation int) bool {
	return c.LearnEvery > 0 && generation%c.LearnEvery == c.LearnEvery-1
}

// DataGames returns the data games a generation plays (Config.LearnEvery):
// learn_games, or none when the run does not learn.
func (c Config) DataGames() int {
	if c.LearnEvery <= 0 {
		return 0
	}
	return c.learnGames()
}

// learnGames, learnNodes and learnPositions return the data games a
// generation, their budget a move and the positions a training reads.
func (c Config) learnGames() int {
	if c.LearnGames > 0 {
		return c.LearnGames
	}
	return DefaultLearnGames
}

func (c Config) learnNodes() int64 {
	if c.LearnNodes > 0 {
		return c.LearnNodes
	}
	return DefaultLearnNodes
}

func (c Config) learnPositions() int {
	if c.LearnPositions > 0 {
		return c.LearnPositions
	}
	return 2 * c.LearnEvery * c.learnGames() * learnGamePositions
}

// playData plays the generation's data games with the champion's net and
// returns their positions, for the run's store.
func (g *generation[M, S]) playData(ctx context.Context, champion *nnet.Net) ([]positions.Record, error) {
	d := games.DataGames{Games: g.cfg.learnGames(), RunSeed: g.st.Seed, Generation: g.gen, Workers: g.cfg.Tournament.Workers}
	recs, err := g.env.PlayData(ctx, g.env.Game(g.cfg.learnNodes()), champion, d)
	if err != nil {
		return nil, fmt.Errorf("population: generation %d: data games: %w", g.gen, err)
	}
	return recs, nil
}

// train trains net, the genome of agent parent (net itself, or it
// distilled first), with the settings l on the newest positions of the
// run's store and returns the trained genome (nil when the store holds
// none yet), its change from the agent's own genome, from, rounded to the
// form storage keeps (distill.RoundStep). Every agent a generation trains
// shuffles with the same seed and holds out the same positions, so that
// their losses compare and their steps differ by their nets and settings
// alone.
func (g *generation[M, S]) train(ctx context.Context, parent int64, from, net *nnet.Net, l Learner) (*nnet.Net, *LearnReport, error) {
	start := time.Now()
	// One pass, the setting measured best (docs/commands.md, "selfplay
	// and train"); DefaultLearner's rate and results unless the run
	// evolves learners.
	opts := distill.TrainOptions{Epochs: 1, Batch: 1024, Rate: l.Rate, Results: l.Results, Workers: g.cfg.Tournament.Workers,
		Seed: g.st.Seed ^ uint64(g.gen)}
	trained, rep, err := g.env.Train(ctx, g.game, net, g.cfg.learnPositions(), opts)
	if err != nil {
		return nil, nil, fmt.Errorf("population: generation %d: training agent %d: %w", g.gen, parent, err)
	}
	if trained == nil {
		return nil, nil, nil // the store holds no position yet
	}
	if trained, err = distill.RoundStep(trained, from, learnStepLargest); err != nil {
		return nil, nil, fmt.Errorf("population: generation %d: training agent %d: %w", g.gen, parent, err)
	}
	return trained, &LearnReport{Parent: parent, Learner: l, TrainReport: rep, Took: time.Since(start)}, nil
}

// learn plays the generation's data games and, when a training is due,
// trains the champion (learnt, when the distillation made it) and returns
// the genome whose step the elite takes: learnt, or the trained genome.
// With Config.LearnExplore the whole elite trains (learnElite), and its
// trained genomes come back as own, by rank, learnt unchanged; own is nil
// when no elite trained.
func (g *generation[M, S]) learn(ctx context.Context, rep *Report[M], learnt *nnet.Net) (*nnet.Net, []*nnet.Net, error) {
	var err error
	if rep.Data, err = g.playData(ctx, rep.Champion.Net); err != nil {
		return nil, nil, err
	}
	if !g.cfg.learnDue(g.gen) {
		return learnt, nil, nil
	}
	if g.cfg.LearnExplore {
		own, err := g.learnElite(ctx, rep, learnt)
		return learnt, own, err
	}
	net := rep.Champion.Net
	if learnt != nil {
		net = learnt
	}
	trained, lr, err := g.train(ctx, rep.Champion.ID, rep.Champion.Net, net, DefaultLearner())
	if err != nil || trained == nil {
		return learnt, nil, err
	}
	rep.Learn = lr
	return trained, nil, nil
}

// learnElite trains every elite member, in rank order, with its own
// settings on the same newest positions and returns the trained genomes
// by rank (nil when the store holds no position yet). Each starts from
// its genome as the distillation, when due, leaves it: the champion from
// learnt, the others moved by learnt's step, as breed moves them without
// the training; its step is then its own change, distillation and
// training together, as the champion's is without LearnExplore.
func (g *generation[M, S]) learnElite(ctx context.Context, rep *Report[M], learnt *nnet.Net) ([]*nnet.Net, error) {
	var shared []lineage.Change // the distillation's step
	if learnt != nil {
		shared = netStep(learnt, rep.Champion.Net)
	}
	own := make([]*nnet.Net, g.cfg.Elite)
	reports := make([]LearnReport, 0, g.cfg.Elite)
	for r := range own {
		a := g.st.Agents[rep.Ranking[r]]
		net := a.Net
		switch {
		case learnt != nil && r == 0:
			net = learnt
		case learnt != nil:
			var err error
			if net, _, err = (lineage.Recipe{Op: lineage.Distill, Step: shared}).Make(g.st.Seed, g.st.Game, g.gen, g.cfg.Steps(), a.Net); err != nil {
				return nil, fmt.Errorf("population: generation %d: the distillation's step on elite %d: %w", g.gen, a.ID, err)
			}
		}
		trained, lr, err := g.train(ctx, a.ID, a.Net, net, a.learner())
		if err != nil || trained == nil {
			return nil, err
		}
		own[r] = trained
		reports = append(reports, *lr)
	}
	rep.Learners = reports
	rep.Learn = &rep.Learners[0]
	return own, nil
}
