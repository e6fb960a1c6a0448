package population

import (
	"context"
	"fmt"
	"time"

	"evolved/distill"
	"evolved/search"
	"evolved/tournament"
)

// DistillReport is a generation's distillation (Config.DistillEvery).
type DistillReport struct {
	// Parent is the champion distilled, AgentID the fitted genome's, the
	// next generation's last member.
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
// the positions of the generation's games and puts the fitted genome in
// the place of next's last agent, a mutant the breeding made: it keeps
// that agent's ID, its origin Distilled and its parent the champion.
func distillChampion[M comparable, S search.Game[M]](ctx context.Context, sp Species[M, S], cfg Config, champion Agent, games []tournament.GameResult[M], next *State) (*DistillReport, error) {
	if sp.Distill == nil {
		return nil, fmt.Errorf("%w: distill_every = %d, and this game does not distill", ErrConfig, cfg.DistillEvery)
	}
	start := time.Now()
	records := make([]tournament.Record[M], len(games))
	for i, g := range games {
		records[i] = g.Record
	}
	nodes := cfg.distillNodes()
	net, rep, err := sp.Distill(ctx, champion.Net, records, nodes, cfg.Tournament.Workers)
	if err != nil {
		return nil, fmt.Errorf("population: generation %d: distilling champion %d: %w", next.Generation-1, champion.ID, err)
	}
	last := &next.Agents[len(next.Agents)-1]
	*last = Agent{ID: last.ID, Net: net, Origin: Distilled, Parents: []int64{champion.ID}}
	return &DistillReport{Parent: champion.ID, AgentID: last.ID, Nodes: nodes, Report: rep, Took: time.Since(start)}, nil
}
