package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"evolved/storage"
)

// checkCommand implements `evolved check`: SQLite's full integrity check
// and the check of the genomes' lineage, beside a running daemon.
func checkCommand(fs *flag.FlagSet) action {
	dbPath := dbFlag(fs, "the database `FILE`")
	setHelp(fs, help{
		usage: []string{"[--db FILE]"},
		about: `Checks a database: SQLite's full integrity check, then every genome kept whole that
others are rebuilt from, naming each missing or damaged one with the champions it takes
down. Exits 1 when anything is wrong. It reads the database beside a running daemon.`,
	})
	return func(ctx context.Context, _ io.Reader, stdout, _ io.Writer) error {
		if fs.NArg() > 0 {
			return usagef("check: unexpected argument %q", fs.Arg(0))
		}
		db, err := openReader(ctx, *dbPath)
		if err != nil {
			return fmt.Errorf("check: %w", err)
		}
		defer db.Close()
		if err := db.CheckIntegrity(ctx); err != nil {
			return fmt.Errorf("check: %w", err)
		}
		fmt.Fprintln(stdout, "integrity: ok (SQLite's full check)")
		counts, err := db.CountGenomes(ctx)
		if err != nil {
			return fmt.Errorf("check: %w", err)
		}
		fmt.Fprintf(stdout, "genomes: %d: %d whole (%s, %d of them keyframes), %d rebuilt from their lineage (at most %d operations from whole weights), %d dropped for good\n",
			counts.Genomes, counts.Whole, storage.FormatBytes(counts.WholeBytes), counts.Keyframes, counts.Rebuilt, counts.Deepest, counts.Dropped)
		problems, err := db.CheckLineage(ctx)
		if err != nil {
			return fmt.Errorf("check: %w", err)
		}
		if len(problems) == 0 {
			fmt.Fprintln(stdout, "lineage: ok (every genome kept whole reads back)")
			return nil
		}
		for _, p := range problems {
			fmt.Fprintf(stdout, "lineage: %v\n", p)
		}
		return fmt.Errorf("check: %w: %d genomes kept whole are missing or damaged (listed above)", storage.ErrLineage, len(problems))
	}
}
