//go:build unix

package outfile

import (
	"errors"
	"os"
	"syscall"
)

// Lock takes an exclusive lock on f without waiting (flock):
// ErrLockHeld if another process holds it. The kernel drops it when the
// process dies.
func Lock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrLockHeld
	}
	return err
}
