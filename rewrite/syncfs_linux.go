package rewrite

import (
	"os"

	"golang.org/x/sys/unix"
)

// HasSyncFS says SyncFS works here.
const HasSyncFS = true

// SyncFS makes everything written to the file system that holds path
// durable, with one syncfs(2): cheaper than syncing thousands of new files
// one by one, whose syncs each wait for the disk.
func SyncFS(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}
