package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"evolved/game/chess"
	"evolved/game/xiangqi"
	"evolved/games"
	"evolved/player"
	"evolved/search"
	"evolved/uci/server"
)

// uciCommand implements `evolved uci`: an exported chess or xiangqi agent
// as a UCI engine on standard input and output, for GUIs and tournament
// managers (xiangqi as Fairy-Stockfish speaks it, UCI_Variant xiangqi).
func uciCommand(fs *flag.FlagSet) action {
	agentFile := fs.String("agent", "", "the exported chess or xiangqi agent `FILE` (required)")
	depth := fs.Int("depth", 0, "the search depth `D` when the GUI sets no limit (default: the agent's own)")
	searchFlag := fs.String("search", "", "`SEARCH` ept:N: MCTS-EPT instead of alpha-beta (chess), the agent's net scoring playouts cut after 6 plies,\nN playouts a move when the GUI sets no limit (go nodes sets the playouts); #LIST: alpha-beta with the techniques\nand parameters of LIST (#rfp_margin=80,-lmr) instead of the agent's own")
	setHelp(fs, help{
		usage: []string{"--agent FILE [--depth D] [--search ept:N|#LIST]"},
		about: `Speaks UCI on standard input and output: point a chess GUI, or a
  xiangqi GUI that loads Fairy-Stockfish (UCI_Variant xiangqi), at
  evolved uci --agent /path/to/champion.json
  The agent file's game decides which.`,
	})
	return func(ctx context.Context, stdin io.Reader, stdout, _ io.Writer) error {
		return runUCI(ctx, *agentFile, *depth, *searchFlag, stdin, stdout)
	}
}

// runUCI serves the agent of agentFile over UCI until quit or the end of
// stdin, searching to depth (0: the agent's own) or by searchFlag.
func runUCI(ctx context.Context, agentFile string, depth int, searchFlag string, stdin io.Reader, stdout io.Writer) error {
	if agentFile == "" {
		return usagef("uci: --agent is required")
	}
	a, err := readAgentFile(agentFile)
	if err != nil {
		return fmt.Errorf("uci: %w", err)
	}
	net, own := a.Net, a.Search.Depth
	if searchFlag == "" && depth == 0 && a.Search.EPT > 0 {
		searchFlag = fmt.Sprintf("ept:%d", a.Search.EPT) // as it was evolved
	}
	if depth < 0 || depth > 30 {
		return usagef("uci: --depth must be between 1 and 30, got %d", depth)
	}
	playouts, settings, err := player.ParseSearch(searchFlag)
	if err != nil {
		return usagef("uci: --search: %v", err)
	}
	if searchFlag == "" {
		settings = a.Search.Settings // the techniques and parameters it was evolved with
	}
	if _, _, err := search.ParseSettings(settings, search.DefaultTechniques, search.DefaultParams()); err != nil {
		return fmt.Errorf("uci: %s: %w", agentFile, err)
	}
	if playouts > 0 && depth != 0 {
		return usagef("uci: --depth is alpha-beta's; --search %s has no depth", searchFlag)
	}
	if depth == 0 {
		depth = own
	}
	name := "evolved " + filepath.Base(agentFile)
	return games.Visit(a.Game, games.Funcs{
		Draughts: func(k games.DraughtsKind) error {
			return fmt.Errorf("uci: %s is a %s agent: UCI serves chess and xiangqi agents", agentFile, k.Name)
		},
		Chess: func(games.ChessKind) error {
			var engine server.Searcher
			if playouts > 0 {
				engine, err = player.ChessNetEPTSearch(net, playouts)
			} else {
				var ab *search.AlphaBeta[chess.Move, *chess.Game]
				ab, err = player.ChessNetSearch(net, depth, 20)
				if err == nil {
					err = applySettings(ab, settings)
				}
				engine = ab
			}
			if err != nil {
				return fmt.Errorf("uci: %w", err)
			}
			return serveUCI(ctx, server.Chess(), name, depth, engine, stdin, stdout)
		},
		Xiangqi: func(k games.XiangqiKind) error {
			if playouts > 0 {
				return usagef("uci: %s searches alpha-beta only over UCI, not %s; give --depth D", k.Name, searchFlag)
			}
			ab, err := player.XiangqiNetSearch(net, depth, 20)
			if err == nil {
				err = applySettings(ab, settings)
			}
			if err != nil {
				return fmt.Errorf("uci: %w", err)
			}
			return serveUCI[xiangqi.Move](ctx, server.Xiangqi(), name, depth, ab, stdin, stdout)
		},
	})
}

// applySettings gives ab the techniques and parameters of settings (the
// agent's, or --search's #LIST), from its game's defaults
// (search.GameDefaults).
func applySettings[M comparable, S search.Game[M]](ab *search.AlphaBeta[M, S], settings string) error {
	set, params := search.GameDefaults[M, S]()
	set, params, err := search.ParseSettings(settings, set, params)
	if err != nil {
		return err
	}
	ab.SetTechniques(set)
	ab.SetParams(params)
	return nil
}

// serveUCI serves engine, an agent's search of rules' game, over UCI on
// stdin and stdout until quit or the end of stdin.
func serveUCI[M comparable, G search.Game[M]](ctx context.Context, rules server.Game[M, G], name string, depth int, engine server.Engine[M, G], stdin io.Reader, stdout io.Writer) error {
	srv := server.NewServer(stdout, rules, server.Config[M, G]{
		Name: name, Author: "the evolved developers",
		NewSearcher: func() server.Engine[M, G] { return engine }, DefaultDepth: depth,
	})
	return srv.Run(ctx, stdin)
}
