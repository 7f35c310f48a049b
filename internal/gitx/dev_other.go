//go:build !unix

package gitx

import "os"

// deviceOf is unknown here: Repos asks git for every directory.
func deviceOf(os.FileInfo) (uint64, bool) { return 0, false }
