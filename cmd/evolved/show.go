package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"evolved/agent"
	"evolved/daemon"
	"evolved/games"
	"evolved/player"
)

// showCommand sets up "evolved show": what an agent is made of.
func showCommand(fs *flag.FlagSet) action {
	agentPath := fs.String("agent", "", "show the agent file `FILE`")
	dbPath := fs.String("db", "", "show a champion of the database `FILE` instead "+dbNoDefault)
	game := fs.String("game", "", "the population `GAME` of --db: "+strings.Join(daemon.KnownGames(), ", ")+" (default: the database's only run)")
	var generationFlag generationMark
	fs.Var(&generationFlag, "generation", "with --db, generation `N`'s champion, or the one at N hours of evolution with Nh (default: the latest)")
	setHelp(fs, help{
		usage: []string{"--agent FILE | --db FILE [--game GAME] [--generation N|Nh]"},
		about: `Describes an agent: where it comes from, its search, its net, and what evolved
beside the net: the piece values, the draughts king's value, and the positional
terms, each as its weight, its unit and what a count of its feature is worth.`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, _ io.Writer) error {
		switch {
		case (*agentPath == "") == (*dbPath == ""):
			return usagef("show: give --agent FILE or --db FILE")
		case *agentPath != "" && (*game != "" || generationFlag.set):
			return usagef("show: --game and --generation choose a champion of --db, not of an agent file")
		case generationFlag.negative():
			return usagef("show: --generation must be 0 or more, got %d", generationFlag.n)
		}
		var f agent.File
		if *agentPath != "" {
			var err error
			if f, err = readAgentFile(*agentPath); err != nil {
				return fmt.Errorf("show: %w", err)
			}
		} else {
			db, g, generation, err := openChampion(ctx, "show", *dbPath, *game, &generationFlag)
			if err != nil {
				return err
			}
			defer db.Close()
			if f, err = db.ChampionAgent(ctx, g, generation); err != nil {
				return fmt.Errorf("show: %w", err)
			}
		}
		return describeAgent(stdout, f)
	}
}

// readAgentFile reads the agent file at path, of any game.
func readAgentFile(path string) (agent.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return agent.File{}, fmt.Errorf("agent: %w", err)
	}
	defer f.Close()
	a, err := agent.Read(f)
	if err != nil {
		return a, fmt.Errorf("agent file %s: %w", path, err)
	}
	return a, nil
}

// describeAgent writes what show prints of f.
func describeAgent(w io.Writer, f agent.File) error {
	p, n := f.Provenance, f.Net
	sizes := make([]string, len(n.Sizes()))
	for i, s := range n.Sizes() {
		sizes[i] = fmt.Sprint(s)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s agent: generation %d champion of the run with seed %d (agent %d, fitness %d), evolved %s\n",
		f.Game, p.Generation, p.RunSeed, p.AgentID, p.Fitness, p.Evolved.UTC().Format("2006-01-02 15:04:05 UTC"))
	if f.Search.EPT > 0 {
		fmt.Fprintf(&b, "search: MCTS-EPT, %d playouts a move, each cut after %d plies and scored by the net", f.Search.EPT, player.EPTPlies)
	} else {
		fmt.Fprintf(&b, "search: depth %d", f.Search.Depth)
		if f.Search.CaptureExtension {
			b.WriteString(", then captures")
		}
		if f.Search.Nodes > 0 {
			fmt.Fprintf(&b, ", at most about %d nodes a move", f.Search.Nodes)
		}
	}
	fmt.Fprintf(&b, "\nnet: %s, %d weights, flags %v\n", strings.Join(sizes, "-"), n.NumWeights(), n.Flags())
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	g, err := games.Lookup(f.Game)
	if err != nil {
		return err
	}
	return g.DescribeNet(w, n)
}
