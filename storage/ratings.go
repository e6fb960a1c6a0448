package storage

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Rating is a champion's rating on a calibrated scale (table ratings, view
// rating_history).
type Rating struct {
	Game       string
	Generation int
	AgentID    int64
	// Scale names the ladder the rating is on; TC is its time control
	// ("untimed" for games at fixed depths).
	Scale, TC string
	// Elo is the rating and CI the half-width of its 95% interval.
	Elo, CI             float64
	Games               int
	Wins, Draws, Losses int
	Seed                uint64
	Seconds             float64
	CreatedAt           time.Time
	// Hours is the evolution time, in hours, up to the rated generation:
	// the generations' own times summed (read only).
	Hours float64
}

// AddRating stores a rating; a rating of the same champion on the same
// scale and time control replaces the older one.
func (d *DB) AddRating(ctx context.Context, r Rating) error {
	_, err := d.db.ExecContext(ctx, `INSERT OR REPLACE INTO ratings (game, generation, agent_id, scale, tc, elo, ci,
		games, wins, draws, losses, seed, seconds, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.Game, r.Generation, r.AgentID, r.Scale, r.TC, r.Elo, r.CI, r.Games, r.Wins, r.Draws, r.Losses,
		int64(r.Seed), r.Seconds, r.CreatedAt.UTC().Format(timeFormat))
	if err != nil {
		return fmt.Errorf("add rating of %s generation %d: %w", r.Game, r.Generation, err)
	}
	return nil
}

// Ratings returns game's ratings in generation order (then scale, time
// control).
func (d *DB) Ratings(ctx context.Context, game string) ([]Rating, error) {
	return d.ratings(ctx, `WHERE r.game = ? ORDER BY r.generation, r.scale, r.tc`, game)
}

// LatestRating returns the rating of game's latest rated champion (the
// most recent one if it was rated on several scales), or ok false when
// none was rated.
func (d *DB) LatestRating(ctx context.Context, game string) (r Rating, ok bool, err error) {
	rs, err := d.ratings(ctx, `WHERE r.game = ? ORDER BY r.generation DESC, r.created_at DESC LIMIT 1`, game)
	if err != nil || len(rs) == 0 {
		return Rating{}, false, err
	}
	return rs[0], true, nil
}

func (d *DB) ratings(ctx context.Context, where string, args ...any) ([]Rating, error) {
	out, err := queryRows(ctx, d.db, func(rows *sql.Rows, r *Rating) error {
		var seed int64
		var created string
		var hours sql.NullFloat64
		if err := rows.Scan(&r.Game, &r.Generation, &r.AgentID, &r.Scale, &r.TC, &r.Elo, &r.CI, &r.Games,
			&r.Wins, &r.Draws, &r.Losses, &seed, &r.Seconds, &created, &hours); err != nil {
			return err
		}
		r.Seed, r.Hours = uint64(seed), hours.Float64
		r.CreatedAt, _ = time.Parse(timeFormat, created)
		return nil
	}, `SELECT r.game, r.generation, r.agent_id, r.scale, r.tc, r.elo, r.ci, r.games,
		r.wins, r.draws, r.losses, r.seed, r.seconds, r.created_at,
		(SELECT SUM(g.seconds) FROM generations g WHERE g.game = r.game AND g.generation <= r.generation) / 3600.0
		FROM ratings r `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("ratings: %w", err)
	}
	return out, nil
}
