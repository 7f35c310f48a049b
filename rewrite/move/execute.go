package move

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/aymanbagabas/go-udiff"
	"github.com/hashicorp/go-multierror"

	"github.com/fwmigrate/fwmigrate/rewrite"
)

// FS is the file system as Execute uses it. OS is the real one; tests wrap
// it to make the Nth operation fail (as root, chmod cannot produce EACCES).
type FS interface {
	Lstat(name string) (fs.FileInfo, error)
	ReadFile(name string) ([]byte, error)
	Mkdir(name string, perm fs.FileMode) error
	Chmod(name string, mode fs.FileMode) error
	Remove(name string) error
	Rename(oldpath, newpath string) error
	// WriteTemp creates a new file in dir, named after pattern as
	// os.CreateTemp does, holding data with permissions perm, and returns
	// its path.
	WriteTemp(dir, pattern string, data []byte, perm fs.FileMode) (string, error)
}

// OS is the operating system's file system.
var OS FS = osFS{}

type osFS struct{}

func (osFS) Lstat(name string) (fs.FileInfo, error)    { return os.Lstat(name) }
func (osFS) ReadFile(name string) ([]byte, error)      { return os.ReadFile(name) }
func (osFS) Mkdir(name string, perm fs.FileMode) error { return os.Mkdir(name, perm) }
func (osFS) Chmod(name string, mode fs.FileMode) error { return os.Chmod(name, mode) }
func (osFS) Remove(name string) error                  { return os.Remove(name) }
func (osFS) Rename(oldpath, newpath string) error      { return os.Rename(oldpath, newpath) }
func (osFS) WriteTemp(dir, pattern string, data []byte, perm fs.FileMode) (string, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	name := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// ConflictError is Execute's refusal of a plan with conflicts.
type ConflictError struct{ Conflicts []Conflict }

func (e *ConflictError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "move: refusing to move: %d conflict(s)", len(e.Conflicts))
	for _, c := range e.Conflicts {
		b.WriteString("\n\t" + c.String())
	}
	return b.String()
}

// Execute performs the plan on the real file system; see ExecuteFS.
func (p *Plan) Execute() error { return p.ExecuteFS(OS) }

// permBits are the mode bits a file keeps across a rewrite.
const permBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// ExecuteFS performs the plan: directories created, plain renames (which
// keep git's rename detection), emptied directories removed, edited files
// written atomically at their new paths (a temporary file in the same
// directory renamed over the old one, mode kept). It first checks that the
// tree is still as planned. On any failure it undoes every step done, in
// reverse order, and returns the error; the tree is then as it was.
func (p *Plan) ExecuteFS(fsys FS) error {
	if len(p.Conflicts) > 0 {
		return &ConflictError{Conflicts: p.Conflicts}
	}
	if err := p.verify(fsys); err != nil {
		return err
	}
	var undo []func() error
	fail := func(step string, err error) error {
		var errs *multierror.Error
		for i := len(undo) - 1; i >= 0; i-- {
			if uerr := undo[i](); uerr != nil {
				errs = multierror.Append(errs, uerr)
			}
		}
		if errs != nil {
			return fmt.Errorf("move: %s: %w; rolling back failed too, the tree needs repair by hand: %v", step, err, errs)
		}
		return fmt.Errorf("move: %s: %w (rolled back: nothing changed)", step, err)
	}
	for _, d := range p.Mkdirs {
		if err := fsys.Mkdir(d, 0o777); err != nil {
			return fail("creating "+p.rel(d), err)
		}
		undo = append(undo, func() error { return fsys.Remove(d) })
	}
	for _, mv := range p.Moves {
		if err := fsys.Rename(mv.From, mv.To); err != nil {
			return fail("moving "+p.rel(mv.From)+" to "+p.rel(mv.To), err)
		}
		undo = append(undo, func() error { return fsys.Rename(mv.To, mv.From) })
	}
	for _, d := range p.Rmdirs {
		if err := fsys.Remove(d); err != nil {
			return fail("removing the emptied "+p.rel(d), err)
		}
		mode := p.dirMode[d]
		undo = append(undo, func() error {
			if err := fsys.Mkdir(d, mode); err != nil {
				return err
			}
			return fsys.Chmod(d, mode)
		})
	}
	// Edited files: every new content is staged first as a temporary file
	// next to its destination (invisible under its final name), then each
	// is renamed over its destination: a failure while staging, the likely
	// one (a full disk), leaves nothing visible to undo.
	temps := make([]string, len(p.Edits))
	renamed := make([]bool, len(p.Edits))
	for i, e := range p.Edits {
		tmp, err := fsys.WriteTemp(filepath.Dir(e.NewPath), "."+filepath.Base(e.NewPath)+".fwmigrate-*", e.New, e.Mode&permBits)
		if err != nil {
			return fail("writing "+p.rel(e.NewPath), err)
		}
		temps[i] = tmp
		undo = append(undo, func() error {
			if renamed[i] {
				return nil
			}
			return fsys.Remove(tmp)
		})
	}
	for i, e := range p.Edits {
		if err := fsys.Rename(temps[i], e.NewPath); err != nil {
			return fail("writing "+p.rel(e.NewPath), err)
		}
		renamed[i] = true
		undo = append(undo, func() error { return writeAtomic(fsys, e.NewPath, e.Old, e.Mode&permBits) })
	}
	return nil
}

// writeAtomic replaces path with data through a temporary file in the same
// directory, so that a reader sees the old file or the new one, never a mix.
func writeAtomic(fsys FS, path string, data []byte, perm fs.FileMode) error {
	tmp, err := fsys.WriteTemp(filepath.Dir(path), "."+filepath.Base(path)+".fwmigrate-*", data, perm)
	if err != nil {
		return err
	}
	if err := fsys.Rename(tmp, path); err != nil {
		if rerr := fsys.Remove(tmp); rerr != nil {
			return multierror.Append(err, rerr)
		}
		return err
	}
	return nil
}

// verify checks that the tree is still as it was planned: a plan is a set
// of byte edits on the files it read, and renames of entries it saw.
func (p *Plan) verify(fsys FS) error {
	var errs *multierror.Error
	for _, d := range p.Mkdirs {
		if _, err := fsys.Lstat(d); err == nil {
			errs = multierror.Append(errs, fmt.Errorf("%s: exists now", d))
		}
	}
	for _, mv := range p.Moves {
		st, err := fsys.Lstat(mv.From)
		if err != nil {
			errs = multierror.Append(errs, err)
		} else if st.IsDir() != mv.Dir || (st.Mode()&fs.ModeSymlink != 0) != mv.Link {
			errs = multierror.Append(errs, fmt.Errorf("%s: changed type", mv.From))
		}
		if _, err := fsys.Lstat(mv.To); err == nil {
			errs = multierror.Append(errs, fmt.Errorf("%s: exists now", mv.To))
		}
	}
	for _, e := range p.Edits {
		data, err := fsys.ReadFile(e.Path)
		if err != nil {
			errs = multierror.Append(errs, err)
		} else if !bytes.Equal(data, e.Old) {
			errs = multierror.Append(errs, fmt.Errorf("%s: changed", e.Path))
		}
	}
	if errs != nil {
		return fmt.Errorf("move: the tree changed since the plan was made; plan again: %w", errs)
	}
	return nil
}

// Diff renders the plan for --dry-run: the directories created, every move
// and the directories removed, then a unified diff (a/ and b/ prefixes, as
// git apply takes it after the moves) of every edited file at its new path.
// Paths are relative to the project root (the workspace when set).
func (p *Plan) Diff() string {
	var b strings.Builder
	for _, d := range p.Mkdirs {
		fmt.Fprintf(&b, "mkdir %s\n", rewrite.GitQuote(p.rel(d)+"/"))
	}
	for _, mv := range p.Moves {
		slash := ""
		if mv.Dir {
			slash = "/"
		}
		fmt.Fprintf(&b, "move %s -> %s\n", rewrite.GitQuote(p.rel(mv.From)+slash), rewrite.GitQuote(p.rel(mv.To)+slash))
	}
	for _, d := range p.Rmdirs {
		fmt.Fprintf(&b, "rmdir %s\n", rewrite.GitQuote(p.rel(d)+"/"))
	}
	for _, e := range p.Edits {
		name := p.rel(e.NewPath)
		// A line diff of the result groups the changed lines of a hunk,
		// which the byte edits themselves would interleave.
		a, bn := rewrite.GitQuote("a/"+name), rewrite.GitQuote("b/"+name)
		u, err := udiff.ToUnified(a, bn, string(e.Old), udiff.Lines(string(e.Old), string(e.New)), udiff.DefaultContextLines)
		if err != nil {
			fmt.Fprintf(&b, "# %s: %v\n", rewrite.GitQuote(name), err)
			continue
		}
		fmt.Fprintf(&b, "diff --git %s %s\n%s", a, bn, u)
	}
	return b.String()
}
