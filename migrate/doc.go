// Package migrate is the apply engine of fwmigrate, apart from its command
// (as x/tools' checker is apart from the commands that drive analyzers):
// for each project it plans the layout move (rewrite/move), makes the
// rules' fixes to the config in rounds until nothing changes, verifies
// every rewritten text, and writes the project whole or not at all, behind
// the git guard, as one transaction of package txn (the projects of a run
// together, their syncs shared: txn.CommitAll). The command line (flags, discovery, the report's wording
// and format, exit codes) is cmd/fwmigrate's.
package migrate

import (
	"path/filepath"

	"github.com/fwmigrate/fwmigrate/fix"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/settings"
	"github.com/fwmigrate/fwmigrate/workspace"
)

// Options say what apply does.
type Options struct {
	Rules rules.Options // the checks whose fixes are made
	// Workspace, when set, gives the checks of each project instead (those
	// of the settings file nearest to it) and decides its framework major.
	Workspace *workspace.Workspace
	Unsafe    bool // make unsafe fixes too
	// UnsafeRules are the codes of the rules whose unsafe fixes are made
	// (--unsafe=FW501; all are with Unsafe), and whose held fixes too
	// (rules.Options.Release: those withheld because code reads what they
	// change). Bare --unsafe makes no held fix.
	UnsafeRules []string
	DryRun      bool     // write nothing: compute Result.Diff
	AllowDirty  bool     // write files with uncommitted changes in git
	Layout      string   // LayoutMove or LayoutKeep
	Also        []string // more root folders to move
	// alsoWhy gives the reason the move records for a folder of Also that
	// a rule's fix added (joinFolders).
	alsoWhy map[string]string
	// Rollback undoes the apply that was interrupted in each project
	// (its journal), and does nothing else.
	Rollback bool
	// Pin lists the default changes to pin to their version-3 value
	// (PinAffected, PinAll, or option paths; ValidatePins checks them).
	Pin []string
	// Hook, when set (by tests), is called at every point of a journaled
	// write: each project's (txn.Commit's points, and Open's when a
	// journal is recovered) and the run's (txn.CommitAll's "run-..."
	// points, where the projects' transactions stand apart). The crash
	// tests end the process there.
	Hook func(point string, i int)
	// Progress, when set, is told each step of the run as it starts or
	// advances (progress.go), for a display of progress.
	Progress func(Event)
	// Confirm, when set (and not DryRun), is called once every project is
	// planned and before anything of them is written, with the results as
	// they will be written: false writes nothing, and Run returns the
	// results unwritten. (An interrupted apply that a project holds is
	// finished, or rolled back, before: see Project.Journal.)
	Confirm func([]*Result) bool
	// Stream, when set with DryRun (and no Confirm), is called with each
	// result in order as soon as it is planned, diffed and settled, before
	// the next projects are planned: a few projects are held at once (as
	// many as there are CPUs), so that memory follows the largest project,
	// not the sum. Once Stream returns, the result's texts, plan and
	// findings are dropped (Result.Release): Stream reports it whole.
	Stream func(*Result)
	// Planned, when set (by tests), is called as each project is planned,
	// before its diff: streaming is proven by the order of these calls
	// and Stream's.
	Planned func(*Result)
	// read reads a code file for its fixes (nil: project.ReadSource):
	// with a layout move, the text the move's plan read already
	// (applyProject), so that an app's files are read, and held, once.
	read func(string) ([]byte, error)
}

// rulesOf returns the checks of project p: its settings' (a baseline hides
// nothing: apply fixes what it can, known or not).
func (o Options) rulesOf(p *project.Project) rules.Options {
	ro := o.Rules
	if o.Workspace != nil {
		// The settings were read before the run (runApply): an error
		// cannot happen here.
		if wo, _, err := o.Workspace.Options(p.ConfigPath, workspace.ForFix); err == nil {
			ro = wo
		}
	}
	ro.Release = o.UnsafeRules
	return ro
}

// MakesUnsafe reports whether d's fix, when unsafe, is made: with --unsafe,
// or --unsafe naming d's rule.
func (o Options) MakesUnsafe(d *rules.Diagnostic) bool {
	return fix.MakesUnsafe(o.Unsafe, o.UnsafeRules, d.Code)
}

// settingsOf returns the settings p runs with, for its framework major.
func (o Options) settingsOf(p *project.Project) *settings.Resolved {
	if o.Workspace != nil {
		if res, err := o.Workspace.Settings(p.ConfigPath); err == nil {
			return res
		}
	}
	return &settings.Resolved{Framework: o.Rules.Framework, From: map[string]string{"framework": o.Rules.FrameworkSource}}
}

// relSlashTo is p relative to root, slash-separated.
func relSlashTo(root, p string) string {
	if rel, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}
