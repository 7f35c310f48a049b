package project

import (
	"path/filepath"
	"strings"
)

// Within reports whether p is dir or lies inside it; both clean and
// absolute.
func Within(p, dir string) bool {
	if !strings.HasPrefix(p, dir) {
		return false
	}
	return len(p) == len(dir) || p[len(dir)] == filepath.Separator || strings.HasSuffix(dir, string(filepath.Separator))
}

// realRoot is dir with its symlinks resolved, or dir when it cannot be.
func realRoot(dir string) string {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return dir
}
