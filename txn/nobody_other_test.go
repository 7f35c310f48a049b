//go:build !linux

package txn

import "syscall"

// nobodyAttr: asNobody skips the test before it is used.
func nobodyAttr() *syscall.SysProcAttr { return nil }
