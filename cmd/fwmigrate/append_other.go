//go:build !unix

package main

import (
	"fmt"
	"os"
)

// openAppendNoFollow opens path to append, created when missing, and not
// when it is a symlink (checked before the open: there is no O_NOFOLLOW
// here). The caller checks that it is a regular file before writing.
func openAppendNoFollow(path string) (*os.File, error) {
	if st, err := os.Lstat(path); err == nil && st.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is a symlink: nothing written", path)
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
}
