package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/fix"
	"github.com/fwmigrate/fwmigrate/internal/gitx"
	"github.com/fwmigrate/fwmigrate/internal/par"
	"github.com/fwmigrate/fwmigrate/migrate/internal/knobs"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rewrite/move"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/txn"
	"github.com/fwmigrate/fwmigrate/workspace"
)

// Result is what apply did, or would do, to one config file.
type Result struct {
	Project *project.Project
	// Framework is the major the checks ran with; FrameworkFrom says where
	// it came from: "package.json", "--framework", "the projects that
	// extend it", or "" when unknown (the rules then treat the project as
	// major 3). FrameworkNote is set when a --framework is overridden.
	Framework     int
	FrameworkFrom string
	FrameworkNote string
	// Bumped is the framework major FW701's fix moves package.json's fw
	// to in this run (the config's fixes are made for it), 0 when fw is
	// not bumped.
	Bumped int

	// Found are the diagnostics of the files on disk before apply: what
	// `check` reports, and what the report accounts for.
	Found    []*rules.Diagnostic
	Fixed    []FixReport
	NotFixed []FixReport // fixes that could not be made, with the reason
	// ByMove are the findings the layout move resolves, whose own fix (FW102's
	// pin of layout B) is the alternative to the move.
	ByMove []*rules.Diagnostic
	// Remaining are the diagnostics that still stand after the fixes: the
	// checks run again on the new text. Settled are the Found ones that the
	// other fixes made go away (FW204's defaults, once the version step is
	// made), which were not fixed themselves. Unless the project is written,
	// Remaining and NotFixed point into the files on disk: the positions of
	// Found (see settle).
	Remaining []*rules.Diagnostic
	Settled   []*rules.Diagnostic
	Unsafe    int // unsafe fixes left out (no --unsafe)

	Old, New []byte // the config's text; New is nil when it does not change
	Diff     string // with DryRun: the patch

	// ToTest are the behaviour changes of the version step to test the
	// project for: default changes whose sites are left in the code, and
	// those only testing can judge.
	ToTest []string

	// CodeEdits are the application and module files the code fixes
	// edit (with the move, they are joined to its plan as well).
	CodeEdits []txn.Edit

	Plan       *move.Plan // the layout move, nil when nothing moves
	MovedFiles int        // the files the move renames, those in moved directories included
	Mode       string     // the fix layout mode the config fixes followed
	Outside    bool       // a layer outside the paths given: checked, not rewritten
	Notes      []string   // what the move left for a person, or why nothing moved
	Written    bool
	Fatal      bool   // exit status 2
	Err        string // why the project was not written

	// Journal is the journal of the project's writes (txn), as
	// shown to the user, when apply wrote one or found one; JournalKept
	// says it is still there (an interrupted apply not finished).
	// Recovered says what this run did with one an interrupted apply
	// left: "completed" or "rolled back".
	Journal     string
	JournalKept bool
	Recovered   string

	fixed    map[string]bool                // fix.Key of every Fixed
	notFixed map[string]string              // fix.Key of every NotFixed: the first reason
	byFound  map[string][]*rules.Diagnostic // Found by findingKey (onDisk)

	released, wasChanged bool // Release ran; Changed before it

	// Shared counts the findings of the later checks (on the new texts)
	// that are Found's values, not copies of them (share.go).
	Shared int
}

// FixReport is a fix apply made, or could not make (Reason says why).
type FixReport struct {
	D      *rules.Diagnostic
	Reason string
}

// Run applies the fixes to projects, and reports on outside: the local
// layers they extend from outside the paths given (Loader.LayerProjects),
// which are checked and never rewritten. The results are in the order of
// projects, then outside.
//
// Only the projects given are rewritten (and moved): a layer they extend
// from elsewhere is shared with other projects, and apply changes nothing
// the user did not point it at. Its findings stay with `check`.
func Run(projects, outside []*project.Project, o Options) []*Result {
	results := make([]*Result, len(projects))
	// Configs that share a directory share one tree: the first by the
	// framework's lookup order owns the layout move, and the others follow
	// the mode it ends up with, after it.
	groups := map[string][]int{}
	var roots []string
	for i, p := range projects {
		if _, ok := groups[p.Root]; !ok {
			roots = append(roots, p.Root)
		}
		groups[p.Root] = append(groups[p.Root], i)
	}
	var ready atomic.Int64
	plan := func(g int) {
		defer func() { o.progress(StepReady, "", int(ready.Add(1)), len(roots)) }()
		planRoot(projects, groups[roots[g]], results, o)
		if o.Planned != nil {
			for _, i := range groups[roots[g]] {
				o.Planned(results[i])
			}
		}
	}
	if o.DryRun && o.Stream != nil && o.Confirm == nil {
		return streamRun(projects, outside, roots, groups, results, plan, o)
	}
	par.For(len(roots), plan)
	for _, p := range outside {
		results = append(results, layerOutside(p, o))
	}
	// The layout move is planned, and everything written, one project at
	// a time: the git guard and the writes of one project do not race with
	// another's in the same repository. Config edits join the move's
	// transaction, so a project is migrated whole or not at all.
	var base string
	if o.DryRun {
		base = patchBase()
	}
	if !o.DryRun && o.Confirm != nil {
		// The git guard answers before the question: a project with
		// uncommitted changes is refused in the plan shown, not after a
		// yes. It answers again before each write (below): the run's own
		// writes, or the user's while the question waits, may touch a
		// later project's paths.
		if !o.AllowDirty {
			pre := &gitGuard{}
			for _, r := range results {
				if !r.Fatal && r.Changed() && r.Recovered == "" {
					r.guard(pre)
				}
			}
		}
		if !o.Confirm(results) {
			for _, r := range results {
				r.settle()
			}
			return results
		}
	}
	toDiff, diffed := 0, 0
	for _, r := range results {
		if o.DryRun && !r.Fatal && r.Changed() && r.Recovered == "" {
			toDiff++
		}
	}
	guard := &gitGuard{}
	var toWrite []*Result
	for _, r := range results {
		if r.Fatal || !r.Changed() || r.Recovered != "" {
			continue
		}
		if o.DryRun {
			diffed++
			o.progress(StepDiff, r.Project.ConfigDisplay, diffed, toDiff)
			r.makeDiff(base)
			continue
		}
		// Every project is asked about before any is written: what one
		// project writes is never taken for another's uncommitted change.
		if !o.AllowDirty && !r.guard(guard) {
			continue
		}
		toWrite = append(toWrite, r)
	}
	// The projects are written together, each through its own journal,
	// with their barriers shared (txn.CommitAll): a small project's
	// transaction is mostly waiting for its syncs, and a thousand of them
	// pay for the barriers of one. Projects whose roots nest (or are one)
	// are written one after the other, in order, in one chain (their trees
	// overlap): the k-th projects of every chain are one batch, and the
	// batches run in turn.
	chains := WriteChains(toWrite)
	for k := 0; ; k++ {
		var batch []*Result
		for _, c := range chains {
			if k < len(c) {
				batch = append(batch, c[k])
			}
		}
		if len(batch) == 0 {
			break
		}
		writeBatch(batch, o)
		// The checks after the moves hold a project each: as many at
		// once as there are CPUs, like check's pool, so that memory
		// follows the largest project.
		par.For(len(batch), func(i int) {
			if r := batch[i]; r.Written && r.Plan != nil {
				checkMoved(r, o)
			}
		})
	}
	for _, r := range results {
		r.settle()
	}
	return results
}

// checkMoved checks what stands in r's project after its move: the
// layout's diagnostics are gone with it.
func checkMoved(r *Result, o Options) {
	np := r.Project.Reload()
	if np.Framework == 0 {
		// A major taken from the apps that extend the project (a layer)
		// is not in its own tree: keep it.
		np.Framework, np.FrameworkSource = r.Project.Framework, r.Project.FrameworkSource
	}
	r.Remaining = rules.Check(np, o.rulesOf(r.Project))
}

// WriteChains groups rs (in order) by their roots: a chain holds the
// projects whose roots are one or nest in one another, in rs's order. Run
// writes the k-th projects of every chain as one batch, the batches in
// turn.
func WriteChains(rs []*Result) [][]*Result {
	type entry struct {
		key string // the root, with separators first in order: a folder's subfolders follow it
		i   int
	}
	es := make([]entry, len(rs))
	for i, r := range rs {
		root := r.Project.RealRoot
		if root == "" {
			root = r.Project.Root
		}
		es[i] = entry{strings.ReplaceAll(filepath.Clean(root), string(filepath.Separator), "\x00") + "\x00", i}
	}
	sort.SliceStable(es, func(a, b int) bool { return es[a].key < es[b].key })
	chainOf := make([]int, len(rs))
	n := -1
	top := ""
	for _, e := range es {
		if n < 0 || !strings.HasPrefix(e.key, top) {
			n++
			top = e.key
		}
		chainOf[e.i] = n
	}
	chains := make([][]*Result, n+1)
	for i, r := range rs {
		chains[chainOf[i]] = append(chains[chainOf[i]], r)
	}
	return chains
}

// guard asks g whether r's project has uncommitted changes in the paths
// apply writes, and refuses it (Fatal, with why) when it has or git cannot
// say. It reports whether r may be written.
func (r *Result) guard(g *gitGuard) bool {
	dirty, err := g.dirty(r.Project, guardPaths(r))
	if err != nil {
		r.Fatal, r.Err = true, fmt.Sprintf("not written: cannot ask git whether the project has uncommitted changes: %v (use --allow-dirty to write anyway)", err)
		return false
	}
	if len(dirty) > 0 {
		r.Fatal, r.Err = true, "not written: uncommitted changes in "+strings.Join(dirty, ", ")+" (commit or stash them first, or use --allow-dirty)"
		return false
	}
	return true
}

// recoverOrSkip is the result of a project with a journal (recovered) or,
// with --rollback, of one without (nothing to undo).
func recoverOrSkip(p *project.Project, o Options) *Result {
	if p.Journal != "" {
		return recoverProject(p, o)
	}
	r := &Result{Project: p}
	r.setFramework(o)
	r.Notes = []string{"nothing to roll back: no interrupted apply in this project"}
	return r
}

// ApplyConfig computes the new text of one project's config, and the code
// fixes that go with it, as Run does for each project after its layout
// move is planned: the fixes made in rounds, each new text verified;
// nothing is written and no move is planned. check is rules.Check (a test
// injects broken fixes through it).
func ApplyConfig(p *project.Project, o Options, check func(*project.Project, rules.Options) []*rules.Diagnostic) *Result {
	r := &Result{Project: p}
	r.setFramework(o)
	// The later checks share the first one's values (share.go).
	if knobs.ShareFindings {
		sh := &sharer{check: check}
		check = sh.run
		defer func() { r.Shared = sh.shared }()
	}
	diags := check(p, o.rulesOf(p))
	r.Found = diags
	if p.File == nil || rules.Fatal(diags) {
		r.Remaining, r.Fatal = diags, rules.Fatal(diags)
		return r
	}
	r.Old = p.File.Src
	// The pins keep version-3 behaviour on major 3: with them, fw is not
	// bumped (makeCodeFixes says so), and the pins are those of the
	// project's major.
	pins := r.pinFixes(p, diags, o)
	out, err := fix.Rounds(p, diags, pins, fix.RoundOptions{
		Unsafe:      o.Unsafe,
		UnsafeRules: o.UnsafeRules,
		Skip: func(d *rules.Diagnostic) string {
			if fixAllowed(d, o.Layout) {
				return ""
			}
			return layoutSkipReason(d, o.Layout)
		},
		Rules:     o.rulesOf(p),
		Check:     check,
		KeepMajor: len(o.Pin) > 0,
		Read:      project.ReadSource,
	})
	if out.Bump != nil {
		// The fw dependency moves to the target major in the same run
		// (FW701): the config's fixes are those of that major.
		major := out.Project.Framework
		r.Notes = append(r.Notes, fmt.Sprintf("package.json's fw moves to major %d (FW701): the config's fixes are made for major %d", major, major))
	}
	for _, d := range out.Fixed {
		r.addFixed(d)
	}
	for _, n := range out.NotFixed {
		r.addNotFixed(n.D, n.Reason)
	}
	if err != nil {
		r.internal(err)
		return r
	}
	if out.Fatal {
		r.Remaining, r.Fatal = out.Diags, true
		return r
	}
	cur, diags := out.Project, out.Diags
	if out.Changed(p) {
		r.New = cur.File.Src
	}
	diags = r.makeCodeFixes(diags, o)
	if out.Bump != nil && r.hasFixed(out.Bump) {
		r.Bumped = cur.Framework
	}
	r.ToTest = r.toTest(r.Project, cur.File, diags) // the version step from the project as it was (FW701 may bump it)
	for _, d := range diags {
		if d.Fix != nil && d.Fix.Applicability == rules.Unsafe && !o.MakesUnsafe(d) {
			r.Unsafe++
		}
	}
	r.Remaining = diags
	return r
}

// layerOutside is the report of a layer that projects under the paths given
// extend from outside them: checked, not rewritten.
func layerOutside(p *project.Project, o Options) *Result {
	r := &Result{Project: p, Outside: true}
	r.setFramework(o)
	r.Remaining = rules.Check(p, o.rulesOf(p))
	r.Found = r.Remaining
	for _, d := range r.Remaining {
		if d.Fix != nil && (d.Fix.Applicability == rules.Safe || o.MakesUnsafe(d)) {
			r.addNotFixed(d, "a layer outside the paths given: apply does not rewrite it (run fwmigrate apply on it)")
		}
	}
	r.Fatal = rules.Fatal(r.Remaining)
	return r
}

// setFramework records the framework major the checks run with, as the
// workspace decides it (workspace.Major).
func (r *Result) setFramework(o Options) {
	p := r.Project
	r.FrameworkNote = workspace.Major(p, o.settingsOf(p))
	r.Framework, r.FrameworkFrom = p.Framework, p.FrameworkSource
}

func (r *Result) internal(err error) {
	r.Fatal, r.New = true, nil
	r.Err = "not written"
	d := rules.Find(rules.CodeInternal).Diagnose(r.Project.ConfigDisplay, ast.Span{}, "", "the rewrite failed its own checks, so the file was not written: "+err.Error())
	d.Notes = []string{"this is a bug in fwmigrate: please report it with the config"}
	r.Remaining = []*rules.Diagnostic{d}
}

// embeddedGitDir says why p's project is refused when its folder, or one
// between it and the top of its work tree, looks like a git directory
// (HEAD, objects/, refs/ committed as plain files): git started there
// would obey that folder's config (its core.fsmonitor, its hooks).
func embeddedGitDir(p *project.Project) string {
	root := p.RealRoot
	if root == "" {
		root = p.Root
	}
	if d := gitx.Embedded(root, gitx.Top(root)); d != "" {
		return (&gitx.EmbeddedError{Dir: p.ShowPath(d)}).Error()
	}
	return ""
}

// GitDirty asks git which of paths (files or directories under root) have
// changes that are not committed: modified, staged, or untracked. Outside a
// work tree there is nothing to protect and the answer is none. Inside one
// (a .git at or above root), git must answer: without git on PATH, or when
// it fails, the error says so, and nothing is written. git is run as gitx
// runs it: the repository's commands off, found from root no higher than
// the nearest .git, and never in a folder that looks like a git directory.
func GitDirty(root string, paths []string) ([]string, error) {
	top, _, err := gitx.Find(root)
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, fmt.Errorf("the project lies in a git work tree (%s), but git is not on PATH", filepath.Join(gitx.Top(root), ".git"))
		}
		return nil, err
	}
	if top == "" {
		return nil, nil
	}
	args := []string{"status", "--porcelain", "--"}
	for _, p := range paths {
		if rel, err := filepath.Rel(root, p); err == nil {
			args = append(args, rel)
		}
	}
	cmd := gitx.Command(root, top, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, fmt.Errorf("the project lies in a git work tree (%s), but git is not on PATH", filepath.Join(top, ".git"))
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, errors.New(msg)
	}
	var dirty []string
	for _, line := range strings.Split(string(out), "\n") {
		// "XY path": two status letters, a space, the path (relative to
		// the repository's top).
		if len(line) > 3 {
			dirty = append(dirty, line[3:])
		}
	}
	const most = 5
	if len(dirty) > most {
		dirty = append(dirty[:most], fmt.Sprintf("and %d more", len(dirty)-most))
	}
	return dirty, nil
}

// hasFixed reports whether d's fix is among r.Fixed: a map, not a scan, as
// an app may have tens of thousands of fixes.
func (r *Result) hasFixed(d *rules.Diagnostic) bool { return r.fixed[fix.Key(d)] }

func (r *Result) addFixed(d *rules.Diagnostic) {
	if r.fixed == nil {
		r.fixed = map[string]bool{}
	}
	r.fixed[fix.Key(d)] = true
	r.Fixed = append(r.Fixed, FixReport{D: d})
}

// NotFixedReason returns why d's fix was not applied, "" when it was not
// tried.
func (r *Result) NotFixedReason(d *rules.Diagnostic) string {
	if d.Fix == nil {
		return ""
	}
	return r.notFixed[fix.Key(d)]
}

// addNotFixed records that d's fix was not made, and why: the first
// reason given for a fix is the one reported.
func (r *Result) addNotFixed(d *rules.Diagnostic, reason string) {
	if r.notFixed == nil {
		r.notFixed = map[string]string{}
	}
	if k := fix.Key(d); r.notFixed[k] == "" {
		r.notFixed[k] = reason
	}
	r.NotFixed = append(r.NotFixed, FixReport{d, reason})
}

// Changed reports that apply changes (or would change) the project.
func (r *Result) Changed() bool {
	if r.released {
		return r.wasChanged
	}
	return !r.Fatal && (r.New != nil || r.Plan != nil || len(r.CodeEdits) > 0)
}

// MovedNames are the entries the layout move renames, project-relative.
func (r *Result) MovedNames() []string {
	var out []string
	for _, mv := range r.Plan.Moves {
		name := relSlashTo(r.Project.Root, mv.From)
		if mv.Dir {
			name += "/"
		}
		out = append(out, name)
	}
	return out
}

// planRoot plans the projects idx (indexes of projects, one root) into
// results: the first by the framework's lookup order owns the layout move,
// the others follow its mode.
func planRoot(projects []*project.Project, idx []int, results []*Result, o Options) {
	sort.SliceStable(idx, func(a, b int) bool {
		return configRank(projects[idx[a]].ConfigPath) < configRank(projects[idx[b]].ConfigPath)
	})
	// A project folder that git would take for a git directory is
	// refused before git runs or anything is written (gitx), and so is
	// a journal that is never run.
	if why := embeddedGitDir(projects[idx[0]]); why != "" {
		for _, i := range idx {
			r := &Result{Project: projects[i]}
			r.setFramework(o)
			r.refuse("not written: " + why)
			results[i] = r
		}
		return
	}
	if re := projects[idx[0]].JournalRefused; re != nil {
		for _, i := range idx {
			results[i] = refuseJournal(projects[i], re, o)
		}
		return
	}
	if p := projects[idx[0]]; (p.Journal != "" || o.Rollback) && p.Via == "" {
		// An interrupted apply is finished (or undone) first, and
		// alone: the project was loaded half written.
		results[idx[0]] = recoverOrSkip(p, o)
		for _, i := range idx[1:] {
			results[i] = &Result{Project: projects[i]}
			results[i].setFramework(o)
		}
		return
	}
	first := applyProject(projects[idx[0]], o, "")
	results[idx[0]] = first
	for _, i := range idx[1:] {
		if first.Mode == "" { // refused: the directory is left alone
			r := &Result{Project: projects[i]}
			r.setFramework(o)
			r.refuse("nothing written: " + filepath.Base(first.Project.ConfigPath) + " in the same directory was refused")
			results[i] = r
			continue
		}
		results[i] = applyProject(projects[i], o, first.Mode)
		results[i].Notes = append(results[i].Notes, "the layout move of this directory is "+filepath.Base(first.Project.ConfigPath)+"'s: the framework loads one config per directory")
	}
}

// streamRun is Run's dry run with Options.Stream: the roots are planned a
// few at a time (par.InOrder, as many ahead as there are CPUs), and each
// result, in the order of projects, is diffed, settled, streamed and
// released as soon as its root and those of the results before it are
// planned. Results and output are those of the run that plans everything
// first; only the memory differs.
func streamRun(projects, outside []*project.Project, roots []string, groups map[string][]int, results []*Result, plan func(g int), o Options) []*Result {
	base := patchBase()
	rootOf := make([]int, len(projects))
	for g, root := range roots {
		for _, i := range groups[root] {
			rootOf[i] = g
		}
	}
	planned := make([]bool, len(roots))
	next, emitted := 0, 0
	emit := func(r *Result) {
		emitted++
		if !r.Fatal && r.Changed() && r.Recovered == "" {
			// Which projects change is not known before they are
			// planned: the count is the project's place among all.
			o.progress(StepDiff, r.Project.ConfigDisplay, min(emitted, len(projects)), len(projects))
			r.makeDiff(base)
		}
		r.settle()
		o.Stream(r)
		r.Release()
	}
	par.InOrder(len(roots), runtime.GOMAXPROCS(0), plan, func(g int) {
		// Configs of one root may lie apart in the order of projects
		// (discovery order): a result waits for those before it.
		planned[g] = true
		for next < len(projects) && planned[rootOf[next]] {
			emit(results[next])
			next++
		}
	})
	for _, p := range outside {
		r := layerOutside(p, o)
		results = append(results, r)
		emit(r)
	}
	return results
}

// makeDiff sets r.Diff, the patch of a dry run; base is where its paths
// are relative to (patchBase).
func (r *Result) makeDiff(base string) {
	if r.Plan != nil {
		diff, err := r.Plan.GitDiff(base)
		if err != nil {
			// A symlink move cannot be a text patch: describe it.
			diff = "# " + err.Error() + "\n" + r.Plan.Diff()
		}
		r.Diff = diff
		return
	}
	if r.New != nil {
		r.Diff = rewrite.Diff(diffPath(base, r.Project.ConfigPath), r.Old, r.New)
	}
	for _, e := range r.CodeEdits {
		r.Diff += rewrite.Diff(diffPath(base, e.Path), e.Old, e.New)
	}
}

// Release drops what r holds for its report and its diff: the texts, the
// plan, the code edits, the findings. Changed, Fatal and the report's
// other plain fields still answer. A streamed dry run (Options.Stream)
// releases each result once it is reported.
func (r *Result) Release() {
	r.released, r.wasChanged = true, r.Changed()
	r.Found, r.Fixed, r.NotFixed, r.ByMove, r.Remaining, r.Settled = nil, nil, nil, nil, nil, nil
	r.Old, r.New, r.Diff, r.CodeEdits, r.Plan, r.ToTest = nil, nil, "", nil, nil, nil
	r.fixed, r.notFixed, r.byFound = nil, nil, nil
}
