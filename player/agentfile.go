package player

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"evolved/agent"
	"evolved/nnet"
	"evolved/search"
	"evolved/storage"
)

// isAgentFile reports whether spec names an agent file rather than a
// built-in player: a path with a separator, or ending in .json, or an
// existing file.
func isAgentFile(spec string) bool {
	if strings.ContainsRune(spec, os.PathSeparator) || strings.HasSuffix(spec, ".json") {
		return true
	}
	info, err := os.Stat(spec)
	return err == nil && !info.IsDir()
}

// ReadAgent reads the agent file at path and checks that it is for game.
func ReadAgent(path, game string) (agent.File, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return agent.File{}, fmt.Errorf("%w %q: no such agent file", ErrSpec, path)
		}
		return agent.File{}, fmt.Errorf("player: %w", err)
	}
	defer f.Close()
	a, err := agent.Read(f)
	if err != nil {
		return a, fmt.Errorf("player: agent file %s: %w", path, err)
	}
	if a.Game != game {
		return a, fmt.Errorf("player: agent file %s is a %s agent, not %s", path, a.Game, game)
	}
	return a, nil
}

// AgentNet reads the agent file at path, which must be an agent of game,
// and returns its net, the depth it was evolved at and a name for tables
// and records: the file's base name and the agent's generation.
func AgentNet(path, game string) (net *nnet.Net, depth int, name string, err error) {
	a, err := ReadAgent(path, game)
	if err != nil {
		return nil, 0, "", err
	}
	return a.Net, a.Search.Depth, AgentName(path, a), nil
}

// AgentName names the agent of file a at path for tables and records: the
// file's base name and the agent's generation.
func AgentName(path string, a agent.File) string {
	return fmt.Sprintf("%s (gen %d)", strings.TrimSuffix(filepath.Base(path), ".json"), a.Provenance.Generation)
}

// agentSpec returns the spec of the agent file at path, an agent of game:
// its net searching as it was evolved to (depth, and node budget if any),
// built by netSpec.
func agentSpec[M comparable, S search.Game[M]](path, game string, netSpec func(string, *nnet.Net, int) (Spec[M, S], error)) (Spec[M, S], error) {
	a, err := ReadAgent(path, game)
	if err != nil {
		return Spec[M, S]{}, err
	}
	spec, err := netSpec(AgentName(path, a), a.Net, a.Search.Depth)
	return WithNodes(spec, a.Search.Nodes), err
}

// ChampionAgent returns the champion of a played generation of game's run
// in db (a negative generation: the latest) as an agent file: its net, the
// search it was evolved with (the run's stored depth and node budget) and
// its provenance. It is what `evolved export` writes and what the web
// site serves and plays.
func ChampionAgent(ctx context.Context, db *storage.DB, game string, generation int) (agent.File, error) {
	c, err := db.Champion(ctx, game, generation)
	if err != nil {
		return agent.File{}, err
	}
	s, err := RunSearch(ctx, db, game)
	if err != nil {
		return agent.File{}, err
	}
	return agent.File{Game: game, Net: c.Net, Search: s,
		Provenance: agent.Provenance{RunSeed: c.Seed, Generation: c.Generation, AgentID: c.AgentID,
			Fitness: c.Fitness, LadderMean: c.LadderMean, Improved: c.Improved, Evolved: c.CreatedAt}}, nil
}

// RunSearch returns the search settings the run of game was evolved
// with, from its stored configuration: its depth and node budget (the
// capture extension is always on; it matters to draughts alone).
func RunSearch(ctx context.Context, db *storage.DB, game string) (agent.Search, error) {
	run, err := db.LoadRun(ctx, game)
	if err != nil {
		return agent.Search{}, err
	}
	var defining struct {
		Depth int   `json:"depth"`
		Nodes int64 `json:"nodes"`
	}
	if err := json.Unmarshal([]byte(run.Config), &defining); err != nil || defining.Depth < 1 {
		return agent.Search{}, errors.Join(fmt.Errorf("the stored %s run has no search depth", game), err)
	}
	return agent.Search{Depth: defining.Depth, Nodes: defining.Nodes, CaptureExtension: true}, nil
}
