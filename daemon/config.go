package daemon

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/robfig/cron/v3"

	"evolved/agent"
	"evolved/nnet"
	"evolved/player"
	"evolved/population"
	"evolved/rating"
	"evolved/storage"
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

// PopulationConfig holds the settings every population has. With the seed
// they define a run: they cannot change for an existing database.
type PopulationConfig struct {
	// Preset names the optimiser: "blondie24", the genetic algorithm of
	// the seed experiment, or "es", an evolution strategy over the same
	// genome (population.Optimizer).
	Preset string `toml:"preset" json:"preset"`
	Depth  int    `toml:"depth" json:"depth"`
	// Nodes, if positive, ends each move's search in the tournaments after
	// about this many nodes, Depth being the deepest iteration
	// (player.ChessSetup.Nodes); 0 searches to Depth.
	Nodes        int64  `toml:"nodes" json:"nodes"`
	OpeningPlies int    `toml:"opening_plies" json:"opening_plies"`
	MaxMoves     int    `toml:"max_moves" json:"max_moves"`
	Format       string `toml:"format" json:"format"`
	// QuietNet starts generation 0's nets with their output layer at 0, so
	// that they play by piece values, tables and terms (or, in draughts
	// with piece_diff, the piece difference) until the net earns its say.
	QuietNet bool `toml:"quiet_net" json:"quiet_net,omitempty"`
	// Rounds is the number of rounds of the roundrobin format, each from
	// new openings (0 or 1: one). A run started before the key plays one.
	Rounds          int      `toml:"rounds" json:"rounds,omitempty"`
	Population      int      `toml:"population" json:"population"`
	Elite           int      `toml:"elite" json:"elite"`
	Hidden          []int    `toml:"hidden" json:"hidden"`
	PieceDiff       bool     `toml:"piece_diff" json:"piece_diff"`
	SelfAdaptive    bool     `toml:"self_adaptive" json:"self_adaptive"`
	LadderChampions int      `toml:"ladder_champions" json:"ladder_champions"`
	LadderGames     int      `toml:"ladder_games" json:"ladder_games"`
	BaselineEvery   int      `toml:"baseline_every" json:"baseline_every"`
	Baselines       []string `toml:"baselines" json:"baselines"`
	BaselineGames   int      `toml:"baseline_games" json:"baseline_games"`
	// HallOfFame and HallGames: every agent also plays the champions of
	// generations G-1, G-2, G-4, ... (at most hall_of_fame of them),
	// hall_games games each, and those points count in its fitness; see
	// population.Config.
	HallOfFame int `toml:"hall_of_fame" json:"hall_of_fame"`
	HallGames  int `toml:"hall_games" json:"hall_games"`
	// MutationScale multiplies the mutation's weight steps; 0 or 1 is
	// Blondie24's step (population.Config.MutationScale).
	MutationScale float64 `toml:"mutation_scale" json:"mutation_scale"`
	// TableMutationScale, if not 0, is the step of the evolvable tables and
	// piece values instead of mutation_scale (population.Config).
	TableMutationScale float64 `toml:"table_mutation_scale" json:"table_mutation_scale,omitempty"`
	// ValueMutationScale, if not 0, makes each evolvable piece value step
	// by up to this fraction of its classic value a generation, as the
	// terms step in units of theirs; 0 steps them as the tables
	// (population.Config.ValueMutationScale).
	ValueMutationScale float64 `toml:"value_mutation_scale" json:"value_mutation_scale,omitempty"`
	// TableScaleStep, if not 0, multiplies each piece type's piece-square
	// table by 1 + m*step a generation, m uniform in [-1, 1), so that the
	// tables' worth against material evolves (population.Config.TableScaleStep).
	TableScaleStep float64 `toml:"table_scale_step" json:"table_scale_step,omitempty"`
	// FitnessMemory ranks agents by their points per game over every
	// generation they have played (population.Config.FitnessMemory).
	FitnessMemory bool `toml:"fitness_memory" json:"fitness_memory"`
	// FitnessCaution ranks by points per game less that many standard
	// errors (population.Config.FitnessCaution); it needs fitness_memory.
	// 0, the default and what runs started before it have, is the mean.
	FitnessCaution float64 `toml:"fitness_caution" json:"fitness_caution,omitempty"`
}

// DraughtsConfig defines the draughts population.
type DraughtsConfig struct {
	PopulationConfig
	EvolveKing bool `toml:"evolve_king" json:"evolve_king"`
}

// ChessConfig defines the chess population.
type ChessConfig struct {
	PopulationConfig
	// EvolvePieceValues makes the five piece values part of the genome.
	EvolvePieceValues bool `toml:"evolve_piece_values" json:"evolve_piece_values"`
	// EvolvePST adds piece-square tables to the genome, beside the net,
	// starting from Michniewski's (nnet.EvolvePST).
	EvolvePST bool `toml:"evolve_pst" json:"evolve_pst"`
	// EvolveTerms adds twelve positional terms (mobility, the bishop pair,
	// pawn structure, rooks on open files, king safety) to the genome,
	// starting at 0 (nnet.EvolveTerms). Runs started before the key have
	// none.
	EvolveTerms bool `toml:"evolve_terms" json:"evolve_terms,omitempty"`
	// EvolveMoreTerms adds nine more positional terms after those of
	// evolve_terms (threats, hanging pieces, rooks on the seventh,
	// outposts, the tempo, passed pawns in the endgame, king attackers,
	// connected pawns; nnet.EvolveMoreTerms). It needs evolve_terms, and
	// is off without it unless set. Runs started before the key have none.
	EvolveMoreTerms bool `toml:"evolve_more_terms" json:"evolve_more_terms,omitempty"`
	// AdjudicateMaterial, if positive, ends a game as won for the side this
	// many pawns ahead.
	AdjudicateMaterial int `toml:"adjudicate_material" json:"adjudicate_material"`
	// Chess960 starts every game from a seeded random Chess960 arrangement
	// (before its opening plies) instead of the standard position.
	Chess960 bool `toml:"chess960" json:"chess960"`
}

// XiangqiConfig defines the xiangqi population.
type XiangqiConfig struct {
	PopulationConfig
	// EvolvePieceValues makes the six piece values (advisor, elephant,
	// horse, chariot, cannon, soldier; the classic program's strengths at
	// first) part of the genome.
	EvolvePieceValues bool `toml:"evolve_piece_values" json:"evolve_piece_values"`
	// EvolvePST adds piece-square tables to the genome, beside the net,
	// starting from the classic program's (nnet.EvolvePST).
	EvolvePST bool `toml:"evolve_pst" json:"evolve_pst"`
	// EvolveTerms adds ten positional terms (the classic program's
	// mobility and control, hanging pieces, the tempo, hollow cannons) to
	// the genome, starting at 0 (nnet.EvolveTerms on a xiangqi net). Runs
	// started before the key have none.
	EvolveTerms bool `toml:"evolve_terms" json:"evolve_terms,omitempty"`
	// AdjudicateMaterial, if positive, ends a game as won for the side this
	// many soldiers (100 of material:D's centipawns) ahead.
	AdjudicateMaterial int `toml:"adjudicate_material" json:"adjudicate_material"`
}

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
	// population keep their members' genomes (champions keep theirs
	// forever). See storage.Retention.
	PruneKeep  int    `toml:"prune_keep"`
	GenomeKeep int    `toml:"genome_keep"`
	Baseline   string `toml:"baseline"`
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
	return storage.Retention{Games: j.PruneKeep, Genomes: j.GenomeKeep}
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
		Draughts: DraughtsConfig{PopulationConfig: PopulationConfig{
			Preset: string(population.Blondie24), MutationScale: 1,
			Depth: 4, OpeningPlies: 4, MaxMoves: 100, Format: string(tournament.RoundRobin), Rounds: 1,
			Population: 15, Elite: 5, Hidden: []int{40, 10}, PieceDiff: true,
			LadderChampions: 5, LadderGames: 6,
			BaselineEvery: 10, Baselines: []string{"random", "material:4", "mcts:1000"}, BaselineGames: 20, HallGames: 2,
			// Measured: the best champion of 200 generations beats the
			// Blondie24 ranking's by +21 ± 18 (seed 1) and +28 ± 21 (seed
			// 2) Elo, both SPRT H1 (README, "Climbing the scale").
			FitnessMemory: true,
		}},
		// Chess evolves piece-square tables at a tenth of the mutation
		// step: the champion then rates 1750 ± 67 on Stockfish's scale at
		// 10+0.1, against 1500 ± 73 without them; at the full step the
		// tables drift away within a hundred generations. With the
		// positional terms, every pair playing both colours and fitness
		// memory, the champion of generation 599 beats generation 0's by
		// +89 ± 25 Elo and the previous default's champion of generation
		// 599 in an SPRT (H1, +79 ± 30), which itself is no better than
		// its generation 0 (README, "Positional terms"). With the nine more
		// terms, generation 400's champion beats generation 0's by +186 ±
		// 29 and the twelve-term default's generation 599 in an SPRT (H1
		// after 296 games, +89 ± 30).
		Chess: ChessConfig{PopulationConfig: PopulationConfig{
			Preset: string(population.Blondie24), MutationScale: 0.1,
			Depth: 2, OpeningPlies: 4, MaxMoves: 100, Format: string(tournament.RoundRobin), Rounds: 1,
			Population: 15, Elite: 5, Hidden: []int{32, 8},
			LadderChampions: 5, LadderGames: 6,
			BaselineEvery: 10, Baselines: []string{"random", "material:2"}, BaselineGames: 20, HallGames: 2,
			FitnessMemory: true,
		}, EvolvePieceValues: true, EvolvePST: true, EvolveTerms: true, EvolveMoreTerms: true},
		// Xiangqi evolves the classic program's piece-square tables, at a
		// tenth of the step as chess does: generation 0 then scores 43.8%
		// against classic at depth 2 (200 games), against 26.5% without
		// them, and its champion 94% at 10+0.1 (README). With the
		// positional terms, the round robin and fitness memory (chess's
		// recipe), generation 299's champion beats generation 0's by +80 ±
		// 25 and the previous default's generation 299 in an SPRT (H1 after
		// 278 games, +80 ± 28), which itself is generation 0's equal. With
		// piece values that step by a twentieth of their classic values
		// (value_mutation_scale), generation 299's champion beats
		// generation 0's by +114 ± 25 and that default's generation 299 in
		// an SPRT (H1 after 240 games, +89 ± 32): the cannon falls from 5
		// to 3.5 pawns within a hundred generations, where the tables'
		// step had left every value within 0.06 of its start.
		Xiangqi: XiangqiConfig{PopulationConfig: PopulationConfig{
			Preset: string(population.Blondie24), MutationScale: 0.1, ValueMutationScale: 0.05,
			Depth: 2, OpeningPlies: 4, MaxMoves: 100, Format: string(tournament.RoundRobin), Rounds: 1,
			Population: 15, Elite: 5, Hidden: []int{32, 8},
			LadderChampions: 5, LadderGames: 6,
			BaselineEvery: 10, Baselines: []string{"random", "classic"}, BaselineGames: 20, HallGames: 2,
			FitnessMemory: true,
		}, EvolvePieceValues: true, EvolvePST: true, EvolveTerms: true},
		Jobs: JobsConfig{
			Backup: "@daily", BackupDir: "backups", BackupKeep: 7,
			Prune: "@daily", PruneKeep: 50, GenomeKeep: 10, MinFreeMB: 1024,
			RatingEvery: 100, RatingGames: 100, RatingMinutes: 60,
		},
		Cluster: ClusterConfig{Listen: "127.0.0.1:4222", AckWait: 30, Replay: 16},
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
	defined := maps.Clone(c.defined)
	if defined == nil {
		defined = map[string]bool{}
	}
	for _, k := range md.Keys() {
		defined[k.String()] = true
	}
	c.defined = defined
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
	case "cluster.nats":
		c.Cluster.NATS = value
	case "http.listen":
		c.HTTP.Listen = value
	default:
		return bad("unknown key")
	}
	return err
}

// knownGames are the games a population can evolve.
var knownGames = []string{"draughts", "chess", "xiangqi"}

// KnownGames returns the games a population can evolve, for help texts.
func KnownGames() []string { return slices.Clone(knownGames) }

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
	if err := c.Draughts.validate("draughts", func(s string) error { _, err := player.ParseDraughts(s); return err }); err != nil {
		return err
	}
	if err := c.Chess.validate("chess", func(s string) error { _, err := player.ParseChess(s); return err }); err != nil {
		return err
	}
	if c.Chess.EvolveMoreTerms && !c.Chess.EvolveTerms && c.Defined("chess.evolve_more_terms") {
		return bad("chess.evolve_more_terms", true, "needs evolve_terms = true: the nine more terms come after its twelve")
	}
	// The steps of genome parts a run may lack are refused where it does.
	for _, part := range []struct {
		key  string
		step float64
		has  bool // the genome has the part
		why  string
	}{
		{"draughts.value_mutation_scale", c.Draughts.ValueMutationScale, false, "draughts nets have no piece values (evolve_king evolves the king's)"},
		{"chess.value_mutation_scale", c.Chess.ValueMutationScale, c.Chess.EvolvePieceValues, "needs evolve_piece_values = true"},
		{"xiangqi.value_mutation_scale", c.Xiangqi.ValueMutationScale, c.Xiangqi.EvolvePieceValues, "needs evolve_piece_values = true"},
		{"draughts.table_scale_step", c.Draughts.TableScaleStep, false, "draughts nets have no piece-square tables"},
		{"chess.table_scale_step", c.Chess.TableScaleStep, c.Chess.EvolvePST, "needs evolve_pst = true"},
		{"xiangqi.table_scale_step", c.Xiangqi.TableScaleStep, c.Xiangqi.EvolvePST, "needs evolve_pst = true"},
	} {
		if part.step != 0 && !part.has {
			return bad(part.key, part.step, part.why)
		}
	}
	if c.Chess.AdjudicateMaterial < 0 || c.Chess.AdjudicateMaterial > 40 {
		return bad("chess.adjudicate_material", c.Chess.AdjudicateMaterial, "want 0 (off) to 40 pawns")
	}
	if err := c.Xiangqi.validate("xiangqi", func(s string) error { _, err := player.ParseXiangqi(s); return err }); err != nil {
		return err
	}
	if c.Xiangqi.AdjudicateMaterial < 0 || c.Xiangqi.AdjudicateMaterial > 80 {
		return bad("xiangqi.adjudicate_material", c.Xiangqi.AdjudicateMaterial, "want 0 (off) to 80 soldiers")
	}
	if err := c.Draughts.population(0).Validate(); err != nil {
		return bad("draughts", "(population)", strings.TrimPrefix(err.Error(), "population: invalid config: "))
	}
	if err := c.Chess.population(0).Validate(); err != nil {
		return bad("chess", "(population)", strings.TrimPrefix(err.Error(), "population: invalid config: "))
	}
	if err := c.Xiangqi.population(0).Validate(); err != nil {
		return bad("xiangqi", "(population)", strings.TrimPrefix(err.Error(), "population: invalid config: "))
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
	if c.Jobs.GenomeKeep < 0 {
		return bad("jobs.genome_keep", c.Jobs.GenomeKeep, "must not be negative")
	}
	if c.Jobs.MinFreeMB < 0 {
		return bad("jobs.min_free_mb", c.Jobs.MinFreeMB, "must not be negative (0 turns the check off)")
	}
	if c.Jobs.RatingEvery < 0 {
		return bad("jobs.rating_every", c.Jobs.RatingEvery, "must not be negative (0 turns ratings off)")
	}
	if c.Jobs.RatingEvery > 0 {
		if c.Jobs.RatingGames < 2 || c.Jobs.RatingGames > 100000 {
			return bad("jobs.rating_games", c.Jobs.RatingGames, "want 2..100000")
		}
		if c.Jobs.RatingMinutes < 1 {
			return bad("jobs.rating_minutes", c.Jobs.RatingMinutes, "want at least 1")
		}
	}
	for game, path := range c.Jobs.RatingLadders {
		l, err := rating.LoadLadder(path)
		if err != nil {
			return bad("jobs.rating_ladders."+game, strconv.Quote(path), err.Error())
		}
		if l.Game != game {
			return bad("jobs.rating_ladders."+game, strconv.Quote(path), "a ladder for "+l.Game)
		}
	}
	return nil
}

// validate checks the shared settings of the population called game,
// naming keys as game.key; parseBaseline checks a baseline spec.
func (p PopulationConfig) validate(game string, parseBaseline func(string) error) error {
	bad := func(key string, v any, msg string) error {
		return &ConfigError{Key: game + "." + key, Value: v, Msg: msg}
	}
	switch {
	case p.Depth < 1 || p.Depth > 20:
		return bad("depth", p.Depth, "want 1..20")
	case p.Nodes < 0 || p.Nodes > agent.MaxNodes:
		return bad("nodes", p.Nodes, fmt.Sprintf("want 0 (search to depth) to %d", int64(agent.MaxNodes)))
	case p.OpeningPlies < 0 || p.OpeningPlies > 20:
		return bad("opening_plies", p.OpeningPlies, "want 0..20")
	case p.MaxMoves < 1 || p.MaxMoves > 10000:
		return bad("max_moves", p.MaxMoves, "want 1..10000")
	case p.BaselineGames < 0 || p.BaselineGames > 10000:
		return bad("baseline_games", p.BaselineGames, "want 0..10000")
	case p.MutationScale < 0 || p.MutationScale > 10 || math.IsNaN(p.MutationScale):
		return bad("mutation_scale", p.MutationScale, "want 0 (Blondie24's step, as 1) to 10")
	case p.Preset != "" && p.Preset != string(population.Blondie24) && p.Preset != string(population.ES):
		return bad("preset", strconv.Quote(p.Preset), fmt.Sprintf("want %q or %q", population.Blondie24, population.ES))
	case p.Preset == string(population.ES) && (p.Population < 3 || p.Population%2 == 0):
		return bad("population", p.Population, "want an odd number of at least 3 with preset \"es\" (the mean and mirrored pairs)")
	case p.TableMutationScale < 0 || p.TableMutationScale > 10 || math.IsNaN(p.TableMutationScale):
		return bad("table_mutation_scale", p.TableMutationScale, "want 0 (mutation_scale's) to 10")
	case p.TableMutationScale != 0 && p.Preset == string(population.ES):
		return bad("table_mutation_scale", p.TableMutationScale, "not with preset \"es\": its samples are perturbed, not mutated")
	case p.ValueMutationScale < 0 || p.ValueMutationScale > 1 || math.IsNaN(p.ValueMutationScale):
		return bad("value_mutation_scale", p.ValueMutationScale, "want 0 (table_mutation_scale's step) to 1")
	case p.ValueMutationScale != 0 && p.Preset == string(population.ES):
		return bad("value_mutation_scale", p.ValueMutationScale, "not with preset \"es\": its samples are perturbed, not mutated")
	case p.TableScaleStep < 0 || p.TableScaleStep > population.MaxTableScaleStep || math.IsNaN(p.TableScaleStep):
		return bad("table_scale_step", p.TableScaleStep, fmt.Sprintf("want 0 (none) to %v", population.MaxTableScaleStep))
	case p.TableScaleStep != 0 && p.Preset == string(population.ES):
		return bad("table_scale_step", p.TableScaleStep, "not with preset \"es\": its samples are perturbed, not mutated")
	case p.FitnessCaution < 0 || p.FitnessCaution > population.MaxFitnessCaution || math.IsNaN(p.FitnessCaution):
		return bad("fitness_caution", p.FitnessCaution, fmt.Sprintf("want 0 (rank by the mean) to %d standard errors", population.MaxFitnessCaution))
	case p.FitnessCaution > 0 && !p.FitnessMemory:
		return bad("fitness_caution", p.FitnessCaution, "needs fitness_memory = true: it weighs the games of past generations")
	case p.Preset == string(population.ES) && p.FitnessMemory:
		return bad("fitness_memory", p.FitnessMemory, "not with preset \"es\": its samples are new every generation")
	case p.HallOfFame < 0 || p.HallOfFame > population.MaxHallOfFame:
		return bad("hall_of_fame", p.HallOfFame, fmt.Sprintf("want 0 (none) to %d champions", population.MaxHallOfFame))
	case p.HallOfFame > 0 && (p.HallGames < 2 || p.HallGames > 1000 || p.HallGames%2 != 0):
		return bad("hall_games", p.HallGames, "want an even number from 2 to 1000 (pairs, one game with each colour)")
	}
	if _, err := tournament.ParseFormat(p.Format); err != nil {
		return bad("format", strconv.Quote(p.Format), "want roundrobin or blondie")
	}
	switch {
	case p.Rounds < 0 || p.Rounds > population.MaxRounds:
		return bad("rounds", p.Rounds, fmt.Sprintf("want 1 to %d", population.MaxRounds))
	case p.Rounds > 1 && p.Format != string(tournament.RoundRobin):
		return bad("rounds", p.Rounds, fmt.Sprintf("the %s format plays no rounds: want format = %q, or 1", p.Format, tournament.RoundRobin))
	}
	for _, b := range p.Baselines {
		if err := parseBaseline(b); err != nil {
			return bad("baselines", strconv.Quote(b), err.Error())
		}
	}
	return nil
}

// base returns the genetic algorithm's configuration from the shared settings.
func (p PopulationConfig) base(workers int) population.Config {
	cfg := population.DefaultConfig()
	cfg.Size, cfg.Elite, cfg.Hidden = p.Population, p.Elite, slices.Clone(p.Hidden)
	// The breeding recipe is Blondie24's (docs/ARCHITECTURE.md); elite sizes other than 5 keep
	// the two crossover pairs and mutate ranks 4..elite.
	cfg.Mutants = nil
	for r := 4; r <= p.Elite; r++ {
		cfg.Mutants = append(cfg.Mutants, r)
	}
	cfg.Flags = 0
	if p.PieceDiff {
		cfg.Flags |= nnet.PieceDiff
	}
	if p.SelfAdaptive {
		cfg.Flags |= nnet.SelfAdaptive
	}
	cfg.Tournament = tournament.Config{Format: tournament.Format(p.Format), Rounds: p.Rounds, Scoring: tournament.DefaultScoring, Workers: workers}
	cfg.LadderChampions, cfg.LadderGames = p.LadderChampions, p.LadderGames
	cfg.BaselineEvery, cfg.Baselines, cfg.BaselineGames = p.BaselineEvery, slices.Clone(p.Baselines), p.BaselineGames
	cfg.HallOfFame, cfg.HallGames = p.HallOfFame, p.HallGames
	cfg.MutationScale, cfg.FitnessMemory, cfg.FitnessCaution = p.MutationScale, p.FitnessMemory, p.FitnessCaution
	cfg.TableMutationScale, cfg.ValueMutationScale = p.TableMutationScale, p.ValueMutationScale
	cfg.QuietNet, cfg.TableScaleStep = p.QuietNet, p.TableScaleStep
	cfg.Optimizer, _ = population.ParseOptimizer(p.Preset) // Validate names a bad one
	return cfg
}

// canonical writes the settings whose zero value means a default (that of
// a run started before the key existed) in the default's own form, so that
// a file that spells the default out matches a run that stored nothing.
func (p *PopulationConfig) canonical() {
	if p.Preset == "" {
		p.Preset = string(population.Blondie24)
	}
	if p.MutationScale == 0 {
		p.MutationScale = 1
	}
	if p.Rounds == 0 {
		p.Rounds = 1
	}
}

// population returns the genetic algorithm's configuration for draughts.
func (d DraughtsConfig) population(workers int) population.Config {
	cfg := d.base(workers)
	if d.EvolveKing {
		cfg.Flags |= nnet.EvolveKing
	}
	return cfg
}

// population returns the genetic algorithm's configuration for chess.
func (c ChessConfig) population(workers int) population.Config {
	cfg := c.base(workers)
	if c.EvolvePieceValues {
		cfg.Flags |= nnet.EvolvePieceValues
	}
	if c.EvolvePST {
		cfg.Flags |= nnet.EvolvePST
	}
	if c.EvolveTerms {
		cfg.Flags |= nnet.EvolveTerms
		if c.EvolveMoreTerms {
			cfg.Flags |= nnet.EvolveMoreTerms
		}
	}
	return cfg
}

// population returns the genetic algorithm's configuration for xiangqi.
func (x XiangqiConfig) population(workers int) population.Config {
	cfg := x.base(workers)
	if x.EvolvePieceValues {
		cfg.Flags |= nnet.EvolvePieceValues
	}
	if x.EvolvePST {
		cfg.Flags |= nnet.EvolvePST
	}
	if x.EvolveTerms {
		cfg.Flags |= nnet.EvolveTerms
	}
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

// validate checks the cluster settings.
func (c ClusterConfig) validate() error {
	bad := func(key string, v any, msg string) error {
		return &ConfigError{Key: "cluster." + key, Value: v, Msg: msg}
	}
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
