package storage

import (
	"context"
	"fmt"
	"time"
)

// WorkerGames is what was seen of one worker over a while (the daemon
// has it from the cluster's coordinator): the games of its that counted,
// the results of its that were refused, and when the first and the last
// came.
type WorkerGames struct {
	Name          string
	Games         int
	Refused       int
	First, Latest time.Time
}

// Worker is a worker's record: every game it played for this database.
type Worker struct {
	Name      string    `json:"name"`
	Games     int64     `json:"games"`
	Refused   int64     `json:"refused"`
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`
	// GamesPerSecond is its games over the time from its first result to
	// its latest; 0 before two.
	GamesPerSecond float64 `json:"games_per_second"`
}

// RecordWorkers adds what was seen of the workers to their records, in
// one transaction.
func (d *DB) RecordWorkers(ctx context.Context, seen []WorkerGames) error {
	if len(seen) == 0 {
		return nil
	}
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("record workers: %w", err)
	}
	defer tx.Rollback()
	for _, w := range seen {
		if _, err := tx.ExecContext(ctx, `INSERT INTO workers (name, games, refused, first_seen, last_seen) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET games = games + excluded.games, refused = refused + excluded.refused,
			last_seen = max(last_seen, excluded.last_seen)`,
			w.Name, w.Games, w.Refused, w.First.UTC().Format(timeFormat), w.Latest.UTC().Format(timeFormat)); err != nil {
			return fmt.Errorf("record worker %q: %w", w.Name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("record workers: %w", err)
	}
	return nil
}

// Workers returns the workers' records, the most recently seen first.
func (d *DB) Workers(ctx context.Context) ([]Worker, error) {
	rows, err := d.db.QueryContext(ctx, "SELECT name, games, refused, first_seen, last_seen FROM workers ORDER BY last_seen DESC, name")
	if err != nil {
		return nil, fmt.Errorf("workers: %w", err)
	}
	defer rows.Close()
	var out []Worker
	for rows.Next() {
		var w Worker
		var first, last string
		if err := rows.Scan(&w.Name, &w.Games, &w.Refused, &first, &last); err != nil {
			return nil, fmt.Errorf("workers: %w", err)
		}
		w.FirstSeen, _ = time.Parse(timeFormat, first)
		w.LastSeen, _ = time.Parse(timeFormat, last)
		if span := w.LastSeen.Sub(w.FirstSeen).Seconds(); span > 0 {
			w.GamesPerSecond = float64(w.Games) / span
		}
		out = append(out, w)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("workers: %w", err)
	}
	return out, nil
}
