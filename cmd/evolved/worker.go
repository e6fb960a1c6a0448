package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"

	"evolved/cluster"
	"evolved/daemon"
	"evolved/progress"
)

// workerCommand implements `evolved worker`: play the tournaments' games,
// and search the distillations' positions, that a coordinator (evolved
// run --nats) publishes.
func workerCommand(fs *flag.FlagSet) action {
	url := fs.String("nats", "", "the NATS server's `URL`, as the daemon logs it (nats://host:4222); required")
	workers := fs.Int("workers", 0, "play `W` games at once (default: the number of CPUs)")
	name := fs.String("name", "", "the worker's `NAME` in the coordinator's logs (default: host name and process id)")
	tlsCA := fs.String("tls-ca", "", "trust the certificate authorities of `FILE` (a server speaking TLS)")
	tlsCert := fs.String("tls-cert", "", "the client certificate `FILE`, for a server that asks for one (with --tls-key)")
	tlsKey := fs.String("tls-key", "", "the client key `FILE` (with --tls-cert)")
	logFormat := fs.String("log-format", "auto", "log `FORMAT`: auto, text or json")
	setHelp(fs, help{
		usage: []string{"--nats URL [--workers W] [--name NAME] [--tls-ca FILE] [--tls-cert FILE --tls-key FILE]"},
		about: "Plays the games of the generations a daemon started with --nats publishes, and " +
			"searches the positions of its distillations, with the same code as the daemon's own, " +
			"until SIGINT or SIGTERM. Credentials come from $" + cluster.EnvToken + ", or $" + cluster.EnvUser + " and $" + cluster.EnvPassword + ".",
	})
	return func(ctx context.Context, _ io.Reader, _, stderr io.Writer) error {
		switch {
		case *url == "":
			return usagef("worker: --nats URL is required")
		case *workers < 0 || *workers > 1024:
			return usagef("worker: --workers must be between 1 and 1024, got %d", *workers)
		case *logFormat != "auto" && *logFormat != "text" && *logFormat != "json":
			return usagef("worker: --log-format must be auto, text or json, got %q", *logFormat)
		}
		if *name == "" {
			host, _ := os.Hostname()
			*name = host + "-" + strconv.Itoa(os.Getpid())
		}
		level := new(slog.LevelVar)
		log := daemon.NewLogger(stderr, *logFormat, progress.IsTerminal(stderr), level).With("worker", *name)
		nc, err := cluster.Connect(ctx, cluster.ConnectOptions{URL: *url, Name: "evolved worker " + *name,
			TLSCA: *tlsCA, TLSCert: *tlsCert, TLSKey: *tlsKey, Retry: true, Log: log}.FromEnvironment(os.LookupEnv))
		if err != nil {
			return fmt.Errorf("worker: %w", err)
		}
		defer nc.Close()
		var played, searched atomic.Int64 // games, and positions of search jobs
		w := &cluster.Worker{Name: *name, Concurrency: *workers, Log: log, Played: func(job *cluster.Job) {
			if job.Kind == cluster.SearchJob {
				searched.Add(int64(len(job.Positions)))
			} else {
				played.Add(1)
			}
		}}
		if w.Concurrency == 0 {
			w.Concurrency = runtime.NumCPU()
		}
		log.Info("worker started", "nats", nc.ConnectedUrlRedacted(), "workers", w.Concurrency)
		stop := progress.Every(ctx, time.Minute, func(elapsed time.Duration) {
			n := played.Load()
			log.Info("games played", "games", n, "games_per_s", fmt.Sprintf("%.2f", float64(n)/elapsed.Seconds()), "positions_searched", searched.Load())
		})
		defer stop()
		if err := w.Run(ctx, nc); err != nil {
			return fmt.Errorf("worker: %w", err)
		}
		log.Info("worker stopped", "games", played.Load(), "positions_searched", searched.Load())
		return nil
	}
}
