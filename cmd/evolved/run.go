package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/pprof"
	"strings"

	"evolved/cluster"
	"evolved/daemon"
	"evolved/outfile"
	"evolved/progress"
	"evolved/storage"
	"evolved/web"
)

// runCommand implements `evolved run`, the daemon.
func runCommand(fs *flag.FlagSet) action {
	configPath := fs.String("config", "", "read the configuration from this TOML `FILE` (default: built in; see --print-config)")
	printConfig := fs.Bool("print-config", false, "print the effective configuration as TOML and exit")
	flagKeys := overrideFlags(fs)
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to `FILE`, for go tool pprof")
	setHelp(fs, help{
		usage: []string{"[--db FILE] [--config FILE] [--preset " + strings.Join(daemon.Presets(), "|") + "] [--game " + strings.Join(daemon.KnownGames(), ",") + "] [--generations N] [--seed S] [--workers W] [--nats URL|embedded] [--http HOST:PORT]"},
		about: `Evolves the configured populations, committing every generation to the database;
a restart resumes from the last committed generation. SIGINT/SIGTERM stop it
(the generation in flight is abandoned), SIGHUP reloads the configuration file.
Layers: built-in defaults, the --preset, the --config file, $EVOLVED_* variables,
then flags.`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, stderr io.Writer) error {
		overrides := map[string]string{}
		fs.Visit(func(f *flag.Flag) {
			if key, ok := flagKeys[f.Name]; ok {
				overrides[key] = f.Value.String()
			}
		})
		cfg, err := daemon.LoadConfig(*configPath, os.LookupEnv, overrides)
		if err != nil {
			return &usageError{msg: "run: " + err.Error()}
		}
		if *printConfig {
			return cfg.Print(stdout)
		}
		if *cpuProfile != "" {
			guard := outputGuard(cfg.DB, cmp.Or(cfg.HTTP.LabDB, web.DefaultLabDB(cfg.DB)))
			stop, err := startCPUProfile(guard, *cpuProfile)
			if err != nil {
				return fmt.Errorf("run: %w", err)
			}
			defer stop()
		}
		logger, level, line := runLogger(cfg, stderr)
		d, err := daemon.New(ctx, cfg, daemon.Options{
			ConfigPath: *configPath, Overrides: overrides, Logger: logger, Level: level, Line: line, Version: moduleVersion(),
		})
		if err != nil {
			if ctx.Err() != nil {
				// Stopped while opening (a SIGTERM in the first
				// milliseconds): nothing was evolved and nothing is lost,
				// so it is a clean stop.
				logger.Info("stopped before the first generation")
				return nil
			}
			return openError(err)
		}
		runErr := d.Run(ctx)
		if err := d.Close(); err != nil && runErr == nil {
			runErr = err
		}
		if runErr != nil {
			return fmt.Errorf("run: %w", runErr)
		}
		return nil
	}
}

// overrideFlags defines the flags of `evolved run` that override the
// configuration file and the environment, and returns the configuration
// key of each.
func overrideFlags(fs *flag.FlagSet) map[string]string {
	// Flags over the file and the environment; only those given count, so
	// they are strings (a typed flag cannot tell 0 from absent) whose
	// backquoted words name their arguments in -h, and the defaults quoted
	// are the built-in ones, which the file and the environment override.
	def := daemon.DefaultConfig()
	fs.String("db", "", "the database `FILE` "+dbDefault)
	fs.String("game", "", "the populations to evolve, a comma-separated `LIST` of "+strings.Join(daemon.KnownGames(), ", ")+
		fmt.Sprintf(" (default %q)", strings.Join(def.Games, ",")))
	fs.String("generations", "", fmt.Sprintf("stop once each population has played `N` generations, 0 to run forever (default %d)", def.Generations))
	fs.String("seed", "", fmt.Sprintf("seed `S` of new runs; an existing run keeps its own (default %d)", def.Seed))
	fs.String("workers", "", fmt.Sprintf("play `W` games at once across all populations, 0 for the number of CPUs (default %d)", def.Workers))
	fs.String("log-format", "", fmt.Sprintf("log `FORMAT`: auto, text or json (default %q)", def.LogFormat))
	fs.String("log-level", "", fmt.Sprintf("log `LEVEL`: debug, info, warn or error (default %q)", def.LogLevel))
	fs.String("nats", "", "play the tournaments on workers (evolved worker) through the NATS server at `URL`, or through one started\n"+
		"beside the database with \"embedded\" (default: here; credentials from $"+cluster.EnvToken+", or $"+cluster.EnvUser+" and $"+cluster.EnvPassword+")")
	fs.String("http", "", "serve the web site (pages, live updates, /metrics) on `HOST:PORT` while evolving, as evolved serve does\n"+
		"(default: none; beyond loopback it needs a token: [http] token or $"+web.TokenEnv+")")
	fs.String("preset", "", "start from the settings `NAME` stands for, under the --config file, $EVOLVED_* and the other flags:\n"+
		"blondie24, the Blondie experiment (draughts, 840 generations at depth 4, its settings as docs/draughts.md measured them,\n"+
		"whatever the defaults become); without it, the built-in defaults")
	return map[string]string{"preset": daemon.PresetKey, "db": "db", "game": "games", "generations": "generations", "seed": "seed",
		"workers": "workers", "log-format": "log_format", "log-level": "log_level", "nats": "cluster.nats", "http": "http.listen"}
}

// runLogger returns the daemon's logger at cfg's level and format, the
// level it can change, and on a terminal the live line the log writes
// through, which it then erases and redraws below each log line (nil
// elsewhere).
func runLogger(cfg daemon.Config, stderr io.Writer) (*slog.Logger, *slog.LevelVar, *progress.Line) {
	terminal := progress.IsTerminal(stderr)
	level := new(slog.LevelVar)
	if l, err := levelOf(cfg.LogLevel); err == nil {
		level.Set(l)
	}
	var logOut io.Writer = stderr
	var line *progress.Line
	if terminal {
		line = progress.NewLine(stderr)
		logOut = line
	}
	return daemon.NewLogger(logOut, cfg.LogFormat, terminal, level), level, line
}

// openError is the command's error for a daemon that did not open: a
// database another daemon holds, named with the way out; a configuration
// error found once the daemon looks around (the database's directory), a
// usage error.
func openError(err error) error {
	switch {
	case errors.Is(err, storage.ErrLocked):
		return fmt.Errorf("run: %w; stop the daemon that holds it, or evolve in another database with --db FILE", err)
	case errors.Is(err, daemon.ErrConfig):
		return &usageError{msg: "run: " + err.Error()}
	}
	return fmt.Errorf("run: %w", err)
}

// levelOf reads a log level name.
func levelOf(s string) (slog.Level, error) {
	var l slog.Level
	err := l.UnmarshalText([]byte(s))
	return l, err
}

// startCPUProfile profiles the process's CPU into path, checked by guard
// before its first byte, until stop, which reports a failure to finish the
// file on the log of last resort (stderr of the process, as the profile
// is a diagnostic).
func startCPUProfile(guard *outfile.Guard, path string) (stop func(), err error) {
	f, err := guard.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile %s: %w", path, err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "evolved: cpu profile %s: %v\n", path, err)
		}
	}, nil
}
