package population

import (
	"context"
	"fmt"
	"time"

	"evolved/distill"
	"evolved/nnet"
	"evolved/tournament"
)

// DistillReport is a generation's distillation (Config.DistillEvery).
type DistillReport struct {
	// Parent is the champion distilled, AgentID the fitted genome's: the
	// next generation's first member, in the champion's place (the other
	// elites follow it, moved by the same step).
	Parent, AgentID int64
	// Nodes is the budget of each search.
	Nodes int64
	// Report is the fit's: positions, error before and after, how far the
	// evaluation moved.
	distill.Report
	// Took is the time the searches and the fit took.
	Took time.Duration
}

// distillDue reports whether generation's champion is distilled: the last
// of every DistillEvery generations.
func (c Config) distillDue(generation int) bool {
	return c.DistillEvery > 0 && generation%c.DistillEvery == c.DistillEvery-1
}

// distillNodes returns the budget of a distillation's searches.
func (c Config) distillNodes() int64 {
	if c.DistillNodes > 0 {
		return c.DistillNodes
	}
	return DefaultDistillNodes
}

// distillChampion fits the champion's linear weights to its searches of
// the positions of the generation's games and returns the fitted genome,
// whose step breed gives the whole elite. The Env runs the searches.
func (g *generation[M, S]) distillChampion(ctx context.Context, champion Agent, played []tournament.GameResult[M]) (*nnet.Net, *DistillReport, error) {
	if !g.game.AlphaBeta() || g.game.Kind.Distill == nil {
		return nil, nil, fmt.Errorf("%w: distill_every = %d, and this game does not distill", ErrConfig, g.cfg.DistillEvery)
	}
	start := time.Now()
	records := make([]tournament.Record[M], len(played))
	for i, p := range played {
		records[i] = p.Record
	}
	nodes := g.cfg.distillNodes()
	opts := distill.Options{Workers: g.cfg.Tournament.Workers}
	if g.obs != nil {
		opts.Progress = g.obs.Searched
	}
	net, rep, err := g.env.Distill(ctx, g.game, champion.Net, records, nodes, g.st.Seed, g.gen, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("population: generation %d: distilling champion %d: %w", g.gen, champion.ID, err)
	}
	return net, &DistillReport{Parent: champion.ID, Nodes: nodes, Report: rep, Took: time.Since(start)}, nil
}
