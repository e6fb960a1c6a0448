package daemon

import (
	"context"
	"fmt"

	"evolved/positions"
)

// openPositions opens game's position store for a run whose last
// committed generation is last (-1 for none) and rewinds it there: a
// crash between the store's commit and the database's leaves the store a
// generation ahead, and those positions are played again.
func (d *Daemon) openPositions(ctx context.Context, game string, last int) (*positions.Store, error) {
	dir := positions.DirBeside(d.db.Path(), game)
	store, err := positions.Open(ctx, dir, positions.Options{Game: game, MaxBytes: int64(d.config().Jobs.PositionsMB) << 20})
	if err != nil {
		return nil, fmt.Errorf("daemon: %w", err)
	}
	if last < 0 && store.Committed() >= 0 {
		store.Close()
		return nil, fmt.Errorf("daemon: the position store %s holds %d generations of another run, and the database %s is new: move or remove the store",
			dir, store.Committed()+1, d.db.Path())
	}
	if store.Committed() > last {
		if err := store.Rewind(ctx, last); err != nil {
			store.Close()
			return nil, fmt.Errorf("daemon: %s: the database's last generation is %d: %w", dir, last, err)
		}
	}
	if store.Committed() < last {
		d.log.Warn("the position store is behind the database: the generations between hold no positions",
			"game", game, "store", store.Committed(), "database", last)
	}
	return store, nil
}
