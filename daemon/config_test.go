package daemon

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"evolved/nnet"
	"evolved/population"
)

func TestDefaultConfigIsValid(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestConfigLayers(t *testing.T) {
	file := "workers = 3\nseed = 7\n[draughts]\ndepth = 6\n"
	c, err := ParseConfig(DefaultConfig(), strings.NewReader(file), "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"EVOLVED_WORKERS": "5", "EVOLVED_DB": "/var/lib/evolved/x.db", "EVOLVED_SEED": ""}
	c, err = ApplyEnv(c, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Set("workers", "2"); err != nil {
		t.Fatal(err)
	}
	if c.Workers != 2 || c.DB != "/var/lib/evolved/x.db" || c.Seed != 7 || c.Draughts.Depth != 6 || c.Draughts.Size != 15 {
		t.Errorf("layers gave workers %d db %q seed %d depth %d population %d; want 2 (flag), the env's db, 7 (file; empty env ignored), 6 (file), 15 (default)",
			c.Workers, c.DB, c.Seed, c.Draughts.Depth, c.Draughts.Size)
	}
}

func TestConfigErrorsNameTheKey(t *testing.T) {
	cases := map[string]string{
		"workerz = 1\n":                                                             "unknown key workerz",
		"[draughts]\ndeepth = 4\n":                                                  "unknown key draughts.deepth",
		"[draughts]\ndepth = 0\n":                                                   "draughts.depth = 0",
		"[draughts]\nformat = \"swiss\"\n":                                          "draughts.format",
		"[draughts]\npopulation = 16\n":                                             "draughts.population = 16",
		"[draughts]\nbaselines = [\"alpha\"]\n":                                     "draughts.baselines",
		"games = [\"go\"]\n":                                                        "games = \"go\"",
		"games = [\"draughts\", \"chess\", \"draughts\"]\n":                         "games = \"draughts\": listed twice",
		"log_level = \"loud\"\n":                                                    "log_level",
		"[jobs]\nbackup = \"every tuesday\"\n":                                      "jobs.backup",
		"workers = -1\n":                                                            "workers = -1",
		"workers = \"two\"\n":                                                       "workers",
		"[draughts]\nhidden = []\n":                                                 "draughts.hidden = []",
		"generations = -5\n":                                                        "generations = -5",
		"[jobs]\nbackup_keep = 0\n":                                                 "jobs.backup_keep",
		"[draughts]\nbaseline_games = 100000\n":                                     "draughts.baseline_games",
		"[draughts]\nopening_plies = 99\n":                                          "draughts.opening_plies",
		"[draughts]\nmax_moves = 0\n":                                               "draughts.max_moves",
		"[draughts]\nladder_games = 5\n":                                            "draughts.ladder_games = 5",
		"[draughts]\nelite = 0\n":                                                   "draughts.elite = 0",
		"db = \"\"\n":                                                               "db",
		"log_format = \"xml\"\n":                                                    "log_format",
		"[jobs]\nprune = \"@every banana\"\n":                                       "jobs.prune",
		"[jobs]\nbaseline = \"61 * * * *\"\n":                                       "jobs.baseline",
		"[draughts]\nelite = 6\nmutants = 1\n":                                      "unknown key draughts.mutants",
		"[jobs]\nbackup_dir = \"\"\n":                                               "jobs.backup_dir",
		"[jobs]\nprune_keep = -1\n":                                                 "jobs.prune_keep",
		"seed = -1\n":                                                               "seed",
		"[draughts]\ndepth = 4.5\n":                                                 "draughts.depth",
		"[draughts]\nself_adaptive = \"yes\"\n":                                     "draughts.self_adaptive",
		"[draughts]\nhidden = [40, 0]\n":                                            "draughts.hidden = [40 0]",
		"[draughts]\nbaselines = [\"mcts:0\"]\n":                                    "draughts.baselines",
		"[draughts]\nmutation_scale = -0.5\n":                                       "draughts.mutation_scale = -0.5",
		"[chess]\nmutation_scale = nan\n":                                           "chess.mutation_scale",
		"[draughts]\npreset = \"cma\"\n":                                            "draughts.preset",
		"[chess]\npreset = \"es\"\npopulation = 14\n":                               "chess.population = 14",
		"[draughts]\nhall_of_fame = -1\n":                                           "draughts.hall_of_fame = -1",
		"[chess]\nhall_of_fame = 21\n":                                              "chess.hall_of_fame = 21",
		"[xiangqi]\nhall_of_fame = 2\nhall_games = 3\n":                             "xiangqi.hall_games = 3",
		"[draughts]\nhall_of_fame = 2\nhall_games = 0\n":                            "draughts.hall_games = 0",
		"[chess]\nnodes = -1\n":                                                     "chess.nodes = -1",
		"[cluster]\nnats = \"localhost\"\n":                                         "cluster.nats",
		"[cluster]\nack_wait = 1\n":                                                 "cluster.ack_wait = 1",
		"[cluster]\ntls_cert = \"c.pem\"\n":                                         "cluster.tls_cert",
		"[xiangqi]\nnodes = 2000000000\n":                                           "xiangqi.nodes = 2000000000",
		"[http]\nlisten = \"8080\"\n":                                               "http.listen",
		"[http]\nport = 8080\n":                                                     "unknown key http.port",
		"[chess]\nfitness_memory = false\nfitness_caution = 1\n":                    "chess.fitness_caution = 1: needs fitness_memory",
		"[draughts]\nfitness_caution = -1\n":                                        "draughts.fitness_caution = -1",
		"[draughts]\nfitness_caution = 11\n":                                        "draughts.fitness_caution = 11",
		"[chess]\ntable_mutation_scale = -0.1\n":                                    "chess.table_mutation_scale = -0.1",
		"[chess]\npreset = \"es\"\ntable_mutation_scale = 0.1\n":                    "chess.table_mutation_scale = 0.1: not with preset",
		"[chess]\nevolve_terms = false\nevolve_more_terms = true\n":                 "chess.evolve_more_terms = true: needs evolve_terms",
		"[chess]\nevolve_terms = false\nevolve_tapered = true\n":                    "chess.evolve_tapered = true: needs evolve_terms",
		"[chess]\nevolve_more_terms = false\nevolve_king_danger = true\n":           "chess.evolve_king_danger = true: needs evolve_terms and evolve_more_terms",
		"[chess]\nevolve_pst = false\nevolve_tapered_tables = true\n":               "chess.evolve_tapered_tables = true: needs evolve_pst",
		"[chess]\nperspective = true\nhidden = [32, 8]\n":                           "chess.perspective = true: needs hidden = [N], one layer of 1 to 1024 sums (hidden is [32 8])",
		"[chess]\nperspective = true\nhidden = [2048]\n":                            "chess.perspective = true: needs hidden = [N]",
		"[xiangqi]\nperspective = true\nhidden = [32, 8]\n":                         "xiangqi.perspective = true: needs hidden = [N]",
		"[draughts]\nperspective = true\nhidden = [40, 10]\n":                       "draughts.perspective = true: needs hidden = [N]",
		"[draughts]\nperspective = true\npiece_diff = true\n":                       "draughts.perspective = true: a perspective net takes no piece_diff",
		"[draughts]\nperspective = true\nevolve_king = true\n":                      "draughts.perspective = true: a draughts perspective net has features of its own for kings",
		"[draughts]\nperspective = true\ndistill_every = 2\n":                       "draughts.perspective = true: the draughts distillation fits the Blondie net's tanh layers",
		"[draughts]\nperspective = true\nlearn_every = 2\n":                         "draughts.perspective = true: training takes chess and xiangqi position stores",
		"[draughts]\ncurriculum_every = 50\n":                                       "draughts.curriculum_every = 50: raises the node budget of alpha-beta",
		"[chess]\ncurriculum_step = 2.0\n":                                          "chess.curriculum_step = 2: needs curriculum_every",
		"[xiangqi]\nvalue_mutation_scale = 1.5\n":                                   "xiangqi.value_mutation_scale = 1.5",
		"[chess]\nvalue_mutation_scale = -0.01\n":                                   "chess.value_mutation_scale = -0.01",
		"[draughts]\nmutation_floor = 0.1\n":                                        "draughts.mutation_floor = 0.1: needs mutation_half_life",
		"[draughts]\nmutation_half_life = 100\n":                                    "draughts.mutation_floor = 0: want a fraction",
		"[draughts]\nvalue_mutation_scale = 0.05\n":                                 "draughts.value_mutation_scale = 0.05: draughts nets have no piece values",
		"[chess]\nevolve_piece_values = false\nvalue_mutation_scale = 0.05\n":       "chess.value_mutation_scale = 0.05: needs evolve_piece_values",
		"[xiangqi]\npreset = \"es\"\nvalue_mutation_scale = 0.05\n":                 "xiangqi.value_mutation_scale = 0.05: not with preset",
		"[chess]\ntable_scale_step = 0.6\n":                                         "chess.table_scale_step = 0.6: want 0 (none) to 0.5",
		"[draughts]\ntable_scale_step = 0.05\n":                                     "draughts.table_scale_step = 0.05: draughts nets have no piece-square tables",
		"[xiangqi]\nevolve_pst = false\ntable_scale_step = 0.05\n":                  "xiangqi.table_scale_step = 0.05: needs evolve_pst",
		"[chess]\npreset = \"es\"\ntable_scale_step = 0.05\n":                       "chess.table_scale_step = 0.05: not with preset",
		"[chess]\nrounds = -1\n":                                                    "chess.rounds = -1: want 1 to 10",
		"[xiangqi]\nrounds = 11\n":                                                  "xiangqi.rounds = 11: want 1 to 10",
		"[draughts]\nformat = \"blondie\"\nrounds = 2\n":                            "draughts.rounds = 2: the blondie format plays no rounds",
		"[chess]\nsearch = \"foo\"\n":                                               `chess.search = "foo": want "" (alpha-beta), "#LIST"`,
		"[xiangqi]\nsearch = \"ept:0\"\n":                                           `xiangqi.search = "ept:0"`,
		"[draughts]\nsearch = \"ept:50\"\nnodes = 1000\n":                           "draughts.nodes = 1000: is alpha-beta's budget",
		"[draughts]\npreset = \"es\"\nfitness_memory = false\ndistill_every = 20\n": `draughts.distill_every = 20: not with preset "es"`,
		"[xiangqi]\nsearch = \"ept:50\"\nnodes = 0\ndistill_every = 20\n":           `xiangqi.distill_every = 20: distills alpha-beta searches: not with search = "ept:50"`,
		"[chess]\nsearch = \"ept:50\"\nnodes = 0\ndistill_every = 20\n":             `chess.distill_every = 20: distills alpha-beta searches: not with search = "ept:50"`,
		"[chess]\nevolve_piece_values = false\nevolve_pst = false\nevolve_terms = false\nevolve_more_terms = false\ndistill_every = 20\n": "chess.distill_every = 20: fits the evolved piece values, tables and terms",
		"[chess]\nchampion_games = 20\ndistill_every = 10\n":                                                                              "chess.distill_every = 10: not with champion_games",
		"[chess]\ndistill_every = -1\n":                                          "chess.distill_every = -1: must not be negative",
		"[chess]\ndistill_every = 0\ndistill_nodes = 3000\n":                     "chess.distill_nodes = 3000: needs distill_every",
		"[chess]\ndistill_every = 20\ndistill_nodes = 2000000\n":                 "chess.distill_nodes = 2000000: want 0 (1500) to 1000000",
		"[chess]\npreset = \"es\"\nfitness_memory = false\ndistill_every = 20\n": `chess.distill_every = 20: not with preset "es"`,
	}
	for file, want := range cases {
		c, err := ParseConfig(DefaultConfig(), strings.NewReader(file), "test.toml")
		if err == nil {
			err = c.Validate()
		}
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), want) {
			t.Errorf("config %q: err = %v, want an ErrConfig naming %q", file, err, want)
		}
	}
}

func TestPrintConfigReadsBack(t *testing.T) {
	var b bytes.Buffer
	if err := DefaultConfig().Print(&b); err != nil {
		t.Fatal(err)
	}
	c, err := ParseConfig(Config{}, &b, "printed")
	if err != nil {
		t.Fatalf("printed config does not read back: %v\n%s", err, b.String())
	}
	if !sameJSON(c, DefaultConfig()) {
		t.Errorf("printed config reads back as %+v", c)
	}
}

func TestDiffKeys(t *testing.T) {
	got := diffKeys(`{"depth":4,"format":"roundrobin","hidden":[40,10]}`, `{"depth":6,"format":"roundrobin","hidden":[40,10],"x":1}`)
	if strings.Join(got, ",") != "depth,x" {
		t.Errorf("diffKeys = %v, want [depth x]", got)
	}
}

func TestXiangqiEvolveTermsReachesTheGenome(t *testing.T) {
	for _, tc := range []struct {
		file  string
		terms bool
	}{
		{"", true}, // the default
		{"[xiangqi]\nevolve_terms = false\n", false},
	} {
		c, err := ParseConfig(DefaultConfig(), strings.NewReader(tc.file), "test.toml")
		if err != nil {
			t.Fatal(err)
		}
		st, err := population.New("xiangqi", nnet.NumXiangqiInputs, c.Xiangqi.population(1), 1)
		if err != nil {
			t.Fatalf("%q: %v", tc.file, err)
		}
		n := st.Agents[0].Net
		if got := n.Flags()&nnet.EvolveTerms != 0; got != tc.terms {
			t.Errorf("%q: generation 0 has flags %v, want evolve-terms %v", tc.file, n.Flags(), tc.terms)
		}
		if tc.terms && n.XiangqiTerms() != [nnet.NumXiangqiTerms]float64{} {
			t.Errorf("%q: generation 0 starts with terms %v, want zeros", tc.file, n.XiangqiTerms())
		}
	}
}

// TestPerspectiveReachesTheGenome checks that perspective = true gives
// generation 0 perspective nets, chess's and xiangqi's 256 wide and
// draughts' 128 unless hidden says otherwise, and that the default has
// none.
func TestPerspectiveReachesTheGenome(t *testing.T) {
	for _, tc := range []struct {
		file  string
		sizes []int
	}{
		{"", []int{nnet.NumChessInputs, 32, 8, 1}},
		{"[chess]\nperspective = true\n", []int{nnet.NumChessInputs, 256, 1}},
		{"[chess]\nperspective = true\nhidden = [64]\n", []int{nnet.NumChessInputs, 64, 1}},
		{"[xiangqi]\nperspective = true\n", []int{nnet.NumXiangqiInputs, 256, 1}},
		{"[draughts]\nperspective = true\n", []int{nnet.NumDraughtsPerspectiveInputs, 128, 1}},
		{"[draughts]\nperspective = true\nhidden = [256]\n", []int{nnet.NumDraughtsPerspectiveInputs, 256, 1}},
	} {
		c, err := ParseConfig(DefaultConfig(), strings.NewReader(tc.file), "test.toml")
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("%q: %v", tc.file, err)
		}
		st, err := population.New("chess", nnet.NumChessInputs, c.Chess.population(1), 1)
		if strings.HasPrefix(tc.file, "[xiangqi]") {
			st, err = population.New("xiangqi", nnet.NumXiangqiInputs, c.Xiangqi.population(1), 1)
		}
		if strings.HasPrefix(tc.file, "[draughts]") {
			// The Blondie net's piece difference and distillation step
			// aside when the file does not set them.
			pc := c.Draughts.population(1)
			if pc.Flags&nnet.PieceDiff != 0 || pc.DistillEvery != 0 {
				t.Errorf("%q: flags %v, distill_every %d; want no piece difference, no distillation", tc.file, pc.Flags, pc.DistillEvery)
			}
			st, err = population.New("draughts", nnet.GenomeInputs(nnet.NumDraughtsInputs, pc.Flags), pc, 1)
		}
		if err != nil {
			t.Fatalf("%q: %v", tc.file, err)
		}
		net := st.Agents[0].Net
		if got, want := net.Flags()&nnet.Perspective != 0, tc.file != ""; got != want || !slices.Equal(net.Sizes(), tc.sizes) {
			t.Errorf("%q: generation 0 has sizes %v and flags %v, want sizes %v and perspective %v", tc.file, net.Sizes(), net.Flags(), tc.sizes, want)
		}
	}
}

func TestChessEvolveTermsReachesTheGenome(t *testing.T) {
	for _, tc := range []struct {
		file                         string
		terms, more, tapered, danger bool
	}{
		{"", true, true, true, true}, // the default
		{"[chess]\nevolve_terms = true\n", true, true, true, true},
		{"[chess]\nevolve_terms = false\n", false, false, false, false}, // the defaults that need the terms follow
		{"[chess]\nevolve_more_terms = false\n", true, false, true, false},
		{"[chess]\nevolve_tapered = false\n", true, true, false, true},
		{"[chess]\nevolve_king_danger = false\n", true, true, true, false},
		{"[chess]\nevolve_tapered_tables = true\n", true, true, true, true},
	} {
		c, err := ParseConfig(DefaultConfig(), strings.NewReader(tc.file), "test.toml")
		if err != nil {
			t.Fatal(err)
		}
		cfg := c.Chess.population(1)
		if got := cfg.Flags&nnet.EvolveTerms != 0; got != tc.terms {
			t.Errorf("%q: flags %v, want evolve-terms %v", tc.file, cfg.Flags, tc.terms)
		}
		st, err := population.New("chess", nnet.NumChessInputs, cfg, 1)
		if err != nil {
			t.Fatalf("%q: %v", tc.file, err)
		}
		if got := st.Agents[0].Net.Flags()&nnet.EvolveTerms != 0; got != tc.terms {
			t.Errorf("%q: generation 0 has flags %v, want evolve-terms %v", tc.file, st.Agents[0].Net.Flags(), tc.terms)
		}
		if got := st.Agents[0].Net.Flags()&nnet.EvolveMoreTerms != 0; got != tc.more {
			t.Errorf("%q: generation 0 has flags %v, want evolve-more-terms %v", tc.file, st.Agents[0].Net.Flags(), tc.more)
		}
		if got := st.Agents[0].Net.Flags()&nnet.EvolveKingDanger != 0; got != tc.danger {
			t.Errorf("%q: generation 0 has flags %v, want evolve-king-danger %v", tc.file, st.Agents[0].Net.Flags(), tc.danger)
		}
		if got := st.Agents[0].Net.Flags()&nnet.TaperedTerms != 0; got != tc.tapered {
			t.Errorf("%q: generation 0 has flags %v, want tapered-terms %v", tc.file, st.Agents[0].Net.Flags(), tc.tapered)
		}
		if got, want := st.Agents[0].Net.Flags()&nnet.TaperedTables != 0, strings.Contains(tc.file, "tapered_tables"); got != want {
			t.Errorf("%q: generation 0 has flags %v, want tapered-tables %v", tc.file, st.Agents[0].Net.Flags(), want)
		}
	}
}

// TestDatabaseInAMissingDirectoryIsRefused checks that a database path
// whose directory does not exist is a configuration error naming the
// key, and that nothing is created.
func TestDatabaseInAMissingDirectoryIsRefused(t *testing.T) {
	cfg := fastDraughts()
	missing := filepath.Join(t.TempDir(), "typo")
	cfg.DB = filepath.Join(missing, "evolved.db")
	_, err := New(context.Background(), cfg, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Notifier: nopNotifier{}})
	if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "db = ") || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("New with a database in a missing directory: err = %v, want an ErrConfig naming db", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("the missing directory %s was created", missing)
	}
}

// TestDistillDefaultStepsAside: chess distills by default, and a file
// whose other keys rule the distillation out (MCTS-EPT, an evolution
// strategy, the title match) runs without it instead of failing over a
// key it does not set; the same file setting distill_every is refused.
func TestDistillDefaultStepsAside(t *testing.T) {
	c, err := ParseConfig(DefaultConfig(), strings.NewReader(""), "test.toml")
	if err != nil || c.Validate() != nil || c.Chess.population(1).DistillEvery != 10 {
		t.Fatalf("the default: %v, distill_every %d, want 10", err, c.Chess.population(1).DistillEvery)
	}
	for _, file := range []string{
		"[chess]\nsearch = \"ept:50\"\nnodes = 0\n",
		"[chess]\npreset = \"es\"\nfitness_memory = false\n",
		"[chess]\nchampion_games = 20\n",
	} {
		c, err := ParseConfig(DefaultConfig(), strings.NewReader(file), "test.toml")
		if err == nil {
			err = c.Validate()
		}
		if err != nil {
			t.Errorf("%q: %v, want a valid configuration", file, err)
			continue
		}
		if got := c.Chess.population(1); got.DistillEvery != 0 || got.Validate() != nil {
			t.Errorf("%q: the population distills every %d (%v), want 0", file, got.DistillEvery, got.Validate())
		}
		c, err = ParseConfig(DefaultConfig(), strings.NewReader(file+"distill_every = 10\n"), "test.toml")
		if err == nil {
			err = c.Validate()
		}
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "chess.distill_every = 10") {
			t.Errorf("%q with distill_every: %v, want the key named", file, err)
		}
	}
}
