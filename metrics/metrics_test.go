package metrics_test

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"evolved/metrics"
	"evolved/storage"
)

// TestDatabaseCollector reads an empty database, then a closed one: the
// failure is logged and reported as evolved_database_up 0, not a failed
// scrape.
func TestDatabaseCollector(t *testing.T) {
	db, err := storage.Open(context.Background(), filepath.Join(t.TempDir(), "evolved.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	c := metrics.NewDatabaseCollector(db, slog.New(slog.NewTextHandler(&logs, nil)))
	want := `
# HELP evolved_database_up 1 if the last scrape read the database, 0 if it failed.
# TYPE evolved_database_up gauge
evolved_database_up 1
# HELP evolved_workers_connected Workers that sent a counted result in the last 5 minutes, as the daemon last recorded them.
# TYPE evolved_workers_connected gauge
evolved_workers_connected 0
`
	if err := testutil.CollectAndCompare(c, strings.NewReader(want), "evolved_database_up", "evolved_workers_connected"); err != nil {
		t.Error(err)
	}
	if n := testutil.CollectAndCount(c, "evolved_generations"); n != 0 {
		t.Errorf("an empty database gives %d generation series, want 0", n)
	}
	db.Close()
	if err := testutil.CollectAndCompare(c, strings.NewReader("# HELP evolved_database_up 1 if the last scrape read the database, 0 if it failed.\n"+
		"# TYPE evolved_database_up gauge\nevolved_database_up 0\n"), "evolved_database_up"); err != nil {
		t.Error(err)
	}
	if !strings.Contains(logs.String(), "could not read the database") {
		t.Errorf("the failure was not logged: %q", logs.String())
	}
}

// TestDaemonMetrics registers the daemon's metrics and records a
// checkpoint and nodes.
func TestDaemonMetrics(t *testing.T) {
	d := metrics.NewDaemon()
	reg := prometheus.NewRegistry()
	for _, c := range d.Collectors() {
		if err := reg.Register(c); err != nil {
			t.Fatal(err)
		}
	}
	d.Checkpoint.WithLabelValues("chess").Observe(0.003)
	d.Nodes.WithLabelValues("chess").Add(1500)
	d.Nodes.WithLabelValues("chess").Add(500)
	if got := testutil.ToFloat64(d.Nodes.WithLabelValues("chess")); got != 2000 {
		t.Errorf("nodes = %v, want 2000", got)
	}
	if n := testutil.CollectAndCount(d.Checkpoint); n != 1 {
		t.Errorf("%d checkpoint series, want 1", n)
	}
}
