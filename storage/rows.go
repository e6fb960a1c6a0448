package storage

import (
	"context"
	"database/sql"
)

// queryRows runs query and reads each of its rows into a T with scan, in
// order; the rows are closed when it returns, so the caller may query
// again on the one connection. Its errors are the driver's, unwrapped, for
// the caller to name its operation. No row gives a nil slice.
func queryRows[T any](ctx context.Context, q querier, scan func(*sql.Rows, *T) error, query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := scan(rows, &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
