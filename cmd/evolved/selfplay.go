package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"

	"evolved/agent"
	"evolved/games"
	"evolved/positions"
	"evolved/progress"
	"evolved/search"
)

// selfplayGamesPerCommit is how many data games "evolved selfplay" plays
// between two commits of the store: a stopped command loses at most these.
const selfplayGamesPerCommit = 50

// selfplayCommand sets up "evolved selfplay": data games of an agent
// against itself, their positions added to a position store.
func selfplayCommand(fs *flag.FlagSet) action {
	agentPath := fs.String("agent", "", "the agent file `FILE` that plays (chess or xiangqi)")
	storeDir := fs.String("store", "", "the position store, a directory `DIR` (made if absent; an existing store of the same game grows)")
	count := fs.Int("games", 1000, "play `N` games")
	nodes := fs.Int64("nodes", 2000, "search `N` nodes a move")
	opening := fs.Int("opening", 8, "open each game with `P` random plies, which are not stored")
	maxMoves := fs.Int("max-moves", 150, "draw a game after `M` moves a side")
	workers := fs.Int("workers", 0, "play `N` games at once (default: one a CPU; the games do not depend on it)")
	seed := fs.Uint64("seed", 1, "the games' random `SEED` (openings)")
	setHelp(fs, help{
		usage: []string{"--agent FILE --store DIR [--games N] [--nodes N] [--opening P] [--max-moves M] [--workers N] [--seed S]"},
		about: `Plays the agent against itself, N nodes a move, from random openings, and adds
every position after the opening to the position store DIR, with what the search
said of it (its score and best move) and the game's result; a position the store
holds already is not added again. The store is committed every 50 games, so a
stopped command keeps what it played; run it again to add more (the next games
continue the store's numbering, so they are new games). evolved train learns
from the store.`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, stderr io.Writer) error {
		switch {
		case *agentPath == "" || *storeDir == "":
			return usagef("selfplay: give --agent FILE and --store DIR")
		case *count < 1:
			return usagef("selfplay: --games must be 1 or more, got %d", *count)
		case *nodes < 1:
			return usagef("selfplay: --nodes must be 1 or more, got %d", *nodes)
		case *opening < 0 || *opening > 40:
			return usagef("selfplay: --opening must be 0 to 40, got %d", *opening)
		case *maxMoves < 1:
			return usagef("selfplay: --max-moves must be 1 or more, got %d", *maxMoves)
		case *workers < 0:
			return usagef("selfplay: --workers must be 0 or more, got %d", *workers)
		}
		f, err := readAgentFile(*agentPath)
		if err != nil {
			return fmt.Errorf("selfplay: %w", err)
		}
		run := selfplayRun{file: f, dir: *storeDir, games: *count, workers: *workers, seed: *seed,
			setup: games.Setup{Depth: 30, Nodes: *nodes, OpeningPlies: *opening, MaxMoves: *maxMoves}}
		if run.workers == 0 {
			run.workers = runtime.NumCPU()
		}
		return games.Visit(f.Game, games.Funcs{
			Draughts: func(k games.DraughtsKind) error { return selfplay(ctx, k, run, stdout, stderr) },
			Chess:    func(k games.ChessKind) error { return selfplay(ctx, k, run, stdout, stderr) },
			Xiangqi:  func(k games.XiangqiKind) error { return selfplay(ctx, k, run, stdout, stderr) },
		})
	}
}

// selfplayRun is what evolved selfplay was asked to do.
type selfplayRun struct {
	file           agent.File
	dir            string
	games, workers int
	seed           uint64
	setup          games.Setup
}

// selfplay plays r's games of game k, committing the store every
// selfplayGamesPerCommit games as one of its generations.
func selfplay[M comparable, S search.Game[M]](ctx context.Context, k games.Kind[M, S], r selfplayRun, stdout, stderr io.Writer) error {
	if k.Pack == nil {
		return fmt.Errorf("selfplay: %s positions are not stored (chess and xiangqi are)", k.Name)
	}
	store, err := positions.Open(ctx, r.dir, positions.Options{Game: k.Name})
	if err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	defer store.Close()
	b := k.Bind(r.setup)
	rep := progress.New(stderr, "selfplay: games", r.games, "games", progress.IsTerminal(stderr))
	defer rep.Finish()
	var played, stored, seen int
	kept := store.Records() // the positions committed
	for played < r.games {
		gen := store.Committed() + 1
		n := min(selfplayGamesPerCommit, r.games-played)
		d := games.DataGames{Games: n, RunSeed: r.seed, Generation: gen, Workers: r.workers,
			Progress: func(done, _ int) { rep.UpdateNote(played+done, fmt.Sprintf("%d positions", stored)) }}
		err := b.PlayData(ctx, r.file.Net, d, func(_ int, recs []positions.Record) error {
			added, err := store.Add(gen, recs)
			stored += added
			seen += len(recs)
			return err
		})
		if err != nil && ctx.Err() != nil {
			rep.Finish()
			fmt.Fprintf(stdout, "selfplay: stopped after %d games, which the store keeps (the %d games under way are dropped); it holds %d positions\n",
				played, n, kept)
			return nil
		}
		if err != nil {
			return fmt.Errorf("selfplay: %w", err)
		}
		if err := store.Commit(gen); err != nil {
			return fmt.Errorf("selfplay: %w", err)
		}
		played += n
		kept = store.Records()
	}
	rep.Finish()
	fmt.Fprintf(stdout, "selfplay: %d games, %d positions, %d added (%d already stored); the store holds %d positions, %.1f MB\n",
		played, seen, stored, seen-stored, store.Records(), float64(store.Bytes())/1e6)
	return nil
}
