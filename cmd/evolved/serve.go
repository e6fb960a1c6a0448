package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"

	"evolved/daemon"
	"evolved/progress"
	"evolved/web"
)

// serveCommand implements `evolved serve`: the web site over a database,
// beside a running daemon or alone.
func serveCommand(fs *flag.FlagSet) action {
	dbPath := dbFlag(fs, "the database `FILE` to show (opened read-only)")
	listen := fs.String("listen", web.DefaultListen, "serve on `HOST:PORT`; beyond loopback it needs an access token")
	tokenFile := fs.String("token-file", "", "read the access token from `FILE` (default: $"+web.TokenEnv+"; none on loopback)")
	logFormat := fs.String("log-format", "auto", "log `FORMAT`: auto, text or json")
	labDB := fs.String("lab-db", "", "store the runs the lab page starts in `FILE` (default: beside --db, evolved.db giving evolved.lab.db)")
	allowLab := fs.Bool("allow-lab-on-loopback", false, "let the lab page start work without an access token (the site then answers on loopback only)")
	setHelp(fs, help{
		usage: []string{"[--db FILE] [--listen HOST:PORT] [--token-file FILE] [--lab-db FILE] [--allow-lab-on-loopback]"},
		about: `Serves the web site of a database: every population's curves, champions,
generations and games on replay boards, live updates as generations are
committed, play in the browser and Prometheus metrics at /metrics, until
SIGINT or SIGTERM. It only reads the database, so it runs beside the daemon.
Its lab page (/lab) starts chess-lab and Chess960 runs, stored in a lab
database of their own; starting work needs the token, or --allow-lab-on-loopback.`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, stderr io.Writer) error {
		if *logFormat != "auto" && *logFormat != "text" && *logFormat != "json" {
			return usagef("serve: --log-format must be auto, text or json, got %q", *logFormat)
		}
		token := os.Getenv(web.TokenEnv)
		if *tokenFile != "" {
			b, err := os.ReadFile(*tokenFile)
			if err != nil {
				return fmt.Errorf("serve: token file: %w", err)
			}
			if token = strings.TrimSpace(string(b)); token == "" {
				return usagef("serve: token file %s is empty", *tokenFile) // an access token too short, as CheckListen says of one
			}
		}
		if err := web.CheckListen(*listen, token); err != nil {
			return &usageError{msg: "serve: " + err.Error()}
		}
		log := daemon.NewLogger(stderr, *logFormat, progress.IsTerminal(stderr), new(slog.LevelVar))
		srv, err := web.New(ctx, web.Options{DB: *dbPath, Token: token, Logger: log, Version: moduleVersion(),
			LabDB: cmp.Or(*labDB, web.DefaultLabDB(*dbPath)), AllowLabOnLoopback: *allowLab, LabEngines: web.FindLabEngines()})
		if err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		defer srv.Close()
		ln, err := web.Listen(*listen, token)
		if err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		fmt.Fprintf(stdout, "serving %s at http://%s/ (Ctrl-C stops)\n", *dbPath, ln.Addr())
		if err := srv.Serve(ctx, ln); err != nil {
			return fmt.Errorf("serve: %w", err)
		}
		return nil
	}
}

// moduleVersion is the binary's module version and, when stamped, its
// commit, for the web site's footer.
func moduleVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	return versionWithCommit(info.Main.Version, info.Settings)
}

// versionWithCommit is version followed by the first 12 digits of the
// commit that settings stamp, unless version names it already, as a Go
// pseudo-version does (v0.0.0-20261207011234-abcdef123456): once is enough.
func versionWithCommit(version string, settings []debug.BuildSetting) string {
	for _, s := range settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 && !strings.Contains(version, s.Value[:12]) {
			version += " " + s.Value[:12]
		}
	}
	return version
}
