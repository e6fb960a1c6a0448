package status

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"evolved/storage"
)

// Write prints r for a person: a table of the populations, a line for
// each rating, curriculum, distillation and setting change, a table of the
// workers, then the database and its disk. Times are shown in now's
// location, the workers' last results as time before now, and when the
// disk fills as a date after now.
func Write(w io.Writer, r Report, now time.Time) error {
	if len(r.Populations) == 0 {
		_, err := fmt.Fprintf(w, "%s holds no population yet\n", r.DB)
		return err
	}
	if err := writePopulations(w, r.Populations, now.Location()); err != nil {
		return err
	}
	for _, p := range r.Populations {
		writeNotes(w, p, now.Location())
	}
	if err := writeWorkers(w, r.Workers, now); err != nil {
		return err
	}
	return writeDisk(w, r.DB, r.Database, now)
}

// writePopulations writes the table of the populations.
func writePopulations(w io.Writer, rows []Row, loc *time.Location) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GAME\tGENERATIONS\tHOURS\tBEST\tMEAN\tGENS/HOUR\tLAST IMPROVED\tRATING\tETA\tLAST GENERATION")
	for _, r := range rows {
		eta := "-"
		if r.ETASeconds >= 0 {
			eta = (time.Duration(r.ETASeconds) * time.Second).String()
		}
		last := "-"
		if !r.LastGeneration.IsZero() {
			last = r.LastGeneration.In(loc).Format(time.DateTime)
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
	return tw.Flush()
}

// writeNotes writes a population's lines below the table: its rating's
// scale, its curriculum, its distillation and its setting changes.
func writeNotes(w io.Writer, r Row, loc *time.Location) {
	if r.Rating != nil {
		fmt.Fprintf(w, "%s rating: Elo on %s, tc %s, %d games, 95%% interval (evolved rate, rating_history)\n",
			r.Game, r.Rating.Scale, r.Rating.TC, r.Rating.Games)
	}
	if c := r.Curriculum; c != nil {
		fmt.Fprintf(w, "%s curriculum: %d checks, %d raised the node budget", r.Game, c.Checks, c.Raises)
		if c.LastRaise >= 0 {
			fmt.Fprintf(w, " (the last at generation %d)", c.LastRaise)
		}
		fmt.Fprintf(w, "; the node budget is %d, from %d (sqlite3 DB 'select * from curriculum_history')\n", c.Nodes, c.FirstNodes)
	}
	if ds := r.Distill; ds != nil {
		fmt.Fprintf(w, "%s distillation: %d champions distilled, the last of generation %d (sqlite3 DB \"select born - 1 as generation, agent_id, parents from genomes where origin = 'distilled'\")\n",
			r.Game, ds.Champions, ds.Last)
	}
	if ps := r.Positions; ps != nil {
		fmt.Fprintf(w, "%s positions: %d through generation %d, %s, in %s (evolved train reads them)\n",
			r.Game, ps.Records, ps.Generation, storage.FormatBytes(ps.Bytes), ps.Dir)
	}
	for _, c := range r.SettingChanges {
		fmt.Fprintf(w, "%s settings: %s %s -> %s from generation %d (changed %s)\n", r.Game, c.Key, c.Old, c.New,
			c.Generation, c.ChangedAt.In(loc).Format(time.DateTime))
	}
}

// writeWorkers writes the table of the workers, if any, after a blank
// line.
func writeWorkers(w io.Writer, workers []storage.Worker, now time.Time) error {
	if len(workers) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKER\tGAMES\tREFUSED\tGAMES/S\tLAST RESULT")
	for _, wk := range workers {
		ago := now.Sub(wk.LastSeen).Round(time.Second)
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.2f\t%s ago\n", wk.Name, wk.Games, wk.Refused, wk.GamesPerSecond, ago)
	}
	return tw.Flush()
}

// writeDisk writes the database's size and growth, its backups and the
// forecast of its disk, with a warning when it fills within a week.
func writeDisk(w io.Writer, db string, d Disk, now time.Time) error {
	fmt.Fprintf(w, "\ndatabase %s: %s (%s free, %s write-ahead log)", db,
		storage.FormatBytes(d.Bytes), storage.FormatBytes(d.Free), storage.FormatBytes(d.WAL))
	if d.GrowthPerHour != nil {
		fmt.Fprintf(w, ", growing %s/hour over the last %s",
			storage.FormatBytes(int64(*d.GrowthPerHour)), d.GrowthSpan.Round(time.Second))
		if d.Filling {
			fmt.Fprintf(w, " (a run younger than the %d generations whose game records it keeps, prune_keep, keeps all it plays: it grows slower once older, and when the disk fills is told then)", d.PruneKeep)
		}
		fmt.Fprintln(w)
	} else {
		fmt.Fprintln(w, "; growth not measured yet (it needs a minute of generations)")
	}
	if b := d.Backups; b.Keep > 0 {
		fmt.Fprintf(w, "backups: %d copies in %s, %s (backup_keep = %d: they grow %d times as fast as the database)\n",
			b.Copies, b.Dir, storage.FormatBytes(b.Bytes), b.Keep, b.Keep)
	}
	fmt.Fprintf(w, "disk: %s free", storage.FormatBytes(d.DiskFree))
	if h := d.FullInHours; h != nil {
		full := now.Add(time.Duration(*h * float64(time.Hour)))
		with := ""
		if d.Backups.Keep > 0 {
			with = " with the backups"
		}
		fmt.Fprintf(w, ", full in %s at this growth%s (%s)", daysAndHours(*h), with, full.Format("2006-01-02 15:04"))
		if *h < fillWarningHours {
			fmt.Fprintf(w, "\nwarning: the disk fills within a week at this growth; keep fewer game records, keyframes or backups ([jobs] prune_keep, keyframe_every, backup_keep), or free space (docs/daemon.md, retention)")
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}
