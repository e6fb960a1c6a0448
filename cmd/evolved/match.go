package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"evolved/elo"
	"evolved/games"
	"evolved/player"
	"evolved/progress"
	"evolved/rating"
	"evolved/search"
	"evolved/sprt"
	"evolved/tournament"
)

// matchSettings are the flags of `evolved match`.
type matchSettings struct {
	game         string
	a, b         string
	games        int
	concurrency  int
	seed         uint64
	openingPlies int
	maxMoves     int
	pgn          string
	chess960     bool
	tc           string
	openings     string
	fen          string
	colors       string
	sprt         string
	journal      string
	nodes        int64
	movetime     time.Duration
	test         *sprt.Test       // parsed from sprt
	clock        tournament.Clock // parsed from tc
	pliesSet     bool             // --opening-plies was given
}

// matchCommand implements `evolved match`.
func matchCommand(fs *flag.FlagSet) action {
	var s matchSettings
	fs.StringVar(&s.game, "game", "", "the game `G`: draughts, chess or xiangqi (default: the game of the agent files among A and B, else draughts)")
	fs.StringVar(&s.a, "a", "", "player A, a player `SPEC` (listed below)")
	fs.StringVar(&s.b, "b", "", "player B, a player `SPEC`")
	fs.IntVar(&s.games, "games", 100, "play `N` games; colours alternate and each pair shares an opening")
	playVars(fs, &s.concurrency, &s.seed)
	fs.IntVar(&s.openingPlies, "opening-plies", 4, "`N` random plies open each game")
	fs.IntVar(&s.maxMoves, "max-moves", 100, "draw when each side has made `N` moves (0: no limit)")
	fs.StringVar(&s.pgn, "pgn", "", "write the games to `FILE` (PDN for draughts, PGN for chess and xiangqi)")
	fs.StringVar(&s.fen, "fen", "", "start every game from position `F` (the game's FEN), followed by --opening-plies random plies (0 unless given)")
	fs.StringVar(&s.colors, "colors", "alternate", "colour `ORDER`: alternate (A and B take turns moving first) or fixed (A moves first in every game)")
	fs.BoolVar(&s.chess960, "chess960", false, "chess: start each pair of games from a seeded random Chess960 arrangement")
	fs.StringVar(&s.openings, "openings", "", "start the pairs from the openings of `FILE`, followed by --opening-plies random plies (0 unless given):\ngame records (.pgn, or .pdn for draughts) or one position a line (EPD for chess, the game's FEN otherwise)")
	fs.StringVar(&s.tc, "tc", "", "time control `BASE+INC` in seconds, e.g. 10+0.1 (players then search by the clock; losing on time loses)")
	fs.Int64Var(&s.nodes, "nodes", 0, "alpha-beta players search `N` nodes a move, as deep as that takes them (0: each player's own depth)")
	fs.DurationVar(&s.movetime, "movetime", 0, "alpha-beta players search `T` a move (e.g. 100ms), as deep as that takes them")
	fs.StringVar(&s.sprt, "sprt", "", "stop at a decision of the sequential test `TEST` elo0=E0,elo1=E1[,alpha=A,beta=B,model=logistic|normalized] (Elo of A over B; alpha and beta default to 0.05); --games bounds the match")
	fs.StringVar(&s.journal, "journal", "", "with --sprt: keep the results in `FILE` as they come, and resume from it: the match\nstarted again with the same flags and FILE goes on where it stopped (a crash, a reboot, Ctrl-C)")
	setHelp(fs, help{
		usage: []string{"--game G --a SPEC --b SPEC --games N [--concurrency C] [--pgn FILE] [--sprt TEST]"},
		about: `Plays N games between A and B and reports A's wins, draws, losses, score and
the Elo difference with its 95% interval; with alternating colours, also the
pentanomial counts of the game pairs, the likelihood of superiority, the draw
ratio and the normalized Elo. --sprt stops the match as soon as the test decides.
The last line is
  result games=N wins=W draws=D losses=L score=S elo=E ci=X
    [ptnml=P0,P1,P2,P3,P4 los=L drawratio=R nelo=E nci=X]
    [llr=L lbound=B0 ubound=B1 sprt=H0|H1|inconclusive]
(counts from A's side, score, los and drawratio in percent, ci the interval's half-width).`,
		players: games.Names(),
	})
	return func(ctx context.Context, _ io.Reader, stdout, stderr io.Writer) error {
		if err := s.check(fs); err != nil {
			return err
		}
		// The games are written once played, through a temporary file:
		// the path is checked now, not after hours of games.
		if err := checkOutput("match", "--pgn", s.pgn); err != nil {
			return err
		}
		if err := checkOutput("match", "--journal", s.journal); err != nil {
			return err
		}
		game, err := matchGameOf(s.game, s.a, s.b)
		if err != nil {
			return err
		}
		s.game = game
		if s.chess960 && s.game != games.ChessName {
			return usagef("match: --chess960 is for chess, not %s", s.game)
		}
		if _, err := games.Lookup(s.game); err != nil {
			return usagef("match: %v", err)
		}
		return visitGame(ctx, s.game, games.Funcs{
			Draughts: func(k games.DraughtsKind) error { return matchGame(ctx, k, s, stdout, stderr) },
			Chess:    func(k games.ChessKind) error { return matchGame(ctx, k, s, stdout, stderr) },
			Xiangqi:  func(k games.XiangqiKind) error { return matchGame(ctx, k, s, stdout, stderr) },
		})
	}
}

// check refuses flags that do not go together or are out of range, and
// reads --sprt; fs says which flags were given.
func (s *matchSettings) check(fs *flag.FlagSet) error {
	s.pliesSet = flagSet(fs, "opening-plies")
	switch {
	case s.a == "" || s.b == "":
		return usagef("match: --a and --b are required")
	case s.games < 1:
		return usagef("match: --games must be at least 1, got %d", s.games)
	case s.openingPlies < 0:
		return usagef("match: --opening-plies must not be negative, got %d", s.openingPlies)
	case s.maxMoves < 0:
		return usagef("match: --max-moves must not be negative, got %d", s.maxMoves)
	case s.colors != "alternate" && s.colors != "fixed":
		return usagef("match: --colors must be alternate or fixed, got %q", s.colors)
	case s.fen != "" && (s.openings != "" || s.chess960):
		return usagef("match: --fen does not go with --openings or --chess960")
	}
	if (s.fen != "" || s.openings != "") && !s.pliesSet {
		s.openingPlies = 0
	}
	if err := s.readSPRT(); err != nil {
		return err
	}
	var err error
	if s.clock, err = parseTC(s.tc); err != nil {
		return &usageError{msg: "match: " + err.Error()}
	}
	if s.nodes < 0 || s.nodes > 0 && (s.tc != "" || s.movetime != 0) {
		return usagef("match: --nodes must be positive and does not go with --tc or --movetime, got %d", s.nodes)
	}
	if s.movetime < 0 || s.movetime > 0 && s.tc != "" {
		return usagef("match: --movetime must be positive and does not go with --tc, got %v", s.movetime)
	}
	return nil
}

// readSPRT reads --sprt, if given, into s.test: the test plays game
// pairs, so it needs alternating colours and an even --games; --journal
// needs it.
func (s *matchSettings) readSPRT() error {
	if s.journal != "" && (s.sprt == "" || s.pgn != "") {
		return usagef("match: --journal resumes a sequential test: it needs --sprt, and does not go with --pgn (the games of earlier runs are not kept)")
	}
	if s.sprt == "" {
		return nil
	}
	t, err := sprt.Parse(s.sprt)
	if err != nil {
		return &usageError{msg: "match: --sprt: " + err.Error()}
	}
	if s.colors != "alternate" {
		return usagef("match: --sprt plays game pairs: it needs --colors alternate")
	}
	if s.games%2 != 0 {
		return usagef("match: --sprt plays game pairs: --games must be even, got %d", s.games)
	}
	s.test = &t
	return nil
}

// matchGame plays the match of s in game k and writes its summary, and
// its games to --pgn.
func matchGame[M comparable, S search.Game[M]](ctx context.Context, k games.Kind[M, S], s matchSettings, stdout, stderr io.Writer) error {
	a, err := k.Parse(s.a)
	if err != nil {
		return &usageError{msg: "match: --a: " + err.Error()}
	}
	b, err := k.Parse(s.b)
	if err != nil {
		return &usageError{msg: "match: --b: " + err.Error()}
	}
	a, b = player.WithNodeBudget(a, s.nodes), player.WithNodeBudget(b, s.nodes)
	a, b = player.WithMoveTime(a, s.movetime), player.WithMoveTime(b, s.movetime)
	setup := games.Setup{MaxMoves: s.maxMoves, OpeningPlies: s.openingPlies, Chess960: s.chess960}
	arena := k.Arena(setup)
	if s.fen != "" {
		if arena, err = k.FromPosition(arena, setup, s.fen); err != nil {
			return &usageError{msg: "match: --fen: " + err.Error()}
		}
	}
	if s.openings != "" {
		f, err := os.Open(s.openings)
		if err != nil {
			return fmt.Errorf("match: %w", err)
		}
		openings, err := k.ReadOpenings(f, k.IsRecordFile(s.openings), setup)
		f.Close()
		if err != nil {
			return fmt.Errorf("match: %s: %w", s.openings, err)
		}
		arena = k.WithOpenings(arena, setup, openings)
	}
	res, outcome, elapsed, err := runMatch(ctx, arena, a.New, b.New, a.Name, b.Name, s, stdout, stderr)
	if err != nil {
		return err
	}
	if s.pgn != "" {
		err := writeGames(s.pgn, func(w io.Writer) error {
			event := fmt.Sprintf("evolved match, seed %d", s.seed)
			for i, rec := range res.Records {
				if err := k.WriteRecord(w, k.MatchRecord(event, i, rec, res.AFirst[i], a.Name, b.Name, s.fen)); err != nil {
					return fmt.Errorf("game %d: %w", i+1, err)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if ta, tb := res.TimeUse(s.clock); ta.Timed() {
		fmt.Fprintf(stdout, "time: %s (A) used %s\ntime: %s (B) used %s\n", a.Name, ta, b.Name, tb)
	}
	printMatch(stdout, outcome, a.Name, b.Name, elapsed)
	return nil
}

// matchOutcome is a played match's tally from A's side: its wins, draws
// and losses, the pentanomial counts of its game pairs when colours
// alternated, and the sequential test's state when one ran.
type matchOutcome struct {
	wins, draws, losses int
	paired              bool // games 2k and 2k+1 are pairs: ptnml holds them
	ptnml               sprt.Pentanomial
	test                *sprt.Test
	decision            sprt.Decision
	llr                 float64
}

// runMatch plays the match with progress on stderr: all its games, or
// with --sprt game pairs until the test decides (tournament.SequentialMatch,
// whose result is the same at any concurrency).
func runMatch[M comparable, S search.Game[M]](ctx context.Context, arena tournament.Arena[M, S], newA, newB func() search.Player[M, S], nameA, nameB string, s matchSettings, stdout, stderr io.Writer) (tournament.MatchResult[M], matchOutcome, time.Duration, error) {
	fmt.Fprintf(stdout, "match %s: %s (A) vs %s (B), %d games, seed %d\n", arena.Name, nameA, nameB, s.games, s.seed)
	if s.test != nil {
		lower, upper := s.test.Bounds()
		fmt.Fprintf(stdout, "SPRT %s: H0 at LLR %.2f, H1 at %.2f\n", s.test, lower, upper)
	}
	rep := progress.New(stderr, "match", s.games, "games", progress.IsTerminal(stderr))
	start := time.Now()
	opts := tournament.MatchOptions{Games: s.games, Concurrency: s.concurrency, Seed: s.seed, Clock: s.clock, FixedColors: s.colors == "fixed"}
	out := matchOutcome{test: s.test, paired: s.colors == "alternate"}
	var (
		res tournament.MatchResult[M]
		err error
	)
	if s.test == nil {
		opts.Progress = func(done, _ int) { rep.Update(done) }
		res, err = tournament.Match(ctx, arena, newA, newB, opts)
		if out.paired {
			out.ptnml = res.Pentanomial()
		}
	} else {
		var seq tournament.Sequential
		if s.journal != "" {
			j, err := resumeJournal(s, &opts, stdout)
			if err != nil {
				return res, out, 0, err
			}
			defer j.Close()
		}
		res, seq, err = tournament.SequentialMatch(ctx, arena, newA, newB, opts, *s.test,
			func(done int, llr float64) { rep.UpdateNote(done, fmt.Sprintf("LLR %.2f", llr)) })
		out.ptnml, out.decision, out.llr = seq.Pentanomial, seq.Decision, seq.LLR
	}
	rep.Finish()
	if err != nil {
		return res, out, 0, err
	}
	out.wins, out.draws, out.losses = res.Wins, res.Draws, res.Losses
	return res, out, time.Since(start), nil
}

// resumeJournal opens s's --journal and sets opts to resume from it and
// to write each chunk to it, saying on stdout how many games it resumes.
func resumeJournal(s matchSettings, opts *tournament.MatchOptions, stdout io.Writer) (*matchJournal, error) {
	header, err := journalHeader(s)
	if err != nil {
		return nil, err
	}
	j, err := openMatchJournal(s.journal, header)
	if err != nil {
		return nil, err
	}
	if len(j.pairs) > 0 {
		fmt.Fprintf(stdout, "resuming from %s: %d games played before\n", s.journal, 2*len(j.pairs))
	}
	opts.Resume, opts.ChunkDone = j.pairs, j.add
	return j, nil
}

// printMatch writes the summary and the machine-readable last line.
func printMatch(w io.Writer, o matchOutcome, nameA, nameB string, elapsed time.Duration) {
	n := o.wins + o.draws + o.losses
	score := 100 * (float64(o.wins) + float64(o.draws)/2) / float64(n)
	diff, ci := elo.Estimate(o.wins, o.draws, o.losses)
	if diff = math.Round(diff); diff == 0 {
		diff = 0 // an even score prints as 0, not -0
	}
	fmt.Fprintf(w, "%s vs %s: +%d =%d -%d, score %.1f%%, Elo %+.0f ± %.0f (95%%), %.1f s\n",
		nameA, nameB, o.wins, o.draws, o.losses, score, diff, ci, elapsed.Seconds())
	last := fmt.Sprintf("result games=%d wins=%d draws=%d losses=%d score=%.1f elo=%.0f ci=%.0f",
		n, o.wins, o.draws, o.losses, score, diff, ci)
	drawRatio := 100 * float64(o.draws) / float64(n)
	if o.paired && o.ptnml.Pairs() > 0 {
		st := o.ptnml.Stats()
		fmt.Fprintf(w, "Ptnml(0-2): %s  LOS %.1f%%  draw ratio %.1f%%  Elo %+.1f ± %.1f  nElo %+.1f ± %.1f (pairs)\n",
			o.ptnml, 100*st.LOS, drawRatio, st.Elo, st.EloCI, st.NElo, st.NEloCI)
		last += fmt.Sprintf(" ptnml=%d,%d,%d,%d,%d los=%.1f drawratio=%.1f nelo=%.1f nci=%.1f",
			o.ptnml[0], o.ptnml[1], o.ptnml[2], o.ptnml[3], o.ptnml[4], 100*st.LOS, drawRatio, finite(st.NElo), finite(st.NEloCI))
	}
	if o.test != nil {
		lower, upper := o.test.Bounds()
		verdict := map[sprt.Decision]string{sprt.AcceptH0: "H0 accepted", sprt.AcceptH1: "H1 accepted", sprt.Continue: "inconclusive (--games reached)"}[o.decision]
		fmt.Fprintf(w, "SPRT elo0=%g elo1=%g (%s): LLR %.2f [%.2f, %.2f]: %s after %d games\n",
			o.test.Elo0, o.test.Elo1, o.test.Model, o.llr, lower, upper, verdict, n)
		result := map[sprt.Decision]string{sprt.AcceptH0: "H0", sprt.AcceptH1: "H1", sprt.Continue: "inconclusive"}[o.decision]
		last += fmt.Sprintf(" llr=%.2f lbound=%.2f ubound=%.2f sprt=%s", o.llr, lower, upper, result)
	}
	fmt.Fprintln(w, last)
}

// finite returns x, or 0 for an infinite or undefined statistic (a match
// whose pairs all scored the same), so that scripts always read a number.
func finite(x float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return 0
	}
	return x
}

// writeGames writes the games to path with write, whole (outfile.Guard):
// an interrupted write leaves the file that was there.
func writeGames(path string, write func(io.Writer) error) error {
	if err := outputGuard().Write(path, write); err != nil {
		return fmt.Errorf("match: write games: %w", err)
	}
	return nil
}

// parseTC reads a time control "BASE+INC" in seconds ("" for none).
func parseTC(tc string) (tournament.Clock, error) {
	if tc == "" {
		return tournament.Clock{}, nil
	}
	base, inc, err := rating.ParseTC(tc)
	if err != nil {
		return tournament.Clock{}, fmt.Errorf("--tc %q: want BASE+INC in seconds, as in 10+0.1", tc)
	}
	return tournament.Clock{Base: time.Duration(base * float64(time.Second)), Inc: time.Duration(inc * float64(time.Second))}, nil
}

// specFile returns the file a player spec names: the spec itself, or the
// FILE of ept:N@FILE. Whether it is a file is for the caller to find.
func specFile(spec string) string {
	if _, file, ok := strings.Cut(spec, "@"); ok && strings.HasPrefix(spec, "ept:") {
		return file
	}
	return spec
}

// matchGameOf returns the game of a match: given if set, else the game of
// the agent files among the players' specs (a file, or the FILE of
// ept:N@FILE), which must agree, else draughts.
func matchGameOf(given string, specs ...string) (string, error) {
	if given != "" {
		return strings.ToLower(given), nil
	}
	game, from := "", ""
	for _, spec := range specs {
		path := specFile(spec)
		if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
			continue // a built-in player, or a spec the players' parser explains
		}
		a, err := readAgentFile(path)
		if err != nil {
			continue // not an agent file: the players' parser says what it is
		}
		if game != "" && a.Game != game {
			return "", usagef("match: %s is a %s agent and %s a %s one; give --game to say which game they play", from, game, path, a.Game)
		}
		game, from = a.Game, path
	}
	return strings.ToLower(cmp.Or(game, games.DraughtsName)), nil
}
