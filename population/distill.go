package population

import (
	"context"
	"fmt"
	"time"

	"evolved/distill"
	"evolved/nnet"
	"evolved/search"
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
// whose step breed gives the whole elite. The searches run where the
// species says (DistillSearch), or here.
func distillChampion[M comparable, S search.Game[M]](ctx context.Context, sp Species[M, S], cfg Config, runSeed uint64, gen int, champion Agent, games []tournament.GameResult[M]) (*nnet.Net, *DistillReport, error) {
	if sp.Distill == nil {
		return nil, nil, fmt.Errorf("%w: distill_every = %d, and this game does not distill", ErrConfig, cfg.DistillEvery)
	}
	start := time.Now()
	records := make([]tournament.Record[M], len(games))
	for i, g := range games {
		records[i] = g.Record
	}
	nodes := cfg.distillNodes()
	opts := distill.Options{Workers: cfg.Tournament.Workers, Progress: sp.DistillProgress}
	if sp.DistillSearch != nil {
		opts.Search = func(ctx context.Context, fens []string, progress func(done, total int)) ([]float64, error) {
			return sp.DistillSearch(ctx, champion.Net, nodes, runSeed, gen, fens, progress)
		}
	}
	net, rep, err := sp.Distill(ctx, champion.Net, records, nodes, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("population: generation %d: distilling champion %d: %w", gen, champion.ID, err)
	}
	return net, &DistillReport{Parent: champion.ID, Nodes: nodes, Report: rep, Took: time.Since(start)}, nil
}
