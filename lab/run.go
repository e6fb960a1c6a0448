package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"evolved/game/chess"
	"evolved/metaheuristic"
	"evolved/storage"
)

// Params is what a stored run records of its settings (meta_runs.params),
// as `evolved meta` has always written them: From in UCI, the drop an SA
// run actually uses, the weights spelt out.
type Params struct {
	Method      string   `json:"method"`
	Opponent    string   `json:"opponent"`
	FEN         string   `json:"fen,omitempty"`
	From        []string `json:"from,omitempty"`
	Turns       int      `json:"turns"`
	Iterations  int      `json:"iterations"`
	Ants        int      `json:"ants,omitempty"`
	Dissipation float64  `json:"dissipation,omitempty"`
	Tolerance   float64  `json:"tolerance,omitempty"`
	Population  int      `json:"population,omitempty"`
	Keep        float64  `json:"keep,omitempty"`
	T0          float64  `json:"t0,omitempty"`
	Drop        float64  `json:"drop,omitempty"`
	Weights     string   `json:"weights"`
	Seed        uint64   `json:"seed"`
	Memo        bool     `json:"memo_opponent"`
}

// Plan is a run whose settings are checked: what Create stores and Run
// runs.
type Plan struct {
	Method metaheuristic.Method
	// Start is the FEN of the position the learner starts from (after
	// the history).
	Start  string
	Params Params
	// StoreEvery is how often Run writes the iterations while running
	// (DefaultStoreEvery when 0): one transaction an iteration would make
	// a run of 10,000 iterations wait on 10,000 disk syncs.
	StoreEvery time.Duration
	cfg        any // the method's configuration
}

// DefaultStoreEvery is Plan.StoreEvery's default.
const DefaultStoreEvery = 2 * time.Second

// NewPlan checks s (given: the settings set explicitly, as DecodeSettings
// returns them; a flag set's for the CLI) against the methods' ranges and
// lim, reads the opponent with parse, and returns the run to start. Errors
// are *SettingError values naming the setting.
func NewPlan(s Settings, given map[string]bool, parse Parser, lim Limits) (Plan, error) {
	method, err := metaheuristic.ParseMethod(s.Method)
	if err != nil {
		return Plan{}, &SettingError{Name: "method", Value: fmt.Sprintf("%q", s.Method), Why: "want aco, ga or sa", Err: err}
	}
	if s.Opponent == "" {
		return Plan{}, &SettingError{Name: "opponent", Why: "is required (a player spec: material:1, pst:2, uci:PATH:depth=1, ...)"}
	}
	if s.Workers == 0 && lim.MaxWorkers > 0 {
		s.Workers = lim.MaxWorkers
	}
	if err := s.validate(method, given, lim); err != nil {
		return Plan{}, err
	}
	opp, err := parse(s.Opponent)
	if err != nil {
		return Plan{}, &SettingError{Name: "opponent", Value: fmt.Sprintf("%q", s.Opponent), Why: err.Error(), Err: err}
	}
	weights := metaheuristic.DefaultWeights()
	if s.Weights != "" {
		if weights, err = metaheuristic.ParseWeights(s.Weights); err != nil {
			return Plan{}, &SettingError{Name: "weights", Value: fmt.Sprintf("%q", s.Weights), Why: err.Error(), Err: err}
		}
	}
	start, pos, err := s.startOf(lim)
	if err != nil {
		return Plan{}, err
	}
	base := metaheuristic.DefaultConfig()
	base.Start, base.Opponent, base.Weights = start, metaheuristic.Opponent(opp.New), weights
	base.Turns, base.Iterations, base.Seed, base.Workers, base.MemoOpponent = s.Turns, s.Iterations, s.Seed, s.Workers, s.Memo
	p := Plan{Method: method, Start: pos.FEN(), Params: Params{Method: string(method), Opponent: s.Opponent, FEN: s.FEN,
		From: start.Moves, Turns: s.Turns, Iterations: s.Iterations, Weights: weights.String(), Seed: s.Seed, Memo: s.Memo}}
	switch method {
	case metaheuristic.ACO:
		c := metaheuristic.DefaultACOConfig()
		c.Config, c.Ants, c.Dissipation, c.Tolerance = base, s.Ants, s.Dissipation, s.Tolerance
		err, p.cfg = c.Validate(), c
		p.Params.Ants, p.Params.Dissipation, p.Params.Tolerance = s.Ants, s.Dissipation, s.Tolerance
	case metaheuristic.GA:
		c := metaheuristic.DefaultGAConfig()
		c.Config, c.Population, c.Keep = base, s.Population, s.Keep
		err, p.cfg = c.Validate(), c
		p.Params.Population, p.Params.Keep = s.Population, s.Keep
	case metaheuristic.SA:
		c := metaheuristic.DefaultSAConfig()
		c.Config, c.T0, c.Drop = base, s.T0, s.Drop
		err, p.cfg = c.Validate(), c
		p.Params.T0, p.Params.Drop = s.T0, c.Temperature(0)-c.Temperature(1)
	}
	if err != nil {
		return Plan{}, settingOf(err)
	}
	return p, nil
}

// Create stores the run, in state (storage.MetaQueued, or MetaRunning for
// one that starts at once), and returns its id.
func (p Plan) Create(ctx context.Context, db *storage.DB, state string, now time.Time) (int64, error) {
	params, err := json.Marshal(p.Params)
	if err != nil {
		return 0, fmt.Errorf("lab: store the settings: %w", err)
	}
	return db.CreateMetaRun(ctx, storage.MetaRun{Method: string(p.Method), Opponent: p.Params.Opponent, Start: p.Start,
		Params: string(params), Seed: p.Params.Seed, Created: now, State: state})
}

// Progress is a run's state as it goes, for a live view.
type Progress struct {
	Iteration      int     `json:"iteration"` // iterations done
	Iterations     int     `json:"iterations"`
	BestCost       float64 `json:"best_cost"` // the best game's cost so far
	MeanCost       float64 `json:"mean_cost"` // the last iteration's mean
	Games          int     `json:"games"`
	Wins           int     `json:"wins"` // games the learner won by mate
	GamesPerSecond float64 `json:"games_per_second"`
	Seconds        float64 `json:"seconds"`     // since the run started
	ETASeconds     float64 `json:"eta_seconds"` // at the rate so far
	Temperature    float64 `json:"temperature,omitempty"`
	// Best is the best game so far; nil before the first iteration.
	Best *metaheuristic.GameRecord `json:"-"`
}

// ErrStopped is wrapped by Run's error when its context ended the run:
// the run is stored as stopped, with what it learnt.
var ErrStopped = errors.New("lab: run stopped")

// Run runs the plan as stored run id of db, storing its iterations as they
// come, the best line and the learned table (at least every StoreEvery and
// at the end, however it ends) and its last state: finished; stopped when
// ctx ends it (the failure recorded is context.Cause(ctx)); failed on an
// error. onProgress, if not nil, sees every iteration, from the
// goroutine that called Run. The Result holds what was learnt in every
// case.
func (p Plan) Run(ctx context.Context, db *storage.DB, id int64, onProgress func(Progress)) (metaheuristic.Result, error) {
	keep := context.WithoutCancel(ctx) // what was learnt is stored however the run ends
	if err := db.SetMetaRunState(keep, id, storage.MetaRunning, "", -1); err != nil {
		return metaheuristic.Result{}, fmt.Errorf("lab: start run %d: %w", id, err)
	}
	every := p.StoreEvery
	if every <= 0 {
		every = DefaultStoreEvery
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	began := time.Now()
	var pending []storage.MetaIteration
	var storeErr error
	lastStore := began
	prog := Progress{Iterations: p.Params.Iterations}
	onIteration := func(it metaheuristic.IterationStats) {
		elapsed := time.Since(began)
		prog.Iteration, prog.BestCost, prog.MeanCost = it.Iteration+1, it.BestSoFar, it.MeanCost
		prog.Games, prog.Wins, prog.Temperature = prog.Games+it.Games, prog.Wins+it.Wins, it.Temperature
		prog.Seconds = elapsed.Seconds()
		prog.GamesPerSecond = float64(prog.Games) / max(prog.Seconds, 1e-9)
		prog.ETASeconds = prog.Seconds / float64(prog.Iteration) * float64(prog.Iterations-prog.Iteration)
		if it.NewBest != nil {
			prog.Best = it.NewBest
		}
		pending = append(pending, storage.MetaIteration{Iteration: it.Iteration + 1, BestCost: it.BestSoFar,
			MeanCost: it.MeanCost, Wins: it.Wins, Games: it.Games, Seconds: prog.Seconds})
		if onProgress != nil {
			onProgress(prog)
		}
		if time.Since(lastStore) >= every && storeErr == nil {
			pgn, err := bestPGN(prog.Best, id, p.Method, p.Params.Opponent, prog.BestCost)
			if err == nil {
				err = db.AddMetaIterations(keep, id, pending, prog.BestCost, pgn, "")
			}
			pending, lastStore, storeErr = pending[:0], time.Now(), err
			if storeErr != nil {
				cancel(storeErr)
			}
		}
	}
	var res metaheuristic.Result
	var runErr error
	switch c := p.cfg.(type) {
	case metaheuristic.ACOConfig:
		c.OnIteration = onIteration
		res, runErr = metaheuristic.RunACO(runCtx, c)
	case metaheuristic.GAConfig:
		c.OnIteration = onIteration
		res, runErr = metaheuristic.RunGA(runCtx, c)
	case metaheuristic.SAConfig:
		c.OnIteration = onIteration
		res, runErr = metaheuristic.RunSA(runCtx, c)
	default:
		return res, fmt.Errorf("lab: run %d: the plan was not made by NewPlan", id)
	}
	elapsed := time.Since(began).Seconds()
	fail := func(state string, err error) (metaheuristic.Result, error) {
		if serr := db.SetMetaRunState(keep, id, state, err.Error(), elapsed); serr != nil {
			return res, fmt.Errorf("lab: run %d: %w (and recording it: %w)", id, err, serr)
		}
		if state == storage.MetaStopped {
			return res, fmt.Errorf("lab: run %d: %w: %w", id, ErrStopped, err)
		}
		return res, fmt.Errorf("lab: run %d: %w", id, err)
	}
	if storeErr != nil {
		return fail(storage.MetaFailed, fmt.Errorf("store its iterations: %w", storeErr))
	}
	var table bytes.Buffer
	if res.Table != nil {
		if err := res.Table.Write(&table); err != nil {
			return fail(storage.MetaFailed, fmt.Errorf("write the learned table: %w", err))
		}
	}
	var best *metaheuristic.GameRecord
	if res.Best.Moves != nil {
		best = &res.Best
	}
	pgn, err := bestPGN(best, id, p.Method, p.Params.Opponent, res.Best.Cost)
	if err != nil {
		return fail(storage.MetaFailed, err)
	}
	bestCost := prog.BestCost
	if err := db.AddMetaIterations(keep, id, pending, bestCost, pgn, table.String()); err != nil {
		return fail(storage.MetaFailed, err)
	}
	if runErr != nil {
		if errors.Is(runErr, context.Canceled) && ctx.Err() != nil {
			cause := context.Cause(ctx)
			if cause == context.Canceled {
				cause = errors.New("stopped before its last iteration")
			}
			return fail(storage.MetaStopped, cause)
		}
		return fail(storage.MetaFailed, runErr)
	}
	if err := db.FinishMetaRun(keep, id, elapsed, time.Now()); err != nil {
		return res, fmt.Errorf("lab: %w", err)
	}
	return res, nil
}

// bestPGN writes a run's best game as PGN, or "" when there is none.
func bestPGN(best *metaheuristic.GameRecord, id int64, method metaheuristic.Method, opponent string, cost float64) (string, error) {
	if best == nil || len(best.Moves) == 0 {
		return "", nil
	}
	g := best.PGN()
	learner := fmt.Sprintf("meta:%d (%s)", id, method)
	white, black := learner, opponent
	if best.Learner == chess.Black {
		white, black = black, white
	}
	g.SetTag("Event", fmt.Sprintf("evolved meta run %d, best game (cost %s)", id, strconv.FormatFloat(cost, 'f', -1, 64)))
	g.SetTag("White", white)
	g.SetTag("Black", black)
	var b bytes.Buffer
	if err := chess.WritePGN(&b, g); err != nil {
		return "", fmt.Errorf("lab: write the best line: %w", err)
	}
	return b.String(), nil
}
