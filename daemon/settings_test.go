package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"evolved/nnet"
	"evolved/population"
	"evolved/storage"
)

// storeRun creates a run of game (draughts or chess) whose stored settings
// are the JSON settings, as a version of evolved that wrote them would
// have; its generation 0 comes from the configured section.
func storeRun(t *testing.T, d *Daemon, game, settings string) {
	t.Helper()
	inputs, cfg := nnet.NumDraughtsInputs, d.config().Draughts.population(0)
	if game == "chess" {
		inputs, cfg = nnet.NumChessInputs, d.config().Chess.population(0)
	}
	st, err := population.New(game, inputs, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.db.CreateRun(context.Background(), storage.Run{Game: game, Seed: 1, Config: settings, CreatedAt: time.Now()}, PopulationRows(st)); err != nil {
		t.Fatal(err)
	}
}

// oldSettings are the draughts settings as the version before the hall of
// fame stored them: no hall_of_fame, no hall_games, and depth 3 where the
// default is now 4.
const oldSettings = `{"depth":3,"opening_plies":4,"max_moves":100,"format":"roundrobin","population":15,"elite":5,` +
	`"hidden":[40,10],"piece_diff":true,"self_adaptive":false,"ladder_champions":5,"ladder_games":6,` +
	`"baseline_every":10,"baselines":["random","material:4","mcts:1000"],"baseline_games":20,"evolve_king":false}`

func TestRunKeepsItsStoredSettings(t *testing.T) {
	d := newTestDaemon(t)
	storeRun(t, d, "draughts", oldSettings)
	want := d.config().Draughts
	want.HallOfFame, want.HallGames = 6, 2 // a later version's defaults
	got, err := runSettings(context.Background(), d, "draughts", want)
	if err != nil {
		t.Fatal(err)
	}
	if got.Depth != 3 {
		t.Errorf("depth %d, want the stored 3", got.Depth)
	}
	if got.HallOfFame != 0 || got.HallGames != 0 {
		t.Errorf("hall of fame %d x %d games, want 0 x 0: a key the run was started without keeps its zero value", got.HallOfFame, got.HallGames)
	}
	if got.population(0).Validate() != nil {
		t.Errorf("the stored settings do not make a valid population: %v", got.population(0).Validate())
	}
}

func TestRunRefusesSettingsTheFileChanges(t *testing.T) {
	d := newTestDaemon(t)
	storeRun(t, d, "draughts", oldSettings)
	for _, tc := range []struct {
		file string
		keys []string // nil: accepted
	}{
		{"[draughts]\ndepth = 3\n", nil},                        // what the run has
		{"[draughts]\nhall_of_fame = 0\nhall_games = 0\n", nil}, // the zero values it has
		// The defaults it had, spelt out: the same as storing nothing.
		{"[draughts]\npreset = \"blondie24\"\nmutation_scale = 1.0\nrounds = 1\n", nil},
		{"[draughts]\nrounds = 2\n", []string{"draughts.rounds"}},
		{"[draughts]\npreset = \"es\"\n", []string{"draughts.preset"}},
		{"[draughts]\nmutation_scale = 0.5\n", []string{"draughts.mutation_scale"}},
		{"[draughts]\ndepth = 4\n", []string{"draughts.depth"}},
		{"[draughts]\nhall_of_fame = 6\n", []string{"draughts.hall_of_fame"}},
		{"[draughts]\ndepth = 5\nelite = 3\n", []string{"draughts.depth", "draughts.elite"}},
	} {
		cfg, err := ParseConfig(d.config(), strings.NewReader(tc.file), "test.toml")
		if err != nil {
			t.Fatal(err)
		}
		d.mu.Lock()
		d.cfg = cfg
		d.mu.Unlock()
		_, err = runSettings(context.Background(), d, "draughts", cfg.Draughts)
		if tc.keys == nil {
			if err != nil {
				t.Errorf("%q: %v", tc.file, err)
			}
			continue
		}
		if !errors.Is(err, ErrRunMismatch) {
			t.Errorf("%q: error %v, want ErrRunMismatch", tc.file, err)
			continue
		}
		for _, k := range tc.keys {
			if !strings.Contains(err.Error(), k) {
				t.Errorf("%q: error %q does not name %s", tc.file, err, k)
			}
		}
	}
}

func TestNewRunTakesTheConfiguration(t *testing.T) {
	d := newTestDaemon(t)
	want := d.config().Draughts
	want.HallOfFame = 3
	got, err := runSettings(context.Background(), d, "draughts", want)
	if err != nil {
		t.Fatal(err)
	}
	if got.HallOfFame != 3 {
		t.Errorf("hall of fame %d, want the configured 3", got.HallOfFame)
	}
}

// oldChessSettings are the chess settings of the default before the
// positional terms: the blondie format, no fitness memory, no evolve_terms.
const oldChessSettings = `{"preset":"blondie24","depth":2,"opening_plies":4,"max_moves":100,"format":"blondie","population":15,` +
	`"elite":5,"hidden":[32,8],"piece_diff":false,"self_adaptive":false,"ladder_champions":5,"ladder_games":6,` +
	`"baseline_every":10,"baselines":["random","material:2"],"baseline_games":20,"hall_of_fame":0,"hall_games":2,` +
	`"mutation_scale":0.1,"fitness_memory":false,"evolve_piece_values":true,"evolve_pst":true,"adjudicate_material":0,"chess960":false}`

// oldXiangqiSettings are the xiangqi settings of the default before the
// positional terms, as a run stored them: the blondie format, no fitness
// memory, no evolve_terms.
const oldXiangqiSettings = `{"preset":"blondie24","depth":2,"nodes":0,"opening_plies":4,"max_moves":100,"format":"blondie",` +
	`"population":15,"elite":5,"hidden":[32,8],"piece_diff":false,"self_adaptive":false,"ladder_champions":5,"ladder_games":6,` +
	`"baseline_every":10,"baselines":["random","classic"],"baseline_games":20,"hall_of_fame":0,"hall_games":2,` +
	`"mutation_scale":0.1,"fitness_memory":false,"evolve_piece_values":true,"evolve_pst":true,"adjudicate_material":0}`

// TestRunsKeepThePreviousDefault checks that chess and xiangqi runs
// started with the default before the positional terms resume with their
// stored settings, not with today's default of terms, fitness memory and
// the round robin.
func TestRunsKeepThePreviousDefault(t *testing.T) {
	d := newTestDaemon(t)
	cc, xc := d.config().Chess, d.config().Xiangqi
	storeRun(t, d, "chess", oldChessSettings)
	chess, err := runSettings(context.Background(), d, "chess", cc)
	if err != nil {
		t.Fatal(err)
	}
	storeRun(t, d, "xiangqi", oldXiangqiSettings)
	xiangqi, err := runSettings(context.Background(), d, "xiangqi", xc)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		game                string
		defaultTerms, terms bool
		def, got            PopulationConfig
	}{
		{"chess", cc.EvolveTerms, chess.EvolveTerms, cc.PopulationConfig, chess.PopulationConfig},
		{"xiangqi", xc.EvolveTerms, xiangqi.EvolveTerms, xc.PopulationConfig, xiangqi.PopulationConfig},
	} {
		if !c.defaultTerms || !c.def.FitnessMemory || c.def.Format != "roundrobin" {
			t.Fatalf("the %s default is %+v; this test expects the terms, fitness memory and round robin", c.game, c.def)
		}
		if c.terms || c.got.FitnessMemory || c.got.Format != "blondie" {
			t.Errorf("a %s run started with the previous default resumes with evolve_terms %v, fitness_memory %v, format %q; want false, false, blondie",
				c.game, c.terms, c.got.FitnessMemory, c.got.Format)
		}
	}
}

// TestXiangqiRunKeepsItsValueStep checks that a xiangqi run started with
// the previous default (the terms, the round robin, fitness memory, and
// piece values stepped as the tables) resumes so, without the value step
// the default now has.
func TestXiangqiRunKeepsItsValueStep(t *testing.T) {
	d := newTestDaemon(t)
	xc := d.config().Xiangqi
	if xc.ValueMutationScale == 0 {
		t.Fatalf("the xiangqi default is %+v; this test expects a value step", xc)
	}
	previous := strings.Replace(strings.Replace(strings.Replace(oldXiangqiSettings,
		`"format":"blondie"`, `"format":"roundrobin"`, 1),
		`"fitness_memory":false`, `"fitness_memory":true`, 1),
		`"adjudicate_material":0}`, `"adjudicate_material":0,"evolve_terms":true}`, 1)
	storeRun(t, d, "xiangqi", previous)
	got, err := runSettings(context.Background(), d, "xiangqi", xc)
	if err != nil {
		t.Fatal(err)
	}
	if !got.EvolveTerms || !got.FitnessMemory || got.Format != "roundrobin" || got.ValueMutationScale != 0 {
		t.Errorf("a run started with the previous xiangqi default resumes with %+v; want its terms, memory and round robin, no value step", got)
	}
	cfg := got.population(1)
	if cfg.ValueMutationScale != 0 {
		t.Errorf("its population mutates piece values at %v, want 0", cfg.ValueMutationScale)
	}
}

// TestXiangqiRunKeepsItsTerms checks that a xiangqi run started with the
// default before the more terms (the ten terms and the value step) resumes
// with ten terms, though the default now has fourteen.
func TestXiangqiRunKeepsItsTerms(t *testing.T) {
	d := newTestDaemon(t)
	xc := d.config().Xiangqi
	if !xc.EvolveMoreTerms || xc.flags()&nnet.EvolveMoreTerms == 0 {
		t.Fatalf("the xiangqi default is %+v; this test expects the more terms", xc)
	}
	previous := mainSettings[0].xiangqi
	if !strings.Contains(previous, `"evolve_more_terms":true,`) {
		t.Fatalf("the default's stored settings %s lack the more terms", previous)
	}
	storeRun(t, d, "xiangqi", strings.Replace(previous, `"evolve_more_terms":true,`, "", 1))
	got, err := runSettings(context.Background(), d, "xiangqi", xc)
	if err != nil {
		t.Fatal(err)
	}
	if !got.EvolveTerms || got.EvolveMoreTerms || got.flags()&nnet.EvolveMoreTerms != 0 {
		t.Errorf("a run started with the previous xiangqi default resumes with %+v; want the ten terms alone", got)
	}
}

// TestRunKeepsOneRound checks that a run started before rounds existed
// resumes with one round, the default, whether the configuration leaves
// the key out (TestRunRefusesSettingsTheFileChanges: or spells it, and is
// refused two).
func TestRunKeepsOneRound(t *testing.T) {
	d := newTestDaemon(t)
	cc := d.config().Chess
	if cc.Rounds != 1 {
		t.Fatalf("the chess default plays %d rounds; this test expects 1", cc.Rounds)
	}
	storeRun(t, d, "chess", oldChessSettings)
	got, err := runSettings(context.Background(), d, "chess", cc)
	if err != nil {
		t.Fatal(err)
	}
	if got.Rounds > 1 || got.population(1).Tournament.Rounds > 1 {
		t.Errorf("a run started before rounds resumes with %d rounds (population: %d), want one", got.Rounds, got.population(1).Tournament.Rounds)
	}
}

// TestChessRunKeepsTheBasicTerms checks that a run started with the
// twelve basic terms, before evolve_more_terms, resumes without the more
// terms the default now has.
func TestChessRunKeepsTheBasicTerms(t *testing.T) {
	d := newTestDaemon(t)
	cc := d.config().Chess
	if !cc.EvolveMoreTerms {
		t.Fatalf("the chess default is %+v; this test expects the more terms", cc)
	}
	storeRun(t, d, "chess", strings.Replace(oldChessSettings, `"chess960":false}`, `"chess960":false,"evolve_terms":true}`, 1))
	got, err := runSettings(context.Background(), d, "chess", cc)
	if err != nil {
		t.Fatal(err)
	}
	if !got.EvolveTerms || got.EvolveMoreTerms {
		t.Errorf("a run started with the basic terms resumes with evolve_terms %v, evolve_more_terms %v; want true, false",
			got.EvolveTerms, got.EvolveMoreTerms)
	}
}

// mainSettings are the settings a run stored for each game before
// population.Config held the genetic algorithm's (commit 4978388), plus
// baseline_later_every and ladder_later_every, which new runs store since
// they exist: for the default configuration, then for a file that sets
// the keys a default leaves out of the JSON (the omitempty ones), the zero
// values that spell a default and a string JSON escapes. Chess's and xiangqi's
// depth and nodes are the defaults since the search's pruning techniques
// (3 and 800; they were 2 and 0), and each game's distill_every since the
// distillation (chess and xiangqi 10, draughts 2; before it, absent: 0),
// and chess's evolve_tapered and evolve_king_danger since they won at six
// hours (stored even where evolve_terms = false leaves them nothing to
// act on, as evolve_more_terms is).
var mainSettings = []struct {
	file                     string
	draughts, chess, xiangqi string
}{
	{"", `{"preset":"blondie24","depth":4,"nodes":0,"opening_plies":4,"max_moves":100,"format":"roundrobin","rounds":1,"population":15,"elite":5,"hidden":[40,10],"piece_diff":true,"self_adaptive":false,"ladder_champions":5,"ladder_games":6,"baseline_every":10,"baseline_later_every":100,"baselines":["random","material:4","mcts:1000"],"baseline_games":20,"hall_of_fame":0,"hall_games":2,"mutation_scale":0.1,"fitness_memory":true,"distill_every":2,"evolve_king":false}`,
		`{"preset":"blondie24","depth":3,"nodes":800,"opening_plies":4,"max_moves":100,"format":"roundrobin","rounds":1,"population":15,"elite":5,"hidden":[32,8],"piece_diff":false,"self_adaptive":false,"ladder_champions":5,"ladder_games":6,"ladder_later_every":10,"baseline_every":10,"baseline_later_every":100,"baselines":["random","material:2"],"baseline_games":20,"hall_of_fame":0,"hall_games":2,"mutation_scale":0.1,"fitness_memory":true,"distill_every":10,"evolve_piece_values":true,"evolve_pst":true,"evolve_terms":true,"evolve_more_terms":true,"evolve_tapered":true,"evolve_king_danger":true,"adjudicate_material":0,"chess960":false}`,
		`{"preset":"blondie24","depth":3,"nodes":800,"opening_plies":4,"max_moves":100,"format":"roundrobin","rounds":1,"population":15,"elite":5,"hidden":[32,8],"piece_diff":false,"self_adaptive":false,"ladder_champions":5,"ladder_games":6,"ladder_later_every":10,"baseline_every":10,"baseline_later_every":100,"baselines":["random","classic"],"baseline_games":20,"hall_of_fame":0,"hall_games":2,"mutation_scale":0.1,"value_mutation_scale":0.05,"fitness_memory":true,"distill_every":10,"evolve_piece_values":true,"evolve_pst":true,"evolve_terms":true,"evolve_more_terms":true,"adjudicate_material":0}`},
	{settingsFile, `{"preset":"es","depth":4,"nodes":5000,"opening_plies":4,"max_moves":100,"format":"roundrobin","quiet_net":true,"rounds":1,"population":17,"elite":5,"hidden":[40,10],"piece_diff":true,"self_adaptive":true,"ladder_champions":5,"ladder_games":6,"baseline_every":10,"baseline_later_every":100,"baselines":["random","material:4","mcts:1000"],"baseline_games":20,"hall_of_fame":3,"hall_games":2,"mutation_scale":0.5,"fitness_memory":false,"distill_every":2,"evolve_king":true}`,
		`{"preset":"blondie24","depth":3,"nodes":800,"opening_plies":4,"max_moves":100,"format":"roundrobin","quiet_net":true,"rounds":2,"population":15,"elite":5,"hidden":[32,8],"piece_diff":false,"self_adaptive":false,"ladder_champions":5,"ladder_games":6,"ladder_later_every":10,"baseline_every":10,"baseline_later_every":100,"baselines":["random","a\u003cb\u0026c"],"baseline_games":20,"hall_of_fame":0,"hall_games":2,"mutation_scale":0.1,"table_mutation_scale":0.3,"value_mutation_scale":0.02,"table_scale_step":0.1,"mutation_half_life":250,"mutation_floor":0.2,"fitness_memory":true,"fitness_caution":1.5,"distill_every":10,"evolve_piece_values":true,"evolve_pst":true,"evolve_tapered":true,"evolve_king_danger":true,"adjudicate_material":9,"chess960":true}`,
		`{"preset":"","depth":3,"nodes":800,"opening_plies":4,"max_moves":100,"format":"blondie","population":15,"elite":5,"hidden":[7],"piece_diff":false,"self_adaptive":false,"ladder_champions":5,"ladder_games":6,"ladder_later_every":10,"baseline_every":10,"baseline_later_every":100,"baselines":["random","classic"],"baseline_games":20,"hall_of_fame":0,"hall_games":2,"mutation_scale":0,"value_mutation_scale":0.05,"fitness_memory":true,"distill_every":10,"evolve_piece_values":true,"evolve_pst":true,"evolve_more_terms":true,"adjudicate_material":0}`},
}

// settingsFile sets what the second case of mainSettings stores.
const settingsFile = `
[draughts]
preset = "es"
mutation_scale = 0.5
population = 17
fitness_memory = false
quiet_net = true
nodes = 5000
self_adaptive = true
evolve_king = true
hall_of_fame = 3
[chess]
table_mutation_scale = 0.3
value_mutation_scale = 0.02
table_scale_step = 0.1
mutation_half_life = 250
mutation_floor = 0.2
fitness_caution = 1.5
rounds = 2
evolve_terms = false
evolve_more_terms = false
adjudicate_material = 9
chess960 = true
quiet_net = true
baselines = ["random", "a<b&c"]
[xiangqi]
format = "blondie"
rounds = 0
mutation_scale = 0
preset = ""
evolve_terms = false
hidden = [7]
`

// TestNewRunStoresTheSettingsOfMain checks that a new run stores its
// settings byte for byte as the daemon did before its sections embedded
// population.Config (same keys, order and omissions), and that they read
// back to the same section, as a resumed run reads them.
func TestNewRunStoresTheSettingsOfMain(t *testing.T) {
	for _, tc := range mainSettings {
		c, err := ParseConfig(DefaultConfig(), strings.NewReader(tc.file), "test.toml")
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []struct {
			game    string
			section any
			want    string
			stored  any // a zero section of the game, to read the JSON back into
		}{
			{"draughts", c.Draughts, tc.draughts, &DraughtsConfig{}},
			{"chess", c.Chess, tc.chess, &ChessConfig{}},
			{"xiangqi", c.Xiangqi, tc.xiangqi, &XiangqiConfig{}},
		} {
			got, err := definingJSON(g.section)
			if err != nil {
				t.Fatal(err)
			}
			if got != g.want {
				t.Errorf("%s settings of %q:\n got %s\nwant %s", g.game, tc.file, got, g.want)
			}
			if err := json.Unmarshal([]byte(got), g.stored); err != nil {
				t.Fatal(err)
			}
			if again, _ := definingJSON(g.stored); again != got {
				t.Errorf("%s settings read back as %s, want %s", g.game, again, got)
			}
		}
	}
}

// mainDraughtsSection is the draughts table of --print-config before the
// sections embedded population.Config, with the keys added since in
// their places.
const mainDraughtsSection = `[draughts]
  preset = "blondie24"
  depth = 4
  nodes = 0
  opening_plies = 4
  max_moves = 100
  format = "roundrobin"
  quiet_net = false
  rounds = 1
  population = 15
  elite = 5
  hidden = [40, 10]
  piece_diff = true
  self_adaptive = false
  ladder_champions = 5
  ladder_games = 6
  ladder_later_every = 0
  baseline_every = 10
  baseline_later_every = 100
  baselines = ["random", "material:4", "mcts:1000"]
  baseline_games = 20
  hall_of_fame = 0
  hall_games = 2
  mutation_scale = 0.1
  table_mutation_scale = 0.0
  value_mutation_scale = 0.0
  table_scale_step = 0.0
  mutation_half_life = 0
  mutation_floor = 0.0
  fitness_memory = true
  fitness_caution = 0.0
  racing_games = 0
  racing_confidence = 0.0
  champion_games = 0
  spsa_games = 0
  spsa_rate = 0.0
  curriculum_every = 0
  curriculum_games = 0
  curriculum_step = 0.0
  distill_every = 2
  distill_nodes = 0
  learn_every = 0
  learn_games = 0
  learn_nodes = 0
  learn_positions = 0
  learn_explore = false
  evolve_king = false
  perspective = false

`

// TestPrintKeepsTheKeysOrder checks that --print-config lists a game's
// keys in the order it always has.
func TestPrintKeepsTheKeysOrder(t *testing.T) {
	var b strings.Builder
	if err := DefaultConfig().Print(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), mainDraughtsSection) {
		t.Errorf("printed configuration:\n%s\nwant the draughts table\n%s", b.String(), mainDraughtsSection)
	}
}

// TestPopulationErrorsNameTheKey checks that a setting the genetic
// algorithm refuses is named by its key in the game's section, and that
// the error wraps both packages' sentinels.
func TestPopulationErrorsNameTheKey(t *testing.T) {
	for file, want := range map[string]string{
		"[chess]\nelite = 20\n":                          "config: chess.elite = 20: want 1 to population (15)",
		"[xiangqi]\nladder_champions = -1\n":             "config: xiangqi.ladder_champions = -1: must not be negative",
		"[draughts]\nformat = \"swiss\"\n":               `config: draughts.format = "swiss": tournament: unknown format (want roundrobin or blondie)`,
		"[chess]\nhall_of_fame = 1\nhall_games = 1002\n": "config: chess.hall_games = 1002: want an even number from 2 to 1000",
	} {
		c, err := ParseConfig(DefaultConfig(), strings.NewReader(file), "test.toml")
		if err != nil {
			t.Fatal(err)
		}
		err = c.Validate()
		var pe *population.ConfigError
		if !errors.Is(err, ErrConfig) || !errors.Is(err, population.ErrConfig) || !errors.As(err, &pe) || !strings.HasPrefix(fmt.Sprint(err), want) {
			t.Errorf("%q: err = %v, want an ErrConfig and population.ErrConfig starting %q", file, err, want)
		}
	}
}
