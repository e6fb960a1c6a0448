package status

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"evolved/storage"
)

// TestDiskFillWarning checks status's arithmetic of when the disk fills:
// 10 GiB free at 100 MiB an hour last 102.4 hours (4 days 6 hours), within
// the week that warns; at 10 MiB an hour 1,024 hours, past it; a database
// that does not grow never fills.
func TestDiskFillWarning(t *testing.T) {
	const gib, mib = 1 << 30, 1 << 20
	for _, tc := range []struct {
		free    int64
		perHour float64
		hours   float64
		ok      bool
		text    string
		warn    bool
	}{
		{10 * gib, 100 * mib, 102.4, true, "4 days 6 hours", true},
		{10 * gib, 10 * mib, 1024, true, "42 days 16 hours", false},
		{10 * gib, 0, 0, false, "", false},
		{gib, 100 * mib, 10.24, true, "10 hours", true},
		{gib, 32 * mib, 32, true, "1 day 8 hours", true},
	} {
		h, ok := fullIn(tc.free, tc.perHour)
		if ok != tc.ok || math.Abs(h-tc.hours) > 1e-9 {
			t.Errorf("fullIn(%d, %v) = %v, %v; want %v, %v", tc.free, tc.perHour, h, ok, tc.hours, tc.ok)
		}
		if ok && (daysAndHours(h) != tc.text || (h < fillWarningHours) != tc.warn) {
			t.Errorf("%v hours: %q, warns %v; want %q, %v", h, daysAndHours(h), h < fillWarningHours, tc.text, tc.warn)
		}
	}
}

// TestCountBackups checks that only the files of the glob count, with
// their sizes summed.
func TestCountBackups(t *testing.T) {
	dir := t.TempDir()
	for name, size := range map[string]int{"evolved-1.db": 3000, "evolved-2.db": 5000, "other-1.db": 700, "notes.txt": 10} {
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := CountBackups(dir, filepath.Join(dir, "evolved-*.db"), 4)
	if want := (Backups{Dir: dir, Copies: 2, Bytes: 8000, Keep: 4}); err != nil || got != want {
		t.Errorf("CountBackups = %+v, %v; want %+v", got, err, want)
	}
	got, err = CountBackups("none", filepath.Join(dir, "none-*.db"), 0)
	if want := (Backups{Dir: "none"}); err != nil || got != want {
		t.Errorf("CountBackups of no copy = %+v, %v; want %+v", got, err, want)
	}
	if _, err := CountBackups(dir, "[", 1); !errors.Is(err, filepath.ErrBadPattern) {
		t.Errorf("CountBackups of a bad pattern: %v, want %v", err, filepath.ErrBadPattern)
	}
}

// fakeSource is a database of rows built by hand.
type fakeSource struct {
	pops       []storage.PopulationStatus
	size       storage.Size
	growth     storage.Growth
	measured   bool
	workers    []storage.Worker
	ratings    map[string]storage.Rating
	curricula  map[string]storage.CurriculumSummary
	distilled  map[string]storage.DistillSummary
	changes    map[string][]storage.SettingChange
	failRating error
}

func (f *fakeSource) Status(context.Context) ([]storage.PopulationStatus, error) { return f.pops, nil }
func (f *fakeSource) Size(context.Context) (storage.Size, error)                 { return f.size, nil }
func (f *fakeSource) Growth(context.Context) (storage.Growth, bool, error) {
	return f.growth, f.measured, nil
}
func (f *fakeSource) Workers(context.Context) ([]storage.Worker, error) { return f.workers, nil }
func (f *fakeSource) LatestRating(_ context.Context, game string) (storage.Rating, bool, error) {
	r, ok := f.ratings[game]
	return r, ok, f.failRating
}
func (f *fakeSource) Curriculum(_ context.Context, game string) (storage.CurriculumSummary, bool, error) {
	c, ok := f.curricula[game]
	return c, ok, nil
}
func (f *fakeSource) Distillations(_ context.Context, game string) (storage.DistillSummary, bool, error) {
	d, ok := f.distilled[game]
	return d, ok, nil
}
func (f *fakeSource) SettingChanges(_ context.Context, game string) ([]storage.SettingChange, error) {
	return f.changes[game], nil
}

// at is 2026-11-01 12:00 UTC plus h hours.
func at(h float64) time.Time {
	return time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(h * float64(time.Hour)))
}

// twoRuns is a database of a draughts run with a rating, a curriculum, a
// distillation and a setting change, whose daemon runs to generation 100
// at 6 generations an hour, and of a young chess run of no rate yet; one
// worker; 1 MiB growing 10 MiB an hour over 30 minutes.
func twoRuns() *fakeSource {
	return &fakeSource{
		pops: []storage.PopulationStatus{
			{Game: "draughts", Seed: 1, Generation: 40, Games: 4000, Hours: 6.5, BestFitness: 12, MeanFitness: 3.25,
				GensPerHour: 6, LastImprovement: 37, DaemonTarget: 100, Started: at(-7), LastGeneration: at(-0.25)},
			{Game: "chess", Seed: 2, Generation: 1, Games: 10, Hours: 0.1, BestFitness: 2, MeanFitness: 0.5,
				LastImprovement: -1, Started: at(-0.1)},
		},
		size:     storage.Size{Bytes: 1 << 20, Free: 4096, WAL: 8192},
		growth:   storage.Growth{BytesPerHour: 10 << 20, Span: 30*time.Minute + 400*time.Millisecond},
		measured: true,
		workers:  []storage.Worker{{Name: "w1", Games: 500, Refused: 2, FirstSeen: at(-2), LastSeen: at(-1.0 / 60), GamesPerSecond: 0.07}},
		ratings:  map[string]storage.Rating{"draughts": {Game: "draughts", Generation: 30, Scale: "draughts-ladder", TC: "untimed", Elo: 1234.56, CI: 45.04, Games: 200}},
		curricula: map[string]storage.CurriculumSummary{
			"draughts": {Checks: 4, Raises: 2, LastRaise: 30, FirstNodes: 1000, Nodes: 4000},
		},
		distilled: map[string]storage.DistillSummary{"draughts": {Champions: 3, Last: 36}},
		changes: map[string][]storage.SettingChange{
			"draughts": {{Generation: 20, Key: "curriculum_every", Old: "0", New: "10", ChangedAt: at(-3)}},
		},
	}
}

// TestRead checks the report of twoRuns: the draughts ETA to its daemon's
// target (60 generations at 6 an hour: 36,000 s), none for chess (no
// rate), the rating rounded to a decimal, empty lists as [] and absent
// summaries as null; the disk's 100 MiB fill in 2 hours at 10 MiB an hour
// with the 4 backup copies growing as fast (50 MiB an hour), unless a run
// is younger than prune_keep.
func TestRead(t *testing.T) {
	const mib = 1 << 20
	o := Options{DB: "e.db", PruneKeep: 0, DiskFree: 100 * mib, Backups: Backups{Dir: "backups", Copies: 2, Bytes: 3 * mib, Keep: 4}}
	r, err := Read(t.Context(), twoRuns(), o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"db":"e.db","database":{"bytes":1048576,"free_bytes":4096,"wal_bytes":8192,` +
		`"growth_bytes_per_hour":10485760,"growth_span_seconds":1800.4,"disk_free_bytes":104857600,"full_in_hours":2,` +
		`"filling_game_window":false,"backups":{"dir":"backups","copies":2,"bytes":3145728,"keep":4}},"populations":[` +
		`{"game":"draughts","seed":1,"generation":40,"games":4000,"hours":6.5,"best_fitness":12,"mean_fitness":3.25,` +
		`"gens_per_hour":6,"last_improvement":37,"daemon_target":100,"started":"2026-11-01T05:00:00Z",` +
		`"last_generation":"2026-11-01T11:45:00Z","target":100,"eta_seconds":36000,` +
		`"rating":{"generation":30,"elo":1234.6,"ci":45,"games":200,"scale":"draughts-ladder","tc":"untimed"},` +
		`"curriculum":{"checks":4,"raises":2,"last_raise":30,"first_nodes":1000,"nodes":4000},` +
		`"distill":{"champions":3,"last":36},` +
		`"setting_changes":[{"generation":20,"key":"curriculum_every","old":"0","new":"10","changed_at":"2026-11-01T09:00:00Z"}],"positions":null},` +
		`{"game":"chess","seed":2,"generation":1,"games":10,"hours":0.1,"best_fitness":2,"mean_fitness":0.5,` +
		`"gens_per_hour":0,"last_improvement":-1,"daemon_target":0,"started":"2026-11-01T11:54:00Z",` +
		`"target":0,"eta_seconds":-1,"rating":null,"curriculum":null,"distill":null,"setting_changes":[],"positions":null}],` +
		`"workers":[{"name":"w1","games":500,"refused":2,"first_seen":"2026-11-01T10:00:00Z","last_seen":"2026-11-01T11:59:00Z","games_per_second":0.07}]}`
	if string(got) != want {
		t.Errorf("Read:\n got %s\nwant %s", got, want)
	}
	if r.Database.GrowthSpan != 30*time.Minute+400*time.Millisecond || r.Database.PruneKeep != 0 {
		t.Errorf("Read: growth span %v, prune_keep %d; want 30m0.4s, 0", r.Database.GrowthSpan, r.Database.PruneKeep)
	}

	// A target given replaces the daemons' own; prune_keep 10 makes the
	// chess run (1 generation) a filling one: no forecast.
	o.Target, o.PruneKeep = 46, 10
	r, err = Read(t.Context(), twoRuns(), o)
	if err != nil {
		t.Fatal(err)
	}
	if p := r.Populations; p[0].Target != 46 || p[0].ETASeconds != 3600 || p[1].Target != 46 || p[1].ETASeconds != -1 {
		t.Errorf("target 46: %d, %v s and %d, %v s; want 46, 3600 s and 46, -1", p[0].Target, p[0].ETASeconds, p[1].Target, p[1].ETASeconds)
	}
	if d := r.Database; !d.Filling || d.FullInHours != nil || d.PruneKeep != 10 {
		t.Errorf("prune_keep 10: filling %v, full in %v, prune_keep %d; want true, nil, 10", d.Filling, d.FullInHours, d.PruneKeep)
	}

	// An empty database: empty lists, no growth, no forecast.
	r, err = Read(t.Context(), &fakeSource{}, Options{DB: "new.db"})
	if err != nil {
		t.Fatal(err)
	}
	got, _ = json.Marshal(r)
	const empty = `{"db":"new.db","database":{"bytes":0,"free_bytes":0,"wal_bytes":0,"growth_bytes_per_hour":null,` +
		`"growth_span_seconds":0,"disk_free_bytes":0,"full_in_hours":null,"filling_game_window":false,` +
		`"backups":{"dir":"","copies":0,"bytes":0,"keep":0}},"populations":[],"workers":[]}`
	if string(got) != empty {
		t.Errorf("Read of an empty database:\n got %s\nwant %s", got, empty)
	}

	fail := twoRuns()
	fail.failRating = errors.New("disk I/O error")
	if _, err := Read(t.Context(), fail, o); err == nil || err.Error() != "disk I/O error" {
		t.Errorf("Read with a failing rating: %v, want disk I/O error", err)
	}
}

// TestWrite checks the text of twoRuns' report, and of the same database
// without growth measured, backups or workers.
func TestWrite(t *testing.T) {
	const mib = 1 << 20
	o := Options{DB: "e.db", DiskFree: 100 * mib, Backups: Backups{Dir: "backups", Copies: 2, Bytes: 3 * mib, Keep: 4}}
	r, err := Read(t.Context(), twoRuns(), o)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, r, at(0)); err != nil {
		t.Fatal(err)
	}
	const want = `GAME      GENERATIONS  HOURS  BEST  MEAN  GENS/HOUR  LAST IMPROVED  RATING              ETA      LAST GENERATION
draughts  40           6.50   12    3.25  6.0        37             1235 ± 45 (gen 30)  10h0m0s  2026-11-01 11:45:00
chess     1            0.10   2     0.50  0.0        -              -                   -        -
draughts rating: Elo on draughts-ladder, tc untimed, 200 games, 95% interval (evolved rate, rating_history)
draughts curriculum: 4 checks, 2 raised the node budget (the last at generation 30); the node budget is 4000, from 1000 (sqlite3 DB 'select * from curriculum_history')
draughts distillation: 3 champions distilled, the last of generation 36 (sqlite3 DB "select born - 1 as generation, agent_id, parents from genomes where origin = 'distilled'")
draughts settings: curriculum_every 0 -> 10 from generation 20 (changed 2026-11-01 09:00:00)

WORKER  GAMES  REFUSED  GAMES/S  LAST RESULT
w1      500    2        0.07     1m0s ago

database e.db: 1.00 MiB (4.00 KiB free, 8.00 KiB write-ahead log), growing 10.0 MiB/hour over the last 30m0s
backups: 2 copies in backups, 3.00 MiB (backup_keep = 4: they grow 4 times as fast as the database)
disk: 100.0 MiB free, full in 2 hours at this growth with the backups (2026-11-01 14:00)
warning: the disk fills within a week at this growth; keep fewer game records, keyframes or backups ([jobs] prune_keep, keyframe_every, backup_keep), or free space (docs/daemon.md, retention)
`
	if b.String() != want {
		t.Errorf("Write:\n%s\nwant\n%s", b.String(), want)
	}

	// Times show in now's location.
	b.Reset()
	if err := Write(&b, r, at(0).In(time.FixedZone("UTC+2", 2*3600))); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b.Bytes(), []byte("  2026-11-01 13:45:00\n")) || !bytes.Contains(b.Bytes(), []byte("(changed 2026-11-01 11:00:00)")) ||
		!bytes.Contains(b.Bytes(), []byte("(2026-11-01 16:00)")) {
		t.Errorf("Write at UTC+2: the times are not in its location:\n%s", b.String())
	}

	src := twoRuns()
	src.measured, src.workers = false, nil
	o.Backups, o.PruneKeep = Backups{Dir: "backups"}, 10
	if r, err = Read(t.Context(), src, o); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := Write(&b, r, at(0)); err != nil {
		t.Fatal(err)
	}
	const tail = `draughts settings: curriculum_every 0 -> 10 from generation 20 (changed 2026-11-01 09:00:00)

database e.db: 1.00 MiB (4.00 KiB free, 8.00 KiB write-ahead log); growth not measured yet (it needs a minute of generations)
disk: 100.0 MiB free
`
	if !bytes.HasSuffix(b.Bytes(), []byte(tail)) {
		t.Errorf("Write without growth, backups or workers:\n%s\nwant it to end\n%s", b.String(), tail)
	}

	// Measured while a run fills its window: said, and no forecast.
	src.measured = true
	if r, err = Read(t.Context(), src, o); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := Write(&b, r, at(0)); err != nil {
		t.Fatal(err)
	}
	const filling = `
database e.db: 1.00 MiB (4.00 KiB free, 8.00 KiB write-ahead log), growing 10.0 MiB/hour over the last 30m0s (a run younger than the 10 generations whose game records it keeps, prune_keep, keeps all it plays: it grows slower once older, and when the disk fills is told then)
disk: 100.0 MiB free
`
	if !bytes.HasSuffix(b.Bytes(), []byte(filling)) {
		t.Errorf("Write while filling:\n%s\nwant it to end\n%s", b.String(), filling)
	}

	b.Reset()
	if err := Write(&b, Report{DB: "new.db"}, at(0)); err != nil || b.String() != "new.db holds no population yet\n" {
		t.Errorf("Write of no population: %q, %v", b.String(), err)
	}
}
