package player

import (
	"cmp"
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

// AgentName names the agent of file a at path for tables and records: the
// file's base name and the agent's generation.
func AgentName(path string, a agent.File) string {
	return fmt.Sprintf("%s (gen %d)", strings.TrimSuffix(filepath.Base(path), ".json"), a.Provenance.Generation)
}

// agentFileSpec reads the specs that name an agent file of game: the
// file itself, whose players search as it was evolved (AgentFileSpec), and
// ept:N@FILE, its net scoring the playouts of MCTS-EPT (netEPTSpec). ok is
// false for every other spec.
func agentFileSpec[M comparable, S search.Game[M]](spec, game string, net, netEPT func(string, *nnet.Net, int) (Spec[M, S], error)) (_ Spec[M, S], ok bool, _ error) {
	if s, ok, err := netEPTSpec(spec, game, netEPT); ok {
		return s, true, err
	}
	if !isAgentFile(spec) {
		return Spec[M, S]{}, false, nil
	}
	a, err := ReadAgent(spec, game)
	if err != nil {
		return Spec[M, S]{}, true, err
	}
	s, err := AgentFileSpec(AgentName(spec, a), a, 0, net, netEPT)
	return s, true, err
}

// AgentFileSpec returns the spec, named name, of the players of agent file
// f searching as it was evolved: MCTS-EPT of its playouts scored by its net
// (built by netEPT), or alpha-beta to its depth under its node budget (by
// net) with its techniques and parameters (f.Search.Settings). With depth
// positive they search alpha-beta to that depth instead, with no budget.
func AgentFileSpec[M comparable, S search.Game[M]](name string, f agent.File, depth int, net, netEPT func(string, *nnet.Net, int) (Spec[M, S], error)) (Spec[M, S], error) {
	if f.Search.EPT > 0 && depth <= 0 {
		return netEPT(name, f.Net, f.Search.EPT)
	}
	spec, err := net(name, f.Net, cmp.Or(depth, f.Search.Depth))
	if err == nil {
		spec, err = WithSettings(spec, f.Search.Settings)
	}
	if err != nil || depth > 0 {
		return spec, err
	}
	return WithNodes(spec, f.Search.Nodes), nil
}
