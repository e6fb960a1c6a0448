package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"evolved/agent"
)

// ChampionAgent returns the champion of a played generation of game's run
// (a negative generation: the latest) as an agent file: its net, the
// search it was evolved with (the run's stored depth and node budget, or
// the budget the curriculum had raised it to by that generation) and its
// provenance. It is what `evolved export` writes and what the web
// site serves and plays.
func (d *DB) ChampionAgent(ctx context.Context, game string, generation int) (agent.File, error) {
	c, err := d.Champion(ctx, game, generation)
	if err != nil {
		return agent.File{}, err
	}
	s, err := d.RunSearch(ctx, game)
	if err != nil {
		return agent.File{}, err
	}
	// A run whose curriculum raised its budget played this generation
	// under the raised one.
	if nodes, err := d.CurriculumNodes(ctx, game, c.Generation); err != nil {
		return agent.File{}, err
	} else if nodes > 0 {
		s.Nodes = nodes
	}
	return agent.File{Game: game, Net: c.Net, Search: s,
		Provenance: agent.Provenance{RunSeed: c.Seed, Generation: c.Generation, AgentID: c.AgentID,
			Fitness: c.Fitness, LadderMean: c.LadderMean, Improved: c.Improved, Evolved: c.CreatedAt}}, nil
}

// AgentByID returns any genome of game's run, by agent id, as an agent
// file: a member of any generation, not only a champion, rebuilt from its
// lineage if retention dropped its weights (ErrNoAgent if the run never
// had it, ErrPruned if retention dropped it for good). Its provenance
// names the generation it was born in, whose search it carries (the run's,
// or the budget the curriculum had raised it to by then); the fitness and
// ladder fields, a champion's, stay zero.
func (d *DB) AgentByID(ctx context.Context, game string, id int64) (agent.File, error) {
	net, err := d.Genome(ctx, game, id)
	if err != nil {
		return agent.File{}, err
	}
	var born int
	if err := d.db.QueryRowContext(ctx, "SELECT born FROM genomes WHERE game = ? AND agent_id = ?", game, id).Scan(&born); err != nil {
		return agent.File{}, fmt.Errorf("agent %d of %s: %w", id, game, err)
	}
	run, err := d.LoadRun(ctx, game)
	if err != nil {
		return agent.File{}, err
	}
	s, err := d.RunSearch(ctx, game)
	if err != nil {
		return agent.File{}, err
	}
	if nodes, err := d.CurriculumNodes(ctx, game, born); err != nil {
		return agent.File{}, err
	} else if nodes > 0 {
		s.Nodes = nodes
	}
	return agent.File{Game: game, Net: net, Search: s, Provenance: agent.Provenance{RunSeed: run.Seed, Generation: born, AgentID: id}}, nil
}

// RunSearch returns the search settings the run of game was evolved
// with, from its stored configuration: its depth and node budget (the
// capture extension is always on; it matters to draughts alone), or the
// playouts of its MCTS-EPT (search = "ept:N").
func (d *DB) RunSearch(ctx context.Context, game string) (agent.Search, error) {
	run, err := d.LoadRun(ctx, game)
	if err != nil {
		return agent.Search{}, err
	}
	var defining struct {
		Depth  int    `json:"depth"`
		Nodes  int64  `json:"nodes"`
		Search string `json:"search"`
	}
	if err := json.Unmarshal([]byte(run.Config), &defining); err != nil || defining.Depth < 1 {
		return agent.Search{}, errors.Join(fmt.Errorf("the stored %s run has no search depth", game), err)
	}
	s := agent.Search{Depth: defining.Depth, Nodes: defining.Nodes, CaptureExtension: true}
	playouts, settings, ok := agent.ParseSearch(defining.Search)
	if !ok {
		return agent.Search{}, fmt.Errorf("the stored %s run searches by %q, which this build does not know", game, defining.Search)
	}
	s.EPT, s.Settings = playouts, settings
	return s, nil
}
