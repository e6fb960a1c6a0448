// Package tune tunes the parameters of the search (search.Params) by SPSA
// on game pairs, as Fishtest tunes Stockfish's (Spall's simultaneous
// perturbation stochastic approximation, with Fishtest's schedule and
// defaults).
//
// Pair k of a tuning of N pairs perturbs every tuned parameter at once,
// each by its step c_k in a random direction d (+1 or -1): the player
// plus searches with θ + c_k·d, minus with θ - c_k·d, both rounded to
// whole numbers within the parameters' ranges. The two play a pair of
// games from one opening, each with each colour, and r, plus's wins less
// its losses (-2 to 2), moves θ by a_k/c_k · r · d. The steps shrink as
//
//	c_k = c·N^γ / (k+1)^γ               (c the parameter's Tunable.Step)
//	a_k = r_end·c²·(A+N)^α / (A+k+1)^α  (A = N/10)
//
// with α = 0.602 and γ = 0.101, so that at the last pair a parameter
// moves by r_end·c·r. On average the moves follow the gradient of the
// expected score, though no single pair could tell plus from minus.
//
// A tuning is deterministic: pair k's directions come from (seed, game,
// seed.Tune, k) and its games from its GameID, and the pairs of a batch
// are all played from the θ the batch began with and applied in their
// order, so the result is the same at any number of workers, and a
// tuning resumed from its State is bit-identical to one that never
// stopped.
package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"golang.org/x/sync/errgroup"

	"evolved/search"
	"evolved/seed"
)

// SPSA's exponents and Fishtest's defaults.
const (
	alpha = 0.602
	gamma = 0.101
	// DefaultRate is r_end, Fishtest's default.
	DefaultRate = 0.002
	// DefaultBatch is the pairs played from one θ.
	DefaultBatch = 16
)

// Settings are what a tuning is asked to do; they stay the same for the
// whole of it (its schedule depends on Pairs).
type Settings struct {
	// Game is the game's name; its seeds are drawn under it.
	Game string `json:"game"`
	// Player names the players whose search is tuned (a spec), and Nodes
	// their node budget a move: what a resumed tuning must play again.
	Player string `json:"player"`
	Nodes  int64  `json:"nodes"`
	// OpeningPlies and MaxMoves shape the games: random plies opening
	// each pair, and the moves a side makes before a draw.
	OpeningPlies int `json:"opening_plies"`
	MaxMoves     int `json:"max_moves"`
	// Names are the parameters tuned, in search.Tunables' order; the
	// others keep their starting values.
	Names []string `json:"names"`
	// Pairs is N, the game pairs of the whole tuning.
	Pairs int `json:"pairs"`
	// Rate is r_end; 0 means DefaultRate.
	Rate float64 `json:"rate"`
	// Batch is the pairs played from one θ; 0 means DefaultBatch.
	Batch int `json:"batch"`
	// Seed seeds the directions and the games.
	Seed uint64 `json:"seed"`
}

// Value is one tuned parameter's value.
type Value struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// State is a tuning under way or done: its settings, where it started,
// θ now and the games played. Written after each batch, it is all a
// tuning needs to resume.
type State struct {
	Settings Settings `json:"settings"`
	// Start holds the parameters the tuning started from, the untuned
	// ones included, as search.Params.String writes them.
	Start string `json:"start"`
	// Theta holds the tuned parameters' values now, unrounded.
	Theta []Value `json:"theta"`
	// Done counts the pairs played.
	Done int `json:"done"`
	// Wins, Draws and Losses count the games from plus's side.
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// Path holds θ after every batch (its first entry the start), for a
	// plot of the tuning.
	Path [][]float64 `json:"path"`
}

// Pair is one game pair's outcome, plus's points in each game (0, 0.5
// or 1).
type Pair [2]float64

// PairFunc plays game pair k between a player searching with plus and one
// searching with minus: two games from one opening, each player with
// each colour. It is called from several goroutines at once.
type PairFunc func(ctx context.Context, k int, plus, minus search.Params) (Pair, error)

// ErrSettings is wrapped by the errors of settings that cannot be tuned.
var ErrSettings = errors.New("tune: bad settings")

// New returns the state of a tuning of s from start, nothing played.
func New(s Settings, start search.Params) (*State, error) {
	if err := start.Validate(); err != nil {
		return nil, fmt.Errorf("%w: the start: %w", ErrSettings, err)
	}
	if s.Pairs < 1 {
		return nil, fmt.Errorf("%w: %d pairs, want at least 1", ErrSettings, s.Pairs)
	}
	if s.Rate < 0 || s.Batch < 0 {
		return nil, fmt.Errorf("%w: rate %g and batch %d, want them positive (0: the defaults)", ErrSettings, s.Rate, s.Batch)
	}
	if len(s.Names) == 0 {
		for _, t := range search.Tunables() {
			s.Names = append(s.Names, t.Name)
		}
	}
	st := &State{Settings: s, Start: start.String()}
	for _, name := range s.Names {
		if slices.Contains(st.names(), name) {
			return nil, fmt.Errorf("%w: %s named twice", ErrSettings, name)
		}
		v, err := start.Value(name)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrSettings, err)
		}
		st.Theta = append(st.Theta, Value{Name: name, Value: float64(v)})
	}
	st.Path = [][]float64{st.values()}
	return st, nil
}

// names returns the tuned parameters' names.
func (st *State) names() []string {
	out := make([]string, len(st.Theta))
	for i, v := range st.Theta {
		out[i] = v.Name
	}
	return out
}

// values returns θ's values.
func (st *State) values() []float64 {
	out := make([]float64, len(st.Theta))
	for i, v := range st.Theta {
		out[i] = v.Value
	}
	return out
}

// Params returns θ rounded to whole numbers over the start's values: the
// tuning's result.
func (st *State) Params() (search.Params, error) {
	p, err := st.start()
	if err != nil {
		return p, err
	}
	return p, st.apply(&p, st.values())
}

// start returns the parameters the tuning started from.
func (st *State) start() (search.Params, error) {
	_, p, err := search.ParseSettings(st.Start, search.DefaultTechniques, search.DefaultParams())
	if err != nil {
		return p, fmt.Errorf("tune: the state's start: %w", err)
	}
	return p, nil
}

// apply sets p's tuned parameters to values, rounded and held in their
// ranges.
func (st *State) apply(p *search.Params, values []float64) error {
	for i, name := range st.names() {
		t := tunable(name)
		v := min(max(int(math.Round(values[i])), t.Min), t.Max)
		if err := p.Set(name, v); err != nil {
			return fmt.Errorf("tune: %w", err)
		}
	}
	return nil
}

// tunable returns the description of the parameter named name (which
// New checked).
func tunable(name string) search.Tunable {
	for _, t := range search.Tunables() {
		if t.Name == name {
			return t
		}
	}
	panic("tune: unknown parameter " + name)
}

// Over reports whether every pair has been played.
func (st *State) Over() bool { return st.Done >= st.Settings.Pairs }

// schedule is SPSA's step sizes at pair k for a parameter of step c:
// the perturbation ck and the move's factor ak/ck.
func (st *State) schedule(k int, c float64) (ck, gain float64) {
	n := float64(st.Settings.Pairs)
	a := n / 10
	rate := st.Settings.Rate
	if rate == 0 {
		rate = DefaultRate
	}
	ck = c * math.Pow(n, gamma) / math.Pow(float64(k+1), gamma)
	ak := rate * c * c * math.Pow(a+n, alpha) / math.Pow(a+float64(k+1), alpha)
	return ck, ak / ck
}

// directions returns pair k's random direction, +1 or -1, for each tuned
// parameter.
func (st *State) directions(k int) []float64 {
	rng := seed.Rand(st.Settings.Seed, st.Settings.Game, 0, seed.Tune, k)
	d := make([]float64, len(st.Theta))
	for i := range d {
		d[i] = 1
		if rng.IntN(2) == 0 {
			d[i] = -1
		}
	}
	return d
}

// perturbed returns pair k's players' parameters from θ: plus and minus.
func (st *State) perturbed(k int, theta []float64) (plus, minus search.Params, err error) {
	if plus, err = st.start(); err != nil {
		return plus, minus, err
	}
	minus = plus
	d := st.directions(k)
	up, down := make([]float64, len(theta)), make([]float64, len(theta))
	for i, name := range st.names() {
		ck, _ := st.schedule(k, float64(tunable(name).Step))
		up[i], down[i] = theta[i]+ck*d[i], theta[i]-ck*d[i]
	}
	if err := st.apply(&plus, up); err != nil {
		return plus, minus, err
	}
	return plus, minus, st.apply(&minus, down)
}

// Run plays the tuning's remaining pairs with play, workers pairs at a
// time, and updates st after each batch, calling saved with it (to write
// it down: a tuning resumes from the last state saved) and stopping at
// the first error saved returns. It returns when every pair is played, or
// with ctx's error when ctx is done, st then as of its last whole batch.
func Run(ctx context.Context, st *State, play PairFunc, workers int, saved func(*State) error) error {
	batch := st.Settings.Batch
	if batch == 0 {
		batch = DefaultBatch
	}
	for !st.Over() {
		n := min(batch, st.Settings.Pairs-st.Done)
		theta := st.values()
		pairs := make([]Pair, n)
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(max(1, workers))
		for j := range n {
			k := st.Done + j
			plus, minus, err := st.perturbed(k, theta)
			if err != nil {
				return err
			}
			g.Go(func() error {
				p, err := play(gctx, k, plus, minus)
				if err != nil {
					return fmt.Errorf("tune: pair %d: %w", k+1, err)
				}
				pairs[j] = p
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return err
		}
		st.update(theta, pairs)
		if err := saved(st); err != nil {
			return err
		}
	}
	return nil
}

// update moves θ by the batch's pairs, played from theta, in their order.
func (st *State) update(theta []float64, pairs []Pair) {
	next := slices.Clone(theta)
	for j, p := range pairs {
		k := st.Done + j
		r := 0.0
		for _, points := range p {
			switch points {
			case 1:
				st.Wins++
				r++
			case 0:
				st.Losses++
				r--
			default:
				st.Draws++
			}
		}
		d := st.directions(k)
		for i, name := range st.names() {
			t := tunable(name)
			_, gain := st.schedule(k, float64(t.Step))
			next[i] = min(max(next[i]+gain*r*d[i], float64(t.Min)), float64(t.Max))
		}
	}
	for i := range st.Theta {
		st.Theta[i].Value = next[i]
	}
	st.Done += len(pairs)
	st.Path = append(st.Path, slices.Clone(next))
}
