//go:build unix

package txn

import (
	"errors"
	"io/fs"

	"golang.org/x/sys/unix"
)

// writable reports whether this process may create and remove entries in
// the folder dir (access(2) with W_OK|X_OK: the real rights, root's too).
// A folder that does not exist is not this check's to report.
func writable(dir string) error {
	err := unix.Access(dir, unix.W_OK|unix.X_OK)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// freeSpace is the room the file system holding path gives this process.
func freeSpace(path string) (int64, bool) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
