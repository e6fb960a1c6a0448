package daemon

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/robfig/cron/v3"

	"evolved/nnet"
	"evolved/player"
	"evolved/population"
	"evolved/tournament"
)

// Config is the daemon's configuration. It is read in layers: DefaultConfig,
// then a TOML file (ParseConfig), then environment variables (ApplyEnv),
// then command-line flags; Validate checks the result.
type Config struct {
	// DB is the database file.
	DB string `toml:"db"`
	// Games lists the populations to evolve.
	Games []string `toml:"games"`
	// Generations stops the daemon once every population has played this
	// many generations in total; 0 runs forever.
	Generations int `toml:"generations"`
	// Seed is the seed of new runs; an existing run keeps its own. It is
	// signed here so that a negative value in a file is seen and refused
	// (the TOML decoder would wrap it into an unsigned field).
	Seed int64 `toml:"seed"`
	// Workers is the number of games played at once across all
	// populations; 0 means the number of CPUs.
	Workers int `toml:"workers"`
	// LogFormat is auto, text or json; LogLevel debug, info, warn or error.
	LogFormat string `toml:"log_format"`
	LogLevel  string `toml:"log_level"`

	Draughts DraughtsConfig `toml:"draughts"`
	Jobs     JobsConfig     `toml:"jobs"`
}

// DraughtsConfig defines the draughts population. With the seed it defines
// a run: it cannot change for an existing database.
type DraughtsConfig struct {
	Depth           int      `toml:"depth" json:"depth"`
	OpeningPlies    int      `toml:"opening_plies" json:"opening_plies"`
	MaxMoves        int      `toml:"max_moves" json:"max_moves"`
	Format          string   `toml:"format" json:"format"`
	Population      int      `toml:"population" json:"population"`
	Elite           int      `toml:"elite" json:"elite"`
	Hidden          []int    `toml:"hidden" json:"hidden"`
	PieceDiff       bool     `toml:"piece_diff" json:"piece_diff"`
	EvolveKing      bool     `toml:"evolve_king" json:"evolve_king"`
	SelfAdaptive    bool     `toml:"self_adaptive" json:"self_adaptive"`
	LadderChampions int      `toml:"ladder_champions" json:"ladder_champions"`
	LadderGames     int      `toml:"ladder_games" json:"ladder_games"`
	BaselineEvery   int      `toml:"baseline_every" json:"baseline_every"`
	Baselines       []string `toml:"baselines" json:"baselines"`
	BaselineGames   int      `toml:"baseline_games" json:"baseline_games"`
}

// JobsConfig schedules the periodic jobs (cron specs; "" disables a job).
type JobsConfig struct {
	Backup     string `toml:"backup"`
	BackupDir  string `toml:"backup_dir"`
	BackupKeep int    `toml:"backup_keep"`
	Prune      string `toml:"prune"`
	PruneKeep  int    `toml:"prune_keep"`
	Baseline   string `toml:"baseline"`
}

// DefaultConfig returns the built-in configuration: Blondie24's draughts
// experiment on evolved.db (or $EVOLVED_DB) in the working directory.
func DefaultConfig() Config {
	return Config{
		DB:        "evolved.db",
		Games:     []string{"draughts"},
		Seed:      1,
		LogFormat: "auto",
		LogLevel:  "info",
		Draughts: DraughtsConfig{
			Depth: 4, OpeningPlies: 4, MaxMoves: 100, Format: string(tournament.RoundRobin),
			Population: 15, Elite: 5, Hidden: []int{40, 10}, PieceDiff: true,
			LadderChampions: 5, LadderGames: 6,
			BaselineEvery: 10, Baselines: []string{"random", "material:4", "mcts:1000"}, BaselineGames: 20,
		},
		Jobs: JobsConfig{
			Backup: "@daily", BackupDir: "backups", BackupKeep: 7,
			Prune: "@weekly", PruneKeep: 50,
		},
	}
}

// ErrConfig is wrapped by every configuration error; the message names the key.
var ErrConfig = errors.New("config")

// ConfigError is an invalid value, with the key it was given for.
type ConfigError struct {
	Key   string
	Value any
	Msg   string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("config: %s = %v: %s", e.Key, e.Value, e.Msg)
}

// Unwrap returns ErrConfig.
func (e *ConfigError) Unwrap() error { return ErrConfig }

// ParseConfig reads a TOML file over c. Unknown keys are errors that name
// them, so a typo is never silently ignored.
func ParseConfig(c Config, r io.Reader, name string) (Config, error) {
	md, err := toml.NewDecoder(r).Decode(&c)
	if err != nil {
		return c, fmt.Errorf("%w: %s: %w", ErrConfig, name, err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		keys := make([]string, len(undecoded))
		for i, k := range undecoded {
			keys[i] = k.String()
		}
		return c, fmt.Errorf("%w: %s: unknown key %s", ErrConfig, name, strings.Join(keys, ", "))
	}
	return c, nil
}

// LoadConfigFile reads the TOML file at path over c.
func LoadConfigFile(c Config, path string) (Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return c, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	defer f.Close()
	return ParseConfig(c, f, path)
}

// envKeys are the environment variables ApplyEnv reads, with their keys.
var envKeys = []struct{ env, key string }{
	{"EVOLVED_DB", "db"}, {"EVOLVED_GAMES", "games"}, {"EVOLVED_GENERATIONS", "generations"},
	{"EVOLVED_SEED", "seed"}, {"EVOLVED_WORKERS", "workers"},
	{"EVOLVED_LOG_FORMAT", "log_format"}, {"EVOLVED_LOG_LEVEL", "log_level"},
}

// ApplyEnv applies the EVOLVED_* environment variables found by lookup
// (os.LookupEnv in production) over c. An empty variable counts as unset.
func ApplyEnv(c Config, lookup func(string) (string, bool)) (Config, error) {
	for _, e := range envKeys {
		v, ok := lookup(e.env)
		if !ok || v == "" {
			continue
		}
		if err := c.Set(e.key, v); err != nil {
			return c, fmt.Errorf("%w (from $%s)", err, e.env)
		}
	}
	return c, nil
}

// Set sets a top-level key from its text form, as flags and the environment
// give it.
func (c *Config) Set(key, value string) error {
	bad := func(msg string) error { return &ConfigError{Key: key, Value: strconv.Quote(value), Msg: msg} }
	num := func() (int, error) {
		n, err := strconv.Atoi(value)
		if err != nil {
			return 0, bad("not a whole number")
		}
		return n, nil
	}
	var err error
	switch key {
	case "db":
		c.DB = value
	case "games":
		c.Games = nil
		for _, g := range strings.Split(value, ",") {
			if g = strings.TrimSpace(g); g != "" {
				c.Games = append(c.Games, g)
			}
		}
	case "generations":
		c.Generations, err = num()
	case "seed":
		c.Seed, err = strconv.ParseInt(value, 10, 64)
		if err != nil || c.Seed < 0 {
			return bad("not a non-negative whole number")
		}
	case "workers":
		c.Workers, err = num()
	case "log_format":
		c.LogFormat = value
	case "log_level":
		c.LogLevel = value
	default:
		return bad("unknown key")
	}
	return err
}

// knownGames are the games a population can evolve.
var knownGames = []string{"draughts"}

// Validate checks every value and names the key of the first bad one.
func (c Config) Validate() error {
	bad := func(key string, v any, msg string) error { return &ConfigError{Key: key, Value: v, Msg: msg} }
	if c.DB == "" {
		return bad("db", `""`, "empty")
	}
	if len(c.Games) == 0 {
		return bad("games", "[]", "no game to evolve")
	}
	for _, g := range c.Games {
		if !slices.Contains(knownGames, g) {
			return bad("games", strconv.Quote(g), "unknown game (known: "+strings.Join(knownGames, ", ")+")")
		}
	}
	if c.Seed < 0 {
		return bad("seed", c.Seed, "must not be negative")
	}
	if c.Generations < 0 {
		return bad("generations", c.Generations, "must not be negative")
	}
	if c.Workers < 0 || c.Workers > 1024 {
		return bad("workers", c.Workers, "want 0 (all CPUs) to 1024")
	}
	if !slices.Contains([]string{"auto", "text", "json"}, c.LogFormat) {
		return bad("log_format", strconv.Quote(c.LogFormat), "want auto, text or json")
	}
	if _, err := parseLevel(c.LogLevel); err != nil {
		return bad("log_level", strconv.Quote(c.LogLevel), "want debug, info, warn or error")
	}
	d := c.Draughts
	switch {
	case d.Depth < 1 || d.Depth > 20:
		return bad("draughts.depth", d.Depth, "want 1..20")
	case d.OpeningPlies < 0 || d.OpeningPlies > 20:
		return bad("draughts.opening_plies", d.OpeningPlies, "want 0..20")
	case d.MaxMoves < 1 || d.MaxMoves > 10000:
		return bad("draughts.max_moves", d.MaxMoves, "want 1..10000")
	case d.BaselineGames < 0 || d.BaselineGames > 10000:
		return bad("draughts.baseline_games", d.BaselineGames, "want 0..10000")
	}
	if _, err := tournament.ParseFormat(d.Format); err != nil {
		return bad("draughts.format", strconv.Quote(d.Format), "want roundrobin or blondie")
	}
	for _, b := range d.Baselines {
		if _, err := player.ParseDraughts(b); err != nil {
			return bad("draughts.baselines", strconv.Quote(b), err.Error())
		}
	}
	if err := d.population(0).Validate(); err != nil {
		return bad("draughts", "(population)", strings.TrimPrefix(err.Error(), "population: invalid config: "))
	}
	parser := cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)
	for _, j := range []struct{ key, spec string }{{"jobs.backup", c.Jobs.Backup}, {"jobs.prune", c.Jobs.Prune}, {"jobs.baseline", c.Jobs.Baseline}} {
		if j.spec == "" {
			continue
		}
		if _, err := parser.Parse(j.spec); err != nil {
			return bad(j.key, strconv.Quote(j.spec), err.Error())
		}
	}
	if c.Jobs.Backup != "" && c.Jobs.BackupDir == "" {
		return bad("jobs.backup_dir", `""`, "empty while jobs.backup is on")
	}
	if c.Jobs.BackupKeep < 1 {
		return bad("jobs.backup_keep", c.Jobs.BackupKeep, "want at least 1")
	}
	if c.Jobs.PruneKeep < 0 {
		return bad("jobs.prune_keep", c.Jobs.PruneKeep, "must not be negative")
	}
	return nil
}

// population returns the genetic algorithm's configuration for draughts.
func (d DraughtsConfig) population(workers int) population.Config {
	cfg := population.DefaultConfig()
	cfg.Size, cfg.Elite, cfg.Hidden = d.Population, d.Elite, slices.Clone(d.Hidden)
	// The breeding recipe is DESIGN.md's; elite sizes other than 5 keep
	// the two crossover pairs and mutate ranks 4..elite.
	cfg.Mutants = nil
	for r := 4; r <= d.Elite; r++ {
		cfg.Mutants = append(cfg.Mutants, r)
	}
	cfg.Flags = 0
	if d.PieceDiff {
		cfg.Flags |= nnet.PieceDiff
	}
	if d.EvolveKing {
		cfg.Flags |= nnet.EvolveKing
	}
	if d.SelfAdaptive {
		cfg.Flags |= nnet.SelfAdaptive
	}
	cfg.Tournament = tournament.Config{Format: tournament.Format(d.Format), Scoring: tournament.DefaultScoring, Workers: workers}
	cfg.LadderChampions, cfg.LadderGames = d.LadderChampions, d.LadderGames
	cfg.BaselineEvery, cfg.Baselines, cfg.BaselineGames = d.BaselineEvery, slices.Clone(d.Baselines), d.BaselineGames
	return cfg
}

// Print writes c as TOML, the form --print-config shows.
func (c Config) Print(w io.Writer) error {
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(c); err != nil {
		return fmt.Errorf("print config: %w", err)
	}
	_, err := w.Write(b.Bytes())
	return err
}
