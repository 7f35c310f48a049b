package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// JournalDir is the directory under a project's root where apply keeps the
// journal of its writes while it writes (package migrate); JournalFile is
// the journal in it. A journal found there is an apply that was
// interrupted: Project.Journal.
const (
	JournalDir  = ".fw-migrate"
	JournalFile = "journal"
)

// Within reports whether p is dir or lies inside it; both clean and
// absolute.
func Within(p, dir string) bool {
	if !strings.HasPrefix(p, dir) {
		return false
	}
	return len(p) == len(dir) || p[len(dir)] == filepath.Separator || strings.HasSuffix(dir, string(filepath.Separator))
}

// Confined returns an error unless path lies inside root once symlinks
// are resolved: the directory holding it, resolved as far as it exists, is
// root or below it. The entry itself is not followed (a symlink that apply
// moves is moved as the link). root is absolute with symlinks resolved.
func Confined(root, path string) error {
	return NewConfiner(root).Check(path)
}

// Confiner checks many paths against one root, resolving each directory
// once.
type Confiner struct {
	root string
	dirs map[string]string // directory -> resolved, "" when it resolves outside
}

// NewConfiner returns a Confiner for root (absolute, symlinks resolved).
func NewConfiner(root string) *Confiner {
	return &Confiner{root: filepath.Clean(root), dirs: map[string]string{}}
}

// Check is Confined for c's root.
func (c *Confiner) Check(path string) error {
	if !filepath.IsAbs(path) || !Within(filepath.Clean(path), c.root) {
		return fmt.Errorf("%s lies outside the project %s", path, c.root)
	}
	dir, err := c.resolve(filepath.Dir(filepath.Clean(path)))
	if err != nil {
		return err
	}
	if !Within(dir, c.root) {
		return fmt.Errorf("%s lies outside the project %s: %s resolves to %s", path, c.root, filepath.Dir(path), dir)
	}
	return nil
}

// resolve resolves the symlinks of dir as far as it exists; the missing
// rest is joined as it is.
func (c *Confiner) resolve(dir string) (string, error) {
	if r, ok := c.dirs[dir]; ok {
		return r, nil
	}
	real, err := filepath.EvalSymlinks(dir)
	if errors.Is(err, fs.ErrNotExist) {
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", err
		}
		p, err := c.resolve(parent)
		if err != nil {
			return "", err
		}
		real = filepath.Join(p, filepath.Base(dir))
	} else if err != nil {
		return "", err
	}
	c.dirs[dir] = real
	return real, nil
}

// realRoot is dir with its symlinks resolved, or dir when it cannot be.
func realRoot(dir string) string {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return real
	}
	return dir
}

// journalAt returns the journal an interrupted apply left under root, or "".
func journalAt(root string) string {
	p := filepath.Join(root, JournalDir, JournalFile)
	if _, err := os.Lstat(p); err == nil {
		return p
	}
	return ""
}
