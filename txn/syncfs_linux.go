package txn

import (
	"os"

	"golang.org/x/sys/unix"
)

// hasSyncFS says syncFS works here.
const hasSyncFS = true

// syncFS makes everything written to the file system that holds path
// durable, with one syncfs(2): cheaper than syncing thousands of new files
// one by one, whose syncs each wait for the disk.
func syncFS(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}
