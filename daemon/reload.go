package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/robfig/cron/v3"
)

// LoadConfig builds the effective configuration: defaults, then the
// preset that overrides[PresetKey] names (if any), then the file at path
// (if any), then the environment, then the other command-line overrides.
func LoadConfig(path string, lookup func(string) (string, bool), overrides map[string]string) (Config, error) {
	c := DefaultConfig()
	var err error
	if name, ok := overrides[PresetKey]; ok {
		if c, err = applyPreset(c, name); err != nil {
			return c, err
		}
	}
	if path != "" {
		if c, err = LoadConfigFile(c, path); err != nil {
			return c, err
		}
	}
	if c, err = ApplyEnv(c, lookup); err != nil {
		return c, err
	}
	for k, v := range overrides {
		if k == PresetKey {
			continue
		}
		if err := c.Set(k, v); err != nil {
			return c, err
		}
	}
	return c, c.Validate()
}

// reload rereads the configuration on SIGHUP and applies what can change
// while running: workers, the generation target, the log level and the
// jobs. What defines a run, or needs a restart, is reported and ignored.
// It returns the running job scheduler (a new one if the jobs changed).
func (d *Daemon) reload(ctx context.Context, jobs *cron.Cron) *cron.Cron {
	next, err := LoadConfig(d.configPath, os.LookupEnv, d.overrides)
	if err != nil {
		d.log.Error("reload: keeping the running configuration", "err", err)
		return jobs
	}
	d.mu.Lock()
	old := d.cfg
	d.mu.Unlock()
	var changed []string
	note := func(key string, from, to any) {
		changed = append(changed, key)
		d.log.Info("reload: changed", "key", key, "from", from, "to", to)
	}
	if old.Workers != next.Workers {
		note("workers", old.Workers, next.Workers)
	}
	if old.Generations != next.Generations {
		note("generations", old.Generations, next.Generations)
	}
	if old.LogLevel != next.LogLevel {
		note("log_level", old.LogLevel, next.LogLevel)
		if lvl, err := parseLevel(next.LogLevel); err == nil && d.level != nil {
			d.level.Set(lvl)
		}
	}
	for key, differs := range map[string]bool{
		"db": old.DB != next.DB, "games": fmt.Sprint(old.Games) != fmt.Sprint(next.Games),
		"log_format": old.LogFormat != next.LogFormat, "seed": old.Seed != next.Seed,
		"draughts": !sameJSON(old.Draughts, next.Draughts), "chess": !sameJSON(old.Chess, next.Chess),
		"xiangqi": !sameJSON(old.Xiangqi, next.Xiangqi),
	} {
		if differs {
			d.log.Warn("reload: ignored; it needs a restart (and for seed and game sections a new database, but for the curriculum's keys, which a restart applies from the next generation)", "key", key)
		}
	}
	// Keep the settings that cannot change, take the rest.
	next.DB, next.Games, next.LogFormat, next.Seed = old.DB, old.Games, old.LogFormat, old.Seed
	next.Draughts, next.Chess, next.Xiangqi = old.Draughts, old.Chess, old.Xiangqi
	d.mu.Lock()
	d.cfg = next
	d.mu.Unlock()
	if old.Workers != next.Workers {
		d.resizeSlots(ctx)
	}
	if !sameJSON(old.Jobs, next.Jobs) {
		changed = append(changed, "jobs")
		newJobs, err := d.startJobs(next.Jobs)
		if err != nil {
			d.log.Error("reload: keeping the running jobs", "err", err)
			d.mu.Lock()
			d.cfg.Jobs = old.Jobs
			d.mu.Unlock()
		} else {
			jobs.Stop()
			jobs = newJobs
			d.log.Info("reload: jobs rescheduled")
		}
	}
	d.log.Info("reloaded", "config", d.configPath, "changed", changed)
	return jobs
}

// resizeSlots changes the shared game budget to the configured workers by
// holding back more or fewer of its units. Holding back more waits for
// games to finish, so it runs in the background.
func (d *Daemon) resizeSlots(ctx context.Context) {
	want := maxSlots - d.workers()
	d.mu.Lock()
	delta := want - d.held
	d.held = want
	d.mu.Unlock()
	switch {
	case delta < 0:
		d.slots.Release(int64(-delta))
	case delta > 0:
		go d.slots.Acquire(ctx, int64(delta))
	}
}

// sameJSON reports whether two values encode to the same JSON.
func sameJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}
