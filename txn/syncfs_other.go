//go:build !linux

package txn

import (
	"errors"
	"os"
)

// hasSyncFS says syncFS works here.
const hasSyncFS = false

// syncFS is syncfs(2), which only Linux has: elsewhere it returns
// errors.ErrUnsupported, and the steps sync each file instead.
func syncFS(path string) error { return errors.ErrUnsupported }

// deviceOf is not needed where there is no syncFS.
func deviceOf(os.FileInfo) (uint64, bool) { return 0, false }
