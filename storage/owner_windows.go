//go:build windows

package storage

import "os"

// fileOwner reports no owner: Windows files are not owned by a uid, and a
// reader's files beside the database are usable by its writer.
func fileOwner(os.FileInfo) (uid, gid int, ok bool) { return 0, 0, false }
