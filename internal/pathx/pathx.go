// Package pathx is the one home of two path questions every package asks:
// is this path inside that folder, and how is a path shown to the user.
//
// filepath.Rel answers ".." or "../x" for a path outside a folder, and a
// name such as "..x" or "..." for a path inside it: testing the answer with
// strings.HasPrefix(rel, "..") takes such a folder for the outside.
package pathx

import (
	"os"
	"path/filepath"
	"strings"
)

// Rel returns path relative to dir, cleaned, and whether path is dir itself
// or lies below it. Both are taken as written (no symlinks are resolved);
// an absolute path against a relative dir, or the reverse, is outside.
func Rel(dir, path string) (string, bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// Within reports whether path is dir or lies below it.
func Within(path, dir string) bool {
	_, ok := Rel(dir, path)
	return ok
}

// WithinClean is Within for paths already clean and absolute, as the move
// and the transaction keep them: a comparison of whole names, without
// allocating (/a/..x is inside /a, /ab is not).
func WithinClean(p, dir string) bool {
	if !strings.HasPrefix(p, dir) {
		return false
	}
	return len(p) == len(dir) || p[len(dir)] == filepath.Separator || strings.HasSuffix(dir, string(filepath.Separator))
}

// Under returns path relative to dir with forward slashes when path lies
// strictly below dir (not dir itself).
func Under(dir, path string) (string, bool) {
	rel, ok := Rel(dir, path)
	if !ok || rel == "." {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// Display is how a path is shown: relative to the working directory when it
// lies inside it, else as given (absolute paths stay absolute).
func Display(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(wd, p)
	}
	if rel, ok := Rel(wd, abs); ok {
		return rel
	}
	return p
}
