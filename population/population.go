// Package population is the genetic algorithm of evolved, after Blondie24:
// a population of neural-network agents plays a tournament, the best keep
// their place (elitism) and breed the rest by node-swap crossover and
// mutation, and each generation's champion is measured against the
// champions before it (the ladder) and against fixed baselines.
//
// A generation is a pure function of the state before it: Step draws every
// random number from seeds derived from (run seed, game, generation,
// purpose, index) and plays its games in an order that does not matter, so a
// run resumed from a stored state continues exactly as if it had never
// stopped. The package knows nets and tournaments, not storage: the daemon
// persists what Step returns.
package population

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"evolved/lineage"
	"evolved/nnet"
	"evolved/tournament"
)

// Optimizer names how a generation breeds the next.
type Optimizer string

const (
	// Blondie24 is the genetic algorithm of the seed experiment: elitism,
	// node-swap crossover and mutation (the zero value means it too).
	Blondie24 Optimizer = "blondie24"
	// ES is a (mu/mu_w, lambda) evolution strategy over the same genome:
	// slot 0 holds the strategy's mean, the other slots mirrored samples
	// around it, and the next mean moves towards the better half of the
	// samples (see breedES). The champion is the mean.
	ES Optimizer = "es"
	// SPSA is simultaneous perturbation stochastic approximation, the
	// tuner Fishtest runs for Stockfish, over the whole genome: slot 0
	// holds the mean, the other slots mirrored pairs mean ± s*d (d a
	// random sign for every weight, s its mutation step), each pair plays
	// only itself, SPSAGames games from shared openings, and the mean
	// steps along each pair's direction by the pair's result (see
	// breedSPSA). Differences too small for a ranking to see still move
	// the mean on average. The champion is the mean.
	SPSA Optimizer = "spsa"
)

// Mirrored reports whether the optimizer keeps a mean in slot 0 and
// mirrored pairs around it, with no elite: no agent outlives its
// generation (ES and SPSA).
func (o Optimizer) Mirrored() bool { return o == ES || o == SPSA }

// ParseOptimizer reads an optimizer name; "" is Blondie24.
func ParseOptimizer(s string) (Optimizer, error) {
	switch o := Optimizer(s); o {
	case "", Blondie24:
		return Blondie24, nil
	case ES, SPSA:
		return o, nil
	}
	return "", fmt.Errorf("%w: unknown optimizer %q (want %s, %s or %s)", ErrConfig, s, Blondie24, ES, SPSA)
}

// Config is the genetic algorithm's configuration. Together with the run
// seed and the Env's game it determines a run completely.
//
// Its settings carry the keys that name them in the daemon's configuration
// file and in the settings a run stores (the toml and json tags; the
// daemon embeds Config in every game's section), and Validate names them.
// The fields after FitnessCaution have no key: the caller derives them
// (Recipe, the game's net flags and tournament settings) and sets what is
// only known at run time (the tournament's workers and slots).
type Config struct {
	// Optimizer breeds the next generation: Blondie24 (also "") or ES.
	Optimizer Optimizer `toml:"preset" json:"preset"`
	// QuietNet starts generation 0 with every net's output layer at 0
	// (nnet.Net.Quieted): the agents then play by their piece values,
	// tables and terms alone, and the net's say grows from nothing as
	// mutation moves its output layer and selection keeps what helps. Off,
	// the output layer starts random like the rest, and its noise is in
	// every evaluation from the start.
	QuietNet bool `toml:"quiet_net" json:"quiet_net,omitempty"`
	// Size is the population size; default 15.
	Size int `toml:"population" json:"population"`
	// Elite is the number of best agents kept unchanged; default 5.
	Elite int `toml:"elite" json:"elite"`
	// Hidden is the hidden layer sizes of the nets; default 40, 10.
	Hidden []int `toml:"hidden" json:"hidden"`
	// LadderChampions is how many previous champions the champion meets;
	// default 5. LadderGames is the games against each, half with each
	// colour; default 6.
	LadderChampions int `toml:"ladder_champions" json:"ladder_champions"`
	LadderGames     int `toml:"ladder_games" json:"ladder_games"`
	// LadderLaterEvery, if positive, thins the ladder in a long run: it
	// is played at every generation below 10*LadderLaterEvery, then only
	// every LadderLaterEvery generations; 0 plays it at every generation
	// (LadderDue).
	LadderLaterEvery int `toml:"ladder_later_every" json:"ladder_later_every,omitempty"`
	// BaselineEvery plays the baselines every this many generations (and at
	// generation 0); 0 never. BaselineLaterEvery, if positive, spaces them
	// further from generation BaselineLaterEvery on: every that many
	// generations (a multiple of BaselineEvery), so that a long run's
	// measurements cost a small share of it; 0 keeps BaselineEvery
	// throughout (BaselineDue).
	BaselineEvery      int `toml:"baseline_every" json:"baseline_every"`
	BaselineLaterEvery int `toml:"baseline_later_every" json:"baseline_later_every,omitempty"`
	// Baselines names the fixed baseline players (the game's Baseline
	// reads them); BaselineGames is the games against each, and against
	// the champion of half as many generations ago.
	Baselines     []string `toml:"baselines" json:"baselines"`
	BaselineGames int      `toml:"baseline_games" json:"baseline_games"`
	// HallOfFame is how many earlier champions every agent also meets in
	// its fitness games, HallGames games against each (pairs from one
	// opening, one game with each colour, every agent from the same
	// openings); their points count with the tournament's. The champions met are those of generations G-1, G-2,
	// G-4, ... (HallGenerations): the population keeps meeting its recent
	// past and a thinning sample of its distant past, so it cannot drift
	// back to what it once beat. 0, Blondie24's design, plays none.
	HallOfFame int `toml:"hall_of_fame" json:"hall_of_fame"`
	HallGames  int `toml:"hall_games" json:"hall_games"`
	// MutationScale multiplies every mutation's weight steps (see
	// nnet.Net.MutatedBy); 0 means 1, Blondie24's step.
	MutationScale float64 `toml:"mutation_scale" json:"mutation_scale"`
	// TableMutationScale, if not 0, multiplies the steps of the evolvable
	// tables and piece values instead of MutationScale (see
	// nnet.Net.MutatedByParts): the net can then take larger steps than the
	// tables it starts from. 0 uses MutationScale for both.
	TableMutationScale float64 `toml:"table_mutation_scale" json:"table_mutation_scale,omitempty"`
	// ValueMutationScale, if not 0, makes each piece value step by up to
	// this fraction of its classic value a generation (nnet.Steps.Values),
	// as the positional terms step in units of theirs; 0 steps them as
	// the tables. It needs nnet.EvolvePieceValues.
	ValueMutationScale float64 `toml:"value_mutation_scale" json:"value_mutation_scale,omitempty"`
	// TableScaleStep, if not 0, also multiplies each piece type's
	// piece-square table by 1 + m*TableScaleStep a generation, m uniform
	// in [-1, 1) (nnet.Steps.TableScale), so that how much position is
	// worth against material can evolve. It needs nnet.EvolvePST.
	TableScaleStep float64 `toml:"table_scale_step" json:"table_scale_step,omitempty"`
	// MutationHalfLife, if not 0, makes every mutation step shrink as the
	// run goes: halved every MutationHalfLife generations (nnet.Steps.At),
	// so that a run can start with large steps and refine with small ones.
	// 0 keeps the steps the same for good. Not with preset "es" or "spsa".
	MutationHalfLife int `toml:"mutation_half_life" json:"mutation_half_life,omitempty"`
	// MutationFloor is the fraction of the steps MutationHalfLife's decay
	// stops at, in (0, 1]; it needs MutationHalfLife.
	MutationFloor float64 `toml:"mutation_floor" json:"mutation_floor,omitempty"`
	// FitnessMemory ranks agents by their points per game over every
	// generation they have played (Agent.PastPoints, PastGames and this
	// generation's), not by this generation's points alone: an elite's
	// estimate sharpens with every generation it survives, and one lucky
	// tournament no longer makes a champion. Off (Blondie24's design) ranks
	// by this generation's points.
	FitnessMemory bool `toml:"fitness_memory" json:"fitness_memory"`
	// FitnessCaution, with FitnessMemory, ranks agents by their points per
	// game less FitnessCaution standard errors of that mean, rather than
	// by the mean: a newcomer with one generation's games must do better
	// than an elite with many by more than luck would, so the best of ten
	// noisy children no longer displaces an elite known to be good (the
	// winner's curse). The standard error is the generation's pooled
	// spread of points per game over the square root of the agent's
	// games. 0 ranks by the mean.
	FitnessCaution float64 `toml:"fitness_caution" json:"fitness_caution,omitempty"`
	// RacingGames, if positive, is a budget of games a generation spends
	// after its tournament on the agents whose side of the elite boundary
	// is still uncertain (see race): they play each other, round after
	// round, until each is known to be in or out at RacingConfidence or
	// the budget is spent. 0 races none, Blondie24's design.
	RacingGames int `toml:"racing_games" json:"racing_games,omitempty"`
	// RacingConfidence is the two-sided probability of the interval that
	// places an agent in the race (0.9: 1.64 standard errors either side);
	// 0 means DefaultRacingConfidence.
	RacingConfidence float64 `toml:"racing_confidence" json:"racing_confidence,omitempty"`
	// ChampionGames, if positive, makes the champion an incumbent: from
	// generation 1 on the champion of the generation before keeps the
	// title unless the best-ranked other agent beats it head to head in
	// ChampionGames games from paired openings (more wins than losses),
	// and the champion leads the ranking, the elite and the breeding (see
	// challenge). 0 makes the best-ranked agent champion, Blondie24's
	// design. Not with preset "es" or "spsa", whose champion is their mean.
	ChampionGames int `toml:"champion_games" json:"champion_games,omitempty"`
	// SPSAGames is the games each mirrored pair of preset "spsa" plays
	// against itself a generation, pairs of games from one opening, one
	// with each colour; 0 means DefaultSPSAGames. SPSARate multiplies the
	// mean's step (breedSPSA); 0 means 1.
	SPSAGames int     `toml:"spsa_games" json:"spsa_games,omitempty"`
	SPSARate  float64 `toml:"spsa_rate" json:"spsa_rate,omitempty"`
	// CurriculumEvery, if positive, makes the run ask harder questions when
	// it stops climbing: every this many generations the champion plays
	// the champion of that many generations before, CurriculumGames games
	// from paired openings at the run's budget, and when it does not score
	// above half (no gain) the node budget of the games that follow is
	// multiplied by CurriculumStep, up to MaxCurriculumNodes. It needs a
	// game searched by alpha-beta under a node budget (games.Setup.Nodes). 0: the budget
	// never changes.
	CurriculumEvery int     `toml:"curriculum_every" json:"curriculum_every,omitempty"`
	CurriculumGames int     `toml:"curriculum_games" json:"curriculum_games,omitempty"`
	CurriculumStep  float64 `toml:"curriculum_step" json:"curriculum_step,omitempty"`
	// DistillEvery, if positive, distills every this many generations:
	// the champion's linear weights (piece values, tables, terms) are
	// fitted to what searches of DistillNodes nodes with it say of the
	// quiet positions of the generation's games (package distill), and
	// the whole elite takes the fit's step before it breeds: the champion
	// becomes the fitted genome, and every other elite moves its linear
	// weights by as much (see breed). It needs a game that distills
	// (alpha-beta, games.Kind.Distill) and the genetic algorithm (no preset "es" or
	// "spsa", no champion_games). 0 never distills.
	DistillEvery int `toml:"distill_every" json:"distill_every,omitempty"`
	// DistillNodes is the node budget of each of the distillation's
	// searches; 0 means DefaultDistillNodes.
	DistillNodes int64 `toml:"distill_nodes" json:"distill_nodes,omitempty"`
	// LearnEvery, if positive, trains every this many generations: each
	// generation the champion plays LearnGames data games against
	// itself at LearnNodes nodes a move, whose positions the run's
	// position store keeps (Env.PlayData, Report.Data), and the last of
	// every LearnEvery generations the champion (distilled first, when
	// the distillation is due too) trains its perspective net one pass
	// over the store's newest LearnPositions positions (Env.Train): the
	// whole elite takes the step, as it takes the distillation's (with
	// LearnExplore every elite member trains and takes its own). It
	// needs a perspective net (nnet.Perspective) and the genetic
	// algorithm. 0 never trains and plays no data games.
	LearnEvery int `toml:"learn_every" json:"learn_every,omitempty"`
	// LearnGames is the number of data games a generation; 0 means
	// DefaultLearnGames.
	LearnGames int `toml:"learn_games" json:"learn_games,omitempty"`
	// LearnNodes is the node budget of a data game's move; 0 means
	// DefaultLearnNodes.
	LearnNodes int64 `toml:"learn_nodes" json:"learn_nodes,omitempty"`
	// LearnPositions is how many of the store's newest positions a
	// training reads; 0 means about two trainings' data games
	// (2 x LearnEvery x LearnGames x 100 positions), so that each position
	// is trained on twice: one or two passes over positions gained as
	// much, four lost (docs/commands.md, "selfplay and train").
	LearnPositions int `toml:"learn_positions" json:"learn_positions,omitempty"`
	// LearnExplore, with LearnEvery, evolves learners (population-based
	// training): every agent carries its own learning settings (Learner,
	// generation 0's and any without the defaults of the training without
	// it), at each training every elite member trains its own net with its
	// own settings on the same positions and keeps its own step, and the
	// settings are inherited as the nets are: an elite keeps its own, a
	// crossover child takes its first parent's, a mutant its parent's
	// perturbed (Learner.Perturbed). The tournament's selection is the
	// exploit, the perturbation the explore. Off, the champion alone
	// trains and the elite takes its step.
	LearnExplore bool `toml:"learn_explore" json:"learn_explore,omitempty"`

	// Crossovers lists the pairs of ranks (1 = best) that breed: each pair
	// gives two node-swap children and both parents mutated. Default
	// {1,2}, {2,3} (Recipe).
	Crossovers [][2]int `toml:"-" json:"-"`
	// Mutants lists the ranks whose mutated copies complete the
	// population. Default 4, 5 (Recipe).
	Mutants []int `toml:"-" json:"-"`
	// Flags selects the Blondie24 extras of the nets and the evolvable
	// parts of the genome; see nnet.Flags. They are the game's choice.
	Flags nnet.Flags `toml:"-" json:"-"`
	// Tournament is the tournament format, scoring and workers. Validate
	// names its Format and Rounds by the keys "format" and "rounds".
	Tournament tournament.Config `toml:"-" json:"-"`
}

// DefaultSPSAGames is Config.SPSAGames when it is 0: 7 pairs of 15 agents
// then play the 210 games of a round robin.
const DefaultSPSAGames = 30

// MaxSPSARate bounds Config.SPSARate.
const MaxSPSARate = 100

// DefaultCurriculumGames and DefaultCurriculumStep are
// Config.CurriculumGames and CurriculumStep when they are 0.
const (
	DefaultCurriculumGames = 200
	DefaultCurriculumStep  = 1.5
)

// DefaultDistillNodes is Config.DistillNodes when it is 0: on the default
// chess run's positions a fit to searches of 1,500 nodes gained as much
// as one to 4,000 (+31 and +33 Elo, 1,000 games each), at under half the
// cost.
const DefaultDistillNodes = 1500

// DefaultLearnGames and DefaultLearnNodes are Config.LearnGames and
// LearnNodes when they are 0. One pass over the one-hour perspective
// champion's own 285 k to 546 k positions, searched at 2,000 nodes, made
// it +87 ± 39 and +47 ± 27 stronger (docs/commands.md, "selfplay and
// train"); 20 games a generation bring about 2,000 positions.
const (
	DefaultLearnGames = 20
	DefaultLearnNodes = 2000
)

// learnGamePositions is about how many positions a data game gives its
// store (measured: 105 on the one-hour perspective champion's games).
const learnGamePositions = 100

// MaxLearnPositions bounds Config.LearnPositions: a training holds its
// positions in memory, about 140 bytes each.
const MaxLearnPositions = 10_000_000

// MaxDistillNodes bounds Config.DistillNodes.
const MaxDistillNodes = 1_000_000

// MaxCurriculumNodes bounds the budget the curriculum raises to.
const MaxCurriculumNodes = 10_000_000

// MaxFitnessCaution bounds Config.FitnessCaution.
const MaxFitnessCaution = 10

// MaxHallOfFame bounds Config.HallOfFame: the oldest champion met is then
// 2^19 generations back.
const MaxHallOfFame = 20

// MaxHallGames bounds Config.HallGames.
const MaxHallGames = 1000

// MaxBaselineGames bounds Config.BaselineGames.
const MaxBaselineGames = 10000

// MaxHidden bounds the nodes of a hidden layer (Config.Hidden).
const MaxHidden = 4096

// MaxMutationHalfLife bounds Config.MutationHalfLife: a million
// generations, more than eight days of draughts at 5,000 an hour.
const MaxMutationHalfLife = 1_000_000

// MaxTableScaleStep bounds Config.TableScaleStep: a table may grow or
// shrink by half in one generation.
const MaxTableScaleStep = 0.5

// MaxRounds bounds the rounds of a round-robin tournament
// (tournament.Config.Rounds): ten rounds are 2,100 games a generation for
// 15 agents.
const MaxRounds = 10

// DefaultConfig returns the configuration of the Blondie24 experiments as
// docs/ARCHITECTURE.md states them. Settings whose zero value means a
// default are spelt out (the Blondie24 optimizer, a mutation scale of 1),
// and so are the hall of fame's pairs of games, used once HallOfFame is set.
func DefaultConfig() Config {
	c := Config{
		Optimizer: Blondie24, Size: 15, Elite: 5,
		Hidden: []int{40, 10}, Flags: nnet.PieceDiff,
		Tournament:      tournament.Config{Format: tournament.RoundRobin, Scoring: tournament.DefaultScoring},
		LadderChampions: 5, LadderGames: 6, LadderLaterEvery: 10,
		BaselineEvery: 10, BaselineLaterEvery: 100, Baselines: []string{"random", "material:4", "mcts:1000"}, BaselineGames: 20,
		HallGames: 2, MutationScale: 1,
	}
	c.Crossovers, c.Mutants = Recipe(c.Elite)
	return c
}

// Recipe returns Blondie24's breeding for an elite of elite agents, the
// one the daemon's configuration chooses by its elite alone: ranks 1 and 2,
// and 2 and 3, cross, and ranks 4 to elite are mutated. It fills a
// population of elite + 4 x 2 + (elite - 3) agents, 15 for DefaultConfig's
// elite of 5.
func Recipe(elite int) (crossovers [][2]int, mutants []int) {
	for r := 4; r <= elite; r++ {
		mutants = append(mutants, r)
	}
	return [][2]int{{1, 2}, {2, 3}}, mutants
}

// ErrConfig is wrapped by every configuration error.
var ErrConfig = errors.New("population: invalid config")

// ConfigError is an invalid setting of a Config. Field is its key, as the
// toml and json tags name it ("elite"; "crossovers" and "mutants", which
// have none, by their Go names), Value the value it has, and Err why it is
// refused. It wraps ErrConfig and Err.
type ConfigError struct {
	Field string
	Value any
	Err   error
}

// Error returns "population: key = value: why", a string value quoted.
func (e *ConfigError) Error() string {
	v := fmt.Sprint(e.Value)
	if s, ok := e.Value.(string); ok {
		v = strconv.Quote(s)
	}
	return fmt.Sprintf("population: %s = %s: %v", e.Field, v, e.Err)
}

// Unwrap returns ErrConfig and the reason.
func (e *ConfigError) Unwrap() []error { return []error{ErrConfig, e.Err} }

// configError returns a *ConfigError with a reason made by fmt.Errorf.
func configError(field string, value any, format string, args ...any) error {
	return &ConfigError{Field: field, Value: value, Err: fmt.Errorf(format, args...)}
}

// Validate checks that the configuration describes a population that
// reproduces itself, and every setting's range. For Blondie24: Elite + 4
// per crossover pair + one per mutant = Size, and every rank named is
// within the elite. For ES: an odd Size of at least 3 (the mean and
// mirrored pairs); the recipe fields (Elite, Crossovers, Mutants) are not
// used. The error of the first bad setting found is a *ConfigError naming
// its key.
func (c Config) Validate() error {
	opt, err := ParseOptimizer(string(c.Optimizer))
	if err != nil {
		return configError("preset", string(c.Optimizer), "want %q, %q or %q", Blondie24, ES, SPSA)
	}
	for _, err := range []error{c.validateSize(opt), c.validateSteps(opt), c.validateFitness(opt),
		c.validateTournament(opt), c.validateMeasurements(), c.validateNets(), c.validateRecipe(opt)} {
		if err != nil {
			return err
		}
	}
	return nil
}

// validateSize checks the population size for the optimizer opt.
func (c Config) validateSize(opt Optimizer) error {
	switch {
	case c.Size < 2:
		return configError("population", c.Size, "want at least 2")
	case opt.Mirrored() && (c.Size < 3 || c.Size%2 == 0):
		return configError("population", c.Size, `want an odd number of at least 3 with preset %q (the mean and mirrored pairs)`, opt)
	}
	return nil
}

// validateSteps checks the mutation's steps, and that the genome has the
// parts they step, for the optimizer opt. SPSA's pairs step by the
// mutation's steps (nnet.Net.SignPerturbed), ES's by a normal sample.
func (c Config) validateSteps(opt Optimizer) error {
	for _, s := range []struct {
		field   string
		step    float64
		max     float64
		want    string
		mutated bool       // a step of mutation, which ES (perturbing its samples) has not
		spsa    bool       // a step SPSA's perturbation takes
		part    nnet.Flags // the genome's part it steps, if not the net
		needs   string     // the error without the part
	}{
		{"mutation_scale", c.MutationScale, 10, "want 0 (Blondie24's step, as 1) to 10", false, true, 0, ""},
		{"table_mutation_scale", c.TableMutationScale, 10, "want 0 (mutation_scale's) to 10", true, true, 0, ""},
		{"value_mutation_scale", c.ValueMutationScale, 1, "want 0 (table_mutation_scale's step) to 1", true, true,
			nnet.EvolvePieceValues, "the nets have no evolvable piece values (nnet.EvolvePieceValues)"},
		{"table_scale_step", c.TableScaleStep, MaxTableScaleStep, fmt.Sprintf("want 0 (none) to %v", MaxTableScaleStep), true, false,
			nnet.EvolvePST, "the nets have no evolvable piece-square tables (nnet.EvolvePST)"},
	} {
		switch {
		case s.step < 0 || s.step > s.max || math.IsNaN(s.step):
			return configError(s.field, s.step, "%s", s.want)
		case s.step != 0 && s.mutated && opt == ES:
			return configError(s.field, s.step, `not with preset "es": its samples are perturbed, not mutated`)
		case s.step != 0 && !s.spsa && opt == SPSA:
			return configError(s.field, s.step, `not with preset "spsa": its pairs step every weight by its mutation's half-width`)
		case s.step != 0 && c.Flags&s.part != s.part:
			return configError(s.field, s.step, "%s", s.needs)
		}
	}
	switch {
	case c.MutationHalfLife < 0 || c.MutationHalfLife > MaxMutationHalfLife:
		return configError("mutation_half_life", c.MutationHalfLife, "want 0 (steps that never shrink) to %d generations", MaxMutationHalfLife)
	case c.MutationHalfLife > 0 && opt != Blondie24:
		return configError("mutation_half_life", c.MutationHalfLife, `not with preset %q: only the genetic algorithm's mutations shrink`, opt)
	case c.MutationHalfLife > 0 && (c.MutationFloor <= 0 || c.MutationFloor > 1 || math.IsNaN(c.MutationFloor)):
		return configError("mutation_floor", c.MutationFloor, "want a fraction of the steps above 0, up to 1, where mutation_half_life's decay stops")
	case c.MutationHalfLife == 0 && c.MutationFloor != 0:
		return configError("mutation_floor", c.MutationFloor, "needs mutation_half_life: without it the steps never shrink")
	}
	return nil
}

// validateFitness checks how fitness is measured beyond the tournament:
// the memory of past generations, the hall of fame, the race and SPSA's
// games, for the optimizer opt.
func (c Config) validateFitness(opt Optimizer) error {
	for _, check := range []func(Optimizer) error{c.validateSelection, c.validateRace, c.validateSPSA, c.validateLearning, c.validateTraining, c.validatePresetKeys} {
		if err := check(opt); err != nil {
			return err
		}
	}
	return nil
}

// validateSelection checks how the agents are ranked: the fitness memory and the hall of fame.
func (c Config) validateSelection(opt Optimizer) error {
	switch {
	case c.FitnessCaution < 0 || c.FitnessCaution > MaxFitnessCaution || math.IsNaN(c.FitnessCaution):
		return configError("fitness_caution", c.FitnessCaution, "want 0 (rank by the mean) to %d standard errors", MaxFitnessCaution)
	case c.FitnessCaution > 0 && !c.FitnessMemory:
		return configError("fitness_caution", c.FitnessCaution, "needs fitness_memory = true: it weighs the games of past generations")
	case opt.Mirrored() && c.FitnessMemory:
		return configError("fitness_memory", c.FitnessMemory, `not with preset %q: its samples are new every generation`, opt)
	case c.HallOfFame < 0 || c.HallOfFame > MaxHallOfFame:
		return configError("hall_of_fame", c.HallOfFame, "want 0 (none) to %d champions", MaxHallOfFame)
	case c.HallOfFame > 0 && (c.HallGames < 2 || c.HallGames > MaxHallGames || c.HallGames%2 != 0):
		return configError("hall_games", c.HallGames, "want an even number from 2 to %d (pairs, one game with each colour)", MaxHallGames)
	}
	return nil
}

// validateRace checks the race and the title match.
func (c Config) validateRace(opt Optimizer) error {
	switch {
	case c.RacingGames < 0 || c.RacingGames > MaxRacingGames:
		return configError("racing_games", c.RacingGames, "want 0 (no race) to %d games a generation", MaxRacingGames)
	case c.RacingGames > 0 && opt.Mirrored():
		return configError("racing_games", c.RacingGames, `not with preset %q: the race places agents on the elite's boundary, and %q has no elite`, opt, opt)
	case c.RacingConfidence < 0 || c.RacingConfidence >= 1 || math.IsNaN(c.RacingConfidence):
		return configError("racing_confidence", c.RacingConfidence, "want 0 (%v) or a probability below 1", DefaultRacingConfidence)
	case c.RacingConfidence != 0 && c.RacingGames == 0:
		return configError("racing_confidence", c.RacingConfidence, "needs racing_games > 0: it is the race's")
	case c.ChampionGames < 0 || c.ChampionGames > MaxBaselineGames || c.ChampionGames%2 != 0:
		return configError("champion_games", c.ChampionGames, "want 0 (no title match) or an even number up to %d (pairs, one game with each colour)", MaxBaselineGames)
	case c.ChampionGames > 0 && opt.Mirrored():
		return configError("champion_games", c.ChampionGames, `not with preset %q: its champion is its mean, which no agent challenges`, opt)
	}
	return nil
}

// validateSPSA checks the keys of preset "spsa".
func (c Config) validateSPSA(opt Optimizer) error {
	switch {
	case opt == SPSA && c.HallOfFame > 0:
		return configError("hall_of_fame", c.HallOfFame, `not with preset "spsa": its pairs play only each other`)
	case c.SPSAGames < 0 || c.SPSAGames > MaxHallGames || c.SPSAGames%2 != 0:
		return configError("spsa_games", c.SPSAGames, "want 0 (%d) or an even number up to %d (pairs, one game with each colour)", DefaultSPSAGames, MaxHallGames)
	case c.SPSARate < 0 || c.SPSARate > MaxSPSARate || math.IsNaN(c.SPSARate):
		return configError("spsa_rate", c.SPSARate, "want 0 (1) to %d", MaxSPSARate)
	}
	return nil
}

// validateLearning checks the curriculum and the distillation, and the keys that need them.
func (c Config) validateLearning(opt Optimizer) error {
	switch {
	case c.CurriculumEvery < 0:
		return configError("curriculum_every", c.CurriculumEvery, "must not be negative (0: the node budget never changes)")
	case c.CurriculumGames < 0 || c.CurriculumGames > MaxBaselineGames || c.CurriculumGames%2 != 0:
		return configError("curriculum_games", c.CurriculumGames, "want 0 (%d) or an even number up to %d (pairs, one game with each colour)", DefaultCurriculumGames, MaxBaselineGames)
	case c.CurriculumStep != 0 && (c.CurriculumStep <= 1 || c.CurriculumStep > 10 || math.IsNaN(c.CurriculumStep)):
		return configError("curriculum_step", c.CurriculumStep, "want 0 (%v) or a factor above 1, up to 10", DefaultCurriculumStep)
	case c.DistillEvery < 0:
		return configError("distill_every", c.DistillEvery, "must not be negative (0: no distillation)")
	case c.DistillEvery > 0 && opt.Mirrored():
		return configError("distill_every", c.DistillEvery, `not with preset %q: its champion is its mean, and its samples are new every generation`, opt)
	case c.DistillEvery > 0 && c.ChampionGames > 0:
		return configError("distill_every", c.DistillEvery, "not with champion_games: the distillation replaces the champion whose title the match defends")
	case c.DistillNodes < 0 || c.DistillNodes > MaxDistillNodes:
		return configError("distill_nodes", c.DistillNodes, "want 0 (%d) to %d nodes a search", DefaultDistillNodes, MaxDistillNodes)
	case c.DistillEvery == 0 && c.DistillNodes != 0:
		return configError("distill_nodes", c.DistillNodes, "needs distill_every > 0")
	case c.CurriculumEvery == 0 && (c.CurriculumGames != 0 || c.CurriculumStep != 0):
		field, v := "curriculum_games", any(c.CurriculumGames)
		if c.CurriculumGames == 0 {
			field, v = "curriculum_step", c.CurriculumStep
		}
		return configError(field, v, "needs curriculum_every > 0")
	}
	return nil
}

// validateTraining checks the training's keys (Config.LearnEvery).
func (c Config) validateTraining(opt Optimizer) error {
	switch {
	case c.LearnEvery < 0:
		return configError("learn_every", c.LearnEvery, "must not be negative (0: no training)")
	case c.LearnEvery > 0 && opt.Mirrored():
		return configError("learn_every", c.LearnEvery, `not with preset %q: its champion is its mean, and its samples are new every generation`, opt)
	case c.LearnEvery > 0 && c.ChampionGames > 0:
		return configError("learn_every", c.LearnEvery, "not with champion_games: the training replaces the champion whose title the match defends")
	case c.LearnEvery > 0 && c.Flags&nnet.Perspective == 0:
		return configError("learn_every", c.LearnEvery, "trains a perspective net, and this run's nets are not (perspective = true)")
	case c.LearnGames < 0 || c.LearnGames > MaxBaselineGames:
		return configError("learn_games", c.LearnGames, "want 0 (%d) to %d games a generation", DefaultLearnGames, MaxBaselineGames)
	case c.LearnNodes < 0 || c.LearnNodes > MaxDistillNodes:
		return configError("learn_nodes", c.LearnNodes, "want 0 (%d) to %d nodes a move", DefaultLearnNodes, MaxDistillNodes)
	case c.LearnPositions < 0 || c.LearnPositions > MaxLearnPositions:
		return configError("learn_positions", c.LearnPositions, "want 0 (two trainings' data games) to %d positions", MaxLearnPositions)
	case c.LearnEvery == 0 && (c.LearnGames != 0 || c.LearnNodes != 0 || c.LearnPositions != 0):
		return configError("learn_games", c.LearnGames, "learn_games, learn_nodes and learn_positions need learn_every > 0")
	case c.LearnEvery == 0 && c.LearnExplore:
		return configError("learn_explore", c.LearnExplore, "evolves the settings of a training, and learn_explore needs learn_every > 0")
	}
	return nil
}

// validatePresetKeys checks that the keys of a preset are set only with it.
func (c Config) validatePresetKeys(opt Optimizer) error {
	switch {
	case opt != SPSA && (c.SPSAGames != 0 || c.SPSARate != 0):
		field, v := "spsa_games", any(c.SPSAGames)
		if c.SPSAGames == 0 {
			field, v = "spsa_rate", c.SPSARate
		}
		return configError(field, v, `needs preset = "spsa"`)
	}
	return nil
}

// validateTournament checks the tournament's format and rounds; SPSA
// plays its own schedule (spsaSchedule), so it takes neither.
func (c Config) validateTournament(opt Optimizer) error {
	f, rounds := c.Tournament.Format, c.Tournament.Rounds
	if _, err := tournament.ParseFormat(string(f)); err != nil {
		return &ConfigError{Field: "format", Value: string(f),
			Err: fmt.Errorf("%w (want %s or %s)", tournament.ErrFormat, tournament.RoundRobin, tournament.Blondie)}
	}
	switch {
	case rounds < 0 || rounds > MaxRounds:
		return configError("rounds", rounds, "want 1 to %d", MaxRounds)
	case rounds > 1 && f != tournament.RoundRobin:
		return configError("rounds", rounds, "the %s format plays no rounds: want format = %q, or 1", f, tournament.RoundRobin)
	case opt == SPSA && rounds > 1:
		return configError("rounds", rounds, `not with preset "spsa": its pairs play spsa_games games, want 1`)
	case opt == SPSA && f == tournament.Blondie:
		return configError("format", string(f), `not with preset "spsa": its pairs play only each other, want %q`, tournament.RoundRobin)
	}
	return nil
}

// validateMeasurements checks the ladder's and the baselines' games.
func (c Config) validateMeasurements() error {
	switch {
	case c.LadderChampions < 0:
		return configError("ladder_champions", c.LadderChampions, "must not be negative")
	case c.LadderGames < 0 || c.LadderGames%2 != 0:
		return configError("ladder_games", c.LadderGames, "want an even number (half with each colour), 0 or more")
	case c.LadderLaterEvery < 0:
		return configError("ladder_later_every", c.LadderLaterEvery, "must not be negative (0 plays the ladder at every generation)")
	case c.BaselineEvery < 0:
		return configError("baseline_every", c.BaselineEvery, "must not be negative (0 never plays the baselines)")
	case c.BaselineLaterEvery < 0:
		return configError("baseline_later_every", c.BaselineLaterEvery, "must not be negative (0 keeps baseline_every throughout)")
	case c.BaselineLaterEvery > 0 && c.BaselineEvery > 0 && c.BaselineLaterEvery%c.BaselineEvery != 0:
		return configError("baseline_later_every", c.BaselineLaterEvery, "want a multiple of baseline_every (%d)", c.BaselineEvery)
	case c.BaselineGames < 0 || c.BaselineGames > MaxBaselineGames:
		return configError("baseline_games", c.BaselineGames, "want 0..%d", MaxBaselineGames)
	}
	return nil
}

// validateNets checks the nets' hidden layers.
func (c Config) validateNets() error {
	if len(c.Hidden) == 0 {
		return configError("hidden", c.Hidden, "want at least one layer (node-swap crossover swaps its nodes)")
	}
	for _, h := range c.Hidden {
		if h < 1 || h > MaxHidden {
			return configError("hidden", c.Hidden, "a layer of %d nodes, want 1 to %d", h, MaxHidden)
		}
	}
	return nil
}

// validateRecipe checks that Blondie24's breeding refills the population
// from its elite; ES and SPSA have none.
func (c Config) validateRecipe(opt Optimizer) error {
	if opt.Mirrored() {
		return nil
	}
	if c.Elite < 1 || c.Elite > c.Size {
		return configError("elite", c.Elite, "want 1 to population (%d)", c.Size)
	}
	if got := c.Elite + 4*len(c.Crossovers) + len(c.Mutants); got != c.Size {
		return configError("population", c.Size, "elite %d + 4 x %d crossover pairs + %d mutants make %d agents",
			c.Elite, len(c.Crossovers), len(c.Mutants), got)
	}
	inElite := func(r int) bool { return r >= 1 && r <= c.Elite }
	for _, p := range c.Crossovers {
		if !inElite(p[0]) || !inElite(p[1]) {
			return configError("elite", c.Elite, "the crossover of ranks %d and %d reaches outside the elite", p[0], p[1])
		}
		if p[0] == p[1] {
			return configError("crossovers", c.Crossovers, "rank %d crosses with itself", p[0])
		}
	}
	for _, r := range c.Mutants {
		if !inElite(r) {
			return configError("elite", c.Elite, "the mutant of rank %d is outside the elite", r)
		}
	}
	return nil
}

// Origin says how an agent of a generation was made.
type Origin string

const (
	// Random agents are generation 0's.
	Random Origin = "random"
	// Elite agents kept their place from the generation before.
	Elite Origin = "elite"
	// Crossover agents are node-swap children of two parents.
	Crossover Origin = "crossover"
	// Mutation agents are mutated copies of one parent.
	Mutation Origin = "mutation"
	// Distilled agents are their parent, an elite, with its linear
	// weights moved by the step the champion's fit to its searches took
	// (Config.DistillEvery).
	Distilled Origin = "distilled"
)

// Agent is a member of a population.
type Agent struct {
	// ID identifies the genome: an elite keeps its ID from generation to
	// generation; every new genome gets the next ID of the run.
	ID int64 `json:"id"`
	// Net is the genome.
	Net *nnet.Net `json:"net"`
	// Origin is how the agent came into this generation, and Parents the
	// IDs it came from (an elite's parent is itself).
	Origin  Origin  `json:"origin"`
	Parents []int64 `json:"parents,omitempty"`
	// Node is the swapped node of a crossover child.
	Node *nnet.Node `json:"node,omitempty"`
	// Recipe, for a genome the GA bred this generation, is how it was
	// made from Parents, exactly enough to make it again (storage keeps
	// most genomes as their recipe); nil for an elite, a random genome
	// and the samples of ES and SPSA, whose genomes are kept whole.
	Recipe *lineage.Recipe `json:"recipe,omitempty"`
	// Learner is the agent's learning settings (Config.LearnExplore); nil
	// without them, as in a run that does not evolve learners, where the
	// defaults hold (DefaultLearner).
	Learner *Learner `json:"learner,omitempty"`
	// PastPoints and PastGames are the fitness points and games of the
	// generations the agent played before this one (as an elite keeps
	// its ID); Config.FitnessMemory ranks by them too.
	PastPoints int `json:"past_points,omitempty"`
	PastGames  int `json:"past_games,omitempty"`
}

// Champion is the best agent of a finished generation.
type Champion struct {
	Generation int   `json:"generation"`
	AgentID    int64 `json:"agent_id"`
	// Net is the champion's genome; nil, in a state whose Env reads
	// champions (Env.Champions), once no coming generation plays against it.
	Net    *nnet.Net `json:"net,omitempty"`
	Points int       `json:"points"`
}

// MeasurementGames returns the number of games Step plays after the
// tournament of generation: when it is due, the ladder against the last
// LadderChampions champions and, every BaselineEvery generations, the
// baselines and the champion of half as many generations ago.
func (c Config) MeasurementGames(generation int) int {
	n := 0
	if c.LadderDue(generation) {
		n += min(generation, max(c.LadderChampions, 0)) * c.LadderGames
	}
	if c.BaselineDue(generation) {
		opponents := len(c.Baselines)
		if generation >= 2 {
			opponents++ // the champion of generation/2
		}
		n += opponents * c.BaselineGames
	}
	if c.curriculumDue(generation) {
		n += c.curriculumGames()
	}
	return n
}

// BaselineDue reports whether the champion of generation plays the
// baselines: never without BaselineGames; every BaselineEvery
// generations, generation 0 included, and from generation
// BaselineLaterEvery on (when it is positive) only every
// BaselineLaterEvery. The defaults, 10 and 100, give generations 0, 10,
// ..., 90, 100, 200, 300, ...: a default draughts run, which plays its
// tournament in about a second and its baselines in 2.6, spends 19% of its
// time on them at every 10th generation and 2.3% at every 100th. They
// decide nothing the run selects, so the schedule changes no genome.
func (c Config) BaselineDue(generation int) bool {
	if c.BaselineGames <= 0 || c.BaselineEvery <= 0 || generation%c.BaselineEvery != 0 {
		return false
	}
	return c.BaselineLaterEvery <= 0 || generation < c.BaselineLaterEvery || generation%c.BaselineLaterEvery == 0
}

// LadderDue reports whether generation plays the ladder: with LadderGames
// positive, at every generation below 10*LadderLaterEvery, then every
// LadderLaterEvery-th (every generation when LadderLaterEvery is 0, as in
// runs started before the key). At the default 10 that is generations 0
// to 99, then 100, 110, 120, ...: in a default draughts or chess run the
// ladder's 30 games beside the tournament's 210 took about an eighth of
// every generation (a generation's games are most of its time), and it
// decides nothing the run selects, so the schedule changes no genome.
// The first hundred generations, where a run climbs and a newcomer
// watches its log, keep it at every one.
func (c Config) LadderDue(generation int) bool {
	if c.LadderGames <= 0 {
		return false
	}
	e := c.LadderLaterEvery
	return e <= 0 || generation < 10*e || generation%e == 0
}

// HallGenerations returns the generations whose champions every agent of
// generation meets in its fitness games: G-1, G-2, G-4, ... while they
// exist, at most HallOfFame of them.
func (c Config) HallGenerations(generation int) []int {
	var gens []int
	for k := range c.HallOfFame {
		g := generation - 1<<k
		if g < 0 {
			break
		}
		gens = append(gens, g)
	}
	return gens
}

// FitnessGames returns the number of games that decide generation's
// ranking among n agents: the tournament's and the hall of fame's.
func (c Config) FitnessGames(generation, n int) int {
	var games int
	switch {
	case c.Optimizer == SPSA:
		games = (n - 1) / 2 * c.spsaGames()
	case c.Tournament.Format == tournament.Blondie:
		games = n * c.Tournament.BlondieGames
		if c.Tournament.BlondieGames <= 0 {
			games = n * tournament.DefaultBlondieGames
		}
	default:
		games = n * (n - 1) * max(c.Tournament.Rounds, 1)
	}
	return games + n*len(c.HallGenerations(generation))*c.HallGames
}

// ChampionNets returns the generations whose champions Step plays against
// when it plays generation: the hall of fame's, the last LadderChampions
// for the ladder when it is due and, in a baseline generation, the
// champion of half as many generations ago.
func (c Config) ChampionNets(generation int) []int {
	gens := c.HallGenerations(generation)
	if half := generation / 2; c.BaselineDue(generation) &&
		generation >= 2 && (!c.LadderDue(generation) || half < generation-c.LadderChampions) {
		gens = append(gens, half)
	}
	if c.LadderDue(generation) {
		for g := max(0, generation-c.LadderChampions); g < generation; g++ {
			gens = append(gens, g)
		}
	}
	if c.curriculumDue(generation) {
		gens = append(gens, generation-c.CurriculumEvery)
	}
	slices.Sort(gens)
	return slices.Compact(gens)
}

// mutationScale returns the factor of the weights' mutation steps.
func (c Config) mutationScale() float64 {
	if c.MutationScale == 0 {
		return 1
	}
	return c.MutationScale
}

// Steps returns the mutation's steps by part of the genome: what breeding
// a genome by a lineage.Recipe takes besides the run's seed.
func (c Config) Steps() nnet.Steps {
	return nnet.Steps{Net: c.mutationScale(), Tables: c.tableMutationScale(), Values: c.ValueMutationScale, TableScale: c.TableScaleStep,
		HalfLife: c.MutationHalfLife, Floor: c.MutationFloor}
}

// tableMutationScale returns the scale of the tables' steps.
func (c Config) tableMutationScale() float64 {
	if c.TableMutationScale == 0 {
		return c.mutationScale()
	}
	return c.TableMutationScale
}
