package migrate

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/internal/gitx"
)

// patchBase is the directory the paths of a patch are relative to, so
// that `fwmigrate apply --dry-run | git apply` works wherever it runs: in a
// git work tree its top (git apply reads a patch's paths from there, as
// git diff writes them, even in a subdirectory), else the working
// directory (for git apply outside a repository, and patch -p1). The top
// is found from the working directory and git's prefix for it, so that it
// is spelled as the working directory is (through the same symlinks). git
// runs as gitx runs it, and not at all where no .git is above, or where a
// folder on the way looks like a git directory (apply refuses it).
func patchBase() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	real, err := filepath.EvalSymlinks(wd)
	if err != nil {
		return wd
	}
	top := gitx.Top(real)
	if top == "" || gitx.Embedded(real, top) != "" {
		return wd
	}
	cmd := gitx.Command(wd, top, "rev-parse", "--show-prefix")
	out, err := cmd.Output()
	if err != nil {
		return wd // not in a work tree, or no git
	}
	base := wd
	if prefix := strings.Trim(strings.TrimSpace(string(out)), "/"); prefix != "" {
		for range strings.Split(prefix, "/") {
			base = filepath.Dir(base)
		}
	}
	return base
}

// diffPath is the path a diff names for the file at path: relative to
// base (patchBase).
func diffPath(base, path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		if rel, err := filepath.Rel(base, abs); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(path)
}
