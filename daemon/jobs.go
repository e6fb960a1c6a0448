package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"evolved/positions"
	"evolved/storage"
)

// startJobs schedules the periodic jobs of cfg and starts them.
func (d *Daemon) startJobs(cfg JobsConfig) (*cron.Cron, error) {
	c := cron.New(cron.WithParser(cron.NewParser(cron.Minute|cron.Hour|cron.Dom|cron.Month|cron.Dow|cron.Descriptor)),
		cron.WithChain(cron.SkipIfStillRunning(cron.DiscardLogger)))
	add := func(name, spec string, job func(context.Context) (string, error)) error {
		if spec == "" {
			return nil
		}
		_, err := c.AddFunc(spec, func() { d.runJob(name, job) })
		if err != nil {
			return fmt.Errorf("daemon: schedule %s job %q: %w", name, spec, err)
		}
		d.log.Info("job scheduled", "job", name, "spec", spec)
		return nil
	}
	keep, retention := cfg.BackupKeep, cfg.Retention()
	dir := cfg.BackupPath(d.db.Path())
	if err := add("backup", cfg.Backup, func(ctx context.Context) (string, error) { return d.backup(ctx, dir, keep) }); err != nil {
		return nil, err
	}
	if err := add("prune", cfg.Prune, func(ctx context.Context) (string, error) { return d.prune(ctx, retention) }); err != nil {
		return nil, err
	}
	if err := add("baseline", cfg.Baseline, d.baselineJob); err != nil {
		return nil, err
	}
	c.Start()
	return c, nil
}

// runJob runs one job and logs it with its duration.
func (d *Daemon) runJob(name string, job func(context.Context) (string, error)) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	what, err := job(ctx)
	secs := time.Since(start).Seconds()
	if err != nil {
		d.log.Error("job failed", "job", name, "seconds", round2(secs), "err", err)
		return
	}
	d.log.Info("job done", "job", name, "seconds", round2(secs), "result", what)
}

// prune applies the retention to the whole database, then gives its free
// pages back to the file system.
func (d *Daemon) prune(ctx context.Context, keep storage.Retention) (string, error) {
	p, err := d.db.Prune(ctx, keep)
	if err != nil {
		return "", err
	}
	freed, err := d.db.Vacuum(ctx)
	if err != nil {
		return "", err
	}
	size, err := d.db.Size(ctx)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("deleted %d game records, %d genomes' weights and %d old members' rows, gave back %s; database %s",
		p.Games, p.Genomes, p.Members, storage.FormatBytes(freed), storage.FormatBytes(size.Bytes)), nil
}

// BackupPath returns the directory the backups of the database at dbPath
// go to: BackupDir, relative to the database's directory unless absolute.
func (j JobsConfig) BackupPath(dbPath string) string {
	if filepath.IsAbs(j.BackupDir) {
		return j.BackupDir
	}
	return filepath.Join(filepath.Dir(dbPath), j.BackupDir)
}

// BackupGlob returns the pattern of the backup copies of the database at
// dbPath: its name, a UTC timestamp, ".db", in BackupPath.
func (j JobsConfig) BackupGlob(dbPath string) string {
	base := strings.TrimSuffix(filepath.Base(dbPath), filepath.Ext(dbPath))
	return filepath.Join(j.BackupPath(dbPath), base+"-*.db")
}

// backup writes a copy of the database into dir, then of each position
// store beside it (backupPositions), and keeps the newest keep copies of
// each.
func (d *Daemon) backup(ctx context.Context, dir string, keep int) (string, error) {
	if err := d.checkBackupSpace(ctx); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", fmt.Errorf("backup: %w", err)
	}
	base := strings.TrimSuffix(filepath.Base(d.db.Path()), filepath.Ext(d.db.Path()))
	stamp := time.Now().UTC().Format("20060102T150405Z")
	name := filepath.Join(dir, base+"-"+stamp+".db")
	if err := d.db.Backup(ctx, name); err != nil {
		return "", err
	}
	stores, err := d.backupPositions(ctx, filepath.Join(dir, base+"-"+stamp+".positions"), filepath.Join(dir, base+"-*.positions"))
	if err != nil {
		return "", err
	}
	removed, err := keepNewest(filepath.Join(dir, filepath.Base(d.config().Jobs.BackupGlob(d.db.Path()))), keep)
	if err != nil {
		return "", err
	}
	if _, err := keepNewest(filepath.Join(dir, base+"-*.positions"), keep); err != nil {
		return "", err
	}
	return fmt.Sprintf("wrote %s%s, removed %d old copies", name, stores, removed), nil
}

// backupPositions copies each game's position store, after the database
// (a store commits before the database, so the copy is at or after the
// database copy's generation, and the daemon rewinds it on resuming from
// the two), into to/<game>, linking the segments the newest earlier copy
// (glob's) holds unchanged (positions.Backup). It returns what it copied,
// for the job's log line.
func (d *Daemon) backupPositions(ctx context.Context, to, glob string) (string, error) {
	earlier, err := filepath.Glob(glob)
	if err != nil {
		return "", fmt.Errorf("backup: %w", err)
	}
	slices.Sort(earlier) // the timestamps sort chronologically
	var parts []string
	for _, game := range d.config().Games {
		dir := positions.DirBeside(d.db.Path(), game)
		if _, err := os.Stat(filepath.Join(dir, "manifest.json")); errors.Is(err, fs.ErrNotExist) {
			continue // the run keeps no positions
		}
		prev := ""
		if n := len(earlier); n > 0 {
			prev = filepath.Join(earlier[n-1], game)
		}
		rep, err := positions.Backup(ctx, dir, filepath.Join(to, game), prev)
		if err != nil {
			return "", fmt.Errorf("backup: %w", err)
		}
		parts = append(parts, fmt.Sprintf(" and %s's %d positions of generation %d (%d segments copied, %s; %d linked)",
			game, rep.Records, rep.Generation, rep.Copied, storage.FormatBytes(rep.CopiedBytes), rep.Linked))
	}
	if len(parts) == 0 {
		return "", nil
	}
	return " to " + to + strings.Join(parts, ""), nil
}

// keepNewest removes the oldest of the files or directories glob matches
// (their names end in sortable timestamps) until keep are left, and
// returns how many it removed.
func keepNewest(glob string, keep int) (int, error) {
	old, err := filepath.Glob(glob)
	if err != nil {
		return 0, fmt.Errorf("backup: %w", err)
	}
	slices.Sort(old)
	removed := 0
	for len(old) > keep {
		if err := os.RemoveAll(old[0]); err != nil {
			return removed, fmt.Errorf("backup: retention: %w", err)
		}
		old = old[1:]
		removed++
	}
	return removed, nil
}

// baselineJob plays the latest champion of each population against the
// configured baselines and reports the scores.
func (d *Daemon) baselineJob(ctx context.Context) (string, error) {
	var parts []string
	for _, game := range d.config().Games {
		run, err := newGameRun(game)
		if err != nil {
			return "", err
		}
		c, err := d.db.Champion(ctx, game, -1)
		if err != nil {
			return "", err
		}
		lines, err := run.baselines(ctx, d, c)
		if err != nil {
			return "", err
		}
		parts = append(parts, lines...)
	}
	return strings.Join(parts, "; "), nil
}
