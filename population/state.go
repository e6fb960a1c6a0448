package population

import (
	"encoding/json"
	"fmt"

	"evolved/nnet"
	"evolved/seed"
)

// State is everything a run needs to play its next generation.
type State struct {
	// Game names the game ("draughts").
	Game string `json:"game"`
	// Seed is the run seed.
	Seed uint64 `json:"seed"`
	// Generation is the number of the generation that Agents form, the
	// next one to play.
	Generation int `json:"generation"`
	// Agents is the population, in slot order.
	Agents []Agent `json:"agents"`
	// Champions holds the champion of every finished generation, by
	// generation.
	Champions []Champion `json:"champions"`
	// NextID is the ID the next new genome gets.
	NextID int64 `json:"next_id"`
	// Nodes is the node budget a move the generation's games search under
	// when the curriculum has raised it (Config.CurriculumEvery); 0 is the
	// game's own (games.Setup.Nodes).
	Nodes int64 `json:"nodes,omitempty"`
}

// stateVersion is the version of State's JSON form.
const stateVersion = 1

// New returns generation 0 of a run: cfg.Size random nets for a game whose
// nets take inputs inputs, agent i drawn from seed.Rand(runSeed, game, 0,
// seed.Init, i), each with the default learning settings when the run
// evolves learners (Config.LearnExplore); for ES and SPSA a random mean (seed.Init 0) and mirrored
// pairs around it (pair k from seed.Init k+1). With cfg.QuietNet the nets (the
// mean) are then quieted; they draw the same numbers either way.
func New(game string, inputs int, cfg Config, runSeed uint64) (*State, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	sizes := append(append([]int{inputs}, cfg.Hidden...), 1)
	st := &State{Game: game, Seed: runSeed}
	if cfg.Optimizer.Mirrored() {
		// The mean from seed.Init 0, pair k around it from seed.Init k+1.
		mean, err := nnet.Random(sizes, cfg.Flags, seed.Rand(runSeed, game, 0, seed.Init, 0))
		if err != nil {
			return nil, fmt.Errorf("population: new mean: %w", err)
		}
		if cfg.QuietNet {
			mean = mean.Quieted()
		}
		nets := []*nnet.Net{mean}
		if cfg.Optimizer == SPSA {
			for k := range (cfg.Size - 1) / 2 {
				plus, minus := mean.SignPerturbed(seed.Rand(runSeed, game, 0, seed.Init, k+1), cfg.Steps())
				nets = append(nets, plus, minus)
			}
		} else {
			nets = append(nets, esSamples(cfg, mean, cfg.Size, func(k int, m *nnet.Net, sigma float64) (*nnet.Net, *nnet.Net) {
				return m.Perturbed(seed.Rand(runSeed, game, 0, seed.Init, k+1), sigma)
			})...)
		}
		for i, net := range nets {
			st.Agents = append(st.Agents, Agent{ID: int64(i), Net: net, Origin: Random})
		}
		st.NextID = int64(len(nets))
		return st, nil
	}
	for i := range cfg.Size {
		net, err := nnet.Random(sizes, cfg.Flags, seed.Rand(runSeed, game, 0, seed.Init, i))
		if err != nil {
			return nil, fmt.Errorf("population: new agent %d: %w", i, err)
		}
		if cfg.QuietNet {
			net = net.Quieted()
		}
		st.Agents = append(st.Agents, Agent{ID: st.NextID, Net: net, Origin: Random})
		if cfg.LearnExplore {
			l := DefaultLearner()
			st.Agents[i].Learner = &l
		}
		st.NextID++
	}
	return st, nil
}

// MarshalJSON writes the state with a version field. The nets keep every
// bit of their weights (Go writes the shortest decimal that reads back to
// the same float64), so a state read back plays on identically.
func (s *State) MarshalJSON() ([]byte, error) {
	type plain State
	return json.Marshal(struct {
		Version int `json:"version"`
		*plain
	}{stateVersion, (*plain)(s)})
}

// UnmarshalJSON reads a state written by MarshalJSON and checks its version
// and its nets.
func (s *State) UnmarshalJSON(b []byte) error {
	type plain State
	var v struct {
		Version int `json:"version"`
		*plain
	}
	v.plain = (*plain)(s)
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("population: read state: %w", err)
	}
	if v.Version != stateVersion {
		return fmt.Errorf("population: read state: version %d, this build reads version %d", v.Version, stateVersion)
	}
	for i, a := range s.Agents {
		if a.Net == nil {
			return fmt.Errorf("population: read state: agent %d has no net", i)
		}
	}
	for i, c := range s.Champions {
		if c.Generation != i {
			return fmt.Errorf("population: read state: champion %d is generation %d's", i, c.Generation)
		}
	}
	return nil
}
