package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"time"
)

// Retention says how much of its past a run keeps. What it drops is what
// grows without bound: old game records, the weights of genomes that can
// be rebuilt from their lineage (see lineage.go) or that nothing reads
// back, and old populations with the rows of genomes that matter to
// nothing later. Every generation's summary and baseline results, the
// champions' and their ancestors' genome rows with their lineage, and the
// weights of the current population and of the keyframes are kept
// forever, so every champion exports, and every run resumes, exactly as
// before.
type Retention struct {
	// Games is how many of the latest played generations keep their game
	// records; older generations' games are deleted. Negative keeps all.
	Games int
	// Genomes is how many generations before the current population keep
	// their members' genomes; an older genome is dropped unless its agent
	// is still a member, a keyframe, or (bred before lineage storage, or
	// with Keyframes 0) a champion. Negative keeps all.
	Genomes int
	// GenomeBytes, when positive, narrows the Genomes window for large
	// genomes: it keeps at most this many bytes of whole genomes a run,
	// a generation counting its population's size times its largest
	// genome. A perspective net's 791 KB genomes keep 2 generations in
	// 32 MiB where a narrow chess net's 100 KB ones keep their 10, so a
	// wide run's database does not begin with 100 MB of recent genomes.
	// The window is a run's own (its genomes' size and population do not
	// change), at least 1 generation.
	GenomeBytes int64
	// Keyframes bounds the work of rebuilding a genome: a genome bred
	// Keyframes operations away from the nearest kept ancestor keeps its
	// weights if it has children, so no dropped genome is more than
	// Keyframes operations from kept weights. 0 keeps every champion's
	// weights and rebuilds nothing, as before lineage storage.
	Keyframes int
	// Members is how many generations before the current population keep
	// their populations (members), their ladder results, and the rows of
	// their genomes that matter to nothing later: never champions, with
	// no genome bred from them. Older ones are deleted; a generation's
	// summary (generations), its champion and every genome something was
	// bred from stay. It never reaches a genome whose keeping is not yet
	// decided. Negative keeps all.
	Members int
	// MembersChunk bounds how many generations' populations one commit
	// (or one Prune) deletes, so that a database without a members window
	// before catches up a little at a time, not in one transaction that
	// rewrites a large part of the file; 0 is DefaultMembersChunk.
	MembersChunk int
}

// DefaultMembersChunk is Retention.MembersChunk's default.
const DefaultMembersChunk = 200

// DefaultKeyframes is Retention.Keyframes of the daemon's default.
const DefaultKeyframes = 400

// KeepEverything returns the Retention that drops nothing.
func KeepEverything() Retention { return Retention{Games: -1, Genomes: -1, Members: -1} }

// Pruned counts what a prune dropped.
type Pruned struct {
	Games   int64 `json:"games"`
	Genomes int64 `json:"genomes"`
	// Members counts the deleted members, with the genome rows deleted
	// with them (Retention.Members).
	Members int64 `json:"members"`
}

// Prune applies keep to every run in the database and returns what it
// dropped. CommitGeneration applies it to each generation as it commits;
// Prune catches up with everything older, as when a database written
// before retention existed, or a smaller keep, is first used.
func (d *DB) Prune(ctx context.Context, keep Retention) (Pruned, error) {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return Pruned{}, fmt.Errorf("prune %s: %w", d.path, err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, "SELECT game, max(generation) FROM generations GROUP BY game")
	if err != nil {
		return Pruned{}, fmt.Errorf("prune %s: %w", d.path, err)
	}
	type run struct {
		game   string
		latest int
	}
	var runs []run
	for rows.Next() {
		var r run
		if err := rows.Scan(&r.game, &r.latest); err != nil {
			rows.Close()
			return Pruned{}, fmt.Errorf("prune %s: %w", d.path, err)
		}
		runs = append(runs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Pruned{}, fmt.Errorf("prune %s: %w", d.path, err)
	}
	var total Pruned
	for _, r := range runs {
		p, err := prune(ctx, tx, r.game, r.latest, keep, false)
		if err != nil {
			return Pruned{}, fmt.Errorf("prune %s %s: %w", d.path, r.game, err)
		}
		total.Games += p.Games
		total.Genomes += p.Genomes
		total.Members += p.Members
	}
	if err := tx.Commit(); err != nil {
		return Pruned{}, fmt.Errorf("prune %s: %w", d.path, err)
	}
	return total, nil
}

// prune applies keep to game's run after generation latest was played.
// With only set, it drops just what generation latest's commit moved out
// of the windows (the generation that left each), which costs a few index
// look-ups; otherwise everything older too.
func prune(ctx context.Context, tx *sql.Tx, game string, latest int, keep Retention, only bool) (Pruned, error) {
	var p Pruned
	cmp := "<="
	if only {
		cmp = "="
	}
	if keep.Games >= 0 {
		res, err := tx.ExecContext(ctx, "DELETE FROM games WHERE game = ? AND generation "+cmp+" ?", game, latest-keep.Games)
		if err != nil {
			return p, fmt.Errorf("games: %w", err)
		}
		p.Games, _ = res.RowsAffected()
	}
	if keep.Genomes >= 0 {
		window, err := genomeWindow(ctx, tx, game, latest, keep)
		if err != nil {
			return p, err
		}
		// The population waiting to play is generation latest+1; the
		// members of the generations after cutoff keep their genomes.
		cutoff := latest - window
		// Genomes bred before lineage storage (no lineage row) keep
		// the old rule, and their weights while a genome bred since
		// names them as a parent.
		rows, err := tx.QueryContext(ctx, `SELECT agent_id FROM genomes
			WHERE game = ?1 AND genome IS NOT NULL
			  AND agent_id IN (SELECT agent_id FROM `+membersByGeneration("members")+` WHERE game = ?1 AND generation `+cmp+` ?2)
			  AND NOT EXISTS (SELECT 1 FROM members m WHERE m.game = ?1 AND m.agent_id = genomes.agent_id AND m.generation > ?2)
			  AND NOT EXISTS (SELECT 1 FROM generations g WHERE g.game = ?1 AND g.champion_id = genomes.agent_id)
			  AND NOT EXISTS (SELECT 1 FROM lineage l WHERE l.game = ?1 AND l.agent_id = genomes.agent_id)
			  AND NOT `+bredFrom("genomes.agent_id"),
			game, cutoff)
		if err != nil {
			return p, fmt.Errorf("genomes: %w", err)
		}
		var old []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return p, fmt.Errorf("genomes: %w", err)
			}
			old = append(old, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return p, fmt.Errorf("genomes: %w", err)
		}
		for _, id := range old {
			if err := dropWeights(ctx, tx, game, id); err != nil {
				return p, err
			}
		}
		p.Genomes = int64(len(old))
		n, err := decideLineage(ctx, tx, game, cutoff, keep.Keyframes)
		if err != nil {
			return p, err
		}
		p.Genomes += n
	}
	if keep.Members >= 0 && keep.Genomes >= 0 {
		chunk := keep.MembersChunk
		if chunk <= 0 {
			chunk = DefaultMembersChunk
		}
		n, err := pruneMembers(ctx, tx, game, latest-max(keep.Members, keep.Genomes), chunk)
		if err != nil {
			return p, err
		}
		p.Members += n
	}
	return p, nil
}

// genomeWindow returns how many generations before the current population
// keep their members' genomes whole in game's run: keep.Genomes, fewer
// when keep.GenomeBytes says so (see Retention.GenomeBytes), measured on
// generation latest's population.
func genomeWindow(ctx context.Context, tx *sql.Tx, game string, latest int, keep Retention) (int, error) {
	if keep.GenomeBytes <= 0 || keep.Genomes <= 1 {
		return keep.Genomes, nil
	}
	var members, largest int64
	err := tx.QueryRowContext(ctx, `SELECT count(*), coalesce(max(length(g.genome)), 0) FROM members m
		JOIN genomes g ON g.game = m.game AND g.agent_id = m.agent_id WHERE m.game = ? AND m.generation = ?`, game, latest).Scan(&members, &largest)
	if err != nil {
		return 0, fmt.Errorf("genome window: %w", err)
	}
	if generation := members * largest; generation > 0 {
		return int(max(1, min(int64(keep.Genomes), keep.GenomeBytes/generation))), nil
	}
	return keep.Genomes, nil
}

// pruneMembers deletes the members and ladder results of game's
// generations up to cut, and the genome and lineage rows of the agents
// that leave with them and matter to nothing later: decided, never a
// champion, nothing bred from them, no member of a later generation. The
// cut stops before the last generation of every genome not yet decided
// (one that left the population while a parent stayed), whose decision
// reads its members of that generation and those of the one after; the
// current population's elites lose their older rows, and carry their
// past in their current ones (past_points, past_games). Every call deletes everything up to the cut, so a cut held back
// for a while catches up at once; the rows below it are gone already, so
// the ranges it deletes are short.
func pruneMembers(ctx context.Context, tx *sql.Tx, game string, cut, chunk int) (int64, error) {
	var undecided sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT min((SELECT max(m.generation) FROM members m WHERE m.game = l.game AND m.agent_id = l.agent_id))
		FROM lineage l INDEXED BY lineage_undecided WHERE l.game = ? AND l.depth IS NULL`, game).Scan(&undecided); err != nil {
		return 0, fmt.Errorf("members: %w", err)
	}
	if undecided.Valid {
		cut = min(cut, int(undecided.Int64)-1)
	}
	// A database that had no members window (written before it, or with
	// a larger one) catches up chunk generations a commit, so that
	// no single transaction rewrites a large part of the file (and its
	// write-ahead log) at once.
	var first sql.NullInt64
	if err := tx.QueryRowContext(ctx, "SELECT min(generation) FROM "+membersByGeneration("members")+" WHERE game = ?", game).Scan(&first); err != nil {
		return 0, fmt.Errorf("members: %w", err)
	}
	if !first.Valid {
		return 0, nil
	}
	cut = min(cut, int(first.Int64)+chunk-1)
	if cut < 0 {
		return 0, nil
	}
	// The agents leaving, and among them those whose rows go too,
	// found before their members (which bredFrom reads) are deleted.
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT leaving.agent_id FROM `+membersByGeneration("leaving")+`
		JOIN lineage l ON l.game = leaving.game AND l.agent_id = leaving.agent_id
		WHERE leaving.game = ?1 AND leaving.generation <= ?2 AND l.depth IS NOT NULL
		  AND NOT EXISTS (SELECT 1 FROM members later WHERE later.game = ?1 AND later.agent_id = leaving.agent_id AND later.generation > ?2)
		  AND NOT EXISTS (SELECT 1 FROM generations c WHERE c.game = ?1 AND c.champion_id = leaving.agent_id)
		  AND NOT EXISTS (SELECT 1 FROM lineage r WHERE r.game = ?1 AND r.step_of = leaving.agent_id)
		  AND NOT `+bredFrom("leaving.agent_id"), game, cut)
	if err != nil {
		return 0, fmt.Errorf("members: %w", err)
	}
	var gone []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, fmt.Errorf("members: %w", err)
		}
		gone = append(gone, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("members: %w", err)
	}
	res, err := tx.ExecContext(ctx, "DELETE FROM members INDEXED BY sqlite_autoindex_members_1 WHERE game = ? AND generation <= ?", game, cut)
	if err != nil {
		return 0, fmt.Errorf("members: %w", err)
	}
	n, _ := res.RowsAffected()
	if _, err := tx.ExecContext(ctx, "DELETE FROM ladder WHERE game = ? AND generation <= ?", game, cut); err != nil {
		return 0, fmt.Errorf("ladder: %w", err)
	}
	for _, id := range gone {
		if _, err := tx.ExecContext(ctx, "DELETE FROM step_parts WHERE game = ? AND agent_id = ?", game, id); err != nil {
			return 0, fmt.Errorf("step of agent %d: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM learners WHERE game = ? AND agent_id = ?", game, id); err != nil {
			return 0, fmt.Errorf("learner of agent %d: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM lineage WHERE game = ? AND agent_id = ?", game, id); err != nil {
			return 0, fmt.Errorf("lineage of agent %d: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM genomes WHERE game = ? AND agent_id = ?", game, id); err != nil {
			return 0, fmt.Errorf("genome of agent %d: %w", id, err)
		}
	}
	return n + int64(len(gone)), nil
}

// Vacuum returns the database's free pages to the file system (SQLite's
// incremental vacuum) and reports how many bytes the file shrank by.
// Retention frees pages that the next generations reuse; Vacuum, run by the
// prune job, gives back what they will not. It does nothing on a database
// whose incremental vacuum could not be turned on (see AutoVacuum).
func (d *DB) Vacuum(ctx context.Context) (int64, error) {
	before, err := d.Size(ctx)
	if err != nil {
		return 0, err
	}
	// incremental_vacuum returns a row per page it frees: drain them.
	rows, err := d.db.QueryContext(ctx, "PRAGMA incremental_vacuum")
	if err != nil {
		return 0, fmt.Errorf("vacuum %s: %w", d.path, err)
	}
	for rows.Next() {
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("vacuum %s: %w", d.path, err)
	}
	after, err := d.Size(ctx)
	if err != nil {
		return 0, err
	}
	return before.Bytes - after.Bytes, nil
}

// AutoVacuum reports whether the database can give free pages back to the
// file system. Open turns incremental vacuum on in new databases, and in
// older ones with a one-time VACUUM, which needs free disk space the size
// of the database; when that failed, the file reuses its free pages but
// does not shrink, and the next writer's Open tries again.
func (d *DB) AutoVacuum(ctx context.Context) (bool, error) {
	var mode int
	if err := d.db.QueryRowContext(ctx, "PRAGMA auto_vacuum").Scan(&mode); err != nil {
		return false, fmt.Errorf("auto_vacuum of %s: %w", d.path, err)
	}
	return mode == 2, nil
}

// enableAutoVacuum turns incremental vacuum on for a writer, with the
// one-time VACUUM an existing database needs; a failure (most likely a
// full disk) leaves the database as it was, and AutoVacuum says so.
func (d *DB) enableAutoVacuum(ctx context.Context) {
	if on, err := d.AutoVacuum(ctx); err != nil || on {
		return
	}
	if _, err := d.db.ExecContext(ctx, "PRAGMA auto_vacuum = INCREMENTAL"); err != nil {
		return
	}
	d.db.ExecContext(ctx, "VACUUM")
}

// Size is how much disk a database takes.
type Size struct {
	// Bytes is the database file's size (its pages), Free the part of it
	// in free pages that new data reuses or Vacuum gives back, WAL the
	// write-ahead log beside it.
	Bytes int64 `json:"bytes"`
	Free  int64 `json:"free_bytes"`
	WAL   int64 `json:"wal_bytes"`
}

// Size returns the database's size on disk.
func (d *DB) Size(ctx context.Context) (Size, error) {
	var s Size
	if err := d.db.QueryRowContext(ctx, `SELECT p.page_count * s.page_size, f.freelist_count * s.page_size
		FROM pragma_page_count() p, pragma_freelist_count() f, pragma_page_size() s`).Scan(&s.Bytes, &s.Free); err != nil {
		return s, fmt.Errorf("size of %s: %w", d.path, err)
	}
	if info, err := os.Stat(d.sqlName + "-wal"); err == nil {
		s.WAL = info.Size()
	} else if !errors.Is(err, os.ErrNotExist) {
		return s, fmt.Errorf("size of %s: %w", d.path, err)
	}
	return s, nil
}

// Growth is how fast the database grows, from the sizes its generations
// recorded when they were committed.
type Growth struct {
	// BytesPerHour is the growth over Span of wall-clock time, the last
	// hour or as much of it as the generations cover.
	BytesPerHour float64       `json:"bytes_per_hour"`
	Span         time.Duration `json:"span_ns"`
}

// Growth measures the database's growth per hour over the last hour of
// committed generations (of every game). It reports ok false when they
// span less than a minute, or the database records no sizes yet.
func (d *DB) Growth(ctx context.Context) (g Growth, ok bool, err error) {
	var last sql.NullString
	var lastBytes sql.NullInt64
	if err := d.db.QueryRowContext(ctx, `SELECT created_at, db_bytes FROM generations WHERE db_bytes IS NOT NULL
		ORDER BY created_at DESC LIMIT 1`).Scan(&last, &lastBytes); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return g, false, nil
		}
		return g, false, fmt.Errorf("growth of %s: %w", d.path, err)
	}
	end, err := time.Parse(timeFormat, last.String)
	if err != nil {
		return g, false, fmt.Errorf("growth of %s: created_at %q: %w", d.path, last.String, err)
	}
	var first string
	var firstBytes int64
	if err := d.db.QueryRowContext(ctx, `SELECT created_at, db_bytes FROM generations WHERE db_bytes IS NOT NULL
		AND created_at >= ? ORDER BY created_at LIMIT 1`, end.Add(-time.Hour).Format(timeFormat)).Scan(&first, &firstBytes); err != nil {
		return g, false, fmt.Errorf("growth of %s: %w", d.path, err)
	}
	start, err := time.Parse(timeFormat, first)
	if err != nil {
		return g, false, fmt.Errorf("growth of %s: created_at %q: %w", d.path, first, err)
	}
	g.Span = end.Sub(start)
	if g.Span < time.Minute {
		return g, false, nil
	}
	g.BytesPerHour = float64(lastBytes.Int64-firstBytes) / g.Span.Hours()
	return g, true, nil
}

// FormatBytes writes a byte count for people, in powers of 1024:
// "512 B", "33.0 KiB", "1.25 GiB". Negative counts keep their sign.
func FormatBytes(n int64) string {
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	if n < 1024 {
		return fmt.Sprintf("%s%d B", sign, n)
	}
	v := float64(n)
	for _, unit := range []string{"KiB", "MiB", "GiB", "TiB"} {
		v /= 1024
		if v < 1024 || unit == "TiB" {
			if v < 10 {
				return fmt.Sprintf("%s%.2f %s", sign, v, unit)
			}
			return fmt.Sprintf("%s%.1f %s", sign, v, unit)
		}
	}
	panic("unreachable")
}
