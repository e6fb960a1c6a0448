package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"evolved/agent"
	"evolved/daemon"
	"evolved/games"
	"evolved/outfile"
	"evolved/progress"
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

// statusCommand implements `evolved status`.
func statusCommand(fs *flag.FlagSet) action {
	dbPath := new(string)
	dbVar(fs, dbPath, "the database `FILE`")
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
		db, err := openReader(ctx, *dbPath)
		if err != nil {
			return fmt.Errorf("status: %w", err)
		}
		defer db.Close()
		pops, err := db.Status(ctx)
		if err != nil {
			return fmt.Errorf("status: %w", err)
		}
		type row struct {
			storage.PopulationStatus
			Target     int     `json:"target"`
			ETASeconds float64 `json:"eta_seconds"` // -1: no target or no rate yet
			// Rating is the latest rated champion's rating; null before one.
			Rating *latestRating `json:"rating"`
			// Curriculum is where the curriculum stands; null for a run
			// without one, or before its first check.
			Curriculum *storage.CurriculumSummary `json:"curriculum"`
			// Distill is where the distillation stands; null for a run
			// that has distilled no champion.
			Distill *storage.DistillSummary `json:"distill"`
			// SettingChanges are the changes of the run's settings
			// since it started (the curriculum's keys), oldest first.
			SettingChanges []storage.SettingChange `json:"setting_changes"`
		}
		size, err := db.Size(ctx)
		if err != nil {
			return fmt.Errorf("status: %w", err)
		}
		growth, measured, err := db.Growth(ctx)
		if err != nil {
			return fmt.Errorf("status: %w", err)
		}
		type disk struct {
			storage.Size
			// GrowthPerHour is null until the generations span a minute.
			GrowthPerHour *float64 `json:"growth_bytes_per_hour"`
			GrowthSeconds float64  `json:"growth_span_seconds"`
			// DiskFree is what may still be written on the database's
			// file system; FullInHours, at the growth measured, when it
			// will be full (null without growth, or while Filling).
			DiskFree    int64    `json:"disk_free_bytes"`
			FullInHours *float64 `json:"full_in_hours"`
			// Filling is true while a run is younger than the
			// generations whose game records it keeps (filling).
			Filling bool `json:"filling_game_window"`
			// Backups are the backup job's copies on disk; the
			// forecast counts them: with the job on, each of the
			// backup_keep copies grows as the database does.
			Backups backups `json:"backups"`
		}
		workers, err := db.Workers(ctx)
		if err != nil {
			return fmt.Errorf("status: %w", err)
		}
		out := struct {
			DB          string `json:"db"`
			Database    disk   `json:"database"`
			Populations []row  `json:"populations"`
			// Workers are those that played games through the cluster.
			Workers []storage.Worker `json:"workers"`
		}{DB: *dbPath, Database: disk{Size: size}, Populations: []row{}, Workers: workers}
		if out.Workers == nil {
			out.Workers = []storage.Worker{}
		}
		if measured {
			out.Database.GrowthPerHour = &growth.BytesPerHour
			out.Database.GrowthSeconds = growth.Span.Seconds()
		}
		if out.Database.DiskFree, err = storage.FreeSpace(*dbPath); err != nil {
			return fmt.Errorf("status: %w", err)
		}
		if out.Database.Backups, err = backupUsage(cfg.Jobs, *dbPath); err != nil {
			return fmt.Errorf("status: %w", err)
		}
		out.Database.Filling = filling(pops, cfg.Jobs.PruneKeep)
		if hours, ok := fullIn(out.Database.DiskFree, growth.BytesPerHour*float64(1+out.Database.Backups.Keep)); measured && ok && !out.Database.Filling {
			out.Database.FullInHours = &hours
		}
		for _, p := range pops {
			r := row{PopulationStatus: p, Target: goal, ETASeconds: -1}
			if r.Target <= 0 {
				r.Target = p.DaemonTarget // the running daemon's own
			}
			if eta, ok := progress.Remaining(p.Generation, r.Target, p.GensPerHour); ok {
				r.ETASeconds = eta.Hours * 3600
			}
			latest, ok, err := db.LatestRating(ctx, p.Game)
			if err != nil {
				return fmt.Errorf("status: %w", err)
			}
			if ok {
				r.Rating = &latestRating{Generation: latest.Generation, Elo: round1(latest.Elo), CI: round1(latest.CI),
					Games: latest.Games, Scale: latest.Scale, TC: latest.TC}
			}
			c, ok, err := db.Curriculum(ctx, p.Game)
			if err != nil {
				return fmt.Errorf("status: %w", err)
			}
			if ok {
				r.Curriculum = &c
			}
			ds, ok, err := db.Distillations(ctx, p.Game)
			if err != nil {
				return fmt.Errorf("status: %w", err)
			}
			if ok {
				r.Distill = &ds
			}
			if r.SettingChanges, err = db.SettingChanges(ctx, p.Game); err != nil {
				return fmt.Errorf("status: %w", err)
			}
			if r.SettingChanges == nil {
				r.SettingChanges = []storage.SettingChange{}
			}
			out.Populations = append(out.Populations, r)
		}
		if *asJSON {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(out)
		}
		if len(out.Populations) == 0 {
			fmt.Fprintf(stdout, "%s holds no population yet\n", *dbPath)
			return nil
		}
		tw := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "GAME\tGENERATIONS\tHOURS\tBEST\tMEAN\tGENS/HOUR\tLAST IMPROVED\tRATING\tETA\tLAST GENERATION")
		for _, r := range out.Populations {
			eta := "-"
			if r.ETASeconds >= 0 {
				eta = (time.Duration(r.ETASeconds) * time.Second).String()
			}
			last := "-"
			if !r.LastGeneration.IsZero() {
				last = r.LastGeneration.Local().Format(time.DateTime)
			}
			improved := "-"
			if r.LastImprovement >= 0 {
				improved = fmt.Sprint(r.LastImprovement)
			}
			rated := "-"
			if r.Rating != nil {
				rated = fmt.Sprintf("%.0f ± %.0f (gen %d)", r.Rating.Elo, r.Rating.CI, r.Rating.Generation)
			}
			fmt.Fprintf(tw, "%s\t%d\t%.2f\t%d\t%.2f\t%.1f\t%s\t%s\t%s\t%s\n", r.Game, r.Generation, r.Hours, r.BestFitness, r.MeanFitness,
				r.GensPerHour, improved, rated, eta, last)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, r := range out.Populations {
			if r.Rating != nil {
				fmt.Fprintf(stdout, "%s rating: Elo on %s, tc %s, %d games, 95%% interval (evolved rate, rating_history)\n",
					r.Game, r.Rating.Scale, r.Rating.TC, r.Rating.Games)
			}
			if c := r.Curriculum; c != nil {
				fmt.Fprintf(stdout, "%s curriculum: %d checks, %d raised the node budget", r.Game, c.Checks, c.Raises)
				if c.LastRaise >= 0 {
					fmt.Fprintf(stdout, " (the last at generation %d)", c.LastRaise)
				}
				fmt.Fprintf(stdout, "; the node budget is %d, from %d (sqlite3 DB 'select * from curriculum_history')\n", c.Nodes, c.FirstNodes)
			}
			if ds := r.Distill; ds != nil {
				fmt.Fprintf(stdout, "%s distillation: %d champions distilled, the last of generation %d (sqlite3 DB \"select * from members where origin = 'distilled'\")\n",
					r.Game, ds.Champions, ds.Last)
			}
			for _, c := range r.SettingChanges {
				fmt.Fprintf(stdout, "%s settings: %s %s -> %s from generation %d (changed %s)\n", r.Game, c.Key, c.Old, c.New,
					c.Generation, c.ChangedAt.Local().Format(time.DateTime))
			}
		}
		if len(workers) > 0 {
			fmt.Fprintln(stdout)
			tw := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "WORKER\tGAMES\tREFUSED\tGAMES/S\tLAST RESULT")
			for _, w := range workers {
				ago := time.Since(w.LastSeen).Round(time.Second)
				fmt.Fprintf(tw, "%s\t%d\t%d\t%.2f\t%s ago\n", w.Name, w.Games, w.Refused, w.GamesPerSecond, ago)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
		fmt.Fprintf(stdout, "\ndatabase %s: %s (%s free, %s write-ahead log)", *dbPath,
			storage.FormatBytes(size.Bytes), storage.FormatBytes(size.Free), storage.FormatBytes(size.WAL))
		if measured {
			fmt.Fprintf(stdout, ", growing %s/hour over the last %s",
				storage.FormatBytes(int64(growth.BytesPerHour)), growth.Span.Round(time.Second))
			if out.Database.Filling {
				fmt.Fprintf(stdout, " (a run younger than the %d generations whose game records it keeps, prune_keep, keeps all it plays: it grows slower once older, and when the disk fills is told then)", cfg.Jobs.PruneKeep)
			}
			fmt.Fprintln(stdout)
		} else {
			fmt.Fprintln(stdout, "; growth not measured yet (it needs a minute of generations)")
		}
		if b := out.Database.Backups; b.Keep > 0 {
			fmt.Fprintf(stdout, "backups: %d copies in %s, %s (backup_keep = %d: they grow %d times as fast as the database)\n",
				b.Copies, b.Dir, storage.FormatBytes(b.Bytes), b.Keep, b.Keep)
		}
		fmt.Fprintf(stdout, "disk: %s free", storage.FormatBytes(out.Database.DiskFree))
		if h := out.Database.FullInHours; h != nil {
			full := time.Now().Add(time.Duration(*h * float64(time.Hour)))
			with := ""
			if out.Database.Backups.Keep > 0 {
				with = " with the backups"
			}
			fmt.Fprintf(stdout, ", full in %s at this growth%s (%s)", daysAndHours(*h), with, full.Local().Format("2006-01-02 15:04"))
			if *h < fillWarningHours {
				fmt.Fprintf(stdout, "\nwarning: the disk fills within a week at this growth; keep fewer game records, keyframes or backups ([jobs] prune_keep, keyframe_every, backup_keep), or free space (docs/daemon.md, retention)")
			}
		}
		fmt.Fprintln(stdout)
		return nil
	}
}

// backups is what the backup job keeps on disk.
type backups struct {
	Dir    string `json:"dir"`
	Copies int    `json:"copies"`
	Bytes  int64  `json:"bytes"`
	// Keep is backup_keep with the backup job on, 0 with it off.
	Keep int `json:"keep"`
}

// backupUsage counts the backup copies of the database at dbPath that the
// jobs configuration j writes.
func backupUsage(j daemon.JobsConfig, dbPath string) (backups, error) {
	b := backups{Dir: j.BackupPath(dbPath)}
	if j.Backup != "" {
		b.Keep = j.BackupKeep
	}
	copies, err := filepath.Glob(j.BackupGlob(dbPath))
	if err != nil {
		return b, err
	}
	for _, c := range copies {
		info, err := os.Stat(c)
		if err != nil {
			continue // removed by the job meanwhile
		}
		b.Copies++
		b.Bytes += info.Size()
	}
	return b, nil
}

// filling reports whether a population has played fewer generations than
// the pruneKeep whose game records are kept: until then a run keeps every
// record it plays, and grows faster than it will, so status forecasts no
// full disk from that growth.
func filling(pops []storage.PopulationStatus, pruneKeep int) bool {
	for _, p := range pops {
		if pruneKeep > 0 && p.Generation < pruneKeep {
			return true
		}
	}
	return false
}

// fillWarningHours is how soon a disk may fill before status warns: a
// week, long enough to notice and act.
const fillWarningHours = 7 * 24

// fullIn returns in how many hours free bytes are filled at a growth of
// perHour bytes an hour; false when the database does not grow.
func fullIn(free int64, perHour float64) (float64, bool) {
	if perHour <= 0 {
		return 0, false
	}
	return float64(free) / perHour, true
}

// daysAndHours writes a number of hours as "3 days 4 hours", or "5 hours"
// under a day.
func daysAndHours(h float64) string {
	days, hours := int(h/24), int(h)%24
	switch {
	case days == 0:
		return fmt.Sprintf("%d hours", hours)
	case days == 1:
		return fmt.Sprintf("1 day %d hours", hours)
	}
	return fmt.Sprintf("%d days %d hours", days, hours)
}

// championsCommand implements `evolved champions`.
func championsCommand(fs *flag.FlagSet) action {
	dbPath := new(string)
	dbVar(fs, dbPath, "the database `FILE`")
	game := fs.String("game", "", "the population `GAME`: "+strings.Join(daemon.KnownGames(), ", ")+" (default: the database's only run)")
	asJSON := fs.Bool("json", false, "print JSON")
	setHelp(fs, help{
		usage: []string{"[--game GAME] [--db FILE] [--json]"},
		about: `Lists the population's champion of every generation.`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, _ io.Writer) error {
		db, err := openReader(ctx, *dbPath)
		if err != nil {
			return fmt.Errorf("champions: %w", err)
		}
		defer db.Close()
		g, err := gameOf(ctx, db, "champions", *game)
		if err != nil {
			return err
		}
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
	dbPath := new(string)
	dbVar(fs, dbPath, "the database `FILE`")
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
		if generationFlag.negative() {
			return usagef("export: --generation must be 0 or more, got %d", generationFlag.n)
		}
		if generationFlag.set && *best {
			return usagef("export: --generation and --best choose the champion both; give one")
		}
		if agentFlag.set && (generationFlag.set || *best) {
			return usagef("export: --agent names the agent itself; give it without --generation or --best")
		}
		if agentFlag.set && agentFlag.get(0) < 0 {
			return usagef("export: --agent must be 0 or more, got %d", agentFlag.get(0))
		}
		if err := checkOutput("export", "-o", *out, *dbPath); err != nil {
			return err
		}
		db, err := openReader(ctx, *dbPath)
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		defer db.Close()
		game, err := gameOf(ctx, db, "export", *game)
		if err != nil {
			return err
		}
		generation, err := generationFlag.generation("export", "generation", -1, func() ([]storage.ChampionRow, error) { return db.Champions(ctx, game) })
		if err != nil {
			return err
		}
		var rated string
		if *best {
			ratings, err := db.Ratings(ctx, game)
			if err != nil {
				return fmt.Errorf("export: %w", err)
			}
			r, ok := bestRated(ratings)
			if !ok {
				return fmt.Errorf("export: %s holds no rating of a %s champion: rate champions as the run goes (jobs.rating_every), or choose one with --generation", *dbPath, game)
			}
			generation = r.Generation
			rated = fmt.Sprintf(", rated %.0f ± %.0f on %s (the best of %d ratings)", r.Elo, r.CI, r.Scale, len(ratings))
			// In a young run the best rated may be generation 0, the only
			// one rated: say what else there is rather than export it
			// silently.
			latest, err := db.Champion(ctx, game, -1)
			if err != nil {
				return fmt.Errorf("export: %w", err)
			}
			if latest.Generation > generation {
				rated += fmt.Sprintf("; the latest champion is generation %d, not rated yet or rated lower (--generation %d exports it)",
					latest.Generation, latest.Generation)
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
		c := f.Provenance
		var buf bytes.Buffer
		if err := agent.Write(&buf, f); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		dest := "standard output"
		if *out == "" {
			if _, err := stdout.Write(buf.Bytes()); err != nil {
				return fmt.Errorf("export: %w", err)
			}
		} else {
			if err := outputGuard(*dbPath).WriteFile(*out, buf.Bytes()); err != nil {
				return fmt.Errorf("export: %w", err)
			}
			dest = *out
		}
		// The report goes to standard error so that an agent written to
		// standard output stays a clean file.
		what := fmt.Sprintf("generation %d champion, agent %d", c.Generation, c.AgentID)
		if agentFlag.set {
			what = fmt.Sprintf("agent %d, born in generation %d", c.AgentID, c.Generation)
		}
		fmt.Fprintf(stderr, "export: wrote %s: %s %s, %d bytes%s\n", dest, game, what, buf.Len(), rated)
		return nil
	}
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

// latestRating is the latest rating status shows.
type latestRating struct {
	Generation int     `json:"generation"`
	Elo        float64 `json:"elo"`
	CI         float64 `json:"ci"`
	Games      int     `json:"games"`
	Scale      string  `json:"scale"`
	TC         string  `json:"tc"`
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
