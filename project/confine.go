package project

import (
	"path/filepath"

	"github.com/fwmigrate/fwmigrate/internal/pathx"
)

// Within reports whether p is dir or lies inside it; both clean and
// absolute (pathx.WithinClean).
func Within(p, dir string) bool { return pathx.WithinClean(p, dir) }

// realRoot is dir with its symlinks resolved, or dir when it cannot be.
func realRoot(dir string) string {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return dir
}
