package txn

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// hasSyncFS says syncFS works here.
const hasSyncFS = true

// syncFS makes everything written to the file system that holds path
// durable, with one syncfs(2): cheaper than syncing thousands of new files
// one by one, whose syncs each wait for the disk.
//
// Transactions that sync the same file system at the same time share the
// call (syncGroup): what each wrote before its call is durable when it
// returns.
func syncFS(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	dev, ok := deviceOf(st)
	if !ok {
		return unix.Syncfs(int(f.Fd()))
	}
	return groupOf(dev).sync(func() error { return unix.Syncfs(int(f.Fd())) })
}

// deviceOf is the file system a file is on.
func deviceOf(st os.FileInfo) (uint64, bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(s.Dev), true
}
