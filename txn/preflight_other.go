//go:build !unix

package txn

// writable cannot be asked here: the write itself says.
func writable(dir string) error { return nil }

// freeSpace cannot be asked here.
func freeSpace(path string) (int64, bool) { return 0, false }
