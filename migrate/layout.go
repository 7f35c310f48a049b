package migrate

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite/move"
	"github.com/fwmigrate/fwmigrate/rules"
)

// The layout step of apply (issue 6). With --layout=move (the default) a
// project whose sources are at the root (layout B, or mixed: app/ holds a
// stray file that makes it srcDir) has them moved into app/, every path that
// depends on them fixed (rewrite/move), and its config fixes written in the
// same transaction: all of it or nothing. With --layout=keep nothing moves;
// the fix of FW102 pins layout B (srcDir: '.', dir.app: 'app') instead.

// Layout choices of apply.
const (
	LayoutMove = "move"
	LayoutKeep = "keep"
)

// fixAllowed reports whether apply uses d's fix under the layout choice.
func fixAllowed(d *rules.Diagnostic, layout string) bool {
	switch d.Fix.Layout {
	case rules.MoveOnly:
		return layout == LayoutMove
	case rules.KeepOnly:
		return layout == LayoutKeep
	}
	return true
}

// Fix layout modes of one project: which fixes apply uses (see fixAllowed).
// A keep-only fix is right whenever the sources stay where they are, so a
// project whose move cannot be made gets them too: a layout-B project is
// then pinned, and version 4 keeps it in layout B whatever appears in app/.
const (
	modeMove = LayoutMove // the sources move (or there is nothing to move)
	modeKeep = LayoutKeep // the sources stay: layout B is pinned
)

// applyProject plans the project's layout move, then computes its config
// fixes under what the plan allows, and joins them to the move.
//
// A forced mode (another config of the same directory owns the move) skips
// the planning: the project follows that mode and moves nothing itself.
func applyProject(p *project.Project, o Options, forced string) *Result {
	var (
		plan    *move.Plan
		mode    = forced
		notes   []string
		refusal string
	)
	if p.Via != "" {
		refusal = fmt.Sprintf("not written: reached through the symlink %s, which leads out of the paths given: apply writes nothing through a symlink (run it on the link's target)", p.Via)
	} else if p.ConfigOutside != "" {
		target := p.ConfigOutside
		if rel, err := filepath.Rel(filepath.Dir(p.ConfigPath), target); err == nil {
			target = rel
		}
		refusal = fmt.Sprintf("not written: %s is a symlink to %s, outside the project: apply rewrites nothing through it and moves nothing for it (FW910)", filepath.Base(p.ConfigPath), target)
	} else if forced == "" {
		o.progress(StepPlan, p.ConfigDisplay, 0, 0)
		plan, mode, notes, refusal = planLayout(p, o)
	}
	if refusal != "" {
		r := &Result{Project: p, Notes: notes}
		r.setFramework(o)
		r.refuse(refusal)
		return r
	}
	oo := o
	oo.Layout = mode
	if plan != nil {
		// The plan's texts wait on disk while the checks run (Shed): the
		// checks read the same files. The code fixes edit files the move
		// edits too (to follow it): its text, read back once for both.
		plan.Shed()
		oo.read = func(path string) ([]byte, error) {
			if e := plan.EditFor(path); e != nil {
				if err := plan.LoadEdit(e); err != nil {
					return nil, err
				}
				return e.Old, nil
			}
			return project.ReadSource(path)
		}
	}
	o.progress(StepCheck, p.ConfigDisplay, 0, 0)
	r := ApplyConfig(p, oo, rules.Check)
	r.Mode = mode
	if plan != nil && !r.Fatal {
		if joined, joinedNotes := r.joinFolders(p, o, plan); joined != nil {
			plan, notes = joined, joinedNotes
		}
	}
	r.Notes = append(r.Notes, notes...)
	if len(notes) > 0 && mode == modeKeep && o.Layout == LayoutMove {
		pinned := false
		for _, f := range r.Fixed {
			pinned = pinned || f.D.Fix.Layout == rules.KeepOnly && f.D.Code == "FW102"
		}
		if pinned {
			r.Notes = append(r.Notes, "layout B is pinned instead (FW102), so that version 4 keeps it; move the sources (by hand, or with --also) and run apply again to reach layout A")
		} else {
			r.Notes = append(r.Notes, "the project stays in layout B, which version 4 keeps only while app/ holds nothing (FW102)")
		}
	}
	if r.Fatal || plan == nil {
		return r
	}
	if err := plan.Load(); err != nil {
		r.refuse("not written: " + err.Error())
		return r
	}
	if r.New != nil {
		// A config that is a symlink inside the project is written where
		// it points: the link stays a link.
		path := p.ConfigPath
		if p.ConfigReal != "" {
			path = p.ConfigReal
		}
		mode := os.FileMode(0o644)
		if st, err := os.Stat(path); err == nil {
			mode = st.Mode()
		}
		if err := plan.MergeContent(path, r.Old, r.New, mode, configFixes); err != nil {
			r.internal(err)
			return r
		}
	}
	for i, e := range r.CodeEdits {
		if err := plan.MergeContent(e.Path, e.Old, e.New, e.Mode, codeFixes); err != nil {
			r.internal(err)
			return r
		}
		// The plan writes (and diffs) the file now: its texts here are
		// the plan's, or garbage once merged with the move's edits.
		r.CodeEdits[i].Old, r.CodeEdits[i].New = nil, nil
	}
	r.Plan = plan
	r.MovedFiles = countFiles(plan)
	// The fixes left out for the move (FW102's pin of layout B) are its
	// alternative: the move resolves their findings.
	notFixed := r.NotFixed[:0]
	for _, f := range r.NotFixed {
		if f.D.Fix.Layout == rules.KeepOnly {
			r.ByMove = append(r.ByMove, f.D)
		} else {
			notFixed = append(notFixed, f)
		}
	}
	r.NotFixed = notFixed
	return r
}

// joinFolders adds to the layout move the root folders that the fixes of
// the findings still standing need moved with the sources (rules.Fix.Also:
// a module reads the folder from srcDir), planning the move again with
// them as --also would: the folders move in the same transaction as the
// sources. A finding whose folders the move cannot take (a name already
// in app/, a folder that must stay at the root) is not fixed, with the
// move's reason, and the others still join. It returns the new plan and
// its notes, nil when no folder was added.
func (r *Result) joinFolders(p *project.Project, o Options, plan *move.Plan) (*move.Plan, []string) {
	var want []*rules.Diagnostic
	for _, d := range r.Remaining {
		if d.Fix == nil || len(d.Fix.Also) == 0 || !fixAllowed(d, modeMove) || d.Fix.Applicability == rules.Unsafe && !o.MakesUnsafe(d) {
			continue
		}
		want = append(want, d)
	}
	if len(want) == 0 {
		return nil, nil
	}
	try := func(ds []*rules.Diagnostic) (*move.Plan, []string, string) {
		oo := o
		oo.Also = slices.Clip(o.Also)
		oo.alsoWhy = map[string]string{}
		for _, d := range ds {
			for _, a := range d.Fix.Also {
				if !slices.Contains(oo.Also, a) {
					oo.Also = append(oo.Also, a)
					oo.alsoWhy[a] = d.Code + ": " + d.Fix.Description
				}
			}
		}
		np, mode, notes, refusal := planLayout(p, oo)
		switch {
		case refusal != "":
			return nil, nil, refusal
		case np == nil || mode != modeMove:
			// One line: the report shows it after the finding.
			var lines []string
			for _, n := range notes {
				for _, l := range strings.Split(strings.TrimPrefix(n, "not moved into app/: "), "\n") {
					if l = strings.TrimSpace(l); l != "" {
						lines = append(lines, l)
					}
				}
			}
			return nil, nil, strings.Join(lines, " ")
		}
		return np, notes, ""
	}
	taken := want
	joined, notes, why := try(want)
	if why != "" {
		// Together the move cannot take them: one at a time, so that one
		// folder in the way does not keep the others out.
		taken = nil
		for _, d := range want {
			np, nn, why := try(append(slices.Clip(taken), d))
			if why != "" {
				r.addNotFixed(d, "the move cannot take "+strings.Join(d.Fix.Also, ", ")+": "+why)
				continue
			}
			taken = append(taken, d)
			joined, notes = np, nn
		}
	}
	for _, d := range taken {
		r.addFixed(d)
		r.Remaining = slices.DeleteFunc(r.Remaining, func(x *rules.Diagnostic) bool { return x == d })
	}
	return joined, notes
}

// configFixes and codeFixes are the reasons the config's fixes and the
// code fixes give in a plan's edits.
const (
	configFixes = "config fixes"
	codeFixes   = "code fixes"
)

// countFiles counts the files a plan renames, those in moved directories
// included (before the move: call it before the plan is written).
func countFiles(plan *move.Plan) int {
	n := 0
	for _, mv := range plan.Moves {
		if !mv.Dir {
			n++
			continue
		}
		filepath.WalkDir(mv.From, func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				n++
			}
			return nil
		})
	}
	return n
}

// planLayout plans the move of p's sources into app/. It returns the plan
// (nil when nothing moves), the fix layout mode the config fixes must
// follow, notes for the report, and a refusal when the project must not be
// touched at all.
//
// When the move cannot be made, what happens depends on what version 4
// would make of the tree: a layout-B project without an app/ directory
// stays layout B under version 4 (srcDir detection falls back to the root),
// so its other fixes (the version step included) are still made and a note
// says why nothing moved; a mixed project (app/ holds files) would lose its root sources the
// moment it runs version 4, so nothing of it is written.
func planLayout(p *project.Project, o Options) (plan *move.Plan, mode string, notes []string, refusal string) {
	d := p.Detection
	if o.Layout == LayoutKeep {
		return nil, modeKeep, nil, ""
	}
	if p.File == nil || d == nil || (d.Layout != compat.LayoutB && d.Layout != compat.LayoutMixed) {
		// Layout A has nothing to move; a custom srcDir keeps its folder
		// (FW103 and FW108 fix the paths that change meaning).
		return nil, modeMove, nil, ""
	}
	blocked := func(why string) (*move.Plan, string, []string, string) {
		if d.Layout == compat.LayoutMixed {
			return nil, "", nil, "nothing written: " + why + "\n  app/ holds files, so with version 4 it is srcDir and the root sources are ignored: the version step is not made either; move them by hand, or pin the layout with --layout=keep"
		}
		return nil, modeKeep, []string{"not moved into app/: " + why}, ""
	}
	cfg := project.ConfigValues(p.File)
	if v, st := cfg.Value("srcDir"); st == compat.Static {
		// An explicit srcDir: the project chose where its sources are.
		return nil, modeMove, []string{fmt.Sprintf("not moved: srcDir is set to %q", v)}, ""
	} else if st == compat.Dynamic {
		return blocked("srcDir is computed when the config runs")
	}
	var unknown []string
	for k := range d.Current.Unknown {
		if k == "srcDir" || k == "serverDir" || strings.HasPrefix(k, "dir.") {
			unknown = append(unknown, "`"+k+"`")
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		if len(unknown) > 3 {
			unknown = append(unknown[:3], fmt.Sprintf("%d more", len(unknown)-3))
		}
		return blocked("the layout depends on values only known when the config runs (" + strings.Join(unknown, ", ") + ")")
	}
	in := move.Input{
		Root:     d.Root,
		SrcDir:   d.Root, // layout B and mixed: the sources to move are at the root
		Target:   filepath.Join(d.Root, "app"),
		Also:     o.Also,
		AlsoWhy:  o.alsoWhy,
		BuildDir: d.Current.BuildDir,
		V4Paths:  d.Compat >= 4,
	}
	if d.Current.SrcDir == d.Root {
		in.Dirs = d.Current.Dir
	}
	if _, st := cfg.Value("serverDir"); st == compat.Static {
		in.ServerDir = d.Current.ServerDir
	}
	for _, name := range []string{"~", "@", "~~", "@@", "#shared", "#server"} {
		if _, st := cfg.Value("alias." + name); st == compat.Static {
			if v, ok := d.Current.Alias[name]; ok {
				if in.Alias == nil {
					in.Alias = map[string]string{}
				}
				in.Alias[name] = v
			}
		}
	}
	for _, ly := range p.Layers {
		if ly.Root != "" && ly.Root != d.Root {
			in.Layers = append(in.Layers, ly.Root)
		}
	}
	plan, err := move.PlanMove(in)
	if err != nil {
		return blocked(err.Error())
	}
	if len(plan.Conflicts) > 0 {
		var reasons []string
		for _, c := range plan.Conflicts {
			reasons = append(reasons, relSlashTo(d.Root, c.Path)+": "+c.Reason)
		}
		return blocked("the move into app/ cannot be made:\n    " + strings.Join(reasons, "\n    "))
	}
	if plan.Empty() {
		return nil, modeMove, plan.Notes, ""
	}
	return plan, modeMove, plan.Notes, ""
}

// layoutSkipReason says why apply leaves out a fix for the layout mode.
func layoutSkipReason(d *rules.Diagnostic, mode string) string {
	switch d.Fix.Layout {
	case rules.KeepOnly:
		return "the sources move into app/ instead (--layout=keep pins layout B)"
	case rules.MoveOnly:
		return "right only once the sources move into app/, and they stay where they are"
	}
	return ""
}

// refuse marks the project as not migrated, with the reason: exit status 2,
// nothing written.
func (r *Result) refuse(why string) {
	r.Fatal, r.New, r.Err = true, nil, why
}

// planPaths lists the paths a plan moves or edits, for the git guard.
func planPaths(plan *move.Plan) []string {
	var out []string
	for _, mv := range plan.Moves {
		out = append(out, mv.From)
	}
	for _, e := range plan.Edits {
		out = append(out, e.Path)
	}
	return out
}

// configRank orders the config files of one directory as the framework looks
// them up.
func configRank(path string) int {
	base := filepath.Base(path)
	for i, n := range compat.ConfigNames {
		if n == base {
			return i
		}
	}
	return len(compat.ConfigNames)
}
