package player

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"evolved/agent"
	"evolved/nnet"
	"evolved/search"
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
