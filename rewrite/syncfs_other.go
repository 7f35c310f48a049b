//go:build !linux

package rewrite

import "errors"

// HasSyncFS says SyncFS works here.
const HasSyncFS = false

// SyncFS is syncfs(2), which only Linux has: elsewhere it returns
// errors.ErrUnsupported, and callers sync each file instead.
func SyncFS(path string) error { return errors.ErrUnsupported }
