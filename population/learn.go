package population

import (
	"context"
	"fmt"
	"time"

	"evolved/distill"
	"evolved/games"
	"evolved/nnet"
	"evolved/positions"
)

// LearnReport is a generation's training (Config.LearnEvery).
type LearnReport struct {
	// Parent is the champion trained; its genome, distilled first when
	// the distillation was due too, took the step the whole elite takes.
	Parent int64
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

// learnChampion trains net, the champion's genome (parent its ID), on the
// newest positions of the run's store and returns the trained genome (nil
// when the store holds none yet),
// its change from the champion's own genome, from rounded to the form
// storage keeps (distill.RoundStep), whose step breed gives the whole
// elite.
func (g *generation[M, S]) learnChampion(ctx context.Context, parent int64, from, net *nnet.Net) (*nnet.Net, *LearnReport, error) {
	start := time.Now()
	// The settings one pass over the store measured best
	// (docs/commands.md, "selfplay and train").
	opts := distill.TrainOptions{Epochs: 1, Batch: 1024, Rate: 0.001, Workers: g.cfg.Tournament.Workers,
		Seed: g.st.Seed ^ uint64(g.gen)}
	trained, rep, err := g.env.Train(ctx, g.game, net, g.cfg.learnPositions(), opts)
	if err != nil {
		return nil, nil, fmt.Errorf("population: generation %d: training champion %d: %w", g.gen, parent, err)
	}
	if trained == nil {
		return nil, nil, nil // the store holds no position yet
	}
	if trained, err = distill.RoundStep(trained, from, learnStepLargest); err != nil {
		return nil, nil, fmt.Errorf("population: generation %d: training champion %d: %w", g.gen, parent, err)
	}
	return trained, &LearnReport{Parent: parent, TrainReport: rep, Took: time.Since(start)}, nil
}

// learn plays the generation's data games and, when a training is due,
// trains the champion (learnt, when the distillation made it) and returns
// the genome whose step the elite takes: learnt, or the trained genome.
func (g *generation[M, S]) learn(ctx context.Context, rep *Report[M], learnt *nnet.Net) (*nnet.Net, error) {
	var err error
	if rep.Data, err = g.playData(ctx, rep.Champion.Net); err != nil {
		return nil, err
	}
	if !g.cfg.learnDue(g.gen) {
		return learnt, nil
	}
	net := rep.Champion.Net
	if learnt != nil {
		net = learnt
	}
	trained, lr, err := g.learnChampion(ctx, rep.Champion.ID, rep.Champion.Net, net)
	if err != nil || trained == nil {
		return learnt, err
	}
	rep.Learn = lr
	return trained, nil
}
