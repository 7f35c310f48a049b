package txn

import (
	"bytes"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/hashicorp/go-multierror"

	"github.com/fwmigrate/fwmigrate/internal/gitquote"
)

// Plan is one transaction: every change it makes to the tree, computed
// before anything is touched. Paths are absolute and clean.
type Plan struct {
	// Root holds every path of the plan when it is committed (Commit
	// refuses the others); its journal is kept outside it (home.go).
	Root string
	// Base is what messages name paths relative to; "" is Root. A plan
	// over a monorepo names them from the workspace.
	Base string
	// Mkdirs are the directories created before the moves, parents first.
	Mkdirs []string
	Moves  []Move
	// Rmdirs are the directories the moves leave empty, removed after
	// them.
	Rmdirs []Rmdir
	Edits  []Edit
}

// Move is one rename of a file, directory or symlink.
type Move struct {
	From, To string
	Dir      bool
	Link     bool // a symlink: the link itself moves
}

// Rmdir is a directory the plan removes, with the mode it had, which
// Backward gives back to it.
type Rmdir struct {
	Path string
	Mode fs.FileMode
}

// Edit is one file whose bytes change. It is written at NewPath, where the
// moves put it, and must hold Old there (or New, done) when it is.
type Edit struct {
	Path    string // before the moves
	NewPath string // after the moves (Path when it stays)
	Old     []byte
	New     []byte
	Mode    fs.FileMode
}

// ChangedError is an edited file that holds neither the bytes the plan
// read nor the bytes it writes: it changed since the plan was made, and is
// not overwritten.
type ChangedError struct{ Path string }

func (e *ChangedError) Error() string {
	return gitquote.Quote(e.Path) + ": changed since apply read it (edited while apply ran?): not overwritten"
}

// rel returns path relative to the plan's base, slash-separated.
func (p *Plan) rel(path string) string {
	base := p.Base
	if base == "" {
		base = p.Root
	}
	r, err := filepath.Rel(base, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}

// shown is path as messages name it: relative to the plan's base, quoted
// as git quotes names when it holds control or non-ASCII bytes.
func (p *Plan) shown(path string) string { return gitquote.Quote(p.rel(path)) }

// verify checks that the entries the plan creates, moves and removes are
// still as it found them, and with edits that the edited files still hold
// what it read. Commit leaves the edits out: each is looked at again right
// before it is replaced, which is the check that counts.
func (p *Plan) verify(fsys FS, edits bool) error {
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
		// The wording, "move:" included, is the one apply has always
		// shown.
		return fmt.Errorf("move: the tree changed since the plan was made; plan again: %w", errs)
	}
	return nil
}
