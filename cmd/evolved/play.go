package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"evolved/agent"
	"evolved/game"
	"evolved/games"
	"evolved/play"
	"evolved/player"
	"evolved/search"
)

// playCommand implements `evolved play`.
func playCommand(fs *flag.FlagSet) action {
	agentFile := fs.String("agent", "", "play this exported agent `FILE`")
	dbPath := fs.String("db", "", "play the latest champion of this database `FILE` "+dbNoDefault)
	gameName := fs.String("game", "", "the `GAME`: draughts, chess or xiangqi (default: the agent's or the database's game; draughts for --player)")
	var generation generationMark
	fs.Var(&generation, "generation", "with --db: play generation `N`'s champion, or the one at N hours of evolution with Nh (default: the latest)")
	spec := fs.String("player", "", "play the player `SPEC` instead (listed below)")
	depth := fs.Int("depth", 0, "the engine's search depth `D` (0: the agent's own)")
	as := fs.String("as", "", "your `SIDE`: black or white, red in xiangqi (unset: the side that moves first: Black in draughts, White in chess, Red in xiangqi)")
	ascii := fs.Bool("ascii", false, "draw pieces as letters instead of Unicode symbols or Chinese glyphs")
	fen := fs.String("fen", "", "start from this position, a `FEN` of the game")
	record := fs.String("load", "", "replay the first game of this record `FILE` (PDN for draughts, PGN for chess and xiangqi) and play on")
	maxMoves := new(int)
	countVar(fs, maxMoves, "max-moves", 0, "draw when each side has made `N` moves (0: no limit)")
	setHelp(fs, help{
		usage: []string{"(--agent FILE | --db FILE [--game G] | --player SPEC [--game G]) [--depth D] [--as black|white|red]"},
		about: `Plays a game against an engine in the terminal; type help at the prompt for the
commands. Reads moves from standard input, so it can also be driven by a script.`,
		players: games.Names(),
	})
	return func(ctx context.Context, stdin io.Reader, stdout, _ io.Writer) error {
		if generation.negative() {
			return usagef("play: --generation must be 0 or more, got %d", generation.n)
		}
		g, err := gameFrom(ctx, "play", *gameName, *agentFile, *dbPath, games.DraughtsName)
		if err != nil {
			return err
		}
		sources := 0
		for _, set := range []bool{*agentFile != "", *dbPath != "", *spec != ""} {
			if set {
				sources++
			}
		}
		if sources != 1 {
			return usagef("play: give exactly one of --agent FILE, --db FILE or --player SPEC")
		}
		human, err := humanSide(g, *as)
		if err != nil {
			return err
		}
		if *depth < 0 || *depth > 30 {
			return usagef("play: --depth must be between 1 and 30, got %d", *depth)
		}
		a := playArgs{agentFile: *agentFile, dbPath: *dbPath, spec: *spec, generation: generation, depth: *depth,
			fen: *fen, record: *record, maxMoves: *maxMoves, human: human, ascii: *ascii || !unicodeTerminal()}
		return visitGame(ctx, g, games.Funcs{
			Draughts: func(k games.DraughtsKind) error { return playGame(ctx, stdin, stdout, k, play.DraughtsUI(), a) },
			Chess:    func(k games.ChessKind) error { return playGame(ctx, stdin, stdout, k, play.ChessUI(), a) },
			Xiangqi:  func(k games.XiangqiKind) error { return playGame(ctx, stdin, stdout, k, play.XiangqiUI(), a) },
		})
	}
}

// playArgs are play's flags, checked.
type playArgs struct {
	agentFile, dbPath, spec string
	generation              generationMark
	depth                   int
	fen, record             string
	maxMoves                int
	human                   game.Player
	ascii                   bool
}

// playGame runs a session of game k, shown as ui, at the terminal.
func playGame[M comparable, S play.Playable[M]](ctx context.Context, stdin io.Reader, stdout io.Writer, k games.Kind[M, S], ui play.UI[M, S], a playArgs) error {
	if _, err := k.NewGame(a.fen, games.Setup{}); err != nil {
		return usagef("play: --fen: %v", err)
	}
	engine, err := playerSource(ctx, "play", k, a.agentFile, a.dbPath, a.spec, a.generation, a.depth)
	if err != nil {
		return err
	}
	return play.Terminal(ctx, k, ui, stdin, stdout, play.Options[M, S]{
		Engine: engine, Human: a.human, Start: a.fen, MaxMoves: a.maxMoves, ASCII: a.ascii, Record: a.record,
		Guard: outputGuard(a.dbPath),
	})
}

// playerSource builds the player of game k from whichever source a command
// (cmd, for messages) was given: a player spec, an agent file, or a
// champion of the database (the generation --generation marks, the latest
// when unset), a net player at a depth (0: the agent's own, or the run's
// for a champion).
func playerSource[M comparable, S search.Game[M]](ctx context.Context, cmd string, k games.Kind[M, S], agentFile, dbPath, spec string, generation generationMark, depth int) (player.Spec[M, S], error) {
	game, parse := k.Name, k.Parse
	var none player.Spec[M, S]
	switch {
	case spec != "":
		s, err := parse(spec)
		if err != nil {
			return s, &usageError{msg: cmd + ": --player: " + err.Error()}
		}
		return s, nil
	case agentFile != "":
		a, err := player.ReadAgent(agentFile, game)
		if err != nil {
			return none, fmt.Errorf("%s: %w", cmd, err)
		}
		s, err := k.AgentFile(player.AgentName(agentFile, a), a, depth)
		if err != nil {
			return s, fmt.Errorf("%s: %w", cmd, err)
		}
		return s, nil
	}
	a, err := championFile(ctx, cmd, game, dbPath, generation)
	if err != nil {
		return none, err
	}
	return championSpec(cmd, k, a, depth)
}

// championFile reads the champion that --generation (the latest without
// it) names from the database at dbPath, for the command cmd.
func championFile(ctx context.Context, cmd, game, dbPath string, generation generationMark) (agent.File, error) {
	db, _, g, err := openChampion(ctx, cmd, dbPath, game, &generation)
	if err != nil {
		return agent.File{}, err
	}
	defer db.Close()
	a, err := db.ChampionAgent(ctx, game, g)
	if err != nil {
		return agent.File{}, fmt.Errorf("%s: %w", cmd, err)
	}
	return a, nil
}

// championSpec returns the players of the champion a, named by its
// generation, at depth (0: its own).
func championSpec[M comparable, S search.Game[M]](cmd string, k games.Kind[M, S], a agent.File, depth int) (player.Spec[M, S], error) {
	s, err := k.AgentFile(fmt.Sprintf("champion of generation %d", a.Provenance.Generation), a, depth)
	if err != nil {
		return s, fmt.Errorf("%s: %w", cmd, err)
	}
	return s, nil
}

// unicodeTerminal reports whether the locale promises UTF-8 output.
func unicodeTerminal() bool {
	for _, v := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if val := os.Getenv(v); val != "" {
			val = strings.ToUpper(val)
			return strings.Contains(val, "UTF-8") || strings.Contains(val, "UTF8")
		}
	}
	return false
}

// humanSide reads --as for game g: the person's side, by default the side
// that moves first.
// Each side is named in full or by its first letter.
func humanSide(g, as string) (game.Player, error) {
	if as == "" {
		return game.First, nil
	}
	info, err := games.Lookup(g)
	if err != nil {
		return game.First, usagef("play: %v", err)
	}
	as = strings.ToLower(as)
	for i, side := range info.Sides {
		if as == side || as == side[:1] {
			return game.Player(i), nil
		}
	}
	return game.First, usagef("play: --as must be %s or %s for %s, got %q", info.Sides[0], info.Sides[1], g, as)
}
