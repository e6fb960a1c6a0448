package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"evolved/agent"
	"evolved/games"
	"evolved/player"
	"evolved/progress"
	"evolved/rating"
	"evolved/search"
	"evolved/storage"
	"evolved/tournament"
)

// rateSettings are the flags of `evolved rate`.
type rateSettings struct {
	game        string
	agent, db   string
	spec        string
	generation  generationMark
	depth       int
	games       int
	concurrency int
	seed        uint64
	tc          string
	ladderFile  string
	engine      string
	json        bool
}

// rateCommand implements `evolved rate`.
func rateCommand(fs *flag.FlagSet) action {
	var s rateSettings
	fs.StringVar(&s.game, "game", "", "the `GAME`: draughts, chess or xiangqi (default: the agent's or the database's game)")
	fs.StringVar(&s.agent, "agent", "", "rate the exported agent `FILE`")
	fs.StringVar(&s.db, "db", "", "rate a champion of the database `FILE`, the latest unless --generation "+dbNoDefault)
	fs.Var(&s.generation, "generation", "with --db: rate generation `N`'s champion, or the one at N hours of evolution with Nh")
	fs.StringVar(&s.spec, "player", "", "rate the player `SPEC` (listed below)")
	fs.IntVar(&s.depth, "depth", 0, "the agent's search depth `D` in untimed games (0: the agent's own, or the run's)")
	fs.IntVar(&s.games, "games", 0, "play at most `N` games (default: 200 for draughts, 100 for chess and xiangqi)")
	playVars(fs, &s.concurrency, &s.seed)
	fs.StringVar(&s.tc, "tc", "", "time control `BASE+INC` in seconds (default: the ladder's: 10+0.1 for chess and xiangqi, untimed for draughts)")
	fs.StringVar(&s.ladderFile, "ladder", "", "rate on the ladder `FILE` instead of the built-in one of the game")
	fs.StringVar(&s.engine, "engine", "", "the ladder's engine at `PATH` (default: its name on $PATH or in /usr/games)")
	fs.BoolVar(&s.json, "json", false, "print the rating as JSON")
	setHelp(fs, help{
		usage: []string{"(--agent FILE | --db FILE [--generation N|Nh] | --player SPEC) [--game G] [--games N] [--tc BASE+INC] [--concurrency C] [--json]"},
		about: `Rates a player on its game's calibrated Elo scale: it plays pairs of games
(one opening, both colours) against the ladder's anchors nearest its strength,
and fits its Elo by maximum likelihood over all games, with a 95% interval.
Chess: Stockfish at UCI_Elo levels; xiangqi: Fairy-Stockfish at UCI_Elo levels;
draughts: the project's own players, fitted once (rating/ladders/*.toml).
With --db the rating is stored in the database as that champion's, also beside
a daemon that runs on it, where status, the web site and export --best find it.
The last line is
  rating game=G elo=E ci=X games=N scale=S tc=T`,
		players: games.Names(),
	})
	return func(ctx context.Context, _ io.Reader, stdout, stderr io.Writer) error {
		if err := s.check(); err != nil {
			return err
		}
		game, err := rateGameOf(ctx, s)
		if err != nil {
			return err
		}
		r, err := s.onLadder(ctx, game)
		if err != nil {
			return err
		}
		// gameFrom has refused an unknown game.
		return visitGame(ctx, game, games.Funcs{
			Draughts: func(k games.DraughtsKind) error { return rateOn(ctx, r, stdout, stderr, k) },
			Chess:    func(k games.ChessKind) error { return rateOn(ctx, r, stdout, stderr, k) },
			Xiangqi:  func(k games.XiangqiKind) error { return rateOn(ctx, r, stdout, stderr, k) },
		})
	}
}

// check refuses flags out of range or that do not go together.
func (s *rateSettings) check() error {
	sources := 0
	for _, set := range []bool{s.agent != "", s.db != "", s.spec != ""} {
		if set {
			sources++
		}
	}
	switch {
	case sources != 1:
		return usagef("rate: give exactly one of --agent FILE, --db FILE or --player SPEC")
	case s.generation.set && s.db == "":
		return usagef("rate: --generation goes with --db")
	case s.generation.negative():
		return usagef("rate: --generation must be 0 or more, got %d", s.generation.n)
	case s.games < 0 || s.games > 100000:
		return usagef("rate: --games must be between 1 and 100000, got %d", s.games)
	case s.depth < 0 || s.depth > 30:
		return usagef("rate: --depth must be between 1 and 30, got %d", s.depth)
	}
	return nil
}

// rateRun is what `evolved rate` was asked to do: its flags, with the
// time control and the number of games settled, the ladder, its engine and
// its clock.
type rateRun struct {
	rateSettings
	ladder     *rating.Ladder
	enginePath string
	clock      tournament.Clock
}

// onLadder returns the rating of game that s asks for: on --ladder or the
// game's own, at --tc or the ladder's, over --games or the game's default
// number, with the ladder's engine found and checked.
func (s rateSettings) onLadder(ctx context.Context, game string) (rateRun, error) {
	r := rateRun{rateSettings: s}
	var err error
	if s.ladderFile != "" {
		r.ladder, err = rating.LoadLadder(s.ladderFile)
	} else {
		r.ladder, err = rating.DefaultLadder(game)
	}
	if err != nil {
		return r, fmt.Errorf("rate: %w", err)
	}
	if r.ladder.Game != game {
		return r, usagef("rate: the ladder %s rates %s, not %s", s.ladderFile, r.ladder.Game, game)
	}
	r.tc = cmp.Or(s.tc, r.ladder.TC)
	if r.clock, err = parseTC(r.tc); err != nil {
		return r, &usageError{msg: "rate: " + err.Error()}
	}
	if r.games == 0 {
		r.games = 100
		if game == "draughts" {
			r.games = 200
		}
	}
	if r.enginePath, err = r.ladder.FindEngine(s.engine); err != nil {
		return r, err
	}
	if err := r.ladder.CheckEngine(ctx, r.enginePath); err != nil {
		return r, err
	}
	return r, nil
}

// rateGameOf returns the game to rate: --game, else the agent file's game,
// else the database's only run; a built-in player needs --game.
func rateGameOf(ctx context.Context, s rateSettings) (string, error) {
	return gameFrom(ctx, "rate", s.game, s.agent, s.db, "")
}

// gameFrom returns the game a command plays: given (--game) if set, else
// the agent file's game, else the database's only run's, else fallback;
// with no fallback, a usage error saying --game is needed. The error
// names cmd, and an unknown game.
func gameFrom(ctx context.Context, cmd, given, agentFile, dbPath, fallback string) (string, error) {
	game := strings.ToLower(given)
	switch {
	case game != "":
	case agentFile != "":
		a, err := readAgentFile(agentFile)
		if err != nil {
			return "", fmt.Errorf("%s: %w", cmd, err)
		}
		game = a.Game
	case dbPath != "":
		db, g, err := openRun(ctx, cmd, dbPath, "")
		if err != nil {
			return "", err
		}
		defer db.Close()
		game = g
	case fallback != "":
		game = fallback
	default:
		return "", usagef("%s: --player needs --game", cmd)
	}
	if _, err := games.Lookup(game); err != nil {
		return "", usagef("%s: unknown game %q (known: %s)", cmd, game, strings.Join(games.Names(), ", "))
	}
	return game, nil
}

// rateOn rates the player of s on the ladder, with progress on standard
// error, and prints the report.
func rateOn[M comparable, S search.Game[M]](ctx context.Context, s rateRun, stdout, stderr io.Writer, k games.Kind[M, S]) error {
	ladder, enginePath, clock := s.ladder, s.enginePath, s.clock
	arena := k.Arena(games.Setup{MaxMoves: ladder.MoveLimit(), OpeningPlies: ladder.Plies()})
	// A champion of a database is read once, before the games: the rating
	// is stored as that champion's, whatever the daemon commits meanwhile.
	var champion *agent.Provenance
	var rated player.Spec[M, S]
	var err error
	if s.db != "" {
		a, err := championFile(ctx, "rate", k.Name, s.db, s.generation)
		if err != nil {
			return err
		}
		champion = &a.Provenance
		rated, err = championSpec("rate", k, a, s.depth)
		if err != nil {
			return err
		}
	} else if rated, err = playerSource(ctx, "rate", k, s.agent, "", s.spec, s.generation, s.depth); err != nil {
		return err
	}
	anchors, err := rating.Opponents(ladder, enginePath, k.Constructors())
	if err != nil {
		return fmt.Errorf("rate: %w", err)
	}
	tc := rating.TCName(s.tc)
	if !s.json {
		fmt.Fprintf(stdout, "rate %s: %s on %s (tc %s), up to %d games, seed %d\n", ladder.Game, rated.Name, ladder.Scale, tc, s.games, s.seed)
	}
	rep := progress.New(stderr, "rate", s.games+s.games%2, "games", progress.IsTerminal(stderr))
	res, err := rating.Rate(ctx, arena, rated.New, anchors, rating.Options{
		Games: s.games, Concurrency: s.concurrency, Seed: s.seed, Clock: clock,
		Progress: func(done, _ int, last rating.Rated, valid bool) {
			if valid {
				rep.UpdateNote(done, fmt.Sprintf("Elo %.0f ± %.0f", last.Elo, last.HalfWidth))
			} else {
				rep.Update(done)
			}
		},
	})
	rep.Finish()
	if err != nil {
		return fmt.Errorf("rate: %w", err)
	}
	// Stored first, so that the report says where the rating is.
	var storeErr error
	stored := ""
	if champion != nil {
		if storeErr = storeRating(ctx, s.db, ratingRow(ladder, tc, s.seed, *champion, res)); storeErr == nil {
			stored = s.db
		}
	}
	if s.json {
		if err := writeRatingJSON(stdout, ladder, rated.Name, tc, s.seed, clock, res, stored); err != nil {
			return err
		}
	} else {
		printRating(stdout, ladder, rated.Name, tc, clock, res)
		if stored != "" {
			fmt.Fprintf(stdout, "stored in %s as generation %d's rating on %s (tc %s)\n", stored, champion.Generation, ladder.Scale, tc)
		}
	}
	return storeErr
}

// ratingRow is the rating of the champion whose provenance is p, as the
// daemon's ratings store theirs.
func ratingRow[M comparable](ladder *rating.Ladder, tc string, seed uint64, p agent.Provenance, res rating.Report[M]) storage.Rating {
	row := storage.Rating{Game: ladder.Game, Generation: p.Generation, AgentID: p.AgentID, Scale: ladder.Scale, TC: tc,
		Elo: res.Rating.Elo, CI: res.Rating.HalfWidth, Games: res.Rating.Games, Seed: seed,
		Seconds: res.Elapsed.Seconds(), CreatedAt: time.Now()}
	for _, a := range res.Anchors {
		row.Wins, row.Draws, row.Losses = row.Wins+a.Wins, row.Draws+a.Draws, row.Losses+a.Losses
	}
	return row
}

// storeRating keeps row in the database at path, beside the daemon if one
// runs on it (storage.Options.Beside), where status, the web site and
// export --best find it. The games are played: a stop that arrives now
// does not keep the rating from its database.
func storeRating(ctx context.Context, path string, row storage.Rating) error {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	db, err := storage.Open(wctx, path, storage.Options{Beside: true})
	if err == nil {
		err = db.AddRating(wctx, row)
		if cerr := db.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("rate: the rating was not stored in %s: %w", path, err)
	}
	return nil
}

// printRating writes the anchors met, the rating, in timed games how much
// of their clocks the player and the anchors used, and the
// machine-readable last line.
func printRating[M comparable](w io.Writer, ladder *rating.Ladder, name, tc string, clock tournament.Clock, res rating.Report[M]) {
	fmt.Fprintf(w, "%-22s %6s %6s %5s %5s %5s %7s\n", "anchor", "elo", "games", "+", "=", "-", "score")
	for _, a := range res.Anchors {
		if n := a.Games(); n > 0 {
			score := 100 * (float64(a.Wins) + float64(a.Draws)/2) / float64(n)
			fmt.Fprintf(w, "%-22s %6.0f %6d %5d %5d %5d %6.1f%%\n", a.Name, a.Elo, n, a.Wins, a.Draws, a.Losses, score)
		}
	}
	r := res.Rating
	adv := math.Round(res.Model.Advantage)
	if adv == 0 {
		adv = 0 // not -0
	}
	fmt.Fprintf(w, "%s: Elo %.0f ± %.0f (95%%) on %s, %d games in %s (draws %.0f%%, first-move advantage %+.0f)\n",
		name, r.Elo, r.HalfWidth, ladder.Scale, r.Games, progress.Round(res.Elapsed), 100*res.Model.DrawRatio, adv)
	if lo, hi := ladder.Anchors[0].Elo, ladder.Anchors[len(ladder.Anchors)-1].Elo; r.Elo+r.HalfWidth < lo || r.Elo-r.HalfWidth > hi {
		fmt.Fprintf(w, "note: the whole interval lies outside the ladder (%.0f to %.0f): the rating rests on lopsided results and is an extrapolation\n", lo, hi)
	}
	if rated, anchors := res.TimeUse(clock); rated.Timed() {
		fmt.Fprintf(w, "time: %s used %s\ntime: the anchors used %s\n", name, rated, anchors)
	}
	fmt.Fprintf(w, "rating game=%s elo=%.0f ci=%.0f games=%d scale=%s tc=%s\n", ladder.Game, r.Elo, r.HalfWidth, r.Games, ladder.Scale, tc)
}

// ratingJSON is what `rate --json` prints.
type ratingJSON struct {
	Game      string       `json:"game"`
	Player    string       `json:"player"`
	Scale     string       `json:"scale"`
	TC        string       `json:"tc"`
	Seed      uint64       `json:"seed"`
	Elo       float64      `json:"elo"`
	CI        float64      `json:"ci"`
	Games     int          `json:"games"`
	DrawRatio float64      `json:"draw_ratio"`
	Advantage float64      `json:"advantage"`
	Seconds   float64      `json:"seconds"`
	Anchors   []anchorJSON `json:"anchors"`
	// Time and AnchorsTime say how much of their clocks the player and
	// the anchors used (timed games only).
	Time        *timeJSON `json:"time,omitempty"`
	AnchorsTime *timeJSON `json:"anchors_time,omitempty"`
	// Stored names the database the rating was stored in (--db).
	Stored string `json:"stored,omitempty"`
}

// timeJSON is a player's use of its clock over the games of a rating or
// a match: the share of the time given that it used, the mean time a
// move and the mean clock left at a game's end.
type timeJSON struct {
	Share        float64 `json:"share"`
	SecondsAMove float64 `json:"seconds_a_move"`
	SecondsLeft  float64 `json:"seconds_left"`
}

// timeOf returns t as JSON, or nil before any timed move.
func timeOf(t tournament.TimeUse) *timeJSON {
	if !t.Timed() {
		return nil
	}
	return &timeJSON{Share: math.Round(1000*t.Share()) / 1000, SecondsAMove: math.Round(1000*t.PerMove().Seconds()) / 1000,
		SecondsLeft: round1(t.LeftAtEnd().Seconds())}
}

type anchorJSON struct {
	Name   string  `json:"name"`
	Elo    float64 `json:"elo"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
}

// writeRatingJSON writes the rating as one JSON object.
func writeRatingJSON[M comparable](w io.Writer, ladder *rating.Ladder, name, tc string, seed uint64, clock tournament.Clock, res rating.Report[M], stored string) error {
	rated, anchors := res.TimeUse(clock)
	out := ratingJSON{Time: timeOf(rated), AnchorsTime: timeOf(anchors), Game: ladder.Game, Player: name, Scale: ladder.Scale, TC: tc, Seed: seed, Stored: stored,
		Elo: round1(res.Rating.Elo), CI: round1(res.Rating.HalfWidth), Games: res.Rating.Games,
		DrawRatio: math.Round(res.Model.DrawRatio*1000) / 1000, Advantage: round1(res.Model.Advantage), Seconds: res.Elapsed.Seconds()}
	for _, a := range res.Anchors {
		if a.Games() > 0 {
			out.Anchors = append(out.Anchors, anchorJSON{Name: a.Name, Elo: a.Elo, Wins: a.Wins, Draws: a.Draws, Losses: a.Losses})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("rate: %w", err)
	}
	return nil
}

// round1 rounds to one decimal, for JSON that people read too.
func round1(x float64) float64 { return math.Round(x*10) / 10 }
