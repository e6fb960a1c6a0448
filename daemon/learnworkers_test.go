package daemon

import (
	"bytes"
	"context"
	"sync/atomic"
	"testing"

	"evolved/cluster"
)

// sameChampions fails the test unless the champions of the first
// generations of a and b have the same nets.
func sameChampions(t *testing.T, a, b *Daemon, generations int) {
	t.Helper()
	ctx := context.Background()
	for g := range generations {
		na, err := a.db.ChampionNet("chess")(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		nb, err := b.db.ChampionNet("chess")(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if !na.Equal(nb) {
			t.Fatalf("generation %d: the champions differ", g)
		}
	}
}

// checkLearningOnWorkers runs the learning run local, of the database at
// path (three generations), again as db with a NATS server and a worker:
// the data games go to the worker (it played data jobs), and the position
// store and the champions are the local run's, byte for byte.
// TestLearningRunResumes calls it with its uninterrupted run.
func checkLearningOnWorkers(t *testing.T, local *Daemon, path, db string) {
	if testing.Short() {
		t.Skip("-short: a learning daemon through a NATS server (the race detector's run; cluster's own tests race the workers)")
	}
	var data atomic.Int64
	cfg := learningChess(t, db, 3)
	cfg.Cluster.NATS = startWorker(t, func(job *cluster.Job) {
		if job.Kind == cluster.DataJob {
			data.Add(1)
		}
	})
	remote := runDaemon(t, context.Background(), cfg)
	sameChampions(t, local, remote, 3)
	remote.Close()
	if want := int64(3 * cfg.Chess.LearnGames); data.Load() != want {
		t.Fatalf("the worker played %d data games, want %d", data.Load(), want)
	}
	a, b := storeFiles(t, path), storeFiles(t, db)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("the stores hold %d and %d files", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Fatalf("%s differs between the local run and the run on a worker", name)
		}
	}
}
