package storage

import (
	"context"
	"fmt"
	"time"
)

// SettingChange is a change of one of a run's settings from a generation
// on: the game section's key and its values before and after, as JSON.
type SettingChange struct {
	Generation int       `json:"generation"`
	Key        string    `json:"key"`
	Old        string    `json:"old"`
	New        string    `json:"new"`
	ChangedAt  time.Time `json:"changed_at"`
}

// ChangeRunSettings makes config the settings of game's run from its next
// generation on, and records each change (Generation is filled in; Old
// and New are what the caller says). A key changed again before a
// generation was played under it keeps its first old value, and a change
// back to that value leaves no record. It returns the generation the
// change holds from.
func (d *DB) ChangeRunSettings(ctx context.Context, game, config string, changes []SettingChange, at time.Time) (int, error) {
	fail := func(err error) (int, error) { return 0, fmt.Errorf("change the settings of the %s run: %w", game, err) }
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	var generation int
	if err := tx.QueryRowContext(ctx, "SELECT coalesce(max(generation), -1) FROM members WHERE game = ?", game).Scan(&generation); err != nil {
		return fail(err)
	}
	if generation < 0 {
		return fail(ErrNoRun)
	}
	res, err := tx.ExecContext(ctx, "UPDATE runs SET config = ? WHERE game = ?", config, game)
	if err != nil {
		return fail(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fail(fmt.Errorf("%w (%d rows, %v)", ErrNoRun, n, err))
	}
	stamp := at.UTC().Format(timeFormat)
	for _, c := range changes {
		if _, err := tx.ExecContext(ctx, `INSERT INTO setting_changes (game, generation, key, old, new, changed_at)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (game, generation, key) DO UPDATE SET new = excluded.new, changed_at = excluded.changed_at`,
			game, generation, c.Key, c.Old, c.New, stamp); err != nil {
			return fail(err)
		}
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM setting_changes WHERE game = ? AND generation = ? AND old = new", game, generation); err != nil {
		return fail(err)
	}
	if err := tx.Commit(); err != nil {
		return fail(err)
	}
	return generation, nil
}

// SettingChanges returns the changes of game's run's settings in the
// order they hold (by generation, then key).
func (d *DB) SettingChanges(ctx context.Context, game string) ([]SettingChange, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT generation, key, old, new, changed_at FROM setting_changes
		WHERE game = ? ORDER BY generation, key`, game)
	if err != nil {
		return nil, fmt.Errorf("setting changes of %s: %w", game, err)
	}
	defer rows.Close()
	var out []SettingChange
	for rows.Next() {
		var c SettingChange
		var at string
		if err := rows.Scan(&c.Generation, &c.Key, &c.Old, &c.New, &at); err != nil {
			return nil, fmt.Errorf("setting changes of %s: %w", game, err)
		}
		c.ChangedAt, _ = time.Parse(timeFormat, at)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("setting changes of %s: %w", game, err)
	}
	return out, nil
}
