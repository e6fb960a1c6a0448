package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ErrNoMetaRun means the database holds no chess lab run with that id.
var ErrNoMetaRun = errors.New("storage: no such meta run")

// MetaRun is one run of the chess lab (evolved meta).
type MetaRun struct {
	ID       int64
	Method   string // "aco", "ga" or "sa"
	Opponent string // the opponent's player spec
	Start    string // FEN of the learner's start position
	Params   string // JSON of every setting
	Seed     uint64
	Created  time.Time
	// The rest is set once the run finishes; Finished is zero before.
	Finished   time.Time
	Seconds    float64
	Iterations int
	BestCost   float64
	BestPGN    string
	Learned    string // the pheromone file format
	// State is where the run stands: MetaQueued, MetaRunning,
	// MetaFinished, MetaStopped or MetaFailed. Runs stored before states
	// were kept read as MetaFinished when Finished is set, else as
	// MetaStopped. Failure says why a stopped or failed run ended.
	State   string
	Failure string
}

// The states of a chess-lab run.
const (
	MetaQueued   = "queued"   // waiting for the lab's one run at a time
	MetaRunning  = "running"  // iterating (or killed while it did: see MarkInterruptedMetaRuns)
	MetaFinished = "finished" // every iteration done
	MetaStopped  = "stopped"  // stopped on request, what it learnt kept
	MetaFailed   = "failed"   // ended by an error, what it learnt kept
)

// Over reports whether the run has ended, one way or another.
func (r MetaRun) Over() bool {
	return r.State == MetaFinished || r.State == MetaStopped || r.State == MetaFailed
}

// MetaIteration is one iteration's figures.
type MetaIteration struct {
	Iteration int
	BestCost  float64 // the best cost so far
	MeanCost  float64 // the mean cost of the iteration's games
	Wins      int
	Games     int
	Seconds   float64 // since the run started
}

// CreateMetaRun stores a new run's settings and returns its id. The run
// is MetaRunning unless r.State says otherwise (MetaQueued).
func (d *DB) CreateMetaRun(ctx context.Context, r MetaRun) (int64, error) {
	state := r.State
	if state == "" {
		state = MetaRunning
	}
	res, err := d.db.ExecContext(ctx, `INSERT INTO meta_runs (method, opponent, start, params, seed, created_at, state)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, r.Method, r.Opponent, r.Start, r.Params, int64(r.Seed), r.Created.UTC().Format(timeFormat), state)
	if err != nil {
		return 0, fmt.Errorf("create meta run: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("create meta run: %w", err)
	}
	return id, nil
}

// AddMetaIterations appends iterations to a run in one transaction, with
// the best line and learned table so far (learned may be empty; with no
// iteration, bestPGN and learned both empty change nothing), so that a
// stopped run keeps what it had found. Writers batch iterations: one
// transaction per iteration would make a 10,000-iteration run wait on
// 10,000 disk syncs.
func (d *DB) AddMetaIterations(ctx context.Context, runID int64, its []MetaIteration, bestCost float64, bestPGN, learned string) error {
	fail := func(err error) error { return fmt.Errorf("store meta run %d iterations: %w", runID, err) }
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	for _, it := range its {
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta_iterations (run_id, iteration, best_cost, mean_cost, wins, games, seconds)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, runID, it.Iteration, it.BestCost, it.MeanCost, it.Wins, it.Games, it.Seconds); err != nil {
			return fail(err)
		}
	}
	if len(its) > 0 || bestPGN != "" || learned != "" {
		res, err := tx.ExecContext(ctx, `UPDATE meta_runs SET iterations = iterations + ?, best_cost = ?, best_pgn = ?,
			learned = CASE WHEN ? = '' THEN learned ELSE ? END WHERE id = ?`,
			len(its), bestCost, bestPGN, learned, learned, runID)
		if err != nil {
			return fail(err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fail(fmt.Errorf("%w %d", ErrNoMetaRun, runID))
		}
	}
	if err := tx.Commit(); err != nil {
		return fail(err)
	}
	return nil
}

// FinishMetaRun marks a run finished after seconds of work.
func (d *DB) FinishMetaRun(ctx context.Context, runID int64, seconds float64, finished time.Time) error {
	res, err := d.db.ExecContext(ctx, `UPDATE meta_runs SET finished_at = ?, seconds = ?, state = 'finished', failure = NULL WHERE id = ?`,
		finished.UTC().Format(timeFormat), seconds, runID)
	if err != nil {
		return fmt.Errorf("finish meta run %d: %w", runID, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("finish meta run %d: %w", runID, ErrNoMetaRun)
	}
	return nil
}

// SetMetaRunState records that a run is now state (MetaRunning, or
// MetaStopped or MetaFailed with why, after seconds of work; seconds < 0
// leaves them as they are). A finished run is not changed: FinishMetaRun
// is its last word.
func (d *DB) SetMetaRunState(ctx context.Context, runID int64, state, why string, seconds float64) error {
	switch state {
	case MetaQueued, MetaRunning, MetaStopped, MetaFailed:
	default:
		return fmt.Errorf("set meta run %d state: %q is not a state it can be set to", runID, state)
	}
	res, err := d.db.ExecContext(ctx, `UPDATE meta_runs SET state = ?, failure = NULLIF(?, ''),
		seconds = CASE WHEN ? < 0 THEN seconds ELSE ? END
		WHERE id = ? AND state IS NOT 'finished'`, state, why, seconds, seconds, runID)
	if err != nil {
		return fmt.Errorf("set meta run %d state: %w", runID, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return fmt.Errorf("set meta run %d state: %w (or it is finished)", runID, ErrNoMetaRun)
	}
	return nil
}

// MarkInterruptedMetaRuns records every queued or running run as stopped,
// with why: the writer calls it on opening, when no run of the database
// can still be going (it holds the database's only writer lock), so that a
// run whose process was killed does not read as running for ever. It
// returns the number of runs marked.
func (d *DB) MarkInterruptedMetaRuns(ctx context.Context, why string) (int, error) {
	res, err := d.db.ExecContext(ctx, `UPDATE meta_runs SET state = 'stopped', failure = ? WHERE state IN ('queued', 'running')`, why)
	if err != nil {
		return 0, fmt.Errorf("mark interrupted meta runs: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("mark interrupted meta runs: %w", err)
	}
	return int(n), nil
}

// metaColumns are the columns scanMetaRun reads, in order.
const metaColumns = `id, method, opponent, start, params, seed, created_at, finished_at, seconds, iterations,
	best_cost, best_pgn, learned, state, failure`

// scanMetaRun reads a row of metaColumns.
func scanMetaRun(row interface{ Scan(...any) error }) (MetaRun, error) {
	var r MetaRun
	var seed int64
	var created string
	var finished, pgn, learned, state, failure sql.NullString
	var seconds, best sql.NullFloat64
	if err := row.Scan(&r.ID, &r.Method, &r.Opponent, &r.Start, &r.Params, &seed, &created, &finished, &seconds,
		&r.Iterations, &best, &pgn, &learned, &state, &failure); err != nil {
		return r, err
	}
	r.Seed, r.Seconds, r.BestCost, r.BestPGN, r.Learned = uint64(seed), seconds.Float64, best.Float64, pgn.String, learned.String
	r.State, r.Failure = state.String, failure.String
	switch {
	case r.State != "":
	case finished.Valid:
		r.State = MetaFinished
	default:
		r.State = MetaStopped
	}
	var err error
	if r.Created, err = time.Parse(timeFormat, created); err != nil {
		return r, fmt.Errorf("run %d: created_at %q: %w", r.ID, created, err)
	}
	if finished.Valid {
		if r.Finished, err = time.Parse(timeFormat, finished.String); err != nil {
			return r, fmt.Errorf("run %d: finished_at %q: %w", r.ID, finished.String, err)
		}
	}
	return r, nil
}

// MetaRuns lists the chess lab's runs, oldest first.
func (d *DB) MetaRuns(ctx context.Context) ([]MetaRun, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT `+metaColumns+` FROM meta_runs ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("list meta runs: %w", err)
	}
	defer rows.Close()
	var out []MetaRun
	for rows.Next() {
		r, err := scanMetaRun(rows)
		if err != nil {
			return nil, fmt.Errorf("list meta runs: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list meta runs: %w", err)
	}
	return out, nil
}

// LoadMetaRun reads one run and its iterations in order.
func (d *DB) LoadMetaRun(ctx context.Context, id int64) (MetaRun, []MetaIteration, error) {
	r, err := scanMetaRun(d.db.QueryRowContext(ctx, `SELECT `+metaColumns+` FROM meta_runs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, nil, fmt.Errorf("load meta run %d: %w", id, ErrNoMetaRun)
	}
	if err != nil {
		return r, nil, fmt.Errorf("load meta run %d: %w", id, err)
	}
	rows, err := d.db.QueryContext(ctx, `SELECT iteration, best_cost, mean_cost, wins, games, seconds
		FROM meta_iterations WHERE run_id = ? ORDER BY iteration`, id)
	if err != nil {
		return r, nil, fmt.Errorf("load meta run %d: %w", id, err)
	}
	defer rows.Close()
	var its []MetaIteration
	for rows.Next() {
		var it MetaIteration
		if err := rows.Scan(&it.Iteration, &it.BestCost, &it.MeanCost, &it.Wins, &it.Games, &it.Seconds); err != nil {
			return r, nil, fmt.Errorf("load meta run %d: %w", id, err)
		}
		its = append(its, it)
	}
	if err := rows.Err(); err != nil {
		return r, nil, fmt.Errorf("load meta run %d: %w", id, err)
	}
	return r, its, nil
}
