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
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"evolved/nnet"
	"evolved/search"
	"evolved/tournament"
)

// Species binds the genetic algorithm to a game: how its games are played,
// how a net becomes a player, and what the baselines are.
type Species[M comparable, S search.Game[M]] struct {
	// Arena plays the game.
	Arena tournament.Arena[M, S]
	// Player returns a constructor of players that search with net; it is
	// called once per agent per generation, and the constructor once per
	// worker.
	Player func(net *nnet.Net) (func() search.Player[M, S], error)
	// Baseline returns a constructor of the baseline player spec names
	// ("random", "material:4", "mcts:1000").
	Baseline func(spec string) (func() search.Player[M, S], error)
	// Inputs is the number of inputs of the game's nets.
	Inputs int
	// Tournament, if set, plays a generation's tournament in place of
	// tournament.Run on this machine (on remote workers: package
	// cluster). nets holds each slot's net (the agents, then the hall of
	// fame's champions); it must return the games tournament.Run would
	// play, in schedule order, and may call progress after each.
	Tournament func(ctx context.Context, nets []*nnet.Net, schedule []tournament.Pairing, runSeed uint64, generation int,
		progress func(done, total int)) ([]tournament.GameResult[M], error)
}

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
)

// ParseOptimizer reads an optimizer name; "" is Blondie24.
func ParseOptimizer(s string) (Optimizer, error) {
	switch o := Optimizer(s); o {
	case "", Blondie24:
		return Blondie24, nil
	case ES:
		return o, nil
	}
	return "", fmt.Errorf("%w: unknown optimizer %q (want %s or %s)", ErrConfig, s, Blondie24, ES)
}

// Config is the genetic algorithm's configuration. Together with the run
// seed it determines a run completely.
type Config struct {
	// Optimizer breeds the next generation: Blondie24 (also "") or ES.
	Optimizer Optimizer
	// Size is the population size; default 15.
	Size int
	// Elite is the number of best agents kept unchanged; default 5.
	Elite int
	// Crossovers lists the pairs of ranks (1 = best) that breed: each pair
	// gives two node-swap children and both parents mutated. Default
	// {1,2}, {2,3}.
	Crossovers [][2]int
	// Mutants lists the ranks whose mutated copies complete the
	// population. Default 4, 5.
	Mutants []int
	// Hidden is the hidden layer sizes of the nets; default 40, 10.
	Hidden []int
	// Flags selects the Blondie24 extras of the nets; see nnet.Flags.
	Flags nnet.Flags
	// Tournament is the tournament format, scoring and workers.
	Tournament tournament.Config
	// LadderChampions is how many previous champions the champion meets;
	// default 5. LadderGames is the games against each, half with each
	// colour; default 6.
	LadderChampions, LadderGames int
	// BaselineEvery plays the baselines every this many generations (and at
	// generation 0); 0 never.
	BaselineEvery int
	// Baselines names the fixed baseline players; BaselineGames is the
	// games against each, and against the champion of half as many
	// generations ago.
	Baselines     []string
	BaselineGames int
	// HallOfFame is how many earlier champions every agent also meets in
	// its fitness games, HallGames games against each (pairs from one
	// opening, one game with each colour, every agent from the same
	// openings); their points count with the tournament's. The champions met are those of generations G-1, G-2,
	// G-4, ... (HallGenerations): the population keeps meeting its recent
	// past and a thinning sample of its distant past, so it cannot drift
	// back to what it once beat. 0, Blondie24's design, plays none.
	HallOfFame, HallGames int
	// MutationScale multiplies every mutation's weight steps (see
	// nnet.Net.MutatedBy); 0 means 1, Blondie24's step.
	MutationScale float64
	// TableMutationScale, if not 0, multiplies the steps of the evolvable
	// tables and piece values instead of MutationScale (see
	// nnet.Net.MutatedByParts): the net can then take larger steps than the
	// tables it starts from. 0 uses MutationScale for both.
	TableMutationScale float64
	// ValueMutationScale, if not 0, makes each piece value step by up to
	// this fraction of its classic value a generation (nnet.Steps.Values),
	// as the positional terms step in units of theirs; 0 steps them as
	// the tables. It needs nnet.EvolvePieceValues.
	ValueMutationScale float64
	// TableScaleStep, if not 0, also multiplies each piece type's
	// piece-square table by 1 + m*TableScaleStep a generation, m uniform
	// in [-1, 1) (nnet.Steps.TableScale), so that how much position is
	// worth against material can evolve. It needs nnet.EvolvePST.
	TableScaleStep float64
	// QuietNet starts generation 0 with every net's output layer at 0
	// (nnet.Net.Quieted): the agents then play by their piece values,
	// tables and terms alone, and the net's say grows from nothing as
	// mutation moves its output layer and selection keeps what helps. Off,
	// the output layer starts random like the rest, and its noise is in
	// every evaluation from the start.
	QuietNet bool
	// FitnessMemory ranks agents by their points per game over every
	// generation they have played (Agent.PastPoints, PastGames and this
	// generation's), not by this generation's points alone: an elite's
	// estimate sharpens with every generation it survives, and one lucky
	// tournament no longer makes a champion. Off (Blondie24's design) ranks
	// by this generation's points.
	FitnessMemory bool
	// FitnessCaution, with FitnessMemory, ranks agents by their points per
	// game less FitnessCaution standard errors of that mean, rather than
	// by the mean: a newcomer with one generation's games must do better
	// than an elite with many by more than luck would, so the best of ten
	// noisy children no longer displaces an elite known to be good (the
	// winner's curse). The standard error is the generation's pooled
	// spread of points per game over the square root of the agent's
	// games. 0 ranks by the mean.
	FitnessCaution float64
}

// MaxFitnessCaution bounds Config.FitnessCaution.
const MaxFitnessCaution = 10

// MaxHallOfFame bounds Config.HallOfFame: the oldest champion met is then
// 2^19 generations back.
const MaxHallOfFame = 20

// MaxTableScaleStep bounds Config.TableScaleStep: a table may grow or
// shrink by half in one generation.
const MaxTableScaleStep = 0.5

// MaxRounds bounds the rounds of a round-robin tournament
// (tournament.Config.Rounds): ten rounds are 2,100 games a generation for
// 15 agents.
const MaxRounds = 10

// DefaultConfig returns the configuration of the Blondie24 experiments as
// docs/ARCHITECTURE.md states them.
func DefaultConfig() Config {
	return Config{
		Size: 15, Elite: 5,
		Crossovers: [][2]int{{1, 2}, {2, 3}}, Mutants: []int{4, 5},
		Hidden: []int{40, 10}, Flags: nnet.PieceDiff,
		Tournament:      tournament.Config{Format: tournament.RoundRobin, Scoring: tournament.DefaultScoring},
		LadderChampions: 5, LadderGames: 6,
		BaselineEvery: 10, Baselines: []string{"random", "material:4", "mcts:1000"}, BaselineGames: 20,
	}
}

// ErrConfig is wrapped by every configuration error.
var ErrConfig = errors.New("population: invalid config")

// Validate checks that the configuration describes a population that
// reproduces itself. For Blondie24: Elite + 4 per crossover pair + one per
// mutant = Size, and every rank named is within the elite. For ES: an odd
// Size of at least 3 (the mean and mirrored pairs); the recipe fields
// (Elite, Crossovers, Mutants) are not used.
func (c Config) Validate() error {
	if c.Size < 2 {
		return fmt.Errorf("%w: size %d, want at least 2", ErrConfig, c.Size)
	}
	if len(c.Hidden) == 0 {
		return fmt.Errorf("%w: no hidden layer (node-swap crossover needs one)", ErrConfig)
	}
	for _, h := range c.Hidden {
		if h < 1 || h > 4096 {
			return fmt.Errorf("%w: hidden layer of %d nodes, want 1..4096", ErrConfig, h)
		}
	}
	if c.LadderChampions < 0 || c.LadderGames < 0 || c.BaselineEvery < 0 || c.BaselineGames < 0 {
		return fmt.Errorf("%w: ladder and baseline counts must not be negative", ErrConfig)
	}
	if c.LadderGames%2 != 0 {
		return fmt.Errorf("%w: ladder games %d, want an even number (half with each colour)", ErrConfig, c.LadderGames)
	}
	if c.MutationScale < 0 || c.MutationScale > 10 || math.IsNaN(c.MutationScale) {
		return fmt.Errorf("%w: mutation scale %v, want 0 (Blondie24's step) to 10", ErrConfig, c.MutationScale)
	}
	if c.TableMutationScale < 0 || c.TableMutationScale > 10 || math.IsNaN(c.TableMutationScale) {
		return fmt.Errorf("%w: table mutation scale %v, want 0 (the mutation scale) to 10", ErrConfig, c.TableMutationScale)
	}
	if c.ValueMutationScale < 0 || c.ValueMutationScale > 1 || math.IsNaN(c.ValueMutationScale) {
		return fmt.Errorf("%w: value mutation scale %v, want 0 (the tables' step) to 1", ErrConfig, c.ValueMutationScale)
	}
	if c.ValueMutationScale != 0 && c.Flags&nnet.EvolvePieceValues == 0 {
		return fmt.Errorf("%w: value mutation scale %v without evolvable piece values", ErrConfig, c.ValueMutationScale)
	}
	if c.TableScaleStep < 0 || c.TableScaleStep > MaxTableScaleStep || math.IsNaN(c.TableScaleStep) {
		return fmt.Errorf("%w: table scale step %v, want 0 (none) to %v", ErrConfig, c.TableScaleStep, MaxTableScaleStep)
	}
	if c.TableScaleStep != 0 && c.Flags&nnet.EvolvePST == 0 {
		return fmt.Errorf("%w: table scale step %v without evolvable piece-square tables", ErrConfig, c.TableScaleStep)
	}
	if c.HallOfFame < 0 || c.HallOfFame > MaxHallOfFame {
		return fmt.Errorf("%w: hall of fame of %d champions, want 0..%d", ErrConfig, c.HallOfFame, MaxHallOfFame)
	}
	if c.HallOfFame > 0 && (c.HallGames < 2 || c.HallGames%2 != 0) {
		return fmt.Errorf("%w: hall games %d, want an even number of at least 2 (pairs, one game with each colour)", ErrConfig, c.HallGames)
	}
	if _, err := tournament.ParseFormat(string(c.Tournament.Format)); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if c.Tournament.Rounds < 0 || c.Tournament.Rounds > MaxRounds {
		return fmt.Errorf("%w: %d rounds, want 0 or 1 (one) to %d", ErrConfig, c.Tournament.Rounds, MaxRounds)
	}
	if c.Tournament.Rounds > 1 && c.Tournament.Format != tournament.RoundRobin && c.Tournament.Format != "" {
		return fmt.Errorf("%w: %d rounds with the %s format, which has none (want %s)", ErrConfig, c.Tournament.Rounds, c.Tournament.Format, tournament.RoundRobin)
	}
	opt, err := ParseOptimizer(string(c.Optimizer))
	if err != nil {
		return err
	}
	if c.FitnessCaution < 0 || c.FitnessCaution > MaxFitnessCaution || math.IsNaN(c.FitnessCaution) {
		return fmt.Errorf("%w: fitness caution %v, want 0 (off) to %d standard errors", ErrConfig, c.FitnessCaution, MaxFitnessCaution)
	}
	if c.FitnessCaution > 0 && !c.FitnessMemory {
		return fmt.Errorf("%w: fitness caution needs fitness memory: it weighs the games agents have played over generations", ErrConfig)
	}
	if opt == ES {
		if c.Size < 3 || c.Size%2 == 0 {
			return fmt.Errorf("%w: size %d, want an odd number of at least 3 for %s (the mean and mirrored pairs)", ErrConfig, c.Size, ES)
		}
		if c.TableMutationScale != 0 || c.ValueMutationScale != 0 || c.TableScaleStep != 0 {
			return fmt.Errorf("%w: table, value or table scale steps with %s: its samples are perturbed, not mutated", ErrConfig, ES)
		}
		if c.FitnessMemory {
			return fmt.Errorf("%w: fitness memory with %s: every sample is new each generation, so it has no past", ErrConfig, ES)
		}
		return nil
	}
	if c.Elite < 1 || c.Elite > c.Size {
		return fmt.Errorf("%w: elite %d, want 1..size (%d)", ErrConfig, c.Elite, c.Size)
	}
	if got := c.Elite + 4*len(c.Crossovers) + len(c.Mutants); got != c.Size {
		return fmt.Errorf("%w: elite %d + 4 x %d crossover pairs + %d mutants = %d agents, want size %d",
			ErrConfig, c.Elite, len(c.Crossovers), len(c.Mutants), got, c.Size)
	}
	rank := func(r int, what string) error {
		if r < 1 || r > c.Elite {
			return fmt.Errorf("%w: %s names rank %d, want 1..elite (%d)", ErrConfig, what, r, c.Elite)
		}
		return nil
	}
	for _, p := range c.Crossovers {
		if err := rank(p[0], "crossovers"); err != nil {
			return err
		}
		if err := rank(p[1], "crossovers"); err != nil {
			return err
		}
		if p[0] == p[1] {
			return fmt.Errorf("%w: crossover pair %v crosses a rank with itself", ErrConfig, p)
		}
	}
	for _, r := range c.Mutants {
		if err := rank(r, "mutants"); err != nil {
			return err
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
	// Net is the champion's genome; nil in a state with a ChampionNet
	// reader once no coming generation plays against it.
	Net    *nnet.Net `json:"net,omitempty"`
	Points int       `json:"points"`
}

// MeasurementGames returns the number of games Step plays after the
// tournament of generation: the ladder against the last LadderChampions
// champions and, every BaselineEvery generations, the baselines and the
// champion of half as many generations ago.
func (c Config) MeasurementGames(generation int) int {
	n := 0
	if c.LadderGames > 0 {
		n += min(generation, max(c.LadderChampions, 0)) * c.LadderGames
	}
	if c.BaselineEvery > 0 && generation%c.BaselineEvery == 0 && c.BaselineGames > 0 {
		opponents := len(c.Baselines)
		if generation >= 2 {
			opponents++ // the champion of generation/2
		}
		n += opponents * c.BaselineGames
	}
	return n
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
	switch c.Tournament.Format {
	case tournament.Blondie:
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
// for the ladder and, in a baseline generation, the champion of half as
// many generations ago.
func (c Config) ChampionNets(generation int) []int {
	gens := c.HallGenerations(generation)
	if half := generation / 2; c.BaselineEvery > 0 && c.BaselineGames > 0 && generation%c.BaselineEvery == 0 &&
		generation >= 2 && (c.LadderGames == 0 || half < generation-c.LadderChampions) {
		gens = append(gens, half)
	}
	if c.LadderGames > 0 {
		for g := max(0, generation-c.LadderChampions); g < generation; g++ {
			gens = append(gens, g)
		}
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

// steps returns the mutation's steps by part of the genome.
func (c Config) steps() nnet.Steps {
	return nnet.Steps{Net: c.mutationScale(), Tables: c.tableMutationScale(), Values: c.ValueMutationScale, TableScale: c.TableScaleStep}
}

// tableMutationScale returns the scale of the tables' steps.
func (c Config) tableMutationScale() float64 {
	if c.TableMutationScale == 0 {
		return c.mutationScale()
	}
	return c.TableMutationScale
}
