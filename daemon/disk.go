package daemon

import (
	"context"
	"fmt"
	"os"
	"time"

	"evolved/positions"
	"evolved/storage"
)

// diskCheckInterval is how often a paused daemon looks at the disk again.
const diskCheckInterval = 10 * time.Second

// freeDisk returns the bytes an unprivileged process may still write on
// the file system that holds the database.
func (d *Daemon) freeDisk() (int64, error) {
	free, err := storage.FreeSpace(d.db.Path())
	if err != nil {
		return 0, fmt.Errorf("daemon: %w", err)
	}
	return free, nil
}

// waitForDisk returns once the database's file system has more than
// jobs.min_free_mb free, checking every diskCheckInterval: a daemon short
// of disk pauses between generations, with a warning in the log and in
// systemd's status, instead of failing a commit or crashing into a restart
// loop, and goes on by itself once space is freed. The watchdog is fed
// while it waits: a pause is not a hang. It returns the context's error
// when stopped.
func (d *Daemon) waitForDisk(ctx context.Context, game string) error {
	warned := false
	for {
		minFree := int64(d.config().Jobs.MinFreeMB) << 20
		free, err := d.freeDisk()
		if err != nil || minFree == 0 || free >= minFree {
			if err != nil {
				d.log.Warn("cannot read the free disk space; evolving on", "err", err)
			} else if warned {
				d.log.Info("disk space freed; evolution resumes", "game", game, "free", storage.FormatBytes(free))
			}
			return nil
		}
		if !warned {
			d.log.Warn("disk nearly full: evolution paused before the next generation until space is freed",
				"game", game, "db", d.db.Path(), "free", storage.FormatBytes(free), "min_free_mb", minFree>>20)
			d.notifier.Notify(fmt.Sprintf("STATUS=paused: %s free on the database's disk, below min_free_mb = %d", storage.FormatBytes(free), minFree>>20))
			warned = true
		}
		d.beat()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(diskCheckInterval):
		}
	}
}

// checkBackupSpace refuses a backup that would leave less than
// jobs.min_free_mb free: a copy needs about the database's size, and at
// most the position stores' (their unchanged segments are linked).
func (d *Daemon) checkBackupSpace(ctx context.Context) error {
	minFree := int64(d.config().Jobs.MinFreeMB) << 20
	if minFree == 0 {
		return nil
	}
	size, err := d.db.Size(ctx)
	if err != nil {
		return err
	}
	for _, game := range d.config().Games {
		size.Bytes += dirBytes(positions.DirBeside(d.db.Path(), game))
	}
	free, err := d.freeDisk()
	if err != nil {
		return err
	}
	if free-size.Bytes < minFree {
		return fmt.Errorf("backup: skipped: a copy of %s would leave %s free on the disk, below min_free_mb = %d",
			storage.FormatBytes(size.Bytes), storage.FormatBytes(free-size.Bytes), minFree>>20)
	}
	return nil
}

// dirBytes returns the bytes of the files in dir (0 when there is none).
func dirBytes(dir string) int64 {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	var n int64
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
	}
	return n
}
