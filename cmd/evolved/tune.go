package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"gonum.org/v1/plot/vg"

	"evolved/games"
	"evolved/outfile"
	"evolved/player"
	"evolved/plot"
	"evolved/progress"
	"evolved/search"
	"evolved/tune"
)

// tuneCommand sets up "evolved tune": SPSA over the search's parameters.
func tuneCommand(fs *flag.FlagSet) action {
	var s tune.Settings
	statePath := fs.String("state", "", "the tuning's state `FILE` (JSON): written after every batch of pairs; an existing one is resumed")
	fs.StringVar(&s.Game, "game", "", "the game `G`: draughts, chess or xiangqi (default: the agent file's game, else draughts)")
	fs.StringVar(&s.Player, "player", "", "the alpha-beta player `SPEC` whose search is tuned (material:D, pst:D, pesto:D, an agent file; SPEC#LIST starts from LIST)")
	fs.Int64Var(&s.Nodes, "nodes", 5000, "search `N` nodes a move, as deep as that takes the players")
	fs.IntVar(&s.Pairs, "pairs", 5000, "play `N` game pairs in all (SPSA's schedule depends on it)")
	params := fs.String("params", "", "tune the parameters `LIST` (comma-separated; default: all of them)")
	fs.Float64Var(&s.Rate, "rate", tune.DefaultRate, "SPSA's r_end `R`: a parameter moves by R times its step times a pair's wins less losses at the end")
	fs.IntVar(&s.Batch, "batch", tune.DefaultBatch, "play `B` pairs from one point before moving it (the result does not depend on --workers)")
	fs.Uint64Var(&s.Seed, "seed", 1, "the tuning's random `SEED` (directions and openings)")
	fs.IntVar(&s.OpeningPlies, "opening-plies", 8, "`N` random plies open each pair's games")
	fs.IntVar(&s.MaxMoves, "max-moves", 100, "draw when each side has made `N` moves")
	workers := fs.Int("workers", 0, "play `N` pairs at once (default: one a CPU)")
	plotPath := fs.String("plot", "", "draw each parameter's path to `FILE` (.svg or .png) when the command ends")
	setHelp(fs, help{
		usage: []string{"--player SPEC --state FILE [--nodes N] [--pairs N] [--params LIST] [--rate R] [--workers N] [--plot FILE]"},
		about: `Tunes the alpha-beta search's parameters (margins, depths, the late-move
reduction formula) for the player SPEC by SPSA on game pairs, as Fishtest tunes
Stockfish's: each pair, two players with every tuned parameter pushed up or down
at random play each other twice from one opening, and the winner's side moves
the parameters. The state FILE is written after every batch; run the command
again with the same FILE to resume (the flags then need not be given again, and
a flag that disagrees with the file is refused). At the end it prints the tuned
parameters as SPEC#LIST, which match, rate and uci accept, and as a run's
search = "#LIST". A tuning is the same at any --workers. Measure the result
with evolved match before you trust it: SPSA moves on noise too.`,
		players: games.Names(),
	})
	return func(ctx context.Context, _ io.Reader, stdout, stderr io.Writer) error {
		if *statePath == "" {
			return usagef("tune: give --state FILE")
		}
		if *workers < 0 {
			return usagef("tune: --workers must be 0 or more, got %d", *workers)
		}
		if *workers == 0 {
			*workers = runtime.NumCPU()
		}
		if err := checkOutput("tune", "--plot", *plotPath); err != nil {
			return err
		}
		st, err := tuneState(fs, s, *params, *statePath)
		if err != nil {
			return err
		}
		err = visitGame(ctx, st.Settings.Game, games.Funcs{
			Draughts: func(k games.DraughtsKind) error { return runTune(ctx, k, st, *statePath, *workers, stdout, stderr) },
			Chess:    func(k games.ChessKind) error { return runTune(ctx, k, st, *statePath, *workers, stdout, stderr) },
			Xiangqi:  func(k games.XiangqiKind) error { return runTune(ctx, k, st, *statePath, *workers, stdout, stderr) },
		})
		if err != nil || *plotPath == "" {
			return err
		}
		if err := plot.WriteFile(outputGuard(), *plotPath, 18*vg.Centimeter, 10*vg.Centimeter, plot.Tuning(st)); err != nil {
			return fmt.Errorf("tune: %w", err)
		}
		fmt.Fprintf(stdout, "tune: wrote %s\n", *plotPath)
		return nil
	}
}

// tuneState returns the tuning the flags ask for: the state at path when
// it exists (refusing a flag given that disagrees with it), else a new
// one from s and params, the start taken from the player's own search.
func tuneState(fs *flag.FlagSet, s tune.Settings, params, path string) (*tune.State, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		st, err := tune.ReadState(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("tune: %s: %w", path, err)
		}
		return st, agreeWithState(fs, s, params, st)
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("tune: %w", err)
	}
	if err := checkOutput("tune", "--state", path); err != nil {
		return nil, err
	}
	switch {
	case s.Player == "":
		return nil, usagef("tune: give --player SPEC (a new tuning)")
	case s.Nodes < 1:
		return nil, usagef("tune: --nodes must be 1 or more, got %d", s.Nodes)
	case s.Pairs < 1:
		return nil, usagef("tune: --pairs must be 1 or more, got %d", s.Pairs)
	case s.Rate <= 0:
		return nil, usagef("tune: --rate must be above 0, got %g", s.Rate)
	case s.Batch < 1:
		return nil, usagef("tune: --batch must be 1 or more, got %d", s.Batch)
	case s.OpeningPlies < 0 || s.OpeningPlies > 40:
		return nil, usagef("tune: --opening-plies must be 0 to 40, got %d", s.OpeningPlies)
	case s.MaxMoves < 1:
		return nil, usagef("tune: --max-moves must be 1 or more, got %d", s.MaxMoves)
	}
	if params != "" {
		s.Names = strings.Split(params, ",")
	}
	if s.Game, err = matchGameOf(s.Game, s.Player); err != nil {
		return nil, err
	}
	start, err := tuneStart(s)
	if err != nil {
		return nil, err
	}
	st, err := tune.New(s, start)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return st, nil
}

// tuneStart returns the parameters s's player searches with.
func tuneStart(s tune.Settings) (search.Params, error) {
	var start search.Params
	err := games.Visit(s.Game, games.Funcs{
		Draughts: func(k games.DraughtsKind) (err error) { start, err = playerParams(k, s.Player); return err },
		Chess:    func(k games.ChessKind) (err error) { start, err = playerParams(k, s.Player); return err },
		Xiangqi:  func(k games.XiangqiKind) (err error) { start, err = playerParams(k, s.Player); return err },
	})
	return start, err
}

// playerParams returns the search parameters of the players of spec.
func playerParams[M comparable, S search.Game[M]](k games.Kind[M, S], spec string) (search.Params, error) {
	p, err := k.Parse(spec)
	if err != nil {
		return search.Params{}, usagef("tune: --player: %v", err)
	}
	start, err := tune.Check(p.Name, p.New)
	if err != nil {
		return start, usagef("%v", err)
	}
	return start, nil
}

// agreeWithState refuses the flags given that disagree with st's
// settings: a tuning resumes as it began.
func agreeWithState(fs *flag.FlagSet, s tune.Settings, params string, st *tune.State) error {
	have := st.Settings
	given := map[string][2]string{
		"game": {s.Game, have.Game}, "player": {s.Player, have.Player}, "nodes": {fmt.Sprint(s.Nodes), fmt.Sprint(have.Nodes)},
		"pairs": {fmt.Sprint(s.Pairs), fmt.Sprint(have.Pairs)}, "params": {params, strings.Join(have.Names, ",")},
		"rate": {fmt.Sprint(s.Rate), fmt.Sprint(have.Rate)}, "batch": {fmt.Sprint(s.Batch), fmt.Sprint(have.Batch)},
		"seed": {fmt.Sprint(s.Seed), fmt.Sprint(have.Seed)}, "opening-plies": {fmt.Sprint(s.OpeningPlies), fmt.Sprint(have.OpeningPlies)},
		"max-moves": {fmt.Sprint(s.MaxMoves), fmt.Sprint(have.MaxMoves)},
	}
	var err error
	fs.Visit(func(f *flag.Flag) {
		if v, ok := given[f.Name]; ok && v[0] != v[1] && err == nil {
			err = usagef("tune: --%s %s, but the state file's tuning has %s: a tuning resumes as it began (give another --state for a new one)", f.Name, v[0], v[1])
		}
	})
	return err
}

// runTune plays st's remaining pairs in game k, writing the state to path
// after each batch, and prints the result.
func runTune[M comparable, S search.Game[M]](ctx context.Context, k games.Kind[M, S], st *tune.State, path string, workers int, stdout, stderr io.Writer) error {
	s := st.Settings
	spec, err := k.Parse(s.Player)
	if err != nil {
		return usagef("tune: --player: %v", err)
	}
	spec = player.WithNodeBudget(spec, s.Nodes)
	if _, err := tune.Check(spec.Name, spec.New); err != nil {
		return usagef("%v", err)
	}
	lock, err := lockState(path)
	if err != nil {
		return err
	}
	defer lock.Close()
	arena := k.Arena(games.Setup{OpeningPlies: s.OpeningPlies, MaxMoves: s.MaxMoves})
	from := st.Done
	rep := progress.New(stderr, "tune: pairs", s.Pairs-from, "pairs", progress.IsTerminal(stderr))
	defer rep.Finish()
	guard := outputGuard()
	err = tune.Run(ctx, st, tune.Pairs(arena, s.Seed, spec.New), workers, func(st *tune.State) error {
		rep.UpdateNote(st.Done-from, fmt.Sprintf("plus %d-%d-%d", st.Wins, st.Draws, st.Losses))
		return guard.Write(path, func(w io.Writer) error { _, err := st.WriteTo(w); return err })
	})
	rep.Finish()
	if err != nil && ctx.Err() != nil {
		fmt.Fprintf(stdout, "tune: stopped after %d of %d pairs; %s keeps them: run the command again to resume\n", st.Done, s.Pairs, path)
		return nil
	}
	if err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	return printTune(stdout, st)
}

// printTune writes a finished tuning's result.
func printTune(w io.Writer, st *tune.State) error {
	s := st.Settings
	fmt.Fprintf(w, "tune: %d pairs at %d nodes a move; plus won %d, drew %d and lost %d of %d games\n",
		st.Done, s.Nodes, st.Wins, st.Draws, st.Losses, 2*st.Done)
	if err := st.Report(w); err != nil {
		return err
	}
	p, err := st.Params()
	if err != nil {
		return err
	}
	info, err := games.Lookup(s.Game)
	if err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	list := p.Diff(info.SearchParams) // a list of the game's, as its specs read them
	if list == "" {
		fmt.Fprintf(w, "tune: the tuned parameters are %s's defaults\n", s.Game)
		return nil
	}
	base, _, _ := strings.Cut(s.Player, "#")
	fmt.Fprintf(w, "tune: the tuned search: --player %s#%s; in a run's configuration, search = \"#%s\"\n", base, list, list)
	fmt.Fprintf(w, "tune: measure it: evolved match --game %s --a %s#%s --b %s --nodes %d --games 1000\n", s.Game, base, list, s.Player, s.Nodes)
	return nil
}

// lockState takes the lock of the tuning at path (a file beside it), so
// that two commands do not tune into one state file.
func lockState(path string) (*os.File, error) {
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("tune: %w", err)
	}
	if err := outfile.Lock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("tune: %s: another evolved tune is using it: %w", path, err)
	}
	return f, nil
}
