package migrate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite/move"
)

// The write phase of apply: every project is written through its journal
// (journal.go), confined to its root.

// writePlan is what apply writes to r's project: the layout move with the
// config fixes joined to it, or the config fixes alone as a plan of one
// edit. root is the project's root, symlinks resolved.
func writePlan(r *Result) (root string, plan *move.Plan, err error) {
	p := r.Project
	if r.Plan != nil {
		return r.Plan.Root, r.Plan, nil
	}
	root = p.RealRoot
	path := p.ConfigReal
	if root == "" || path == "" {
		return "", nil, fmt.Errorf("%s: the project's root is not known", p.ConfigDisplay)
	}
	var edits []move.FileEdit
	if r.New != nil {
		st, err := os.Lstat(path)
		if err != nil {
			return "", nil, err
		}
		edits = append(edits, move.FileEdit{Path: path, NewPath: path, Old: r.Old, New: r.New, Mode: st.Mode()})
	}
	for _, e := range r.CodeEdits {
		e.Path = realPath(p, e.Path)
		e.NewPath = e.Path
		edits = append(edits, e)
	}
	return root, move.Restore(root, nil, nil, nil, nil, edits), nil
}

// confine checks that every path plan touches lies inside root, through no
// symlink, and that no edited file is a symlink (the link would be
// replaced by a file).
func confine(root string, plan *move.Plan) error {
	c := project.NewConfiner(root)
	check := func(paths ...string) error {
		for _, p := range paths {
			if err := c.Check(p); err != nil {
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
		if err := check(d); err != nil {
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

// write performs r's writes through a journal under its root (commit).
func write(r *Result, configRel string) error {
	root, plan, err := writePlan(r)
	if err != nil {
		return err
	}
	r.Journal = journalDisplay(r.Project)
	r.JournalKept, err = commit(root, configRel, plan)
	if r.JournalKept {
		err = fmt.Errorf("%v: the journal %s is kept, run `fwmigrate apply --rollback` to undo the rest", err, r.Journal)
	}
	return err
}

// commit performs plan through a journal under root, after checking that
// it stays inside root. A failure undoes what was done; when even that
// fails, the journal stays (kept) for a later apply (or apply --rollback)
// to finish.
func commit(root, config string, plan *move.Plan) (kept bool, err error) {
	if err := confine(root, plan); err != nil {
		return false, err
	}
	if err := plan.Verify(move.OS); err != nil {
		return false, err
	}
	j, err := beginJournal(root, config, plan)
	if err != nil {
		return false, err
	}
	x := j.exec()
	err = plan.Forward(x)
	if err == nil {
		return false, j.finish()
	}
	j.note("rollback", 0)
	undone, uerr := plan.Backward(x)
	if uerr != nil {
		j.close()
		return true, fmt.Errorf("%v; undoing what was written failed too (%v)", err, uerr)
	}
	if ferr := j.finish(); ferr != nil {
		return false, fmt.Errorf("%v; rolled back, but %v", err, ferr)
	}
	msg := err.Error() + "; everything written was undone"
	if len(undone) > 0 {
		msg += " (kept as they are now: " + strings.Join(undone, ", ") + ")"
	}
	return false, errors.New(msg)
}

// journalDisplay is the journal's path as shown to the user.
func journalDisplay(p *project.Project) string {
	return filepath.Join(filepath.Dir(p.ConfigDisplay), project.JournalDir, project.JournalFile)
}

// recoverProject completes (or, with rollback, undoes) the apply that was
// interrupted in p's project, as its journal recorded it.
func recoverProject(p *project.Project, o Options) *Result {
	r := &Result{Project: p, Journal: journalDisplay(p), JournalKept: true}
	r.setFramework(o)
	if o.DryRun {
		r.refuse(fmt.Sprintf("not written: an interrupted apply left this project half written (%s); run fwmigrate apply to finish it, or fwmigrate apply --rollback to undo it", r.Journal))
		return r
	}
	root := filepath.Dir(filepath.Dir(p.Journal))
	j, err := readJournal(root)
	if err != nil {
		r.refuse("not written: " + err.Error())
		return r
	}
	back := o.Rollback || j.rollingBack()
	prog, err := os.OpenFile(filepath.Join(journalDir(root), "progress"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err == nil {
		j.prog = prog
	}
	x := j.exec()
	x.Resume = true
	if back {
		j.note("rollback", 0)
		kept, err := j.plan.Backward(x)
		if err != nil {
			j.close()
			r.refuse(fmt.Sprintf("not written: rolling back the interrupted apply (%s) failed: %v", r.Journal, err))
			return r
		}
		r.Recovered = "rolled back"
		if len(kept) > 0 {
			r.Notes = append(r.Notes, "changed since the interrupted apply, kept as they are: "+strings.Join(kept, ", "))
		}
	} else {
		if err := j.plan.Forward(x); err != nil {
			j.close()
			r.refuse(fmt.Sprintf("not written: completing the interrupted apply (%s) failed: %v; run fwmigrate apply --rollback to undo it", r.Journal, err))
			return r
		}
		r.Recovered = "completed"
		r.Written = true
	}
	if err := j.finish(); err != nil {
		r.refuse("not written: " + err.Error())
		return r
	}
	r.JournalKept = false
	return r
}
