package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"evolved/games"
	"evolved/progress"
	"evolved/rating"
	"evolved/search"
	"evolved/tournament"
)

// ladderSettings are the flags of `evolved ladder`.
type ladderSettings struct {
	game         string
	from         string
	out          string
	pairs        int
	engineLevels int
	concurrency  int
	seed         uint64
	engine       string
	command      string // the command line, recorded in the file
}

// ladderCommand implements `evolved ladder`.
func ladderCommand(fs *flag.FlagSet) action {
	var s ladderSettings
	fs.StringVar(&s.game, "game", "draughts", "the `GAME` whose ladder to fit: draughts, chess or xiangqi")
	fs.StringVar(&s.from, "from", "", "take the players from the ladder `FILE` (default: the built-in ladder of the game)")
	fs.StringVar(&s.out, "o", "", "write the fitted ladder to `FILE` (default: standard output)")
	fs.IntVar(&s.pairs, "pairs", 20, "every two players meet in `N` pairs of games (one opening, both colours)")
	fs.IntVar(&s.engineLevels, "engine-levels", 2, "the own players also meet the `K` lowest engine levels, which hold the scale")
	playVars(fs, &s.concurrency, &s.seed)
	fs.StringVar(&s.engine, "engine", "", "the ladder's engine at `PATH` (default: its name on $PATH or in /usr/games)")
	setHelp(fs, help{
		usage: []string{"--game G [--pairs N] [--seed S] [--concurrency C] [-o FILE]"},
		about: `Fits the ratings of a ladder's own players, the anchors 'rate' measures against:
a round robin among them (and the lowest engine levels, whose ratings hold the
scale; a ladder without an engine holds its origin player at 0), then a
maximum-likelihood fit. Writes the ladder file with the command that made it;
the built-in ladders are rating/ladders/GAME.toml.`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, stderr io.Writer) error {
		switch {
		case s.pairs < 1 || s.pairs > 10000:
			return usagef("ladder: --pairs must be between 1 and 10000, got %d", s.pairs)
		case s.engineLevels < 1:
			return usagef("ladder: --engine-levels must be at least 1, got %d", s.engineLevels)
		}
		if _, err := games.Lookup(strings.ToLower(s.game)); err != nil {
			return usagef("ladder: unknown game %q (known: %s)", s.game, strings.Join(games.Names(), ", "))
		}
		if err := checkOutput("ladder", "-o", s.out); err != nil {
			return err
		}
		var (
			l   *rating.Ladder
			err error
		)
		if s.from != "" {
			l, err = rating.LoadLadder(s.from)
		} else {
			l, err = rating.DefaultLadder(strings.ToLower(s.game))
		}
		if err != nil {
			return fmt.Errorf("ladder: %w", err)
		}
		// The command recorded in the file: what decides the ratings (the
		// game, pairs, engine levels, seed), not where files or engines are.
		args := []string{"evolved ladder --game " + l.Game}
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "pairs" || f.Name == "engine-levels" || f.Name == "seed" {
				args = append(args, "--"+f.Name+" "+f.Value.String())
			}
		})
		s.command = strings.Join(args, " ")
		enginePath, err := l.FindEngine(s.engine)
		if err != nil {
			return err
		}
		if err := l.CheckEngine(ctx, enginePath); err != nil {
			return err
		}
		clock, err := parseTC(l.TC)
		if err != nil {
			return fmt.Errorf("ladder: %w", err)
		}
		if _, err := games.Lookup(l.Game); err != nil {
			return fmt.Errorf("ladder: %w", err)
		}
		r := ladderRun{ladderSettings: s, ladder: l, enginePath: enginePath, clock: clock}
		return visitGame(ctx, l.Game, games.Funcs{
			Draughts: func(k games.DraughtsKind) error { return calibrateLadder(ctx, r, stdout, stderr, k) },
			Chess:    func(k games.ChessKind) error { return calibrateLadder(ctx, r, stdout, stderr, k) },
			Xiangqi:  func(k games.XiangqiKind) error { return calibrateLadder(ctx, r, stdout, stderr, k) },
		})
	}
}

// ladderRun is what `evolved ladder` was asked to do: its flags, the
// ladder to fit, its engine and its clock.
type ladderRun struct {
	ladderSettings
	ladder     *rating.Ladder
	enginePath string
	clock      tournament.Clock
}

// calibrateLadder fits the ladder's own players and writes the new ladder.
func calibrateLadder[M comparable, S search.Game[M]](ctx context.Context, s ladderRun, stdout, stderr io.Writer, k games.Kind[M, S]) error {
	l, enginePath, clock := s.ladder, s.enginePath, s.clock
	arena := k.Arena(games.Setup{MaxMoves: l.MoveLimit(), OpeningPlies: l.Plies()})
	all, err := rating.Opponents(l, enginePath, k.Constructors())
	if err != nil {
		return fmt.Errorf("ladder: %w", err)
	}
	players, index := rating.CalibrationField(l, all, s.engineLevels)
	total := rating.CalibrationGames(players, s.pairs)
	fmt.Fprintf(stderr, "ladder %s: %d players, %d games (%d pairs a meeting), tc %s\n", l.Game, len(players), total, s.pairs, rating.TCName(l.TC))
	rep := progress.New(stderr, "ladder", total, "games", progress.IsTerminal(stderr))
	cal, err := rating.Calibrate(ctx, arena, players, rating.CalibrateOptions{
		Pairs: s.pairs, Concurrency: s.concurrency, Seed: s.seed, Clock: clock,
		Progress: func(done, _ int) { rep.Update(done) },
	})
	rep.Finish()
	if err != nil {
		return fmt.Errorf("ladder: %w", err)
	}
	fitted := l.Refit(l.InLadderOrder(cal, index), s.command)
	for k, p := range players {
		r := cal.Ratings[k]
		fmt.Fprintf(stderr, "%-28s %7.1f ± %5.1f  (%d games)\n", p.Name, r.Elo, r.HalfWidth, r.Games)
	}
	fmt.Fprintf(stderr, "draws %.1f%%, first-move advantage %+.0f Elo\n", 100*cal.Model.DrawRatio, cal.Model.Advantage)
	header := fmt.Sprintf("The %s rating ladder (%s).\n%s\nMade by: %s\n(%d games; ci is the half-width of each fitted rating's 95%% interval.)",
		l.Game, l.Scale, l.About, s.command, cal.Games)
	var buf bytes.Buffer
	if err := fitted.Write(&buf, header); err != nil {
		return err
	}
	if s.out == "" {
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	if err := outputGuard().WriteFile(s.out, buf.Bytes()); err != nil {
		return fmt.Errorf("ladder: %w", err)
	}
	fmt.Fprintf(stderr, "ladder: wrote %s\n", s.out)
	return nil
}
