package daemon

import (
	"cmp"
	"context"
	"fmt"
	"os"

	"evolved/web"
)

// startSite opens the web site's socket and prepares the site over the
// daemon's database (a read-only connection of its own).
func (d *Daemon) startSite(ctx context.Context, cfg Config, opts Options) error {
	token := siteToken(cfg, opts)
	ln, err := web.Listen(cfg.HTTP.Listen, token)
	if err != nil {
		return fmt.Errorf("daemon: http.listen: %w", err)
	}
	site, err := web.New(ctx, web.Options{DB: cfg.DB, Token: token, Logger: d.log, Version: opts.Version,
		Collectors: d.metrics.Collectors(), Targets: d.targets,
		LabDB: cmp.Or(cfg.HTTP.LabDB, web.DefaultLabDB(cfg.DB)), AllowLabOnLoopback: cfg.HTTP.AllowLabOnLoopback,
		LabEngines: web.FindLabEngines()})
	if err != nil {
		ln.Close()
		return fmt.Errorf("daemon: %w", err)
	}
	d.site, d.httpLn = site, ln
	return nil
}

// siteToken is the web site's access token: the configuration's, or else
// $EVOLVED_HTTP_TOKEN's.
func siteToken(cfg Config, opts Options) string {
	if cfg.HTTP.Token != "" {
		return cfg.HTTP.Token
	}
	lookup := opts.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	token, _ := lookup(web.TokenEnv)
	return token
}

// targets returns the generation target of each game the daemon evolves,
// for the site's ETA.
func (d *Daemon) targets() map[string]int {
	cfg := d.config()
	out := map[string]int{}
	for _, g := range cfg.Games {
		out[g] = cfg.Generations
	}
	return out
}

// serveSite serves the web site until ctx ends and returns the function
// that stops it (with cancel, ctx's) and waits for its requests to finish.
func (d *Daemon) serveSite(ctx context.Context, cancel context.CancelFunc) (stop func()) {
	ln := d.httpLn
	d.httpLn = nil // Serve closes it
	served := make(chan struct{})
	go func() {
		defer close(served)
		if err := d.site.Serve(ctx, ln); err != nil {
			d.log.Error("the web site stopped; the evolution goes on", "err", err)
		}
	}()
	d.log.Info("web site serving", "url", "http://"+ln.Addr().String()+"/")
	return func() {
		cancel()
		<-served
	}
}
