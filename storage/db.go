// Package storage keeps evolved's runs in an SQLite database (the pure-Go
// modernc.org/sqlite driver, no cgo): every generation, its population,
// games, champion, ladder and baselines, written in one transaction, so a
// killed daemon loses at most the generation it was playing. It is the only
// package that speaks SQL. The tables are its own business; the views
// champion_history and generation_summary are the public interface.
package storage

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"evolved/outfile"
)

// Errors that Open returns, wrapped with the file name and details.
var (
	// ErrNotEvolved means the file is not an evolved database: not SQLite
	// at all, or SQLite with other tables. It is never written to.
	ErrNotEvolved = errors.New("storage: not an evolved database")
	// ErrCorrupt means SQLite's integrity check failed.
	ErrCorrupt = errors.New("storage: database is corrupt")
	// ErrTooNew means the database was written by a newer evolved whose
	// schema this build does not know.
	ErrTooNew = errors.New("storage: database is newer than this evolved")
	// ErrLocked means another process (a running daemon) holds the database.
	ErrLocked = errors.New("storage: database is in use by another evolved process")
	// ErrNoDatabase means a read-only open found no database file.
	ErrNoDatabase = errors.New("storage: no database")
	// ErrOtherName means the file has another name (a hard link, or the
	// name it had before it was moved) whose write-ahead log Open may
	// neither replay nor drop: the error names it and says what to do.
	ErrOtherName = errors.New("storage: the database's log is under another name")
)

// DB is an open evolved database. Its methods are safe for concurrent use
// (database/sql serialises them on one connection for a writer).
type DB struct {
	db       *sql.DB
	path     string // the name the database was opened by, for messages
	sqlName  string // the name SQLite opened, beside which its log lies (resolveName)
	readOnly bool
	beside   bool     // opened with Options.Beside
	lock     *os.File // the flock held by a writer, released by Close
}

// Options says how to open a database.
type Options struct {
	// ReadOnly opens an existing database without writing to it and
	// without taking the writer's lock, for status queries while the
	// daemon runs. A reader needs the write-ahead log and its index beside
	// the database; when no writer left them, Open creates them empty as
	// a writer would (the database's owner, its mode plus the owner's
	// write), so that they never stop the daemon from opening the file.
	// A reader that is neither root nor the file's owner cannot do that:
	// it reads the file as it is when opened (SQLite's immutable mode),
	// which is all there is when no writer runs.
	ReadOnly bool
	// SkipCheck skips the integrity check that a writer runs on open.
	SkipCheck bool
	// Beside opens an existing database for a few short writes beside the
	// daemon that may be writing to it (evolved rate storing a rating):
	// without the writer's lock, which is there to refuse a second
	// daemon, and without the writer's integrity check, schema upgrade or
	// any change to the file's settings. Each write waits for the
	// daemon's transaction to end (the busy timeout) and commits on its
	// own. The database must have been opened by a writer of this build's
	// schema before (it is in WAL mode, its schema current); a user who
	// cannot make its log files as their owner would is refused, as a
	// reader would be left to read the file as it is.
	Beside bool
}

// Open opens the evolved database at path, creating it (and nothing else)
// when it does not exist and ReadOnly is false. A writer takes an exclusive
// lock on the database file itself for as long as the DB is open, so that
// a second daemon is refused instead of interleaving its generations,
// whatever name it reaches the file by (a hard link or a symbolic link is
// the same file). Only a regular file is opened (a FIFO or a device is
// refused without being read, which could block); a file that is not an
// evolved database, or is corrupt, is refused before anything is written
// to it, and left as it was. A file with several names is opened through
// the one its last writer used, so that the log of a killed daemon is
// replayed whichever name the next one is given (resolveName).
func Open(ctx context.Context, path string, opts Options) (*DB, error) {
	info, statErr := os.Stat(path)
	exists := statErr == nil
	switch {
	case statErr != nil && !errors.Is(statErr, os.ErrNotExist):
		return nil, fmt.Errorf("open %s: %w", path, statErr)
	case exists && !info.Mode().IsRegular():
		return nil, fmt.Errorf("open %s: %w: it is %s, not a regular file", path, ErrNotEvolved, describeMode(info.Mode()))
	case !exists && (opts.ReadOnly || opts.Beside):
		return nil, fmt.Errorf("open %s: %w (start one with `evolved run`)", path, ErrNoDatabase)
	}
	walMode := false
	if exists && info.Size() > 0 {
		var err error
		if walMode, err = checkHeader(path); err != nil {
			return nil, err
		}
	}
	if opts.Beside && !walMode {
		return nil, fmt.Errorf("open %s: %w: no writer has opened it yet (start one with `evolved run`)", path, ErrNoDatabase)
	}
	d := &DB{path: path, readOnly: opts.ReadOnly, beside: opts.Beside}
	if !opts.ReadOnly && !opts.Beside {
		if err := d.takeLock(); err != nil {
			return nil, err
		}
	}
	// The file exists now (a writer's lock creates it).
	name, err := resolveName(ctx, path)
	if err != nil {
		d.releaseLock()
		return nil, err
	}
	d.sqlName = name
	source := dsn(d.sqlName, opts.ReadOnly)
	if (opts.ReadOnly || opts.Beside) && walMode {
		immutable, err := readerFiles(d.sqlName)
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
		if immutable && opts.Beside {
			return nil, fmt.Errorf("open %s: %w: this user may not write beside its writer (its log files are missing, and only their owner or root may make them)",
				path, fs.ErrPermission)
		}
		if immutable {
			source += "&immutable=1"
		}
	}
	db, err := sql.Open("sqlite", source)
	if err != nil {
		d.releaseLock()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	d.db = db
	if !opts.ReadOnly {
		db.SetMaxOpenConns(1) // one writer connection: transactions never contend
	}
	if err := d.prepare(ctx, opts); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// dsn returns the connection string: a busy timeout so that readers wait
// instead of failing, foreign keys on, and for a writer synchronous=FULL
// so that a committed generation survives even a power cut and a bounded
// WAL file. None of these writes to the file: WAL mode and incremental
// vacuum, which do, are set by prepare once the file has passed its
// checks.
func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	if readOnly {
		q.Add("mode", "ro")
	} else {
		q.Add("_pragma", "synchronous(FULL)")
		// Truncate the write-ahead log to 64 MiB after a checkpoint, so a
		// large transaction does not leave a large file behind.
		q.Add("_pragma", "journal_size_limit(67108864)")
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// describeMode names the kind of a file that is not a regular one.
func describeMode(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a block device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file (" + m.String() + ")"
}

// sqliteMagic starts every SQLite database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// checkHeader refuses a non-empty file that is not SQLite, and reports
// whether the file is in WAL mode (its read and write versions, bytes 18
// and 19, are 2).
func checkHeader(path string) (walMode bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return false, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	head := make([]byte, sqliteHeaderSize)
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head[:len(sqliteMagic)], sqliteMagic) {
		return false, fmt.Errorf("open %s: %w: not an SQLite file (refusing to touch it)", path, ErrNotEvolved)
	}
	// A damaged header (the payload fractions every SQLite file has at
	// bytes 21-23) is corruption, not another program's file.
	if head[21] != 64 || head[22] != 32 || head[23] != 32 {
		return false, fmt.Errorf("open %s: %w: the SQLite header is damaged (payload fractions %d, %d, %d; want 64, 32, 32)",
			path, ErrCorrupt, head[21], head[22], head[23])
	}
	// Another program's database: its application id, or with none a
	// schema (the schema cookie counts every change to it). Read here,
	// before SQLite opens the file in WAL mode, which would rewrite its
	// header. A file whose last changes are still in its write-ahead log
	// can show an older header; prepare checks again through SQLite.
	appID, cookie := binary.BigEndian.Uint32(head[68:72]), binary.BigEndian.Uint32(head[40:44])
	if appID != applicationID && (appID != 0 || cookie != 0) {
		return false, fmt.Errorf("open %s: %w: an SQLite database of another program (application id %#x, schema cookie %d; refusing to touch it)",
			path, ErrNotEvolved, appID, cookie)
	}
	return head[18] == 2 && head[19] == 2, nil
}

// sqliteHeaderSize is the size of an SQLite database file's header.
const sqliteHeaderSize = 100

// takeLock takes the writer's lock on the database file itself (created
// empty when missing, which SQLite then makes a database), failing at
// once if another process holds it. The lock belongs to the file, not to
// its name, so a hard link or a symbolic link to it is refused too. It is
// not one of SQLite's own locks (flock, not fcntl, on Unix; a byte far
// beyond SQLite's on Windows), so it does not disturb them, and the
// kernel drops it when the process dies: a killed daemon never leaves a
// stale lock behind.
func (d *DB) takeLock() error {
	f, err := os.OpenFile(d.path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("open %s: lock: %w", d.path, err)
	}
	// The name may have been replaced since Open looked at it.
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%w: it is %s, not a regular file", ErrNotEvolved, describeMode(info.Mode()))
		}
		return fmt.Errorf("open %s: %w", d.path, err)
	}
	if err := outfile.Lock(f); err != nil {
		f.Close()
		if errors.Is(err, outfile.ErrLockHeld) {
			return fmt.Errorf("open %s: %w (another process writes to this file, perhaps under another name)", d.path, ErrLocked)
		}
		return fmt.Errorf("open %s: lock: %w", d.path, err)
	}
	d.lock = f
	return nil
}

func (d *DB) releaseLock() {
	if d.lock != nil {
		d.lock.Close()
		d.lock = nil
	}
}

// prepare checks what the file holds and brings its schema up to date.
func (d *DB) prepare(ctx context.Context, opts Options) error {
	var appID, version int
	if err := d.db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return d.openError(err)
	}
	if err := d.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return d.openError(err)
	}
	if appID != applicationID {
		var tables int
		if err := d.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&tables); err != nil {
			return d.openError(err)
		}
		if appID != 0 || tables > 0 {
			return fmt.Errorf("open %s: %w: application id %#x and %d schema objects (refusing to touch it)", d.path, ErrNotEvolved, appID, tables)
		}
		if d.readOnly || d.beside {
			return fmt.Errorf("open %s: %w: empty database", d.path, ErrNoDatabase)
		}
	}
	if version > len(migrations) {
		return fmt.Errorf("open %s: %w: schema version %d, this build knows up to %d", d.path, ErrTooNew, version, len(migrations))
	}
	if !opts.SkipCheck && !d.readOnly && !d.beside && appID == applicationID {
		var result string
		if err := d.db.QueryRowContext(ctx, "PRAGMA quick_check(1)").Scan(&result); err != nil {
			return d.openError(err)
		}
		if result != "ok" {
			return fmt.Errorf("open %s: %w: %s", d.path, ErrCorrupt, result)
		}
	}
	if d.readOnly || d.beside {
		if version < len(migrations) {
			return fmt.Errorf("open %s: schema version %d is older than this build's %d; run `evolved run` once to upgrade it", d.path, version, len(migrations))
		}
		return nil
	}
	// The first writes, now that the file has passed its checks: before
	// the first table of a new database, free pages that can be given
	// back (Vacuum; an older database needs the VACUUM enableAutoVacuum
	// runs), and WAL so that readers never block the writer.
	if _, err := d.db.ExecContext(ctx, "PRAGMA auto_vacuum = INCREMENTAL"); err != nil {
		return d.openError(err)
	}
	var mode string
	if err := d.db.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode); err != nil {
		return d.openError(err)
	}
	if mode != "wal" {
		return fmt.Errorf("open %s: journal mode is %q, want wal", d.path, mode)
	}
	for v := version; v < len(migrations); v++ {
		if err := d.migrate(ctx, v); err != nil {
			return err
		}
	}
	d.enableAutoVacuum(ctx)
	return d.recordName(ctx)
}

// migrate applies migration v+1 in one transaction. A migration that
// rebuilds a table (rebuildsTables) runs with foreign key enforcement off,
// on one pinned connection since the pragma is per connection and a no-op
// inside a transaction, and commits only if foreign_key_check finds
// nothing.
func (d *DB) migrate(ctx context.Context, v int) error {
	fail := func(err error) error { return fmt.Errorf("migrate %s to version %d: %w", d.path, v+1, err) }
	conn, err := d.db.Conn(ctx)
	if err != nil {
		return fail(err)
	}
	defer conn.Close()
	rebuild := rebuildsTables[v+1]
	if rebuild {
		if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
			return fail(err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = ON")
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fail(err)
	}
	defer tx.Rollback()
	stmts := []string{migrations[v], fmt.Sprintf("PRAGMA user_version = %d", v+1)}
	if v == 0 {
		stmts = append(stmts, fmt.Sprintf("PRAGMA application_id = %d", applicationID))
	}
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return fail(err)
		}
	}
	if editsSchema[v+1] {
		if err := bumpSchemaVersion(ctx, tx); err != nil {
			return fail(err)
		}
	}
	if rebuild {
		var table string
		var parent sql.NullString
		var rowid, fk sql.NullInt64
		err := tx.QueryRowContext(ctx, "PRAGMA foreign_key_check").Scan(&table, &rowid, &parent, &fk)
		switch {
		case err == nil:
			return fail(fmt.Errorf("%w: a row of %s (rowid %d) refers to a missing row", ErrCorrupt, table, rowid.Int64))
		case !errors.Is(err, sql.ErrNoRows):
			return fail(err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fail(err)
	}
	return nil
}

// bumpSchemaVersion increments the schema version (the schema cookie)
// after a migration edited sqlite_schema, so that every connection reads
// the schema again, and checks that the database is still sound.
func bumpSchemaVersion(ctx context.Context, tx *sql.Tx) error {
	var version int
	if err := tx.QueryRowContext(ctx, "PRAGMA schema_version").Scan(&version); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA schema_version = %d", version+1)); err != nil {
		return err
	}
	var result string
	if err := tx.QueryRowContext(ctx, "PRAGMA quick_check(1)").Scan(&result); err != nil {
		return err
	}
	if result != "ok" {
		return fmt.Errorf("%w: after editing the schema: %s", ErrCorrupt, result)
	}
	return nil
}

// openError classifies an error from the first queries of a file: SQLite
// reports a damaged file as "file is not a database" or "malformed".
func (d *DB) openError(err error) error {
	msg := err.Error()
	if bytes.Contains([]byte(msg), []byte("not a database")) || bytes.Contains([]byte(msg), []byte("malformed")) {
		return fmt.Errorf("open %s: %w: %v", d.path, ErrCorrupt, err)
	}
	return fmt.Errorf("open %s: %w", d.path, err)
}

// Path returns the database's file name.
func (d *DB) Path() string { return d.path }

// Close closes the database and releases the writer's lock.
func (d *DB) Close() error {
	var err error
	if d.db != nil {
		err = d.db.Close()
	}
	d.releaseLock()
	if err != nil {
		return fmt.Errorf("close %s: %w", d.path, err)
	}
	return nil
}

// CheckIntegrity runs SQLite's full integrity check.
func (d *DB) CheckIntegrity(ctx context.Context) error {
	var result string
	if err := d.db.QueryRowContext(ctx, "PRAGMA integrity_check(1)").Scan(&result); err != nil {
		return fmt.Errorf("check %s: %w", d.path, err)
	}
	if result != "ok" {
		return fmt.Errorf("check %s: %w: %s", d.path, ErrCorrupt, result)
	}
	return nil
}

// Backup writes a consistent copy of the database to path with VACUUM INTO,
// while the daemon keeps writing. The directory must exist; path must not.
func (d *DB) Backup(ctx context.Context, path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("backup %s: %w", d.path, err)
	}
	if _, err := d.db.ExecContext(ctx, "VACUUM INTO ?", abs); err != nil {
		return fmt.Errorf("backup %s to %s: %w", d.path, abs, err)
	}
	return nil
}

// DefaultName is the database the commands use when neither a flag nor
// $EVOLVED_DB (EnvDB) names one, in the working directory.
const DefaultName = "evolved.db"

// EnvDB is the environment variable that names the commands' database in
// place of DefaultName.
const EnvDB = "EVOLVED_DB"

// DefaultPath returns the database the commands use when none is named:
// $EVOLVED_DB if set, else evolved.db in the working directory.
func DefaultPath() string {
	if v, ok := os.LookupEnv(EnvDB); ok && v != "" {
		return v
	}
	return DefaultName
}
