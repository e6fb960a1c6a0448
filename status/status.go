// Package status builds what `evolved status` reports of a database: each
// population's progress with its ETA to a generation target, its latest
// rating, curriculum, distillation and setting changes, the cluster's
// workers, and the database's size, growth and the forecast of when its
// disk fills. Read gathers a Report from a Source (a *storage.DB); the
// Report encodes as the command's JSON, and Write prints it for a person.
package status

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"evolved/positions"
	"evolved/progress"
	"evolved/storage"
)

// Source is what a report reads of a database; *storage.DB is one, and a
// test hands in rows it built.
type Source interface {
	Status(ctx context.Context) ([]storage.PopulationStatus, error)
	Size(ctx context.Context) (storage.Size, error)
	Growth(ctx context.Context) (g storage.Growth, ok bool, err error)
	Workers(ctx context.Context) ([]storage.Worker, error)
	LatestRating(ctx context.Context, game string) (r storage.Rating, ok bool, err error)
	Curriculum(ctx context.Context, game string) (storage.CurriculumSummary, bool, error)
	Distillations(ctx context.Context, game string) (storage.DistillSummary, bool, error)
	SettingChanges(ctx context.Context, game string) ([]storage.SettingChange, error)
}

// Options are what a report needs beside the database's rows: where it is
// and what the daemon's configuration says.
type Options struct {
	// DB is the database's path, as the report names it.
	DB string
	// Target is the generation target of the ETA; at 0 or below each
	// population's running daemon's own (PopulationStatus.DaemonTarget).
	Target int
	// PruneKeep is the number of generations whose game records the
	// retention job keeps ([jobs] prune_keep; 0: all).
	PruneKeep int
	// DiskFree is what may still be written on the database's file
	// system (storage.FreeSpace).
	DiskFree int64
	// Backups are the backup job's copies (CountBackups).
	Backups Backups
}

// Report is what status shows, in the shape of its JSON.
type Report struct {
	DB          string `json:"db"`
	Database    Disk   `json:"database"`
	Populations []Row  `json:"populations"`
	// Workers are those that played games through the cluster.
	Workers []storage.Worker `json:"workers"`
}

// Row is one population's line.
type Row struct {
	storage.PopulationStatus
	Target     int     `json:"target"`
	ETASeconds float64 `json:"eta_seconds"` // -1: no target or no rate yet
	// Rating is the latest rated champion's rating; null before one.
	Rating *Rating `json:"rating"`
	// Curriculum is where the curriculum stands; null for a run
	// without one, or before its first check.
	Curriculum *storage.CurriculumSummary `json:"curriculum"`
	// Distill is where the distillation stands; null for a run
	// that has distilled no champion.
	Distill *storage.DistillSummary `json:"distill"`
	// SettingChanges are the changes of the run's settings
	// since it started (the curriculum's keys), oldest first.
	SettingChanges []storage.SettingChange `json:"setting_changes"`
	// Positions is the run's position store (learn_every); null for a
	// run without one.
	Positions *Positions `json:"positions"`
}

// Positions is what a run's position store holds, as committed.
type Positions struct {
	Dir        string `json:"dir"`
	Records    int64  `json:"positions"`
	Bytes      int64  `json:"bytes"`
	Generation int    `json:"generation"` // the last committed
}

// Rating is the latest rating of a population's champions, its Elo and
// interval rounded to one decimal.
type Rating struct {
	Generation int     `json:"generation"`
	Elo        float64 `json:"elo"`
	CI         float64 `json:"ci"`
	Games      int     `json:"games"`
	Scale      string  `json:"scale"`
	TC         string  `json:"tc"`
}

// Disk is the database's size, growth and the forecast of its disk.
type Disk struct {
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
	Backups Backups `json:"backups"`

	// GrowthSpan is the time the growth was measured over (0 while
	// GrowthPerHour is null), and PruneKeep Options.PruneKeep: what the
	// text says of them.
	GrowthSpan time.Duration `json:"-"`
	PruneKeep  int           `json:"-"`
}

// Backups is what the backup job keeps on disk.
type Backups struct {
	Dir    string `json:"dir"`
	Copies int    `json:"copies"`
	Bytes  int64  `json:"bytes"`
	// Keep is backup_keep with the backup job on, 0 with it off.
	Keep int `json:"keep"`
}

// CountBackups counts the files matching glob, the backup copies that the
// backup job writes into dir and keeps keep of (0: the job is off).
func CountBackups(dir, glob string, keep int) (Backups, error) {
	b := Backups{Dir: dir, Keep: keep}
	copies, err := filepath.Glob(glob)
	if err != nil {
		return b, fmt.Errorf("count backups: %w", err)
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

// Read gathers the report of the database src under o.
func Read(ctx context.Context, src Source, o Options) (Report, error) {
	pops, err := src.Status(ctx)
	if err != nil {
		return Report{}, err
	}
	size, err := src.Size(ctx)
	if err != nil {
		return Report{}, err
	}
	growth, measured, err := src.Growth(ctx)
	if err != nil {
		return Report{}, err
	}
	workers, err := src.Workers(ctx)
	if err != nil {
		return Report{}, err
	}
	r := Report{DB: o.DB, Database: disk(size, growth, measured, pops, o), Populations: []Row{}, Workers: workers}
	if r.Workers == nil {
		r.Workers = []storage.Worker{}
	}
	for _, p := range pops {
		row, err := readRow(ctx, src, p, o.Target)
		if err != nil {
			return Report{}, err
		}
		if row.Positions, err = readPositions(ctx, o.DB, p.Game); err != nil {
			return Report{}, err
		}
		r.Populations = append(r.Populations, row)
	}
	return r, nil
}

// disk forecasts the database's disk: when it fills at the growth
// measured, with every backup copy growing as the database does, unless
// a run is still filling its window of game records.
func disk(size storage.Size, growth storage.Growth, measured bool, pops []storage.PopulationStatus, o Options) Disk {
	d := Disk{Size: size, DiskFree: o.DiskFree, Backups: o.Backups, PruneKeep: o.PruneKeep}
	if measured {
		d.GrowthPerHour = &growth.BytesPerHour
		d.GrowthSeconds = growth.Span.Seconds()
		d.GrowthSpan = growth.Span
	}
	d.Filling = filling(pops, o.PruneKeep)
	if hours, ok := fullIn(d.DiskFree, growth.BytesPerHour*float64(1+d.Backups.Keep)); measured && ok && !d.Filling {
		d.FullInHours = &hours
	}
	return d
}

// readRow reads population p's row, with its ETA to target (at 0 or
// below, its daemon's own).
func readRow(ctx context.Context, src Source, p storage.PopulationStatus, target int) (Row, error) {
	r := Row{PopulationStatus: p, Target: target, ETASeconds: -1}
	if r.Target <= 0 {
		r.Target = p.DaemonTarget // the running daemon's own
	}
	if eta, ok := progress.Remaining(p.Generation, r.Target, p.GensPerHour); ok {
		r.ETASeconds = eta.Hours * 3600
	}
	latest, ok, err := src.LatestRating(ctx, p.Game)
	if err != nil {
		return r, err
	}
	if ok {
		r.Rating = &Rating{Generation: latest.Generation, Elo: round1(latest.Elo), CI: round1(latest.CI),
			Games: latest.Games, Scale: latest.Scale, TC: latest.TC}
	}
	c, ok, err := src.Curriculum(ctx, p.Game)
	if err != nil {
		return r, err
	}
	if ok {
		r.Curriculum = &c
	}
	ds, ok, err := src.Distillations(ctx, p.Game)
	if err != nil {
		return r, err
	}
	if ok {
		r.Distill = &ds
	}
	if r.SettingChanges, err = src.SettingChanges(ctx, p.Game); err != nil {
		return r, err
	}
	if r.SettingChanges == nil {
		r.SettingChanges = []storage.SettingChange{}
	}
	return r, nil
}

// readPositions reads the position store of game beside the database db,
// read-only (a daemon may be writing it); nil when there is none.
func readPositions(ctx context.Context, db, game string) (*Positions, error) {
	dir := positions.DirBeside(db, game)
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		return nil, nil
	}
	store, err := positions.Open(ctx, dir, positions.Options{Game: game, ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer store.Close()
	return &Positions{Dir: dir, Records: store.CommittedRecords(), Bytes: store.Bytes(), Generation: store.Committed()}, nil
}

// round1 rounds to one decimal, for JSON that people read too.
func round1(x float64) float64 { return math.Round(x*10) / 10 }

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
