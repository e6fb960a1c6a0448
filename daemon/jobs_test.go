package daemon

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"evolved/storage"
)

// newTestDaemon opens a daemon on a fresh database in a temporary directory.
func newTestDaemon(t *testing.T) *Daemon {
	t.Helper()
	cfg := DefaultConfig()
	cfg.DB = filepath.Join(t.TempDir(), "evolved.db")
	d, err := New(context.Background(), cfg, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Notifier: nopNotifier{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

type nopNotifier struct{}

func (nopNotifier) Notify(string)                   {}
func (nopNotifier) WatchdogInterval() time.Duration { return 0 }

func TestBackupKeepsTheNewestCopies(t *testing.T) {
	d := newTestDaemon(t)
	dir := filepath.Join(filepath.Dir(d.db.Path()), "backups")
	for i := range 4 {
		if _, err := d.backup(context.Background(), dir, 2); err != nil {
			t.Fatalf("backup %d: %v", i, err)
		}
		time.Sleep(1100 * time.Millisecond) // the names have a one-second resolution
	}
	left, _ := filepath.Glob(filepath.Join(dir, "evolved-*.db"))
	if len(left) != 2 {
		t.Fatalf("%d backups left, want the newest 2: %v", len(left), left)
	}
	// Each copy is a complete evolved database.
	for _, path := range left {
		db, err := storage.Open(context.Background(), path, storage.Options{ReadOnly: true})
		if err != nil {
			t.Errorf("backup %s does not open: %v", path, err)
			continue
		}
		if err := db.CheckIntegrity(context.Background()); err != nil {
			t.Errorf("backup %s: %v", path, err)
		}
		db.Close()
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		t.Errorf("backup directory: %v", err)
	}
}

// TestBaselineJobPlaysEveryGame runs one generation of each game and then
// the baseline job: it must report every game's champion against every
// baseline, each match with the configured number of games, and report
// the same on a second run (its seeds come from the run's). The job once
// knew draughts alone, and said nothing of chess and xiangqi.
func TestBaselineJobPlaysEveryGame(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a generation of each game")
	}
	cfg := fastDraughts()
	cfg.DB = filepath.Join(t.TempDir(), "evolved.db")
	cfg.Games = []string{"draughts", "chess", "xiangqi"}
	cfg.Generations = 1
	for _, pc := range []*PopulationConfig{&cfg.Draughts.PopulationConfig, &cfg.Chess.PopulationConfig, &cfg.Xiangqi.PopulationConfig} {
		pc.Depth, pc.MaxMoves = 1, 30
		pc.LadderGames, pc.BaselineEvery, pc.BaselineGames = 2, 0, 4
		pc.Baselines = []string{"random", "material:1"}
	}
	d, _ := runLogged(t, cfg, 0)
	var reports [2]string
	for i := range reports {
		var err error
		if reports[i], err = d.baselineJob(context.Background()); err != nil {
			t.Fatalf("baseline job: %v", err)
		}
	}
	if reports[0] != reports[1] {
		t.Errorf("the baseline job is not reproducible:\n%s\n%s", reports[0], reports[1])
	}
	re := regexp.MustCompile(`^(\w+) champion 0 vs (random|material:1): \+(\d+) =(\d+) -(\d+)$`)
	var seen []string
	for _, part := range strings.Split(reports[0], "; ") {
		m := re.FindStringSubmatch(part)
		if m == nil {
			t.Errorf("baseline report %q is not `GAME champion 0 vs SPEC: +W =D -L`", part)
			continue
		}
		w, _ := strconv.Atoi(m[3])
		dr, _ := strconv.Atoi(m[4])
		l, _ := strconv.Atoi(m[5])
		if w+dr+l != 4 {
			t.Errorf("%s: %d games, want 4", part, w+dr+l)
		}
		seen = append(seen, m[1]+" "+m[2])
	}
	want := []string{"draughts random", "draughts material:1", "chess random", "chess material:1", "xiangqi random", "xiangqi material:1"}
	if !slices.Equal(seen, want) {
		t.Errorf("the baseline job reported %v, want %v", seen, want)
	}
}
