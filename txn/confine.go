package txn

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/internal/pathx"
)

// A transaction writes inside its root and nowhere else, and never in a
// git directory: Commit checks every path of a plan before the journal is
// written, and Open every path of a journal before a step runs, however
// the journal came to be where it is (a journal that moves a file into
// .git/hooks runs a command of its author's on the next git checkout).
// checkPlan then holds the steps to the shape apply gives them.

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
	c := &confiner{root: filepath.Clean(root), dirs: map[string]string{}}
	// The root resolved once: the directories below it are resolved from
	// their parent's resolution, one Lstat each (resolve).
	if real, err := filepath.EvalSymlinks(c.root); err == nil {
		c.dirs[c.root] = real
	}
	return c
}

func (c *confiner) check(path string) error {
	if !filepath.IsAbs(path) || !within(filepath.Clean(path), c.root) {
		return fmt.Errorf("%s lies outside the project %s", path, c.root)
	}
	if rel, ok := pathx.Rel(c.root, filepath.Clean(path)); ok {
		for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
			if isGitName(part) {
				return fmt.Errorf("%s lies in a git directory (%s): fwmigrate never writes there", path, part)
			}
		}
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
	parent := filepath.Dir(dir)
	if _, ok := c.dirs[c.root]; ok && parent != dir && within(parent, c.root) {
		// Below the root: the parent's resolution, and dir's own link
		// when it is one. The same as EvalSymlinks(dir), with one Lstat
		// instead of one per element of the path.
		p, err := c.resolve(parent)
		if err != nil {
			return "", err
		}
		real := filepath.Join(p, filepath.Base(dir))
		st, err := os.Lstat(real)
		if err == nil && st.Mode()&fs.ModeSymlink != 0 {
			if real, err = filepath.EvalSymlinks(real); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
			if err != nil { // where a dangling link leads is not known
				return "", fmt.Errorf("%s is a symlink that leads nowhere: apply does not write through it", dir)
			}
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		c.dirs[dir] = real
		return real, nil
	}
	real, err := filepath.EvalSymlinks(dir)
	if errors.Is(err, fs.ErrNotExist) {
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

// isGitName reports whether a path component names a .git entry on some
// file system: .git in any case (case-insensitive file systems), with the
// trailing dots and spaces Windows drops, or its 8.3 short name.
func isGitName(part string) bool {
	trimmed := strings.TrimRight(part, ". ")
	return strings.EqualFold(trimmed, ".git") || strings.EqualFold(part, "git~1")
}

// checkPlan holds a plan (a journal's too) to the shape apply gives it, so
// that a journal cannot be a program of its own: every edited file is
// written where the moves put it (NewPath is Path moved), a directory is
// created only as a parent of a move's destination and removed only as a
// parent of a move's source (one the moves empty), and no path is the root
// itself.
func checkPlan(p *Plan) error {
	root := filepath.Clean(p.Root)
	strictlyUnder := func(path, dir string) bool { return path != dir && within(path, dir) }
	for _, d := range p.Mkdirs {
		ok := false
		for _, mv := range p.Moves {
			if strictlyUnder(mv.To, d) {
				ok = true
				break
			}
		}
		if d == root || !ok {
			return fmt.Errorf("%s: a directory created for no move into it", p.shown(d))
		}
	}
	for _, d := range p.Rmdirs {
		ok := false
		for _, mv := range p.Moves {
			if strictlyUnder(mv.From, d.Path) {
				ok = true
				break
			}
		}
		if d.Path == root || !ok {
			return fmt.Errorf("%s: a directory removed that no move empties", p.shown(d.Path))
		}
	}
	from := make(map[string]Move, len(p.Moves))
	for _, mv := range p.Moves {
		if mv.From == root || mv.To == root {
			return fmt.Errorf("the project's root itself is moved")
		}
		from[mv.From] = mv
	}
	for _, e := range p.Edits {
		if e.NewPath != moved(from, e.Path) {
			return fmt.Errorf("%s: written at %s, where no move puts it", p.shown(e.Path), p.shown(e.NewPath))
		}
	}
	return nil
}

// moved is where the moves put path: the destination of its own move or of
// the moved directory that holds it, path itself when none moves it. from
// is the moves by source (movesFrom).
func moved(from map[string]Move, path string) string {
	for d := path; ; {
		if mv, ok := from[d]; ok && (d == path || mv.Dir) {
			rel, _ := pathx.Rel(d, path)
			return filepath.Join(mv.To, rel)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return path
		}
		d = parent
	}
}

// within reports whether p is dir or lies inside it; both clean and
// absolute (pathx.WithinClean).
func within(p, dir string) bool { return pathx.WithinClean(p, dir) }
