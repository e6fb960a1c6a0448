package daemon

import (
	"context"
	"errors"
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
