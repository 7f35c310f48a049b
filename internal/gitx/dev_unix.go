//go:build unix

package gitx

import (
	"os"
	"syscall"
)

// deviceOf is the file system a file is on.
func deviceOf(st os.FileInfo) (uint64, bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(s.Dev), true
}
