package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"gonum.org/v1/plot/vg"

	"evolved/climb"
	"evolved/games"
	"evolved/player"
	"evolved/plot"
	"evolved/progress"
	"evolved/search"
	"evolved/storage"
	"evolved/tournament"
)

// climbSettings are the flags of `evolved climb`.
type climbSettings struct {
	db, game     string
	every        int
	everyHours   float64
	from, to     generationMark
	against      string
	games        int
	concurrency  int
	seed         uint64
	tc           string
	clock        tournament.Clock // parsed from tc
	nodes        int64
	openingPlies int
	maxMoves     int
	json         bool
	out          string
}

// climbCommand implements `evolved climb`.
func climbCommand(fs *flag.FlagSet) action {
	var s climbSettings
	dbVar(fs, &s.db, "the database `FILE`")
	fs.StringVar(&s.game, "game", "", "the population's `GAME`: draughts, chess or xiangqi (default: the database's only run)")
	fs.IntVar(&s.every, "every", 100, "play the champion of every `N`-th generation")
	fs.Float64Var(&s.everyHours, "every-hours", 0, "instead of --every, play the first champion at or after every `H` hours of evolution (e.g. 24 for a daily curve)")
	fs.Var(&s.from, "from", "the first generation `A` (the first played is the first multiple of --every from A on), or with Ah the one at A hours of evolution (default 0)")
	fs.Var(&s.to, "to", "the last generation `B`, always played, or with Bh the one at B hours of evolution (default: the latest)")
	fs.StringVar(&s.against, "against", "0", "the opponent: a generation `N` of the run (with Nh the one at N hours of evolution), whose champion each plays, or a player SPEC (listed below)")
	fs.IntVar(&s.games, "games", 400, "play `N` games a champion; colours alternate and each pair shares an opening")
	countVar(fs, &s.concurrency, "concurrency", 0, "play `C` games at once (default: the number of CPUs)")
	fs.Uint64Var(&s.seed, "seed", 1, "seed `S` of the openings, the same for every champion")
	fs.StringVar(&s.tc, "tc", "", "time control `BASE+INC` in seconds (default: untimed, at the run's depth and node budget)")
	fs.Int64Var(&s.nodes, "nodes", 0, "every champion and the opponent search `N` nodes a move, as deep as that takes them (default: the run's own depth and budget)")
	fs.IntVar(&s.openingPlies, "opening-plies", 4, "`N` random plies open each game")
	fs.IntVar(&s.maxMoves, "max-moves", 100, "draw when each side has made `N` moves (0: no limit)")
	fs.BoolVar(&s.json, "json", false, "print the results as JSON")
	fs.StringVar(&s.out, "o", "", "also draw the curve to `FILE`.svg or FILE.png")
	setHelp(fs, help{
		usage: []string{"[--db FILE] [--game G] [--every N | --every-hours H] [--from A|Ah] [--to B|Bh] [--against N|Nh|SPEC] [--games N] [--tc BASE+INC | --nodes N] [--json] [-o FILE.svg|png]"},
		about: `Does the run still climb? Plays the champion of every N-th generation, and the
latest, against one opponent (generation 0's champion unless --against), each
over the same seeded openings, and prints its Elo over the opponent with the
95% interval and the hours of evolution that made it; then the best champion
and the largest fall below an earlier best, with whether it exceeds its interval;
and the level of the champions played: their mean score with its 95% interval.

One champion is one draw from its run; the level of a window of generations
(--every 5 --from A --to B) measures the run there. A generation may be named
by the hours of evolution behind it: --from 5.9h --to 6h --against 1h.

With --nodes every player searches deeper (or shallower) than the run did: what
a run learns may show only in searches deeper than its own.

It is cheap where 'evolved rate' is not: a chess champion plays 400 games at the
run's depth in seconds, against minutes a game on Stockfish's scale. The last
line is
  climb points=N best=G elo=E ci=X last=G elo=E ci=X fall=F fell=yes|no
    [level=S level_ci=X]
the level's fields with two champions or more.`,
		players: games.Names(),
	})
	return func(ctx context.Context, _ io.Reader, stdout, stderr io.Writer) error {
		if err := s.check(fs); err != nil {
			return err
		}
		if err := checkOutput("climb", "-o", s.out, s.db); err != nil {
			return err
		}
		db, run, err := openRun(ctx, "climb", s.db, s.game)
		if err != nil {
			return err
		}
		defer db.Close()
		s.game = run
		rows, err := db.Champions(ctx, s.game)
		if err != nil {
			return fmt.Errorf("climb: %w", err)
		}
		var budget func(int) (int64, error) // with --nodes every champion plays at N, whatever its run's curriculum gave it
		if s.nodes == 0 {
			if budget, err = curriculumBudget(ctx, db, s.game); err != nil {
				return fmt.Errorf("climb: %w", err)
			}
		}
		game := strings.ToLower(s.game)
		if _, err := games.Lookup(game); err != nil {
			return usagef("climb: %v", err)
		}
		return visitGame(ctx, game, games.Funcs{
			Draughts: func(k games.DraughtsKind) error { return climbOn(ctx, s, rows, budget, stdout, stderr, k) },
			Chess:    func(k games.ChessKind) error { return climbOn(ctx, s, rows, budget, stdout, stderr, k) },
			Xiangqi:  func(k games.XiangqiKind) error { return climbOn(ctx, s, rows, budget, stdout, stderr, k) },
		})
	}
}

// check refuses flags out of range or that do not go together; fs says
// which flags were given.
func (s *climbSettings) check(fs *flag.FlagSet) error {
	switch {
	case s.every < 1:
		return usagef("climb: --every must be at least 1, got %d", s.every)
	case s.everyHours < 0 || s.everyHours == 0 && flagSet(fs, "every-hours") || math.IsNaN(s.everyHours) || math.IsInf(s.everyHours, 0):
		return usagef("climb: --every-hours must be a positive number of hours, got %v", s.everyHours)
	case s.everyHours > 0 && flagSet(fs, "every"):
		return usagef("climb: --every and --every-hours choose the generations two ways; give one")
	case s.from.negative():
		return usagef("climb: --from must be 0 or more, got %d", s.from.n)
	case s.games < 2 || s.games%2 != 0:
		return usagef("climb: --games must be an even number of at least 2 (game pairs), got %d", s.games)
	case s.nodes < 0 || s.nodes > 0 && s.tc != "":
		return usagef("climb: --nodes must be positive and does not go with --tc, got %d", s.nodes)
	case s.openingPlies < 0:
		return usagef("climb: --opening-plies must not be negative, got %d", s.openingPlies)
	case s.maxMoves < 0:
		return usagef("climb: --max-moves must not be negative, got %d", s.maxMoves)
	case s.out != "" && !strings.HasSuffix(strings.ToLower(s.out), ".svg") && !strings.HasSuffix(strings.ToLower(s.out), ".png"):
		return usagef("climb: -o must end in .svg or .png, got %q", s.out)
	}
	var err error
	if s.clock, err = parseTC(s.tc); err != nil {
		return &usageError{msg: "climb: " + err.Error()}
	}
	return nil
}

// curriculumBudget returns the node budget each generation of game's run
// played under when its curriculum has made a check (the budget may then
// differ between champions), or nil.
func curriculumBudget(ctx context.Context, db *storage.DB, game string) (func(generation int) (int64, error), error) {
	c, ok, err := db.Curriculum(ctx, game)
	if err != nil || !ok {
		return nil, err
	}
	return func(generation int) (int64, error) {
		n, err := db.CurriculumNodes(ctx, game, generation)
		if n == 0 {
			n = c.FirstNodes // before the first check: the budget it started from
		}
		return n, err
	}, nil
}

// climbUsage turns the error of a choice of generations the run cannot
// give into a usage error naming the flags: from and to are the range asked
// for.
func climbUsage(err error, from, to int) error {
	var re *climb.RangeError
	switch {
	case errors.As(err, &re) && re.To > re.Latest:
		return usagef("climb: --to %d: the run has played generations 0 to %d", re.To, re.Latest)
	case errors.As(err, &re):
		return usagef("climb: --from %d: the run has played generations 0 to %d", re.From, re.Latest)
	case errors.Is(err, climb.ErrNothingToPlay):
		return usagef("climb: no generation to play from %d to %d but the opponent's own", from, to)
	}
	return err
}

// climbOn plays the champions of the chosen generations against the
// opponent (climb.Climb), printing each point as it is measured, then the
// summary. budget, if not nil, gives the node budget each champion plays
// under (curriculumBudget), which the points then show.
func climbOn[M comparable, S search.Game[M]](ctx context.Context, s climbSettings, rows []storage.ChampionRow, budget func(int) (int64, error),
	stdout, stderr io.Writer, k games.Kind[M, S]) error {
	if len(rows) == 0 {
		return fmt.Errorf("climb: %s has no played generation yet", s.game)
	}
	gens, opponent, err := climbChoice(ctx, s, rows, k)
	if err != nil {
		return err
	}
	report := climb.Report{Game: s.game, DB: s.db, Against: opponent.Name, Games: s.games, Seed: s.seed, TC: cmp.Or(s.tc, "untimed"), Nodes: s.nodes}
	if !s.json {
		printClimbHeader(stdout, s, len(gens), report, budget != nil)
	}
	rep := progress.New(stderr, "climb", len(gens)*s.games, "games", progress.IsTerminal(stderr))
	c := climb.Climb[M, S]{
		Arena:    k.Arena(games.Setup{MaxMoves: s.maxMoves, OpeningPlies: s.openingPlies}),
		Opponent: opponent.New,
		Champion: func(g int) (func() search.Player[M, S], error) {
			champion, err := playerSource(ctx, "climb", k, "", s.db, "", generationNumber(g), 0)
			if err != nil {
				return nil, err
			}
			return player.WithNodeBudget(champion, s.nodes).New, nil
		},
		Budget:   budget,
		Hours:    climb.Hours(rows),
		Match:    tournament.MatchOptions{Games: s.games, Concurrency: s.concurrency, Seed: s.seed, Clock: s.clock},
		Progress: func(done, g int) { rep.UpdateNote(done, fmt.Sprintf("generation %d", g)) },
		Measured: func(p climb.Point) {
			if !s.json {
				rep.Clear()
				printClimbPoint(stdout, p, budget != nil)
			}
		},
	}
	report.Points, err = c.Play(ctx, gens)
	rep.Finish()
	if err != nil {
		return err
	}
	return climbReport(stdout, s, report)
}

// climbChoice returns the generations whose champions s plays, in order,
// and the opponent they play: a generation's champion (by number or
// hours, which is then not played against itself) or a player spec.
func climbChoice[M comparable, S search.Game[M]](ctx context.Context, s climbSettings, rows []storage.ChampionRow, k games.Kind[M, S]) ([]int, player.Spec[M, S], error) {
	latest := rows[len(rows)-1].Generation
	champions := func() ([]storage.ChampionRow, error) { return rows, nil }
	var opponent player.Spec[M, S]
	from, err := s.from.generation("climb", "from", 0, champions)
	if err != nil {
		return nil, opponent, err
	}
	to, err := s.to.generation("climb", "to", latest, champions)
	if err != nil {
		return nil, opponent, err
	}
	if to < from {
		return nil, opponent, usagef("climb: --to (%d) must not be before --from (%d)", to, from)
	}
	skip := -1
	var against generationMark
	if against.Set(s.against) == nil { // a generation of the run, by number or hours
		g, err := against.generation("climb", "against", 0, champions)
		if err != nil {
			return nil, opponent, err
		}
		if g < 0 || g > latest {
			return nil, opponent, usagef("climb: --against %d: the run has played generations 0 to %d", g, latest)
		}
		if opponent, err = playerSource(ctx, "climb", k, "", s.db, "", generationNumber(g), 0); err != nil {
			return nil, opponent, err
		}
		skip = g
	} else if opponent, err = playerSource(ctx, "climb", k, "", "", s.against, generationMark{}, 0); err != nil {
		return nil, opponent, err
	}
	opponent = player.WithNodeBudget(opponent, s.nodes)
	var gens []int
	if s.everyHours > 0 {
		gens, err = climb.GenerationsByHours(rows, from, to, s.everyHours, skip)
	} else {
		gens, err = climb.Generations(from, to, s.every, latest, skip)
	}
	if err != nil {
		return nil, opponent, climbUsage(err, from, to)
	}
	return gens, opponent, nil
}

// printClimbHeader writes what the climb plays and the table's heading,
// with a column of node budgets when budgets is set.
func printClimbHeader(w io.Writer, s climbSettings, champions int, r climb.Report, budgets bool) {
	conditions := r.TC
	if s.nodes > 0 {
		conditions = fmt.Sprintf("untimed, %d nodes a move", s.nodes)
	}
	fmt.Fprintf(w, "climb %s: %d champions of %s against %s, %d games each, seed %d, %s\n",
		s.game, champions, s.db, r.Against, s.games, s.seed, conditions)
	fmt.Fprintf(w, "%10s %7s %5s %5s %5s %7s %12s", "generation", "hours", "+", "=", "-", "score", "Elo")
	if budgets {
		fmt.Fprintf(w, " %8s", "nodes")
	}
	fmt.Fprintln(w)
}

// printClimbPoint writes one point as a row of the table, with its node
// budget when budgets is set.
func printClimbPoint(w io.Writer, p climb.Point, budgets bool) {
	fmt.Fprintf(w, "%10d %7.2f %5d %5d %5d %6.1f%% %+5.0f ± %-4.0f", p.Generation, p.Hours, p.Wins, p.Draws, p.Losses, p.Score, p.Elo, p.CI)
	if budgets {
		fmt.Fprintf(w, " %8d", p.Nodes)
	}
	fmt.Fprintln(w)
}

// climbReport completes r with its verdict, draws it to -o, and prints it:
// as JSON with --json, else the summary.
func climbReport(stdout io.Writer, s climbSettings, r climb.Report) error {
	r.Best, r.Fall = climb.Summary(r.Points)
	r.Level = climb.NewLevel(r.Points)
	if s.out != "" {
		if err := plot.WriteFile(outputGuard(s.db), s.out, 18*vg.Centimeter, 8*vg.Centimeter, climbCharts(r)...); err != nil {
			return fmt.Errorf("climb: %w", err)
		}
	}
	if s.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	printClimbSummary(stdout, r)
	return nil
}

// printClimbSummary writes the best point, the largest fall and the
// machine-readable last line.
func printClimbSummary(w io.Writer, r climb.Report) {
	b, last := r.Best, r.Points[len(r.Points)-1]
	fmt.Fprintf(w, "best: generation %d, %+.0f ± %.0f; last: generation %d, %+.0f ± %.0f\n", b.Generation, b.Elo, b.CI, last.Generation, last.Elo, last.CI)
	fall, fell := 0.0, "no"
	switch f := r.Fall; {
	case f == nil:
		fmt.Fprintln(w, "no champion fell below an earlier one")
	case f.Beyond:
		fall, fell = f.Elo, "yes"
		fmt.Fprintf(w, "fell: generation %d lies %.0f below generation %d, beyond its interval (± %.0f)\n", f.To.Generation, f.Elo, f.From.Generation, f.To.CI)
	default:
		fall = f.Elo
		fmt.Fprintf(w, "largest fall: generation %d lies %.0f below generation %d, inside its interval (± %.0f)\n", f.To.Generation, f.Elo, f.From.Generation, f.To.CI)
	}
	level := ""
	if l := r.Level; l != nil {
		fmt.Fprintf(w, "level: %.1f%% ± %.1f (%+.0f Elo) over %d champions, spread %.1f\n", l.Score, l.CI, l.Elo, l.Champions, l.Spread)
		level = fmt.Sprintf(" level=%.1f level_ci=%.1f", l.Score, l.CI)
	}
	fmt.Fprintf(w, "climb points=%d best=%d elo=%.0f ci=%.0f last=%d elo=%.0f ci=%.0f fall=%.0f fell=%s%s\n",
		len(r.Points), b.Generation, b.Elo, b.CI, last.Generation, last.Elo, last.CI, fall, fell, level)
}

// climbCharts draws the points by generation and by hours of evolution,
// with their intervals.
func climbCharts(r climb.Report) []plot.Chart {
	title := fmt.Sprintf("champion's Elo against %s (%d games each, 95%% intervals)", r.Against, r.Games)
	byGen := plot.Chart{Title: title, XLabel: "generation", YLabel: "Elo", IntegerX: true}
	byHour := plot.Chart{Title: "the same against the hours of evolution that made it", XLabel: "hours of evolution", YLabel: "Elo"}
	for _, ch := range []*plot.Chart{&byGen, &byHour} {
		s := plot.Series{Name: r.Game + " champion", Band: true}
		for _, p := range r.Points {
			x := float64(p.Generation)
			if ch == &byHour {
				x = p.Hours
			}
			s.X, s.Y = append(s.X, x), append(s.Y, p.Elo)
			s.Low, s.High = append(s.Low, p.Elo-p.CI), append(s.High, p.Elo+p.CI)
		}
		ch.Series = []plot.Series{s}
	}
	return []plot.Chart{byGen, byHour}
}
