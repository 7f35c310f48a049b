package move

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
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
	// WriteNew creates the file name, which must not exist, holding data
	// with permissions perm; with sync, the data is on disk (fsync) when
	// it returns.
	WriteNew(name string, data []byte, perm fs.FileMode, sync bool) error
	// SyncDir makes the entries of directory name durable (fsync).
	SyncDir(name string) error
	// SyncFS makes everything written to the file system holding path
	// durable at once (syncfs), or returns errors.ErrUnsupported.
	SyncFS(path string) error
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
func (osFS) SyncDir(name string) error                 { return rewrite.SyncDir(name) }
func (osFS) SyncFS(path string) error                  { return rewrite.SyncFS(path) }
func (osFS) WriteNew(name string, data []byte, perm fs.FileMode, sync bool) error {
	return rewrite.WriteNew(name, data, perm, sync)
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

// Execute performs the plan on the real file system, durably (Sync); see
// Run.
func (p *Plan) Execute() error { return p.Run(Exec{Sync: true}) }

// ExecuteFS performs the plan on fsys; see Run.
func (p *Plan) ExecuteFS(fsys FS) error { return p.Run(Exec{FS: fsys}) }

// permBits are the mode bits a file keeps across a rewrite.
const permBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// Run performs the plan: directories created, plain renames (which keep
// git's rename detection), emptied directories removed, edited files
// written at their new paths (steps.go). It first checks that the tree is
// still as planned. On any failure it undoes every step done (Backward) and
// returns the error; the tree is then as it was.
func (p *Plan) Run(x Exec) error {
	if len(p.Conflicts) > 0 {
		return &ConflictError{Conflicts: p.Conflicts}
	}
	if x.FS == nil {
		x.FS = OS
	}
	if err := p.verify(x.FS); err != nil {
		return err
	}
	if x.Tag == "" {
		x.Tag = NewTag()
	}
	err := p.Forward(x)
	if err == nil {
		return nil
	}
	if _, uerr := p.Backward(x); uerr != nil {
		return fmt.Errorf("move: %w; rolling back failed too, the tree needs repair by hand: %v", err, uerr)
	}
	return fmt.Errorf("move: %w (rolled back: nothing changed)", err)
}

// Verify checks that the entries the plan creates, moves and removes are
// still as it found them (not the edited files: each is looked at again
// right before it is replaced).
func (p *Plan) Verify(fsys FS) error {
	return p.verifyEdits(fsys, false)
}

// verify checks that the tree is still as it was planned: a plan is a set
// of byte edits on the files it read, and renames of entries it saw.
func (p *Plan) verify(fsys FS) error { return p.verifyEdits(fsys, true) }

func (p *Plan) verifyEdits(fsys FS, edits bool) error {
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
		if !edits {
			break
		}
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
