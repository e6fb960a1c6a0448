package daemon

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"evolved/games"
	"evolved/nnet"
	"evolved/population"
	"evolved/search"
	"evolved/storage"
)

// runSettings returns the settings that define game's run (the game's
// section of the configuration, C). A new run takes want. An existing run
// keeps the settings it was started with, read over C's zero value, so that
// a key a later version added has its zero value, the behaviour from before
// it existed, and a changed default never alters a run in progress. A key
// the configuration file sets to another value than the run's is refused,
// with the keys named: continuing a run with other settings would make a
// run that no seed reproduces. The exceptions are changingKeys, the
// curriculum's, the distillation's and learn_explore: set to other values, they hold from
// the run's next generation on, recorded with it
// (storage.DB.ChangeRunSettings), so that a run which has stopped climbing
// can be asked harder questions, or start distilling, without starting
// over, and its history still says how each generation was played.
func runSettings[C any](ctx context.Context, d *Daemon, game string, want C) (C, error) {
	run, err := d.db.LoadRun(ctx, game)
	if errors.Is(err, storage.ErrNoRun) {
		return want, nil
	}
	if err != nil {
		return want, err
	}
	var stored C
	if err := json.Unmarshal([]byte(run.Config), &stored); err != nil {
		return want, fmt.Errorf("daemon: %s run in %s: stored settings %s: %w", game, d.db.Path(), run.Config, err)
	}
	for _, c := range []any{&stored, &want} {
		if c, ok := c.(interface{ canonical() }); ok {
			c.canonical()
		}
	}
	have, err := definingJSON(stored)
	if err != nil {
		return want, err
	}
	wanted, err := definingJSON(want)
	if err != nil {
		return want, err
	}
	// The keys of a group change together: one of them set to another
	// value brings the others' configured values (or defaults) with it,
	// so that curriculum_every = 0 alone turns the curriculum off.
	diff := diffKeys(have, wanted)
	changes := map[string]bool{}
	for _, group := range changingKeys {
		if slices.ContainsFunc(diff, func(k string) bool {
			return slices.Contains(group, k) && d.config().Defined(game+"."+k)
		}) {
			for _, k := range group {
				changes[k] = true
			}
		}
	}
	var set, changing, kept []string
	for _, k := range diff {
		switch {
		case changes[k]:
			changing = append(changing, k)
		case !d.config().Defined(game + "." + k):
			kept = append(kept, k)
		default:
			set = append(set, k)
		}
	}
	if len(set) > 0 {
		return want, fmt.Errorf("%w: %s in %s was started with %s; the configuration sets %s to other values. Restore those settings, or use another database (of a run's settings only %s may change as it goes on)",
			ErrRunMismatch, game, d.db.Path(), have, strings.Join(qualify(game, set), ", "), strings.Join(qualify(game, slices.Concat(changingKeys...)), ", "))
	}
	if len(kept) > 0 {
		d.log.Info("the run keeps the settings it was started with", "game", game, "keys", strings.Join(qualify(game, kept), ","))
	}
	if len(changing) > 0 {
		return changeSettings(ctx, d, game, stored, have, wanted, changing)
	}
	return stored, nil
}

// changingKeys are the keys of a game section that may change in a run, in
// groups that change together (runSettings): the curriculum's, which
// decide only from when on the node budget rises, the distillation's,
// which decide only how the coming generations' last newcomer is made,
// the learning's, which decide what data games the coming generations
// play and when their champion trains (the position store starts with the
// generation learning joins), and learn_explore, which decides only how
// the coming trainings are made (an agent without settings trains with
// the defaults). Each is a number, or a bool, the stored settings omit
// when it is 0 or false.
var changingKeys = [][]string{
	{"curriculum_every", "curriculum_games", "curriculum_step"},
	{"distill_every", "distill_nodes"},
	{"learn_every", "learn_games", "learn_nodes", "learn_positions"},
	{"learn_explore"},
}

// changeSettings gives the run's stored settings (have, read into stored)
// the values wanted has for keys, checks the result as a configuration
// would be checked, and records it as the run's settings from its next
// generation on.
func changeSettings[C any](ctx context.Context, d *Daemon, game string, stored C, have, wanted string, keys []string) (C, error) {
	var from, to map[string]json.RawMessage
	if err := json.Unmarshal([]byte(have), &from); err != nil {
		return stored, fmt.Errorf("daemon: %s run: stored settings: %w", game, err)
	}
	if err := json.Unmarshal([]byte(wanted), &to); err != nil {
		return stored, fmt.Errorf("daemon: %s run: configured settings: %w", game, err)
	}
	merged := maps.Clone(from)
	var changes []storage.SettingChange
	var said []string
	for _, k := range keys {
		if v, ok := to[k]; ok {
			merged[k] = v
		} else {
			delete(merged, k)
		}
		old, now := cmp.Or(string(from[k]), "0"), cmp.Or(string(to[k]), "0")
		changes = append(changes, storage.SettingChange{Key: k, Old: old, New: now})
		said = append(said, fmt.Sprintf("%s.%s %s -> %s", game, k, old, now))
	}
	b, err := json.Marshal(merged)
	if err != nil {
		return stored, fmt.Errorf("daemon: %s run: %w", game, err)
	}
	var next C
	if err := json.Unmarshal(b, &next); err != nil {
		return stored, fmt.Errorf("daemon: %s run: changed settings: %w", game, err)
	}
	switch v := any(next).(type) {
	case interface{ validate() error }:
		err = v.validate()
	case interface{ validate(func(string) bool) error }:
		err = v.validate(d.config().Defined)
	default:
		err = fmt.Errorf("daemon: %T has no check", next)
	}
	if err != nil {
		return stored, fmt.Errorf("daemon: %s in %s: the run's settings with the configured %s: %w", game, d.db.Path(), strings.Join(qualify(game, keys), ", "), err)
	}
	config, err := definingJSON(next)
	if err != nil {
		return stored, err
	}
	generation, err := d.db.ChangeRunSettings(ctx, game, config, changes, time.Now())
	if err != nil {
		return stored, err
	}
	d.log.Info("the run's settings change", "game", game, "from_generation", generation, "changes", strings.Join(said, ", "))
	return next, nil
}

// qualify returns game.key for every key.
func qualify(game string, keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = game + "." + k
	}
	return out
}

// loadOrCreate resumes game's run from the database, or starts it with the
// settings defining (runSettings has chosen them for an existing run).
func loadOrCreate[M comparable, S search.Game[M]](ctx context.Context, d *Daemon, kind games.Kind[M, S], defining any, pcfg population.Config) (*population.State, error) {
	game := kind.Name
	want, err := definingJSON(defining)
	if err != nil {
		return nil, err
	}
	run, err := d.db.LoadRun(ctx, game)
	switch {
	case errors.Is(err, storage.ErrNoRun):
		seed := uint64(d.config().Seed)
		st, err := population.New(game, nnet.GenomeInputs(kind.Inputs, pcfg.Flags), pcfg, seed)
		if err != nil {
			return nil, fmt.Errorf("daemon: new %s run: %w", game, err)
		}
		run := storage.Run{Game: game, Seed: seed, Config: want, CreatedAt: time.Now(), Steps: pcfg.Steps()}
		if err := d.db.CreateRun(ctx, run, PopulationRows(st)); err != nil {
			return nil, err
		}
		d.log.Info("new run", "game", game, "seed", seed)
		return st, nil
	case err != nil:
		return nil, err
	}
	if s := uint64(d.config().Seed); s != run.Seed {
		d.log.Warn("the configured seed applies to new runs only; this run keeps its own", "game", game, "run_seed", run.Seed, "configured_seed", s)
	}
	// A run started before lineage storage learns its steps now; the
	// genomes it breeds from here on can then be rebuilt.
	if err := d.db.RecordSteps(ctx, game, pcfg.Steps()); err != nil {
		return nil, err
	}
	p, err := d.db.LoadPopulation(ctx, game)
	if err != nil {
		return nil, err
	}
	return PopulationState(p), nil
}

// definingJSON returns the stored form of the settings that define a run.
func definingJSON(defining any) (string, error) {
	b, err := json.Marshal(defining)
	if err != nil {
		return "", fmt.Errorf("daemon: run config: %w", err)
	}
	return string(b), nil
}

// diffKeys lists the top-level keys whose values differ between two JSON objects.
func diffKeys(a, b string) []string {
	var ma, mb map[string]json.RawMessage
	json.Unmarshal([]byte(a), &ma)
	json.Unmarshal([]byte(b), &mb)
	var out []string
	for k := range maps.Keys(ma) {
		if string(ma[k]) != string(mb[k]) {
			out = append(out, k)
		}
	}
	for k := range maps.Keys(mb) {
		if _, ok := ma[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// ErrRunMismatch means the database holds a run of the game with other
// defining settings than the configuration asks for.
var ErrRunMismatch = errors.New("daemon: the configuration differs from the stored run")
