package population

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"evolved/nnet"
	"evolved/tournament"
)

// TestConfigErrorsNameTheKey checks that Validate names the key of the
// bad setting, its value and why, and wraps ErrConfig.
func TestConfigErrorsNameTheKey(t *testing.T) {
	for want, mutate := range map[string]func(*Config){
		"population: population = 1: want at least 2":                          func(c *Config) { c.Size = 1 },
		"population: population = 16: elite 5 + 4 x 2 crossover pairs + 2 mut": func(c *Config) { c.Size = 16 },
		`population: population = 14: want an odd number of at least 3 with preset "es"`: func(c *Config) {
			c.Optimizer, c.Size = ES, 14
		},
		"population: elite = 20: want 1 to population (15)":                              func(c *Config) { c.Elite = 20 },
		"population: elite = 5: the mutant of rank 6 is outside the elite":               func(c *Config) { c.Mutants = []int{4, 6} },
		"population: elite = 5: the crossover of ranks 0 and 2 reaches outside":          func(c *Config) { c.Crossovers[0] = [2]int{0, 2} },
		"population: crossovers = [[1 1] [2 3]]: rank 1 crosses with itself":             func(c *Config) { c.Crossovers[0] = [2]int{1, 1} },
		"population: hidden = []: want at least one layer":                               func(c *Config) { c.Hidden = nil },
		"population: learn_every = 5: trains a perspective net, and this run's nets are": func(c *Config) { c.LearnEvery = 5 },
		"population: learn_every = -1: must not be negative":                             func(c *Config) { c.LearnEvery = -1 },
		"population: learn_games = 3: learn_games, learn_nodes and learn_positions need": func(c *Config) { c.LearnGames = 3 },
		"population: learn_explore = true: evolves the settings of a training, and learn_explore needs learn_every > 0": func(c *Config) {
			c.LearnExplore = true
		},
		"population: learn_nodes = -5: want 0 (2000) to 1000000 nodes a move": func(c *Config) {
			c.Flags, c.LearnEvery, c.LearnNodes = nnet.Perspective, 2, -5
		},
		"population: learn_positions = 10000001: want 0 (two trainings' data games) to 10000000": func(c *Config) {
			c.Flags, c.LearnEvery, c.LearnPositions = nnet.Perspective, 2, 10_000_001
		},
		"population: learn_every = 2: not with champion_games": func(c *Config) {
			c.Flags, c.LearnEvery, c.ChampionGames = nnet.Perspective, 2, 20
		},
		"population: hidden = [40 5000]: a layer of 5000 nodes, want 1 to 4096":         func(c *Config) { c.Hidden = []int{40, 5000} },
		"population: ladder_champions = -1: must not be negative":                       func(c *Config) { c.LadderChampions = -1 },
		"population: ladder_games = 5: want an even number":                             func(c *Config) { c.LadderGames = 5 },
		"population: ladder_later_every = -1: must not be negative":                     func(c *Config) { c.LadderLaterEvery = -1 },
		"population: baseline_every = -1: must not be negative":                         func(c *Config) { c.BaselineEvery = -1 },
		"population: baseline_later_every = -1: must not be negative":                   func(c *Config) { c.BaselineLaterEvery = -1 },
		"population: baseline_later_every = 25: want a multiple of baseline_every (10)": func(c *Config) { c.BaselineLaterEvery = 25 },
		"population: baseline_games = 10001: want 0..10000":                             func(c *Config) { c.BaselineGames = 10001 },
		"population: mutation_scale = NaN: want 0 (Blondie24's step, as 1) to 10":       func(c *Config) { c.MutationScale = math.NaN() },
		"population: table_mutation_scale = 11: want 0 (mutation_scale's) to 10":        func(c *Config) { c.TableMutationScale = 11 },
		"population: value_mutation_scale = 0.05: the nets have no evolvable piece val": func(c *Config) { c.ValueMutationScale = 0.05 },
		"population: table_scale_step = 0.6: want 0 (none) to 0.5": func(c *Config) {
			c.Flags |= nnet.EvolvePST
			c.TableScaleStep = 0.6
		},
		`population: table_scale_step = 0.1: not with preset "es"`: func(c *Config) {
			c.Optimizer, c.Flags, c.TableScaleStep = ES, c.Flags|nnet.EvolvePST, 0.1
		},
		"population: fitness_caution = 1: needs fitness_memory = true":             func(c *Config) { c.FitnessCaution = 1 },
		"population: mutation_half_life = -1: want 0 (steps that never shrink) to": func(c *Config) { c.MutationHalfLife = -1 },
		`population: mutation_half_life = 100: not with preset "es"`: func(c *Config) {
			c.Optimizer, c.FitnessMemory, c.MutationHalfLife, c.MutationFloor = ES, false, 100, 0.5
		},
		`population: mutation_half_life = 100: not with preset "spsa"`: func(c *Config) {
			c.Optimizer, c.FitnessMemory, c.MutationHalfLife, c.MutationFloor = SPSA, false, 100, 0.5
		},
		"population: mutation_floor = 0: want a fraction of the steps above 0":      func(c *Config) { c.MutationHalfLife = 100 },
		"population: mutation_floor = 1.5: want a fraction":                         func(c *Config) { c.MutationHalfLife, c.MutationFloor = 100, 1.5 },
		"population: mutation_floor = 0.1: needs mutation_half_life":                func(c *Config) { c.MutationFloor = 0.1 },
		`population: fitness_memory = true: not with preset "es"`:                   func(c *Config) { c.Optimizer, c.FitnessMemory = ES, true },
		"population: hall_of_fame = 21: want 0 (none) to 20 champions":              func(c *Config) { c.HallOfFame = 21 },
		"population: hall_games = 3: want an even number from 2 to 1000":            func(c *Config) { c.HallOfFame, c.HallGames = 1, 3 },
		"population: racing_games = 2101: want 0 (no race) to 2100":                 func(c *Config) { c.RacingGames = 2101 },
		`population: racing_games = 10: not with preset "es"`:                       func(c *Config) { c.Optimizer, c.RacingGames = ES, 10 },
		"population: racing_confidence = 1: want 0 (0.9) or a probability below 1":  func(c *Config) { c.RacingGames, c.RacingConfidence = 10, 1 },
		"population: racing_confidence = 0.5: needs racing_games > 0":               func(c *Config) { c.RacingConfidence = 0.5 },
		"population: champion_games = 7: want 0 (no title match) or an even number": func(c *Config) { c.ChampionGames = 7 },
		"population: champion_games = -2: want 0 (no title match)":                  func(c *Config) { c.ChampionGames = -2 },
		"population: champion_games = 10002: want 0 (no title match)":               func(c *Config) { c.ChampionGames = 10002 },
		`population: champion_games = 40: not with preset "spsa"`:                   func(c *Config) { c.Optimizer, c.FitnessMemory, c.ChampionGames = SPSA, false, 40 },
		`population: preset = "cma": want "blondie24", "es" or "spsa"`:              func(c *Config) { c.Optimizer = "cma" },
		`population: hall_of_fame = 2: not with preset "spsa"`:                      func(c *Config) { c.Optimizer, c.FitnessMemory, c.HallOfFame = SPSA, false, 2 },
		`population: fitness_memory = true: not with preset "spsa"`:                 func(c *Config) { c.Optimizer, c.FitnessMemory = SPSA, true },
		"population: spsa_games = 3: want 0 (30) or an even number up to 1000":      func(c *Config) { c.Optimizer, c.SPSAGames = SPSA, 3 },
		"population: spsa_rate = -1: want 0 (1) to 100":                             func(c *Config) { c.Optimizer, c.SPSARate = SPSA, -1 },
		`population: spsa_games = 20: needs preset = "spsa"`:                        func(c *Config) { c.SPSAGames = 20 },
		`population: spsa_rate = 2: needs preset = "spsa"`:                          func(c *Config) { c.SPSARate = 2 },
		`population: rounds = 2: not with preset "spsa"`:                            func(c *Config) { c.Optimizer, c.Tournament.Rounds = SPSA, 2 },
		`population: table_scale_step = 0.1: not with preset "spsa"`: func(c *Config) {
			c.Optimizer, c.Flags, c.TableScaleStep = SPSA, c.Flags|nnet.EvolvePST, 0.1
		},
		"population: curriculum_every = -1: must not be negative":                           func(c *Config) { c.CurriculumEvery = -1 },
		"population: curriculum_games = 3: want 0 (200) or an even number":                  func(c *Config) { c.CurriculumEvery, c.CurriculumGames = 10, 3 },
		"population: curriculum_step = 1: want 0 (1.5) or a factor above 1, up to 10":       func(c *Config) { c.CurriculumEvery, c.CurriculumStep = 10, 1 },
		"population: curriculum_games = 100: needs curriculum_every > 0":                    func(c *Config) { c.CurriculumGames = 100 },
		`population: format = "swiss": tournament: unknown format (want roundrobin or blon`: func(c *Config) { c.Tournament.Format = "swiss" },
		"population: rounds = 11: want 1 to 10":                                             func(c *Config) { c.Tournament.Rounds = 11 },
		"population: rounds = 2: the blondie format plays no rounds": func(c *Config) {
			c.Tournament.Format, c.Tournament.Rounds = tournament.Blondie, 2
		},
	} {
		c := DefaultConfig()
		mutate(&c)
		err := c.Validate()
		var ce *ConfigError
		if !errors.Is(err, ErrConfig) || !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Validate() = %v, want a *ConfigError wrapping ErrConfig starting %q", err, want)
		}
	}
}

// TestBaselineSchedule checks the generations that play the baselines,
// listed by hand: every 10 to generation 100, then every 100, at the
// defaults; every baseline_every throughout with baseline_later_every 0,
// as runs started before the key keep; none with baseline_every 0.
func TestBaselineSchedule(t *testing.T) {
	due := func(c Config) []int {
		var gens []int
		for g := range 501 {
			if c.BaselineDue(g) {
				gens = append(gens, g)
			}
		}
		return gens
	}
	c := DefaultConfig()
	if got, want := due(c), []int{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 200, 300, 400, 500}; !slices.Equal(got, want) {
		t.Errorf("defaults: baselines at %v, want %v", got, want)
	}
	c.BaselineEvery, c.BaselineLaterEvery = 50, 200
	if got, want := due(c), []int{0, 50, 100, 150, 200, 400}; !slices.Equal(got, want) {
		t.Errorf("50 then 200: baselines at %v, want %v", got, want)
	}
	c.BaselineEvery, c.BaselineLaterEvery = 100, 0
	if got, want := due(c), []int{0, 100, 200, 300, 400, 500}; !slices.Equal(got, want) {
		t.Errorf("100 throughout: baselines at %v, want %v", got, want)
	}
	c.BaselineEvery, c.BaselineLaterEvery = 0, 100
	if got := due(c); got != nil {
		t.Errorf("baseline_every 0: baselines at %v, want none", got)
	}
	c.BaselineEvery, c.BaselineGames = 10, 0
	if got := due(c); got != nil {
		t.Errorf("baseline_games 0: baselines at %v, want none", got)
	}
	c.BaselineGames = 20
	// The games Step plays follow the schedule: generation 110 plays the
	// ladder only, 200 the baselines too.
	c = DefaultConfig()
	if got, want := c.MeasurementGames(110), 5*6; got != want {
		t.Errorf("measurement games at generation 110: %d, want %d", got, want)
	}
	if got, want := c.MeasurementGames(200), 5*6+4*20; got != want {
		t.Errorf("measurement games at generation 200: %d, want %d", got, want)
	}
}

// TestLadderSchedule checks the generations that play the ladder, listed
// by hand, and that the games and champions Step needs follow them.
func TestLadderSchedule(t *testing.T) {
	due := func(c Config, to int) []int {
		var gens []int
		for g := range to + 1 {
			if c.LadderDue(g) {
				gens = append(gens, g)
			}
		}
		return gens
	}
	c := DefaultConfig()
	want := []int{}
	for g := range 100 {
		want = append(want, g)
	}
	want = append(want, 100, 110, 120, 130)
	if got := due(c, 135); !slices.Equal(got, want) {
		t.Errorf("defaults: ladder at %v, want %v", got, want)
	}
	c.LadderLaterEvery = 3
	if got, want := due(c, 40), []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 33, 36, 39}; !slices.Equal(got, want) {
		t.Errorf("every 3rd from 30: ladder at %v, want %v", got, want)
	}
	c.LadderLaterEvery = 0 // runs started before the key
	if got := due(c, 500); len(got) != 501 {
		t.Errorf("ladder_later_every 0: ladder at %d of 501 generations, want all", len(got))
	}
	c.LadderLaterEvery, c.LadderGames = 10, 0
	if got := due(c, 500); got != nil {
		t.Errorf("ladder_games 0: ladder at %v, want none", got)
	}
	c = DefaultConfig()
	c.BaselineEvery, c.BaselineLaterEvery = 3, 0
	for _, tc := range []struct {
		gen, games int
		nets       []int
	}{
		{99, 5*6 + 4*20, []int{49, 94, 95, 96, 97, 98}}, // the ladder and the baselines
		{110, 5 * 6, []int{105, 106, 107, 108, 109}},    // the ladder alone
		{111, 4 * 20, []int{55}},                        // the baselines alone: no ladder's champions
		{112, 0, nil},
	} {
		if got := c.MeasurementGames(tc.gen); got != tc.games {
			t.Errorf("measurement games at generation %d: %d, want %d", tc.gen, got, tc.games)
		}
		if got := c.ChampionNets(tc.gen); !slices.Equal(got, tc.nets) {
			t.Errorf("champions needed at generation %d: %v, want %v", tc.gen, got, tc.nets)
		}
	}
}

// TestConfigErrorWrapsItsCause checks that a ConfigError wraps what it
// comes from: the tournament's unknown format.
func TestConfigErrorWrapsItsCause(t *testing.T) {
	c := DefaultConfig()
	c.Tournament.Format = "swiss"
	if err := c.Validate(); !errors.Is(err, tournament.ErrFormat) {
		t.Errorf("Validate() = %v, want it to wrap tournament.ErrFormat", err)
	}
}

// TestRecipe checks Blondie24's breeding by elite: DefaultConfig's for 5,
// and a population that reproduces for every elite from 3.
func TestRecipe(t *testing.T) {
	def := DefaultConfig()
	if cross, mutants := Recipe(5); !reflect.DeepEqual(cross, def.Crossovers) || !slices.Equal(mutants, def.Mutants) ||
		!reflect.DeepEqual(cross, [][2]int{{1, 2}, {2, 3}}) || !slices.Equal(mutants, []int{4, 5}) {
		t.Errorf("Recipe(5) = %v, %v; want DefaultConfig's [[1 2] [2 3]], [4 5]", cross, mutants)
	}
	if _, mutants := Recipe(3); mutants != nil {
		t.Errorf("Recipe(3) mutates %v, want none", mutants)
	}
	for elite := 3; elite <= 10; elite++ {
		c := DefaultConfig()
		c.Elite, c.Size = elite, 2*elite+5
		c.Crossovers, c.Mutants = Recipe(elite)
		if err := c.Validate(); err != nil {
			t.Errorf("elite %d of %d: %v", elite, c.Size, err)
		}
	}
}

// TestConfigKeys checks that every field of Config has one key, the same
// in TOML and JSON, or none in both.
func TestConfigKeys(t *testing.T) {
	typ := reflect.TypeFor[Config]()
	seen := map[string]bool{}
	for f := range typ.Fields() {
		tomlKey := f.Tag.Get("toml")
		jsonKey, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tomlKey == "" || tomlKey != jsonKey || seen[tomlKey] && tomlKey != "-" {
			t.Errorf("field %s: toml key %q, json key %q; want one key, the same in both, used once", f.Name, tomlKey, jsonKey)
		}
		seen[tomlKey] = true
	}
}
