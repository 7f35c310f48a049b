package txn

import (
	"os"
	"syscall"
	"testing"
)

// TestRunRecordNoBlock: on the file systems that keep a short link's
// target in its inode, the run record takes no data block once it is on
// the disk, so that removing it waits for no discard.
func TestRunRecordNoBlock(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	var fs syscall.Statfs_t
	must(t, syscall.Statfs(state, &fs))
	switch fs.Type {
	case 0xef53, 0x58465342, 0x9123683e: // ext4, XFS, btrfs
	default:
		t.Skipf("file system %#x: not one that keeps a short link's target in its inode", fs.Type)
	}
	root := t.TempDir()
	placed(t, root)
	rec, err := runRecord(root)
	must(t, err)
	must(t, OS.SyncFS(state))
	st, err := os.Lstat(rec)
	must(t, err)
	if b := st.Sys().(*syscall.Stat_t).Blocks; b != 0 {
		t.Errorf("the run record takes %d blocks of 512 bytes", b)
	}
}
