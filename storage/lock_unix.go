//go:build unix

package storage

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on f without waiting (flock):
// errLockHeld if another process holds it. The kernel drops it when the
// process dies.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLockHeld
	}
	return err
}
