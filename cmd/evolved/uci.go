package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"evolved/player"
	"evolved/uci/server"
)

// uciCommand implements `evolved uci`: an exported chess agent as a UCI
// engine on standard input and output, for chess GUIs and tournament managers.
func uciCommand(fs *flag.FlagSet) action {
	agentFile := fs.String("agent", "", "the exported chess agent `FILE` (required)")
	depth := fs.Int("depth", 0, "the search depth `D` when the GUI sets no limit (default: the agent's own)")
	searchFlag := fs.String("search", "", "`SEARCH` ept:N: MCTS-EPT instead of alpha-beta, the agent's net scoring playouts cut after 6 plies,\nN playouts a move when the GUI sets no limit (go nodes sets the playouts)")
	setHelp(fs, help{
		usage: []string{"--agent FILE [--depth D | --search ept:N]"},
		about: `Speaks UCI on standard input and output: point a chess GUI at
  evolved uci --agent /path/to/champion.json`,
	})
	return func(ctx context.Context, stdin io.Reader, stdout, _ io.Writer) error {
		if *agentFile == "" {
			return usagef("uci: --agent is required")
		}
		a, err := player.ReadAgent(*agentFile, "chess")
		if err != nil {
			return fmt.Errorf("uci: %w", err)
		}
		net, own := a.Net, a.Search.Depth
		if *searchFlag == "" && *depth == 0 && a.Search.EPT > 0 {
			*searchFlag = fmt.Sprintf("ept:%d", a.Search.EPT) // as it was evolved
		}
		if *depth < 0 || *depth > 30 {
			return usagef("uci: --depth must be between 1 and 30, got %d", *depth)
		}
		playouts, err := player.ParseSearch(*searchFlag)
		if err != nil {
			return usagef("uci: --search: %v", err)
		}
		if playouts > 0 && *depth != 0 {
			return usagef("uci: --depth is alpha-beta's; --search %s has no depth", *searchFlag)
		}
		if *depth == 0 {
			*depth = own
		}
		var searcher server.Searcher
		if playouts > 0 {
			searcher, err = player.ChessNetEPTSearch(net, playouts)
		} else {
			searcher, err = player.ChessNetSearch(net, *depth, 20)
		}
		if err != nil {
			return fmt.Errorf("uci: %w", err)
		}
		srv := server.New(stdout, server.Options{
			Name: "evolved " + filepath.Base(*agentFile), Author: "the evolved developers",
			NewSearcher: func() server.Searcher { return searcher }, DefaultDepth: *depth,
		})
		return srv.Run(ctx, stdin)
	}
}
