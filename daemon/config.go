package daemon

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/robfig/cron/v3"

	"evolved/games"
	"evolved/nnet"
	"evolved/player"
	"evolved/rating"
	"evolved/storage"
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
	Chess    ChessConfig    `toml:"chess"`
	Xiangqi  XiangqiConfig  `toml:"xiangqi"`
	Jobs     JobsConfig     `toml:"jobs"`
	Cluster  ClusterConfig  `toml:"cluster"`
	HTTP     HTTPConfig     `toml:"http"`

	// defined holds the keys a configuration file set ("draughts.depth"):
	// a run keeps its stored settings over the defaults, not over these.
	defined map[string]bool
}

// Defined reports whether a configuration file set key ("draughts.depth").
func (c Config) Defined(key string) bool { return c.defined[key] }

// JobsConfig schedules the periodic jobs (cron specs; "" disables a job)
// and sets the retention that every generation's commit applies.
type JobsConfig struct {
	Backup     string `toml:"backup"`
	BackupDir  string `toml:"backup_dir"`
	BackupKeep int    `toml:"backup_keep"`
	// Prune schedules the catch-up of the retention below over the whole
	// database and the incremental vacuum that gives free pages back.
	Prune string `toml:"prune"`
	// PruneKeep is how many of the latest generations keep their game
	// records; GenomeKeep how many generations before the current
	// population keep their members' genomes whole; KeyframeEvery how
	// many breeding operations at most separate an older genome from kept
	// weights it is rebuilt from (0: keep every champion whole and
	// rebuild nothing). See storage.Retention.
	PruneKeep  int `toml:"prune_keep"`
	GenomeKeep int `toml:"genome_keep"`
	// GenomeWindowMB caps, in MiB, the whole genomes genome_keep's window
	// holds (storage.Retention.GenomeBytes): wide genomes keep fewer
	// generations; 0 caps nothing.
	GenomeWindowMB int `toml:"genome_window_mb"`
	KeyframeEvery  int `toml:"keyframe_every"`
	// PositionsMB bounds, in MiB, each population's position store (the
	// data games' positions of a run with learn_every; see
	// positions.Options.MaxBytes): the oldest positions go first.
	PositionsMB int `toml:"positions_mb"`
	// MembersKeep is how many generations before the current population
	// keep their populations, ladder results and the rows of genomes
	// that matter to nothing later (storage.Retention.Members).
	MembersKeep int    `toml:"members_keep"`
	Baseline    string `toml:"baseline"`
	// MinFreeMB is the free space, in MiB, below which the daemon pauses
	// before its next generation and skips backups; 0 turns the check off.
	MinFreeMB int `toml:"min_free_mb"`
	// RatingEvery rates the champion of every this many generations on its
	// game's calibrated scale (package rating), in the background beside
	// the evolution; 0 turns ratings off. RatingGames bounds the games of
	// one rating and RatingMinutes its time: a rating past it is abandoned
	// (and logged), as is one due while the last is still running.
	RatingEvery   int `toml:"rating_every"`
	RatingGames   int `toml:"rating_games"`
	RatingMinutes int `toml:"rating_minutes"`
	// RatingShare bounds the share of the machine's game budget that
	// ratings take over time: after a rating, the next due one waits
	// until the rating's cost is that share of the time since it began
	// (ratingGap); 1 rates every due generation the budget allows.
	RatingShare float64 `toml:"rating_share"`
	// RatingLadders replaces a game's built-in ladder with a ladder file
	// (game = "path"); RatingEngine gives the path of the ladders' engine
	// when it is neither on $PATH nor in /usr/games.
	RatingLadders map[string]string `toml:"rating_ladders"`
	RatingEngine  string            `toml:"rating_engine"`
}

// HTTPConfig serves the web site (package web) while the daemon evolves:
// the pages, live updates and /metrics. It takes effect at start.
type HTTPConfig struct {
	// Listen is the site's host:port; "" (the default) serves no site.
	// Beyond loopback it requires a token.
	Listen string `toml:"listen"`
	// Token is the site's access token; $EVOLVED_HTTP_TOKEN gives it when
	// the file does not (keep it out of a file others can read).
	Token string `toml:"token"`
	// LabDB is where the site's lab page stores the runs it starts (the
	// daemon's database is the site's to read only); "" (the default)
	// puts it beside the database, evolved.db giving evolved.lab.db.
	LabDB string `toml:"lab_db"`
	// AllowLabOnLoopback lets a site without a token (on loopback) start
	// lab work; otherwise the lab needs the token.
	AllowLabOnLoopback bool `toml:"allow_lab_on_loopback"`
}

// validate checks the site's address.
func (c HTTPConfig) validate() error {
	if c.Listen == "" {
		return nil
	}
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		return &ConfigError{Key: "http.listen", Value: strconv.Quote(c.Listen), Msg: "want host:port, such as 127.0.0.1:8080"}
	}
	return nil
}

// ClusterConfig says where the tournaments are played: on this machine
// (NATS empty, the default), or on workers through a NATS server (package
// cluster). It takes effect at start; credentials come from the
// environment ($EVOLVED_NATS_TOKEN, or $EVOLVED_NATS_USER and
// $EVOLVED_NATS_PASSWORD), never from the file or the command line.
type ClusterConfig struct {
	// NATS is "" (local), "embedded" (start a NATS server with JetStream
	// beside the database) or the URL of a NATS server.
	NATS string `toml:"nats"`
	// Listen is the embedded server's host:port; beyond loopback it
	// requires credentials.
	Listen string `toml:"listen"`
	// StoreDir is where the embedded server keeps its streams; default
	// the database's path with ".nats" appended.
	StoreDir string `toml:"store_dir"`
	// TLSCA, TLSCert and TLSKey are files for a server that speaks TLS.
	TLSCA   string `toml:"tls_ca"`
	TLSCert string `toml:"tls_cert"`
	TLSKey  string `toml:"tls_key"`
	// ServerCert and ServerKey make the embedded server speak TLS with
	// this certificate and key.
	ServerCert string `toml:"server_cert"`
	ServerKey  string `toml:"server_key"`
	// AckWait is how many seconds a job may go unacknowledged (workers
	// send heartbeats during long games) before another worker gets it.
	AckWait int `toml:"ack_wait"`
	// Replay plays about one game in Replay again on the daemon's machine
	// and refuses a worker's result that differs (a worker returning legal
	// moves its agents would not choose); 0 never replays.
	Replay int `toml:"replay"`
}

// Retention returns the storage retention the jobs configuration sets.
func (j JobsConfig) Retention() storage.Retention {
	return storage.Retention{Games: j.PruneKeep, Genomes: j.GenomeKeep, GenomeBytes: int64(j.GenomeWindowMB) << 20, Keyframes: j.KeyframeEvery, Members: j.MembersKeep}
}

// DefaultConfig returns the built-in configuration: Blondie24's draughts
// experiment on evolved.db (or $EVOLVED_DB) in the working directory.
func DefaultConfig() Config {
	return Config{
		DB:        storage.DefaultName,
		Games:     []string{"draughts"},
		Seed:      1,
		LogFormat: "auto",
		LogLevel:  "info",
		Draughts:  defaultDraughts(),
		Chess:     defaultChess(),
		Xiangqi:   defaultXiangqi(),
		Jobs: JobsConfig{
			Backup: "@daily", BackupDir: "backups", BackupKeep: 7,
			Prune: "@daily", PruneKeep: 50, GenomeKeep: 10, GenomeWindowMB: 32, PositionsMB: 2048, KeyframeEvery: storage.DefaultKeyframes, MembersKeep: 1000, MinFreeMB: 1024,
			RatingEvery: 100, RatingGames: 100, RatingMinutes: 60, RatingShare: 0.1,
		},
		Cluster: ClusterConfig{Listen: "127.0.0.1:4222", AckWait: 30, Replay: 16},
	}
}

// ErrConfig is wrapped by every configuration error; the message names the key.
var ErrConfig = errors.New("config")

// ConfigError is an invalid value, with the key it was given for. Err, if
// set, is the error it comes from (a *population.ConfigError).
type ConfigError struct {
	Key   string
	Value any
	Msg   string
	Err   error
}

// Error returns "config: key = value: why".
func (e *ConfigError) Error() string {
	return fmt.Sprintf("config: %s = %v: %s", e.Key, e.Value, e.Msg)
}

// Unwrap returns ErrConfig, and Err if set.
func (e *ConfigError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrConfig}
	}
	return []error{ErrConfig, e.Err}
}

// sectionErrors returns the maker of the ConfigErrors of section's keys:
// key within the section, the value it has and why it is refused.
func sectionErrors(section string) func(key string, v any, msg string) error {
	return func(key string, v any, msg string) error {
		return &ConfigError{Key: section + "." + key, Value: v, Msg: msg}
	}
}

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
	defined := maps.Clone(c.defined)
	if defined == nil {
		defined = map[string]bool{}
	}
	for _, k := range md.Keys() {
		defined[k.String()] = true
	}
	c.defined = defined
	// A perspective net is one wide layer: a file that turns it on and
	// says nothing of hidden gets the usual width, not the tanh nets'
	// two narrow layers.
	if defined["chess.perspective"] && c.Chess.Perspective && !defined["chess.hidden"] {
		c.Chess.Hidden = []int{nnet.DefaultPerspectiveHidden}
	}
	if defined["xiangqi.perspective"] && c.Xiangqi.Perspective && !defined["xiangqi.hidden"] {
		c.Xiangqi.Hidden = []int{nnet.DefaultPerspectiveHidden}
	}
	if defined["draughts.perspective"] && c.Draughts.Perspective {
		c.Draughts.perspectiveDefaults(defined)
	}
	// A node budget is alpha-beta's: a file that chooses MCTS-EPT for a
	// game and says nothing of nodes drops the default budget rather than
	// being refused for it. An alpha-beta search with settings ("#LIST")
	// keeps it.
	for game, p := range map[string]*PopulationConfig{"draughts": &c.Draughts.PopulationConfig, "chess": &c.Chess.PopulationConfig, "xiangqi": &c.Xiangqi.PopulationConfig} {
		if playouts, _, err := player.ParseSearch(p.Search); err == nil && playouts > 0 && defined[game+".search"] && !defined[game+".nodes"] {
			p.Nodes = 0
		}
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
	{storage.EnvDB, "db"}, {"EVOLVED_GAMES", "games"}, {"EVOLVED_GENERATIONS", "generations"},
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
	case "cluster.nats":
		c.Cluster.NATS = value
	case "http.listen":
		c.HTTP.Listen = value
	default:
		return bad("unknown key")
	}
	return err
}

// KnownGames returns the games a population can evolve, for help texts.
func KnownGames() []string { return games.Names() }

// Validate checks every value and names the key of the first bad one.
func (c Config) Validate() error {
	bad := func(key string, v any, msg string) error { return &ConfigError{Key: key, Value: v, Msg: msg} }
	if c.DB == "" {
		return bad("db", `""`, "empty")
	}
	if len(c.Games) == 0 {
		return bad("games", "[]", "no game to evolve")
	}
	for i, g := range c.Games {
		if !slices.Contains(games.Names(), g) {
			return bad("games", strconv.Quote(g), "unknown game (known: "+strings.Join(games.Names(), ", ")+")")
		}
		if slices.Contains(c.Games[:i], g) {
			return bad("games", strconv.Quote(g), "listed twice: a game has one population")
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
	if err := c.Cluster.validate(); err != nil {
		return err
	}
	if err := c.HTTP.validate(); err != nil {
		return err
	}
	if !slices.Contains([]string{"auto", "text", "json"}, c.LogFormat) {
		return bad("log_format", strconv.Quote(c.LogFormat), "want auto, text or json")
	}
	if _, err := parseLevel(c.LogLevel); err != nil {
		return bad("log_level", strconv.Quote(c.LogLevel), "want debug, info, warn or error")
	}
	for _, validate := range []func() error{func() error { return c.Draughts.validate(c.Defined) }, func() error { return c.Chess.validate(c.Defined) }, func() error { return c.Xiangqi.validate(c.Defined) }} {
		if err := validate(); err != nil {
			return err
		}
	}
	return c.Jobs.validate()
}

// validate checks the jobs' schedules, retention and ratings.
func (j JobsConfig) validate() error {
	bad := sectionErrors("jobs")
	parser := cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)
	for _, job := range []struct{ key, spec string }{{"backup", j.Backup}, {"prune", j.Prune}, {"baseline", j.Baseline}} {
		if job.spec == "" {
			continue
		}
		if _, err := parser.Parse(job.spec); err != nil {
			return bad(job.key, strconv.Quote(job.spec), err.Error())
		}
	}
	if j.Backup != "" && j.BackupDir == "" {
		return bad("backup_dir", `""`, "empty while jobs.backup is on")
	}
	if j.BackupKeep < 1 {
		return bad("backup_keep", j.BackupKeep, "want at least 1")
	}
	if err := j.validateRetention(bad); err != nil {
		return err
	}
	if j.MinFreeMB < 0 {
		return bad("min_free_mb", j.MinFreeMB, "must not be negative (0 turns the check off)")
	}
	if j.RatingEvery < 0 {
		return bad("rating_every", j.RatingEvery, "must not be negative (0 turns ratings off)")
	}
	if j.RatingEvery > 0 {
		if j.RatingGames < 2 || j.RatingGames > 100000 {
			return bad("rating_games", j.RatingGames, "want 2..100000")
		}
		if j.RatingMinutes < 1 {
			return bad("rating_minutes", j.RatingMinutes, "want at least 1")
		}
		if !(j.RatingShare > 0 && j.RatingShare <= 1) {
			return bad("rating_share", j.RatingShare, "want a share of the machine above 0 and at most 1")
		}
	}
	for game, path := range j.RatingLadders {
		l, err := rating.LoadLadder(path)
		if err != nil {
			return bad("rating_ladders."+game, strconv.Quote(path), err.Error())
		}
		if l.Game != game {
			return bad("rating_ladders."+game, strconv.Quote(path), "a ladder for "+l.Game)
		}
	}
	return nil
}

// validateRetention checks the keys of what the run keeps: game records,
// whole genomes, keyframes, members and the position stores; bad makes
// the error of a key.
func (j JobsConfig) validateRetention(bad func(key string, v any, msg string) error) error {
	if j.PruneKeep < 0 {
		return bad("prune_keep", j.PruneKeep, "must not be negative")
	}
	if j.GenomeWindowMB < 0 || j.GenomeWindowMB > 1<<20 {
		return bad("genome_window_mb", j.GenomeWindowMB, "want 0 (no cap) to 1048576 MiB")
	}
	if j.PositionsMB < 64 || j.PositionsMB > 1<<20 {
		return bad("positions_mb", j.PositionsMB, "want 64 (one segment) to 1048576 MiB")
	}
	if j.GenomeKeep < 0 {
		return bad("genome_keep", j.GenomeKeep, "must not be negative")
	}
	if j.MembersKeep < j.GenomeKeep {
		return bad("members_keep", j.MembersKeep, fmt.Sprintf("want at least genome_keep (%d): a population outlives its genomes", j.GenomeKeep))
	}
	if j.KeyframeEvery < 0 {
		return bad("keyframe_every", j.KeyframeEvery, "must not be negative (0 keeps every champion whole)")
	}
	return nil
}

// Print writes c as TOML, the form --print-config shows, with the games'
// keys in the order they have always had (settingsOrder).
func (c Config) Print(w io.Writer) error {
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(c); err != nil {
		return fmt.Errorf("print config: %w", err)
	}
	_, err := io.WriteString(w, orderSections(b.String()))
	return err
}

// validate checks the cluster settings.
func (c ClusterConfig) validate() error {
	bad := sectionErrors("cluster")
	switch {
	case c.NATS != "" && c.NATS != "embedded" && !strings.Contains(c.NATS, "://"):
		return bad("nats", strconv.Quote(c.NATS), `want "" (play here), "embedded" or a URL such as nats://host:4222`)
	case c.NATS == "embedded" && c.Listen == "":
		return bad("listen", `""`, "the embedded server needs a host:port")
	case c.AckWait < 5 || c.AckWait > 3600:
		return bad("ack_wait", c.AckWait, "want 5 to 3600 seconds")
	case c.Replay < 0 || c.Replay > 1_000_000:
		return bad("replay", c.Replay, "want 0 (never) or 1 in N games, N up to 1000000")
	case (c.ServerCert == "") != (c.ServerKey == ""):
		return bad("server_cert", strconv.Quote(c.ServerCert), "server_cert and server_key go together")
	case (c.TLSCert == "") != (c.TLSKey == ""):
		return bad("tls_cert", strconv.Quote(c.TLSCert), "tls_cert and tls_key go together")
	}
	return nil
}
