package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"evolved/agent"
	"evolved/daemon"
	"evolved/games"
	"evolved/outfile"
	"evolved/status"
	"evolved/storage"
)

// defaultDB returns $EVOLVED_DB or evolved.db.
func defaultDB() string { return storage.DefaultPath() }

// outputGuard returns the guard every output file of a command goes
// through: it refuses the databases the command names (dbs), the one a
// daemon uses by default, their side files under any name, and any other
// SQLite database, so that no output flag can write over a run.
func outputGuard(dbs ...string) *outfile.Guard {
	return outfile.NewGuard(append(dbs, storage.DefaultPath())...)
}

// checkOutput refuses, before the command does any work, an output path
// that outputGuard(dbs...) refuses, naming the command and the flag that
// gave it; no path ("") passes.
func checkOutput(command, flag, path string, dbs ...string) error {
	if path == "" {
		return nil
	}
	if err := outputGuard(dbs...).Check(path); err != nil {
		return fmt.Errorf("%s: %s: %w", command, flag, err)
	}
	return nil
}

// openReader opens the database read-only, next to a running daemon.
func openReader(ctx context.Context, path string) (*storage.DB, error) {
	return storage.Open(ctx, path, storage.Options{ReadOnly: true})
}

// openRun opens the database at path read-only for the command cmd and
// picks the run it reads as gameOf does from given (the --game flag). The
// caller closes the database; on an error there is none to close.
func openRun(ctx context.Context, cmd, path, given string) (*storage.DB, string, error) {
	db, err := openReader(ctx, path)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", cmd, err)
	}
	game, err := gameOf(ctx, db, cmd, given)
	if err != nil {
		db.Close()
		return nil, "", err
	}
	return db, game, nil
}

// openChampion is openRun followed by the generation whose champion the
// --generation mark m names in that run: the latest (-1) when m is unset.
func openChampion(ctx context.Context, cmd, path, given string, m *generationMark) (*storage.DB, string, int, error) {
	db, game, err := openRun(ctx, cmd, path, given)
	if err != nil {
		return nil, "", 0, err
	}
	generation, err := m.generation(cmd, "generation", -1, func() ([]storage.ChampionRow, error) { return db.Champions(ctx, game) })
	if err != nil {
		db.Close()
		return nil, "", 0, err
	}
	return db, game, generation, nil
}

// statusCommand implements `evolved status`.
func statusCommand(fs *flag.FlagSet) action {
	dbPath := dbFlag(fs, "the database `FILE`")
	asJSON := fs.Bool("json", false, "print JSON: {\"populations\":[...]}")
	configPath := fs.String("config", "", "the daemon's configuration `FILE`, for the generation target of the ETA")
	var target optionalInt
	fs.Var(&target, "generations", "the generation target `N` for the ETA (default: from --config and $EVOLVED_GENERATIONS)")
	setHelp(fs, help{
		usage: []string{"[--db FILE] [--json] [--config FILE | --generations N]"},
		about: `Shows each population's generations, fitness, rate and ETA, and the database's size.
It reads the database beside a running daemon.`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, _ io.Writer) error {
		goal := target.get(-1)
		if target.set && goal < 0 {
			return usagef("status: --generations must be 0 or more, got %d", goal)
		}
		// The configuration gives the target and where the backups go.
		cfg, err := daemon.LoadConfig(*configPath, os.LookupEnv, nil)
		if err != nil {
			return &usageError{msg: "status: " + err.Error()}
		}
		if goal < 0 {
			goal = cfg.Generations
		}
		report, err := readStatus(ctx, *dbPath, goal, cfg.Jobs)
		if err != nil {
			return fmt.Errorf("status: %w", err)
		}
		if *asJSON {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(report)
		}
		return status.Write(stdout, report, time.Now())
	}
}

// readStatus reads the status report of the database at dbPath, with the
// ETA to the generation target goal and the backups and retention of the
// jobs configuration j.
func readStatus(ctx context.Context, dbPath string, goal int, j daemon.JobsConfig) (status.Report, error) {
	db, err := openReader(ctx, dbPath)
	if err != nil {
		return status.Report{}, err
	}
	defer db.Close()
	free, err := storage.FreeSpace(dbPath)
	if err != nil {
		return status.Report{}, err
	}
	keep := 0
	if j.Backup != "" {
		keep = j.BackupKeep
	}
	backups, err := status.CountBackups(j.BackupPath(dbPath), j.BackupGlob(dbPath), keep)
	if err != nil {
		return status.Report{}, err
	}
	return status.Read(ctx, db, status.Options{DB: dbPath, Target: goal, PruneKeep: j.PruneKeep, DiskFree: free, Backups: backups})
}

// championsCommand implements `evolved champions`.
func championsCommand(fs *flag.FlagSet) action {
	dbPath := dbFlag(fs, "the database `FILE`")
	game := fs.String("game", "", "the population `GAME`: "+strings.Join(daemon.KnownGames(), ", ")+" (default: the database's only run)")
	asJSON := fs.Bool("json", false, "print JSON")
	setHelp(fs, help{
		usage: []string{"[--game GAME] [--db FILE] [--json]"},
		about: `Lists the population's champion of every generation.`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, _ io.Writer) error {
		db, g, err := openRun(ctx, "champions", *dbPath, *game)
		if err != nil {
			return err
		}
		defer db.Close()
		champs, err := db.Champions(ctx, g)
		if err != nil {
			return fmt.Errorf("champions: %w", err)
		}
		if *asJSON {
			if champs == nil {
				champs = []storage.ChampionRow{}
			}
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(champs)
		}
		tw := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "GENERATION\tAGENT\tFITNESS\tLADDER\tIMPROVED\tCOMMITTED")
		for _, c := range champs {
			ladder, improved := "-", "-" // a generation without the ladder
			if c.LadderMean != nil {
				ladder, improved = fmt.Sprintf("%+.2f", *c.LadderMean), fmt.Sprint(c.Improved)
			}
			fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%s\t%s\n", c.Generation, c.AgentID, c.Fitness, ladder, improved,
				c.CreatedAt.Local().Format(time.DateTime))
		}
		return tw.Flush()
	}
}

// exportCommand implements `evolved export`.
func exportCommand(fs *flag.FlagSet) action {
	dbPath := dbFlag(fs, "the database `FILE`")
	game := fs.String("game", "", "the population `GAME`: "+strings.Join(daemon.KnownGames(), ", ")+" (default: the database's only run)")
	var generationFlag generationMark
	fs.Var(&generationFlag, "generation", "export generation `N`'s champion, or the one at N hours of evolution with Nh (default: the latest)")
	best := fs.Bool("best", false, "export the best rated champion: the highest rating less its interval, on the latest rating's scale")
	var agentFlag optionalInt
	fs.Var(&agentFlag, "agent", "export agent `ID`, any member of any generation, champion or not")
	out := fs.String("o", "", "write the agent to `FILE` (default: standard output)")
	setHelp(fs, help{
		usage: []string{"[--game GAME] [--db FILE] [--generation N|Nh | --best | --agent ID] [-o FILE]"},
		about: `Writes a champion as an agent file, which match, play and uci read. Champions
rise and fall from generation to generation; with ratings in the database
(jobs.rating_every), --best exports the one rated highest with confidence.
--agent exports any agent by its id (sqlite3 DB "select agent_id from members
where generation = N" lists a generation's), to measure agents that were not champions.`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, stderr io.Writer) error {
		if err := checkExportFlags(generationFlag, *best, agentFlag); err != nil {
			return err
		}
		if err := checkOutput("export", "-o", *out, *dbPath); err != nil {
			return err
		}
		db, game, generation, err := openChampion(ctx, "export", *dbPath, *game, &generationFlag)
		if err != nil {
			return err
		}
		defer db.Close()
		var rated string
		if *best {
			if generation, rated, err = bestGeneration(ctx, db, game); err != nil {
				return fmt.Errorf("export: %w", err)
			}
		}
		var f agent.File
		if agentFlag.set {
			f, err = db.AgentByID(ctx, game, int64(agentFlag.get(0)))
		} else {
			f, err = db.ChampionAgent(ctx, game, generation)
		}
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		dest, size, err := writeAgent(f, *out, *dbPath, stdout)
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		// The report goes to standard error so that an agent written to
		// standard output stays a clean file.
		c := f.Provenance
		what := fmt.Sprintf("generation %d champion, agent %d", c.Generation, c.AgentID)
		if agentFlag.set {
			what = fmt.Sprintf("agent %d, born in generation %d", c.AgentID, c.Generation)
		}
		fmt.Fprintf(stderr, "export: wrote %s: %s %s, %d bytes%s\n", dest, game, what, size, rated)
		return nil
	}
}

// checkExportFlags refuses the export flags that contradict each other or
// name no generation or agent.
func checkExportFlags(generation generationMark, best bool, agentID optionalInt) error {
	switch {
	case generation.negative():
		return usagef("export: --generation must be 0 or more, got %d", generation.n)
	case generation.set && best:
		return usagef("export: --generation and --best choose the champion both; give one")
	case agentID.set && (generation.set || best):
		return usagef("export: --agent names the agent itself; give it without --generation or --best")
	case agentID.set && agentID.get(0) < 0:
		return usagef("export: --agent must be 0 or more, got %d", agentID.get(0))
	}
	return nil
}

// bestGeneration returns the generation of game's best rated champion
// (bestRated) and what export says of it: its rating and, when a later
// champion exists, that one.
func bestGeneration(ctx context.Context, db *storage.DB, game string) (generation int, rated string, err error) {
	ratings, err := db.Ratings(ctx, game)
	if err != nil {
		return 0, "", err
	}
	r, ok := bestRated(ratings)
	if !ok {
		return 0, "", fmt.Errorf("%s holds no rating of a %s champion: rate champions as the run goes (jobs.rating_every), or choose one with --generation", db.Path(), game)
	}
	rated = fmt.Sprintf(", rated %.0f ± %.0f on %s (the best of %d ratings)", r.Elo, r.CI, r.Scale, len(ratings))
	// In a young run the best rated may be generation 0, the only one
	// rated: say what else there is rather than export it silently.
	latest, err := db.Champion(ctx, game, -1)
	if err != nil {
		return 0, "", err
	}
	if latest.Generation > r.Generation {
		rated += fmt.Sprintf("; the latest champion is generation %d, not rated yet or rated lower (--generation %d exports it)",
			latest.Generation, latest.Generation)
	}
	return r.Generation, rated, nil
}

// writeAgent writes f to the file out, checked against the database at
// dbPath, or to stdout without one; it returns where it wrote ("standard
// output" or out) and how many bytes.
func writeAgent(f agent.File, out, dbPath string, stdout io.Writer) (dest string, size int, err error) {
	var buf bytes.Buffer
	if err := agent.Write(&buf, f); err != nil {
		return "", 0, err
	}
	if out == "" {
		_, err := stdout.Write(buf.Bytes())
		return "standard output", buf.Len(), err
	}
	return out, buf.Len(), outputGuard(dbPath).WriteFile(out, buf.Bytes())
}

// bestRated returns, among ratings on the scale and time control of the
// latest one, the champion's whose rating less its interval is highest
// (the later generation on a tie): the champion most surely strong, not
// the luckiest measurement. ok is false without ratings.
func bestRated(ratings []storage.Rating) (best storage.Rating, ok bool) {
	if len(ratings) == 0 {
		return best, false
	}
	latest := ratings[0]
	for _, r := range ratings[1:] {
		if r.CreatedAt.After(latest.CreatedAt) {
			latest = r
		}
	}
	for _, r := range ratings {
		if r.Scale != latest.Scale || r.TC != latest.TC {
			continue
		}
		if !ok || r.Elo-r.CI > best.Elo-best.CI || (r.Elo-r.CI == best.Elo-best.CI && r.Generation > best.Generation) {
			best, ok = r, true
		}
	}
	return best, ok
}

// gameOf returns the game a command reads: the --game given, or else the
// database's only run, which makes --game needless in the common case of a
// database that evolves one game. A game evolved does not know, or
// several runs, are a usage error naming them; none is an error saying how
// to start one.
func gameOf(ctx context.Context, db *storage.DB, cmd, given string) (string, error) {
	if given != "" {
		game := strings.ToLower(given)
		if _, err := games.Lookup(game); err != nil {
			return "", usagef("%s: unknown game %q (known: %s)", cmd, given, strings.Join(games.Names(), ", "))
		}
		return game, nil
	}
	pops, err := db.Status(ctx)
	if err != nil {
		return "", fmt.Errorf("%s: %w", cmd, err)
	}
	switch len(pops) {
	case 0:
		return "", fmt.Errorf("%s: %s holds no run yet (start one with `evolved run --db %s`)", cmd, db.Path(), db.Path())
	case 1:
		return pops[0].Game, nil
	}
	names := make([]string, len(pops))
	for i, p := range pops {
		names[i] = p.Game
	}
	return "", usagef("%s: %s holds runs of %s; choose one with --game", cmd, db.Path(), strings.Join(names, ", "))
}
