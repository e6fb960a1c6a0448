//go:build unix

package storage

import (
	"fmt"
	"path/filepath"
	"syscall"
)

// FreeSpace returns the bytes an unprivileged process may still write on
// the file system that holds the file path (which need not exist yet).
func FreeSpace(path string) (int64, error) {
	var fs syscall.Statfs_t
	dir := filepath.Dir(path)
	if err := syscall.Statfs(dir, &fs); err != nil {
		return 0, fmt.Errorf("free space of %s: %w", dir, err)
	}
	return int64(fs.Bavail) * int64(fs.Bsize), nil
}
