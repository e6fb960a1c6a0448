//go:build windows

package outfile

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// Lock takes an exclusive lock without waiting (LockFileEx) on one
// byte of f at an offset no database reaches (2^62), so that the lock,
// mandatory on Windows, never blocks a read or one of SQLite's own locks
// (near 2^30): ErrLockHeld if another process holds it. Windows drops it
// when the process dies.
func Lock(f *os.File) error {
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY,
		0, 1, 0, &windows.Overlapped{OffsetHigh: 1 << 30})
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return ErrLockHeld
	}
	return err
}
