package project

import (
	"fmt"
	"os"
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

// Reading is confined to the checkout: a repository can commit a symlink
// (fw.config.ts, .env, tsconfig.json, a page) or name a layer
// (extends: ['/home/me/x'], ['../../x']) that leads to a file beside the
// checkout, such as ~/.npmrc or another project's secrets, and a check
// frames and quotes what it reads. So a file whose real path lies outside
// the checkout is not read at all; the finding that says so names the
// link, never the target's text.
//
// The checkout of a directory is the git work tree holding it (the nearest
// folder above it with a .git entry): what the repository can reach. Outside
// git it is the outermost of the paths given to the run (Loader.Tops) and
// the working directory that holds it (a monorepo checked from its top
// reaches its packages; the home folder and / never count as a working
// directory), else the directory itself. A Loader without Tops (a library caller that names no paths) is
// confined to git work trees only; the front ends always set them.

// OutsideError is a file that was not read because its real path lies
// outside the checkout.
type OutsideError struct {
	Path     string // as named: the link, or the layer's path
	Real     string // where it leads
	Checkout string // the folder reads are confined to
}

func (e *OutsideError) Error() string {
	what := "outside the git work tree"
	if _, err := os.Lstat(filepath.Join(e.Checkout, ".git")); err != nil {
		what = "outside the folder checked"
	}
	if e.Real == e.Path {
		return fmt.Sprintf("lies %s (%s): not read", what, e.Checkout)
	}
	target := e.Real
	if rel, err := filepath.Rel(filepath.Dir(e.Path), e.Real); err == nil {
		target = rel
	}
	return fmt.Sprintf("a symlink to %s, %s (%s): not read", target, what, e.Checkout)
}

// Readable returns an *OutsideError when path (absolute) leads outside the
// project's checkout (Checkout), nil otherwise, or when it does not
// resolve (the read reports that). Every reader of the project's files
// outside the Loader asks it first.
func (p *Project) Readable(path string) error {
	if p.Checkout == "" {
		return nil
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil || Within(real, p.Checkout) {
		return nil
	}
	return &OutsideError{Path: path, Real: real, Checkout: p.Checkout}
}

// checkout returns the folder reads from dir (absolute, symlinks resolved)
// are confined to.
func (l *Loader) checkout(dir string) string {
	l.mu.Lock()
	top, ok := l.checkouts[dir]
	l.mu.Unlock()
	if ok {
		return top
	}
	top = ""
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			top = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if top == "" && len(l.Tops) > 0 {
		for _, t := range append(l.Tops, l.workDir()) {
			if t == "" {
				continue
			}
			t = realRoot(t)
			if Within(dir, t) && (top == "" || len(t) < len(top)) {
				top = t
			}
		}
	}
	if top == "" && len(l.Tops) > 0 {
		top = dir
	}
	l.mu.Lock()
	if l.checkouts == nil {
		l.checkouts = map[string]string{}
	}
	l.checkouts[dir] = top
	l.mu.Unlock()
	return top
}

// workDir is the working directory as a folder the run may read in, ""
// when it is the file system's root or the user's home: a folder that
// holds a user's dotfiles (~/.npmrc) is no project's checkout.
func (l *Loader) workDir() string {
	if l.cwd == "" || l.cwd == filepath.Dir(l.cwd) {
		return ""
	}
	if home, err := os.UserHomeDir(); err == nil && realRoot(home) == l.cwd {
		return ""
	}
	return l.cwd
}

// confine returns an *OutsideError when path (absolute, named from a
// directory of the checkout that holds from) leads outside that checkout.
// A path that does not resolve is left to the read to report.
func (l *Loader) confine(path, from string) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil
	}
	top := l.checkout(realRoot(from))
	if top == "" || Within(real, top) {
		return nil
	}
	return &OutsideError{Path: path, Real: real, Checkout: top}
}
