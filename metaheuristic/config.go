package metaheuristic

import (
	"errors"
	"fmt"
	"math"
	"time"

	"evolved/game"
	"evolved/game/chess"
	"evolved/search"
)

// Method names a metaheuristic, as the CLI and stored runs spell it.
type Method string

// The three methods.
const (
	ACO Method = "aco" // ant colony: RunACO
	GA  Method = "ga"  // genetic search over games: RunGA
	SA  Method = "sa"  // simulated annealing: RunSA
)

// ParseMethod reads a method name: aco, ga or sa.
func ParseMethod(s string) (Method, error) {
	switch m := Method(s); m {
	case ACO, GA, SA:
		return m, nil
	}
	return "", fmt.Errorf("%w: method %q (want aco, ga or sa)", ErrConfig, s)
}

// Opponent makes the engine the learner plays against: one fresh instance
// per game played at once. An instance plays many games one after another,
// each begun with NewGame and a seed derived from the run's seed, the
// iteration and the game's index; its moves in a game must depend only on
// that seed and the game (the search.Player contract), which is what makes
// a run reproducible. Instances that implement io.Closer are closed when
// the run ends. The function is called from one goroutine at a time.
type Opponent func() search.Player[chess.Move, *chess.Game]

// Start is where every game of a run starts: a FEN ("" for the standard
// start position) and moves played from it before the learner's first
// move, each in UCI or, failing that, SAN. The learner plays the side to move after those moves. The moves are
// part of every game's history, so that an engine opponent sees them and
// repetitions count them. Castling in the moves is written as UCI writes it
// for the position: the king's two-square move in classical chess,
// king-takes-rook in a Chess960 position.
type Start struct {
	FEN   string
	Moves []string
}

// DefaultTurns and DefaultIterations are the defaults of every method.
const (
	// DefaultTurns is the default number of learner moves a game lasts at
	// most.
	DefaultTurns = 20
	// DefaultIterations is the default number of iterations of a run.
	DefaultIterations = 100
)

// Config is what the three methods share.
type Config struct {
	// Start is the start position and moves of every game.
	Start Start
	// Opponent makes the engine the learner plays against; required.
	Opponent Opponent
	// Turns is T, the number of learner moves after which a game ends (the
	// opponent answers the last of them first, so the final position has
	// the learner to move), unless the rules end it earlier: checkmate,
	// stalemate, insufficient material, threefold repetition, the 50-move
	// rule. At least 1.
	Turns int
	// Iterations is N, the number of iterations. At least 1.
	Iterations int
	// Weights are the piece values of the cost; the zero Weights means
	// DefaultWeights.
	Weights Weights
	// Seed is the run's seed: every random choice of the run, the
	// opponent's seeds included, derives from it with package seed.
	Seed uint64
	// Workers is the number of games played at once; 0 means
	// runtime.NumCPU(). Results do not depend on it.
	Workers int
	// MemoOpponent, when set, asks the opponent only once per position
	// (keyed by the position's Zobrist hash: pieces, side to move, castling
	// and en passant) in the whole run and replays its answer afterwards.
	// That saves most engine calls of a long run and makes even a
	// randomised or multi-threaded engine answer the same way every time,
	// so that a run against it is reproducible in itself; but the opponent
	// then no longer sees the game's history (repetitions, its own hash
	// table), and is weaker for it. Off by default: the learner faces the
	// opponent as it plays. The memo is deterministic: answers learnt during
	// an iteration are shared from the next iteration on, the first game in
	// index order winning when two games learnt one position.
	MemoOpponent bool
	// OnIteration, if set, is called after every iteration, from the
	// goroutine that called Run, with that iteration's statistics.
	OnIteration func(IterationStats)
}

// DefaultConfig returns the shared defaults; the Opponent remains to be
// set.
func DefaultConfig() Config {
	return Config{Turns: DefaultTurns, Iterations: DefaultIterations, Weights: DefaultWeights()}
}

// ErrConfig means a configuration is not valid. The errors of the Run
// functions and of Validate wrap it in a *ConfigError.
var ErrConfig = errors.New("metaheuristic: invalid config")

// ConfigError names the field of a configuration that is not valid, its
// value and what is wrong with it. It unwraps to ErrConfig and to Err,
// which may wrap a chess error (a FEN or a move that does not parse).
type ConfigError struct {
	Field string
	Value any
	Err   error
}

// Error returns, for example, "metaheuristic: invalid config: Turns 0:
// want at least 1".
func (e *ConfigError) Error() string {
	return fmt.Sprintf("%v: %s %v: %v", ErrConfig, e.Field, e.Value, e.Err)
}

// Unwrap returns ErrConfig and e.Err.
func (e *ConfigError) Unwrap() []error { return []error{ErrConfig, e.Err} }

// configError returns a *ConfigError with a reason made by fmt.Errorf.
func configError(field string, value any, format string, args ...any) error {
	return &ConfigError{Field: field, Value: value, Err: fmt.Errorf(format, args...)}
}

// validateWith checks c, then, if c is valid, a method's own settings with
// own: the Validate of each method's configuration.
func (c *Config) validateWith(own func() error) error {
	if err := c.Validate(); err != nil {
		return err
	}
	return own()
}

// Validate checks the shared fields.
func (c *Config) Validate() error {
	_, err := c.prepare()
	return err
}

// start is a validated Start: the start position, the moves played from it
// before the learner's turn, the rules and the learner's side.
type start struct {
	pos     chess.Position
	opening []chess.Move
	rules   chess.Rules
	learner game.Player
}

// prepare validates c and reads its start.
func (c *Config) prepare() (start, error) {
	var s start
	switch {
	case c.Opponent == nil:
		return s, configError("Opponent", "nil", "an opponent is required")
	case c.Turns < 1:
		return s, configError("Turns", c.Turns, "want at least 1")
	case c.Iterations < 1:
		return s, configError("Iterations", c.Iterations, "want at least 1")
	case c.Workers < 0:
		return s, configError("Workers", c.Workers, "want 0 (one per CPU) or more")
	}
	for _, v := range c.Weights {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return s, configError("Weights", c.Weights, "want finite values")
		}
	}
	var err error
	if s.pos, s.opening, err = c.Start.parse(); err != nil {
		return s, err
	}
	s.rules = chess.Rules{FiftyMoveRule: true, Chess960: !s.pos.ClassicalCastling()}
	g := chess.NewGame(s.pos, s.rules)
	for _, m := range s.opening {
		g.Make(m)
	}
	if o := g.Outcome(); o.Over() {
		return s, configError("Start", fmt.Sprintf("%q %q", c.Start.FEN, c.Start.Moves), "the game is over there (%v)", o)
	}
	s.learner = g.ToMove()
	return s, nil
}

// parse reads the start position and the moves that follow it.
func (st Start) parse() (chess.Position, []chess.Move, error) {
	pos := chess.Start()
	if st.FEN != "" {
		p, err := chess.ParseFEN(st.FEN)
		if err != nil {
			return pos, nil, &ConfigError{Field: "Start.FEN", Value: fmt.Sprintf("%q", st.FEN), Err: err}
		}
		pos = p
	}
	var moves []chess.Move
	p := pos
	for i, text := range st.Moves {
		m, err := p.ParseUCI(text, !pos.ClassicalCastling())
		if err != nil {
			var sanErr error
			if m, sanErr = p.ParseSAN(text); sanErr != nil {
				if !errors.Is(err, chess.ErrIllegalMove) {
					err = sanErr // not UCI at all: say what SAN makes of it
				}
				return pos, nil, &ConfigError{Field: fmt.Sprintf("Start.Moves[%d]", i), Value: fmt.Sprintf("%q", text), Err: err}
			}
		}
		moves = append(moves, m)
		p = p.Play(m)
	}
	return pos, moves, nil
}

// Position returns the position the learner starts from: FEN's (the
// standard one for "") after Moves. Errors are *ConfigError values naming
// the field.
func (st Start) Position() (chess.Position, error) {
	pos, moves, err := st.parse()
	for _, m := range moves {
		pos = pos.Play(m)
	}
	return pos, err
}

// UCI returns the moves in UCI, however they were written (castling as
// UCI writes it for the position), or a *ConfigError naming the first that
// is not a legal move.
func (st Start) UCI() ([]string, error) {
	pos, moves, err := st.parse()
	if err != nil {
		return nil, err
	}
	out, chess960 := make([]string, 0, len(moves)), !pos.ClassicalCastling()
	for _, m := range moves {
		out = append(out, pos.FormatUCI(m, chess960))
		pos = pos.Play(m)
	}
	return out, nil
}

// IterationStats describes one iteration: the games it played and how long
// it took.
type IterationStats struct {
	// Iteration is the iteration's index, from 0; seeds use it.
	Iteration int
	// Games is the number of games played in the iteration.
	Games int
	// Wins counts those the learner won by checkmate.
	Wins int
	// BestCost and MeanCost are the highest and the mean cost of those
	// games.
	BestCost, MeanCost float64
	// BestSoFar is the highest cost of any game of the run so far, this
	// iteration's included: Result.Best's cost once the run ends.
	BestSoFar float64
	// Temperature is the temperature the iteration ran at (SA only; 0 for
	// the other methods).
	Temperature float64
	// Elapsed is the iteration's wall-clock time; the one field that
	// differs between two runs of one configuration.
	Elapsed time.Duration
	// NewBest is the run's best game when this iteration found a better
	// one (the first iteration always does), nil otherwise: what a live
	// view shows as the current best line. It belongs to the caller.
	NewBest *GameRecord
}

// GameRecord is a game played by the learner.
type GameRecord struct {
	// Start is the configured start position (Start.FEN).
	Start chess.Position
	// Moves holds every move from Start; the first Opening of them are the
	// configured start moves, the learner's moves and the opponent's
	// replies alternate after them.
	Moves   []chess.Move
	Opening int
	// Learner is the side the learner played.
	Learner game.Player
	// Outcome is the game's result by the rules: game.Ongoing when the
	// turn limit ended it.
	Outcome game.Outcome
	// Cost is the game's cost for the learner (Weights.Cost of the final
	// position).
	Cost float64
}

// FEN returns the start position's FEN.
func (r GameRecord) FEN() string { return r.Start.FEN() }

// UCI returns the moves in UCI notation, castling written as Start.Moves
// takes it (king-takes-rook only when Start is a Chess960 position).
func (r GameRecord) UCI() []string {
	chess960 := !r.Start.ClassicalCastling()
	out := make([]string, len(r.Moves))
	p := r.Start
	for i, m := range r.Moves {
		out[i] = p.FormatUCI(m, chess960)
		p = p.Play(m)
	}
	return out
}

// PGN returns the game for chess.WritePGN, with its result ("*" when the
// turn limit ended it); the caller adds tags.
func (r GameRecord) PGN() chess.PGNGame {
	return chess.PGNGame{Start: r.Start, Moves: r.Moves, Result: chess.ResultString(r.Outcome.Result)}
}

// Result is what a run learnt.
type Result struct {
	// Method is the method that ran.
	Method Method
	// Iterations holds the statistics of the completed iterations, as
	// OnIteration saw them.
	Iterations []IterationStats
	// Best is the game of highest cost the learner played during the run
	// (the first of equals); its Moves are nil when no game was completed.
	Best GameRecord
	// Table is the learned table, which Write stores and whose Player plays
	// it: for ACO the pheromones; for GA the global best individual, its
	// move per position with value 1; for SA the saved line, the learner's
	// move in each of its positions with value 1.
	Table *Pheromones
}
