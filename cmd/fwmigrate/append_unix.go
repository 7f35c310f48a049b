//go:build unix

package main

import (
	"os"
	"syscall"
)

// openAppendNoFollow opens path to append, created when missing: never
// through a symlink (O_NOFOLLOW fails on one), and without waiting for a
// reader when it is a FIFO (O_NONBLOCK). The caller checks that it is a
// regular file before writing.
func openAppendNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
}
