package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"time"

	"evolved/nnet"
)

// PopulationStatus summarises one run for `evolved status`.
type PopulationStatus struct {
	Game string `json:"game"`
	Seed uint64 `json:"seed"`
	// Generation is the number of generations played.
	Generation int `json:"generation"`
	// Games is the number of tournament games its generations played.
	Games int64 `json:"games"`
	// Hours is the run's time of evolution: the seconds of all its
	// generations, in hours, excluding the time the daemon was stopped.
	// It is what a generation named by its hours (6h) and climb
	// --every-hours count.
	Hours       float64 `json:"hours"`
	BestFitness int     `json:"best_fitness"`
	MeanFitness float64 `json:"mean_fitness"`
	// GensPerHour is measured over the last (up to) 20 generations.
	GensPerHour float64 `json:"gens_per_hour"`
	// LastImprovement is the last generation whose champion improved on
	// the ladder, or -1.
	LastImprovement int `json:"last_improvement"`
	// DaemonTarget is the generation target of the daemon evolving the
	// run (SetTarget), 0 without one or once it stopped cleanly.
	DaemonTarget   int       `json:"daemon_target"`
	Started        time.Time `json:"started"`
	LastGeneration time.Time `json:"last_generation,omitzero"`
}

// SetTarget records the generation target of the daemon evolving game's
// run (0: none), for status and the web site of other processes.
func (d *DB) SetTarget(ctx context.Context, game string, target int) error {
	var v any
	if target > 0 {
		v = target
	}
	if _, err := d.db.ExecContext(ctx, "UPDATE runs SET target = ? WHERE game = ?", v, game); err != nil {
		return fmt.Errorf("set target of %s: %w", game, err)
	}
	return nil
}

// Status returns the status of every run in the database, by game name.
func (d *DB) Status(ctx context.Context) ([]PopulationStatus, error) {
	rows, err := d.db.QueryContext(ctx, "SELECT game, seed, created_at, coalesce(target, 0) FROM runs ORDER BY game")
	if err != nil {
		return nil, fmt.Errorf("status: %w", err)
	}
	var out []PopulationStatus
	for rows.Next() {
		var s PopulationStatus
		var seed int64
		var created string
		if err := rows.Scan(&s.Game, &seed, &created, &s.DaemonTarget); err != nil {
			rows.Close()
			return nil, fmt.Errorf("status: %w", err)
		}
		s.Seed = uint64(seed)
		s.Started, _ = time.Parse(timeFormat, created)
		out = append(out, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("status: %w", err)
	}
	for i := range out {
		s := &out[i]
		var last sql.NullString
		var seconds float64
		if err := d.db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(games), 0), coalesce(max(CASE WHEN improved THEN generation END), -1),
			coalesce(sum(seconds), 0) FROM generations WHERE game = ?`, s.Game).Scan(&s.Generation, &s.Games, &s.LastImprovement, &seconds); err != nil {
			return nil, fmt.Errorf("status %s: %w", s.Game, err)
		}
		s.Hours = seconds / 3600
		if s.Generation == 0 {
			continue
		}
		if err := d.db.QueryRowContext(ctx, `SELECT best_fitness, mean_fitness, created_at FROM generations
			WHERE game = ? ORDER BY generation DESC LIMIT 1`, s.Game).Scan(&s.BestFitness, &s.MeanFitness, &last); err != nil {
			return nil, fmt.Errorf("status %s: %w", s.Game, err)
		}
		s.LastGeneration, _ = time.Parse(timeFormat, last.String)
		// Rate over the last 20 generations' wall clock (their seconds
		// column excludes time the daemon was stopped).
		var n int
		var secs float64
		if err := d.db.QueryRowContext(ctx, `SELECT count(*), sum(seconds) FROM (SELECT seconds FROM generations
			WHERE game = ? ORDER BY generation DESC LIMIT 20)`, s.Game).Scan(&n, &secs); err != nil {
			return nil, fmt.Errorf("status %s: %w", s.Game, err)
		}
		if secs > 0 {
			s.GensPerHour = float64(n) / secs * 3600
		}
	}
	return out, nil
}

// ChampionRow is one generation's champion.
type ChampionRow struct {
	Generation int   `json:"generation"`
	AgentID    int64 `json:"agent_id"`
	Fitness    int   `json:"fitness"`
	// Improved reports whether the ladder's mean was above 0; LadderMean
	// is that mean, nil (and Improved false) in a generation that did
	// not play the ladder (population.Config.LadderDue).
	Improved   bool      `json:"improved"`
	LadderMean *float64  `json:"ladder_mean"`
	CreatedAt  time.Time `json:"created_at"`
	// Seconds is the wall time the generation took, from its start to its
	// commit; their sum is the run's time of evolution.
	Seconds float64 `json:"seconds"`
}

// Champions returns the champion of every played generation of game.
func (d *DB) Champions(ctx context.Context, game string) ([]ChampionRow, error) {
	return d.ChampionRange(ctx, game, 0, -1)
}

// ChampionRange returns the champions of generations from to to (both
// included; a negative to: the latest) of game, in generation order, so
// that a page of a run of a million generations reads its page only.
func (d *DB) ChampionRange(ctx context.Context, game string, from, to int) ([]ChampionRow, error) {
	if _, err := d.LoadRun(ctx, game); err != nil {
		return nil, err
	}
	if to < 0 {
		to = math.MaxInt32
	}
	out, err := queryRows(ctx, d.db, func(rows *sql.Rows, c *ChampionRow) error {
		var created string
		var l ladderCells
		if err := rows.Scan(&c.Generation, &c.AgentID, &c.Fitness, &l.improved, &l.mean, &created, &c.Seconds); err != nil {
			return err
		}
		l.into(c)
		c.CreatedAt, _ = time.Parse(timeFormat, created)
		return nil
	}, `SELECT generation, champion_id, best_fitness, improved, ladder_mean, created_at, seconds
		FROM generations WHERE game = ? AND generation BETWEEN ? AND ? ORDER BY generation`, game, from, to)
	if err != nil {
		return nil, fmt.Errorf("champions %s: %w", game, err)
	}
	return out, nil
}

// ladderCells are a generation's ladder_mean and improved as read, NULL
// in a generation that did not play the ladder.
type ladderCells struct {
	mean     sql.NullFloat64
	improved sql.NullBool
}

// into sets c's ladder fields from the cells.
func (l ladderCells) into(c *ChampionRow) {
	c.LadderMean, c.Improved = nil, l.improved.Valid && l.improved.Bool
	if l.mean.Valid {
		m := l.mean.Float64
		c.LadderMean = &m
	}
}

// ErrNoGeneration means the generation asked for has not been played.
var ErrNoGeneration = errors.New("storage: no such generation")

// ChampionGenome is a champion with its genome and provenance, for export.
type ChampionGenome struct {
	ChampionRow
	Game string
	Seed uint64
	Net  *nnet.Net
}

// Champion returns the champion of a played generation of game; a
// negative generation means the latest.
func (d *DB) Champion(ctx context.Context, game string, generation int) (ChampionGenome, error) {
	run, err := d.LoadRun(ctx, game)
	if err != nil {
		return ChampionGenome{}, err
	}
	c := ChampionGenome{Game: game, Seed: run.Seed}
	q := `SELECT gen.generation, gen.champion_id, gen.best_fitness, gen.improved, gen.ladder_mean, gen.created_at
		FROM generations gen WHERE gen.game = ? AND gen.generation = ?`
	args := []any{game, generation}
	if generation < 0 {
		q = `SELECT gen.generation, gen.champion_id, gen.best_fitness, gen.improved, gen.ladder_mean, gen.created_at
			FROM generations gen WHERE gen.game = ? ORDER BY gen.generation DESC LIMIT 1`
		args = args[:1]
	}
	var created string
	var l ladderCells
	err = d.db.QueryRowContext(ctx, q, args...).Scan(&c.Generation, &c.AgentID, &c.Fitness, &l.improved,
		&l.mean, &created)
	if errors.Is(err, sql.ErrNoRows) {
		if generation < 0 {
			return c, fmt.Errorf("champion of %s: %w: no generation has been played yet", game, ErrNoGeneration)
		}
		return c, fmt.Errorf("champion of %s generation %d: %w", game, generation, ErrNoGeneration)
	}
	if err != nil {
		return c, fmt.Errorf("champion of %s generation %d: %w", game, generation, err)
	}
	l.into(&c.ChampionRow)
	c.CreatedAt, _ = time.Parse(timeFormat, created)
	if c.Net, err = loadGenome(ctx, d.db, game, c.AgentID); err != nil {
		return c, fmt.Errorf("champion of %s generation %d: %w", game, c.Generation, err)
	}
	return c, nil
}

// ErrNoAgent means the database holds no agent with the id asked for.
var ErrNoAgent = errors.New("storage: no such agent")

// Genome returns the genome of agent id of game's run, rebuilt from its
// lineage if retention dropped its weights: ErrNoAgent if the run never
// had it, ErrPruned if retention dropped it for good, ErrLineage if it
// cannot be rebuilt.
func (d *DB) Genome(ctx context.Context, game string, id int64) (*nnet.Net, error) {
	return loadGenome(ctx, d.db, game, id)
}
