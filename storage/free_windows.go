//go:build windows

package storage

import (
	"fmt"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// FreeSpace returns the bytes the caller may still write on the volume
// that holds the file path (which need not exist yet).
func FreeSpace(path string) (int64, error) {
	dir := filepath.Dir(path)
	name, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return 0, fmt.Errorf("free space of %s: %w", dir, err)
	}
	var free uint64
	if err := windows.GetDiskFreeSpaceEx(name, &free, nil, nil); err != nil {
		return 0, fmt.Errorf("free space of %s: %w", dir, err)
	}
	return int64(free), nil
}
