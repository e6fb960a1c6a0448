package player

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"evolved/agent"
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

// readAgent reads the agent file at path and checks that it is for game.
func readAgent(path, game string) (agent.File, error) {
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

// draughtsAgent returns the spec of an exported draughts agent: its net
// searching as it was evolved to.
func draughtsAgent(path string) (DraughtsSpec, error) {
	s, _, err := DraughtsAgent(path)
	return s, err
}

// DraughtsAgent reads an exported draughts agent file and returns its spec
// (the net searching to the depth it was evolved at) and that depth.
func DraughtsAgent(path string) (DraughtsSpec, int, error) {
	return draughtsAgentAt(path, 0)
}

// DraughtsNetFromAgent is DraughtsAgent with another search depth.
func DraughtsNetFromAgent(path string, depth int) (DraughtsSpec, error) {
	s, _, err := draughtsAgentAt(path, depth)
	return s, err
}

// draughtsAgentAt reads an agent file; depth 0 keeps the agent's own.
func draughtsAgentAt(path string, depth int) (DraughtsSpec, int, error) {
	a, err := readAgent(path, "draughts")
	if err != nil {
		return DraughtsSpec{}, 0, err
	}
	if depth == 0 {
		depth = a.Search.Depth
	}
	name := fmt.Sprintf("%s (gen %d)", strings.TrimSuffix(filepath.Base(path), ".json"), a.Provenance.Generation)
	s, err := DraughtsNet(name, a.Net, depth)
	return s, depth, err
}
