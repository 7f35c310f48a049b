package txn

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fwmigrate/fwmigrate/internal/pathx"
)

// A transaction writes inside its root and nowhere else: Commit checks
// every path of a plan before the journal is written, and Open every path
// of a journal before a step runs, since a journal is a file of the tree
// like any other.

// confine checks that every path plan touches lies inside root, through no
// symlink, and that no edited file is a symlink (the link would be
// replaced by a file).
func confine(root string, plan *Plan) error {
	c := newConfiner(root)
	check := func(paths ...string) error {
		for _, p := range paths {
			if err := c.check(p); err != nil {
				return err
			}
		}
		return nil
	}
	for _, d := range plan.Mkdirs {
		if err := check(d); err != nil {
			return err
		}
	}
	for _, mv := range plan.Moves {
		if err := check(mv.From, mv.To); err != nil {
			return err
		}
	}
	for _, d := range plan.Rmdirs {
		if err := check(d.Path); err != nil {
			return err
		}
	}
	for _, e := range plan.Edits {
		if err := check(e.Path, e.NewPath); err != nil {
			return err
		}
		if st, err := os.Lstat(e.Path); err == nil && st.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symlink: apply does not write through it", e.Path)
		}
	}
	return nil
}

// confiner checks paths against one root: each must lie inside it once
// symlinks are resolved, that is, the directory holding it, resolved as
// far as it exists, is root or below it. The entry itself is not followed
// (a symlink that a plan moves is moved as the link). Each directory is
// resolved once.
type confiner struct {
	root string            // absolute, symlinks resolved
	dirs map[string]string // directory -> resolved
}

func newConfiner(root string) *confiner {
	return &confiner{root: filepath.Clean(root), dirs: map[string]string{}}
}

func (c *confiner) check(path string) error {
	if !filepath.IsAbs(path) || !within(filepath.Clean(path), c.root) {
		return fmt.Errorf("%s lies outside the project %s", path, c.root)
	}
	dir, err := c.resolve(filepath.Dir(filepath.Clean(path)))
	if err != nil {
		return err
	}
	if !within(dir, c.root) {
		return fmt.Errorf("%s lies outside the project %s: %s resolves to %s", path, c.root, filepath.Dir(path), dir)
	}
	return nil
}

// resolve resolves the symlinks of dir as far as it exists; the missing
// rest is joined as it is.
func (c *confiner) resolve(dir string) (string, error) {
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

// within reports whether p is dir or lies inside it; both clean and
// absolute (pathx.WithinClean).
func within(p, dir string) bool { return pathx.WithinClean(p, dir) }
