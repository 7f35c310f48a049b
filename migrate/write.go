package migrate

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"

	"github.com/fwmigrate/fwmigrate/internal/par"
	"github.com/fwmigrate/fwmigrate/migrate/internal/knobs"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/txn"
)

// The write phase of apply: every project is written as one transaction
// (package txn), through its journal, confined to its root.

// writePlan is what apply writes to r's project: the layout move with the
// config fixes joined to it, or the config and code fixes alone as a plan
// of edits. Its root is the project's root, symlinks resolved.
func writePlan(r *Result) (*txn.Plan, error) {
	p := r.Project
	if r.Plan != nil {
		return r.Plan.Txn()
	}
	root := p.RealRoot
	path := p.ConfigReal
	if root == "" || path == "" {
		return nil, fmt.Errorf("%s: the project's root is not known", p.ConfigDisplay)
	}
	var edits []txn.Edit
	if r.New != nil {
		st, err := os.Lstat(path)
		if err != nil {
			return nil, err
		}
		edits = append(edits, txn.Edit{Path: path, NewPath: path, Old: r.Old, New: r.New, Mode: st.Mode()})
	}
	for _, e := range r.CodeEdits {
		e.Path = realPath(p, e.Path)
		e.NewPath = e.Path
		edits = append(edits, e)
	}
	return &txn.Plan{Root: root, Edits: edits}, nil
}

// writeBatch performs the writes of rs, whose roots do not overlap,
// through a journal each (in the project's git directory, or the user's
// state folder), as one txn.CommitAll: each project is written whole or
// not at all, and all share their barriers. A project written is Written;
// one that failed is Fatal, with why.
func writeBatch(rs []*Result, o Options) {
	txs := make([]*txn.Tx, len(rs))
	for k, r := range rs {
		plan, err := writePlan(r)
		if err != nil {
			r.Fatal, r.Err = true, "not written: "+err.Error()
			continue
		}
		if home, herr := txn.JournalPath(plan.Root); herr == nil {
			r.Journal = r.Project.ShowPath(home)
		}
		// Each move and each file replaced is a step of the write's
		// progress (the edits are made in parallel: the count is atomic).
		total := len(plan.Moves) + len(plan.Edits)
		var done atomic.Int64
		hook := func(point string, i int) {
			if point == "move" || point == "replace" {
				o.progress(StepWrite, r.Project.ConfigDisplay, int(done.Add(1)), total)
			}
			if o.Hook != nil {
				o.Hook(point, i)
			}
		}
		txs[k] = &txn.Tx{Plan: plan, Config: relSlashTo(r.Project.RealRoot, r.Project.ConfigReal), Hook: hook}
	}
	// All the journals of a batch are on disk at once, each holding its
	// project's old and new texts: a batch stops at knobs.MaxBatchBytes of them
	// (a project bigger than that is a batch alone).
	commit := CommitAll
	if knobs.Commit != nil {
		commit = knobs.Commit
	}
	var run []*txn.Tx
	size := 0
	for _, t := range txs {
		if t == nil {
			continue
		}
		n := 0
		for _, e := range t.Plan.Edits {
			n += len(e.Old) + len(e.New)
		}
		if len(run) > 0 && size+n > knobs.MaxBatchBytes {
			commit(run, o.Hook)
			run, size = nil, 0
		}
		run = append(run, t)
		size += n
	}
	commit(run, o.Hook)
	for k, r := range rs {
		t := txs[k]
		if t == nil {
			continue
		}
		if err := written(r, t.Kept, t.Err); err != nil {
			r.Fatal, r.Err = true, "not written: "+err.Error()
			continue
		}
		r.Written = true
	}
}

// CommitAll commits txs (txn.CommitAll), as Run commits a batch of its
// projects' transactions: in up to batchLanes batches of at least
// knobs.LaneMin transactions each, run at once: while one batch waits at a
// barrier for the disk, another does the work of its next phase (the
// phases are the CPU's, the barriers the disk's), and barriers met at the
// same time share their syncfs (txn's group commit).
func CommitAll(txs []*txn.Tx, hook func(string, int)) {
	lanes := min(batchLanes, len(txs)/knobs.LaneMin)
	if lanes <= 1 {
		txn.CommitAll(txs, hook)
		return
	}
	par.ForN(lanes, lanes, func(l int) {
		txn.CommitAll(txs[l*len(txs)/lanes:(l+1)*len(txs)/lanes], hook)
	})
}

// batchLanes: see CommitAll (knobs.LaneMin and knobs.MaxBatchBytes are
// the other bounds of the writes).
const batchLanes = 4

// written records in r how its transaction ended (kept: its journal
// stays), and returns the error that leaves it not written.
func written(r *Result, kept bool, err error) error {
	r.JournalKept = kept
	if le := (*txn.LeftoverError)(nil); errors.As(err, &le) {
		// Written and durable; only old copies are left beside some
		// files, which the next apply removes (the journal stays for it).
		r.Notes = append(r.Notes, fmt.Sprintf("%v (the journal %s stays until then)", err, r.Journal))
		return nil
	}
	if r.JournalKept {
		err = fmt.Errorf("%v: the journal %s is kept, run `fwmigrate apply --rollback` to undo the rest", err, r.Journal)
	}
	return err
}

// refuseJournal is the result of a project whose journal is never run (in
// the tree, or failing its checks): nothing is written, the journal is
// named with why and how to remove it.
func refuseJournal(p *project.Project, re *txn.RefusedError, o Options) *Result {
	r := &Result{Project: p, Journal: p.ShowPath(re.Journal)}
	r.setFramework(o)
	r.refuse("not written: " + re.Explain(p.ShowPath))
	return r
}

// recoverProject completes (or, with rollback, undoes) the apply that was
// interrupted in p's project, as its journal recorded it.
func recoverProject(p *project.Project, o Options) *Result {
	r := &Result{Project: p, Journal: p.ShowPath(p.Journal), JournalKept: true}
	r.setFramework(o)
	if o.DryRun {
		r.refuse(fmt.Sprintf("not written: an interrupted apply left this project half written (%s); run fwmigrate apply to finish it, or fwmigrate apply --rollback to undo it", r.Journal))
		return r
	}
	// Open checks the journal again: it is run only as this user's run
	// wrote it.
	j, err := txn.Open(p.RealRoot, o.Hook)
	if err != nil {
		var re *txn.RefusedError
		if errors.As(err, &re) {
			r.JournalKept = false
			r.refuse("not written: " + re.Explain(p.ShowPath))
			return r
		}
		r.refuse("not written: " + err.Error())
		return r
	}
	if o.Rollback || j.RollingBack() {
		kept, err := j.Undo()
		if err != nil {
			r.refuse(fmt.Sprintf("not written: rolling back the interrupted apply (%s) failed: %v", r.Journal, err))
			return r
		}
		r.Recovered = "rolled back"
		if len(kept) > 0 {
			r.Notes = append(r.Notes, "changed since the interrupted apply, kept as they are: "+strings.Join(kept, ", "))
		}
	} else {
		if err := j.Complete(); err != nil {
			r.refuse(fmt.Sprintf("not written: completing the interrupted apply (%s) failed: %v; run fwmigrate apply --rollback to undo it", r.Journal, err))
			return r
		}
		r.Recovered = "completed"
		r.Written = true
	}
	if err := j.Finish(); err != nil {
		r.refuse("not written: " + err.Error())
		return r
	}
	r.JournalKept = false
	return r
}
