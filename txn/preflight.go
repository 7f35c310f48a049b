package txn

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/hashicorp/go-multierror"
)

// Before the first write, the plan is checked against what the file system
// will let it do, so that a run that cannot finish is refused with nothing
// written rather than failing halfway and rolling back (or, worse, failing
// its rollback too):
//
//   - the name of every temporary (.<name>.fwmigrate-<tag>, and the
//     old text's backup, the same with .old) fits the file system's
//     limit: a 240-byte file name cannot get one;
//   - every folder the plan creates entries in, renames out of or removes
//     is writable;
//   - the file system has room for the temporaries (the new texts), with
//     a margin.
//
// Each refusal names the project's file or folder. The faults that appear
// later (the disk fills up meanwhile) are the rollback's to handle.

// maxName is the longest file name the common file systems take (NAME_MAX
// on Linux, the BSDs and macOS).
const maxName = 255

// spaceMargin is the room kept free beyond the temporaries: the journal
// and the file system's own needs.
const spaceMargin = 1 << 20

// preflight checks p for an execution tagged tag on the OS's file system.
func (p *Plan) preflight(tag string) error {
	var errs *multierror.Error
	dirs := map[string]bool{}
	need := int64(0)
	for _, e := range p.Edits {
		for _, path := range []string{e.Path, e.NewPath} {
			if n := len(filepath.Base(backupName(path, tag))); n > maxName {
				errs = multierror.Append(errs, fmt.Errorf("%s: its name is too long to be replaced safely (the temporary written beside it would need %d bytes, more than %d): rename it first", p.shown(path), n, maxName))
			}
			dirs[filepath.Dir(path)] = true
		}
		need += int64(len(e.New))
	}
	for _, d := range p.Mkdirs {
		dirs[filepath.Dir(d)] = true
	}
	for _, mv := range p.Moves {
		dirs[filepath.Dir(mv.From)] = true
		dirs[filepath.Dir(mv.To)] = true
	}
	for _, rd := range p.Rmdirs {
		dirs[filepath.Dir(rd.Path)] = true
	}
	created := map[string]bool{}
	for _, d := range p.Mkdirs {
		created[d] = true
	}
	list := make([]string, 0, len(dirs))
	for d := range dirs {
		if !created[d] { // made by the plan itself: its parent is checked
			list = append(list, d)
		}
	}
	sort.Strings(list)
	for _, d := range list {
		if err := writable(d); err != nil {
			errs = multierror.Append(errs, fmt.Errorf("%s: cannot write in this folder: %w", p.shown(d), err))
		}
	}
	if free, ok := freeSpace(p.Root); ok && free < need+spaceMargin {
		errs = multierror.Append(errs, fmt.Errorf("not enough free space: the new files need %d KB and the disk holding %s has %d KB free", (need+spaceMargin)>>10, p.shown(p.Root), free>>10))
	}
	if errs != nil {
		errs.ErrorFormat = func(es []error) string {
			s := "nothing written: "
			for i, e := range es {
				if i > 0 {
					s += "; "
				}
				s += e.Error()
			}
			return s
		}
		return errs
	}
	return nil
}
