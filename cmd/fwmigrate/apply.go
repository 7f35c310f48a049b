package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rewrite/move"
	"github.com/fwmigrate/fwmigrate/rules"
)

func init() { commands = append(commands, newApplyCmd) }

type applyOptions struct {
	rules      rules.Options
	unsafe     bool
	dryRun     bool
	allowDirty bool
	framework  int      // --framework, 0 when not given
	layout     string   // --layout: move or keep
	also       []string // --also: more root folders to move
}

func newApplyCmd() *cobra.Command {
	var (
		filter ruleFilter
		o      applyOptions
		format string
	)
	cmd := &cobra.Command{
		Use:   "apply --to=4 [paths...]",
		Short: "Apply the fixes: rewrite fw.config files for version 4",
		Long: `Apply runs the checks of 'fwmigrate check' on every fw.config.* under the given
paths and applies their fixes to the config files: the safe ones, and the
unsafe ones too with --unsafe. Only the bytes a fix must change are changed:
comments, quotes, indentation, line endings and the rest of the file stay as
they are. Every rewritten file is parsed again and checked to hold the
intended values before it is written, atomically; a file that fails this is
left untouched and reported as FW999.

The version step is rule FW206: on framework major 3 it sets
future.compatibilityVersion to 4 (creating future), on major 4 it removes the
redundant setting. The major comes from the fw dependency in package.json,
else from --framework; when neither says, the project is treated as major 3.

Fixes that cannot be made (a value computed at run time, a spread, a
computed key, a config that is not an object literal) are listed with the
reason and stay as diagnostics. Running apply twice changes nothing the
second time.

In a git work tree, config files with uncommitted changes are refused
unless --allow-dirty, so that 'git diff' shows exactly what apply did.

Exit status: 0 when done (--dry-run: nothing would change), 1 with --dry-run
when there are changes to make, 2 for usage errors, files that cannot be read
or parsed, refused or unwritable files, and internal errors (FW999).`,
		Example: `  fwmigrate apply --to=4
  fwmigrate apply --to=4 --dry-run | git apply --check
  fwmigrate apply --to=4 apps/web --unsafe
  fwmigrate apply --to=4 --select=FW2 --framework=3`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := filter.options()
			if err != nil {
				return err
			}
			o.rules = opts
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("--format must be text or json, not %q", format)}
			}
			if o.layout != layoutMove && o.layout != layoutKeep {
				return usageError{fmt.Errorf("--layout must be move or keep, not %q", o.layout)}
			}
			for _, a := range o.also {
				if a == "" || filepath.IsAbs(a) || strings.Contains(filepath.ToSlash(a), "..") {
					return usageError{fmt.Errorf("--also takes folder names relative to the project root, not %q", a)}
				}
			}
			o.framework = opts.Framework
			results := runApply(args, o)
			out, report := cmd.OutOrStdout(), cmd.OutOrStdout()
			if o.dryRun && format == "text" {
				// The diff alone goes to stdout, so that it can be piped
				// to `git apply`; the report goes to stderr.
				report = cmd.ErrOrStderr()
			}
			var werr error
			if format == "json" {
				werr = writeApplyJSON(out, results, o)
			} else {
				werr = writeApplyText(out, report, results, o)
			}
			if werr != nil {
				return werr
			}
			changed := false
			for _, r := range results {
				if r.fatal {
					return exitCodeError{exitError}
				}
				if r.changed() {
					changed = true
				}
			}
			if o.dryRun && changed {
				return exitCodeError{exitFindings}
			}
			return nil
		},
	}
	filter.register(cmd)
	cmd.Flags().BoolVar(&o.unsafe, "unsafe", false, "also apply fixes that change behaviour (review them)")
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "write nothing; print a unified diff of the changes (exit status 1 when there are any)")
	cmd.Flags().BoolVar(&o.allowDirty, "allow-dirty", false, "rewrite config files that have uncommitted changes in git")
	cmd.Flags().StringVar(&o.layout, "layout", layoutMove, "move: move layout-B sources into app/ and fix the paths that follow; keep: pin layout B (srcDir: '.', dir.app: 'app') instead")
	cmd.Flags().StringSliceVar(&o.also, "also", nil, "more root folders to move into app/ (e.g. stores,types), besides those found through ~/ imports")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}

// fileApply is what apply did, or would do, to one config file.
type fileApply struct {
	p *project.Project
	// framework is the major the checks ran with; frameworkFrom says where
	// it came from: "package.json", "--framework", or "" when unknown (the
	// rules then treat the project as major 3).
	framework     int
	frameworkFrom string
	frameworkNote string // a --framework that package.json overrides

	fixed    []fixReport
	notFixed []fixReport // fixes that could not be made, with the reason
	// remaining are the diagnostics that still stand after the fixes: the
	// checks run again on the new text.
	remaining []*rules.Diagnostic
	unsafe    int // unsafe fixes left out (no --unsafe)

	old, new []byte // new is nil when nothing changes
	diff     string // --dry-run

	plan      *move.Plan // the layout move, nil when nothing moves
	mode      string     // the fix layout mode the config fixes followed
	outside   bool       // a layer outside the paths given: checked, not rewritten
	moveNotes []string   // what the move left for a person, or why nothing moved
	written   bool
	fatal     bool   // exit status 2
	err       string // why the file was not written
}

type fixReport struct {
	d      *rules.Diagnostic
	reason string
}

// maxRounds bounds how often the checks run again on a rewritten file: a
// fix can bring a new fixable finding to light (moving generate.routes
// may leave generate empty), and apply must reach a state that a second
// run leaves alone. Fixes that keep undoing each other are a bug.
const maxRounds = 3

// runApply applies the fixes to every project under args. The result is
// in discovery order.
func runApply(args []string, o applyOptions) []*fileApply {
	// Only the configs found under args are rewritten (and moved): a layer
	// they extend from elsewhere is shared with other projects, and apply
	// changes nothing the user did not point it at. Its findings stay with
	// `check`.
	found := discover(args)
	projects := make([]*project.Project, len(found))
	l := newLoader()
	parallel(len(found), func(i int) {
		projects[i] = loadOne(l, found[i])
	})
	outside := l.LayerProjects()
	results := make([]*fileApply, len(projects))
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
	parallel(len(roots), func(g int) {
		idx := groups[roots[g]]
		sort.SliceStable(idx, func(a, b int) bool {
			return configRank(projects[idx[a]].ConfigPath) < configRank(projects[idx[b]].ConfigPath)
		})
		first := applyProject(projects[idx[0]], o, "")
		results[idx[0]] = first
		for _, i := range idx[1:] {
			if first.mode == "" { // refused: the directory is left alone
				r := &fileApply{p: projects[i]}
				r.setFramework(o)
				r.refuse("nothing written: " + filepath.Base(first.p.ConfigPath) + " in the same directory was refused")
				results[i] = r
				continue
			}
			results[i] = applyProject(projects[i], o, first.mode)
			results[i].moveNotes = append(results[i].moveNotes, "the layout move of this directory is "+filepath.Base(first.p.ConfigPath)+"'s: the framework loads one config per directory")
		}
	})
	for _, p := range outside {
		results = append(results, layerOutside(p, o))
	}
	// The layout move is planned, and everything written, one project at
	// a time: the git guard and the writes of one project do not race with
	// another's in the same repository. Config edits join the move's
	// transaction, so a project is migrated whole or not at all.
	for _, r := range results {
		if r.fatal || !r.changed() {
			continue
		}
		if o.dryRun {
			if r.plan != nil {
				wd, _ := os.Getwd()
				diff, err := r.plan.GitDiff(wd)
				if err != nil {
					// A symlink move cannot be a text patch: describe it.
					diff = "# " + err.Error() + "\n" + r.plan.Diff()
				}
				r.diff = diff
			} else {
				r.diff = rewrite.Diff(diffPath(r.p.ConfigDisplay), r.old, r.new)
			}
			continue
		}
		if !o.allowDirty {
			paths := []string{r.p.ConfigPath}
			if r.plan != nil {
				paths = append(paths, planPaths(r.plan)...)
			}
			dirty, err := gitDirty(r.p.Root, paths)
			if err != nil {
				r.fatal, r.err = true, fmt.Sprintf("not written: cannot ask git whether the project has uncommitted changes: %v (use --allow-dirty to write anyway)", err)
				continue
			}
			if len(dirty) > 0 {
				r.fatal, r.err = true, "not written: uncommitted changes in "+strings.Join(dirty, ", ")+" (commit or stash them first, or use --allow-dirty)"
				continue
			}
		}
		if r.plan != nil {
			if err := r.plan.Execute(); err != nil {
				r.fatal, r.err = true, "not written: "+err.Error()
				continue
			}
			r.written = true
			// The diagnostics that still stand are those of the moved
			// project: the layout ones are gone with the move.
			np := project.LoadProject(r.p.ConfigPath, r.p.ConfigDisplay)
			r.remaining = rules.Check(np, o.rules)
			continue
		}
		if err := rewrite.WriteFile(r.p.ConfigPath, r.new); err != nil {
			r.fatal, r.err = true, "not written: "+err.Error()
			continue
		}
		r.written = true
	}
	return results
}

// applyConfig computes the new text of one project's config. check is
// rules.Check (a test injects broken fixes through it).
func applyConfig(p *project.Project, o applyOptions, check func(*project.Project, rules.Options) []*rules.Diagnostic) *fileApply {
	r := &fileApply{p: p}
	r.setFramework(o)
	diags := check(p, o.rules)
	if p.File == nil || rules.Fatal(diags) {
		r.remaining, r.fatal = diags, rules.Fatal(diags)
		return r
	}
	r.old = p.File.Src
	cur := p
	failed := map[string]string{} // fix key -> why it could not be made
	for round := 1; ; round++ {
		var groups [][]rewrite.Op
		var owners []*rules.Diagnostic
		for _, d := range diags {
			if d.Fix == nil || len(d.Fix.Ops) == 0 || d.File != p.ConfigDisplay {
				continue
			}
			if _, ok := failed[fixKey(d)]; ok {
				continue
			}
			if d.Fix.Applicability == rules.Unsafe && !o.unsafe {
				continue
			}
			if !fixAllowed(d, o.layout) {
				reason := layoutSkipReason(d, o.layout)
				failed[fixKey(d)] = reason
				r.notFixed = append(r.notFixed, fixReport{d, reason})
				continue
			}
			groups = append(groups, d.Fix.Ops)
			owners = append(owners, d)
		}
		if len(groups) == 0 {
			break
		}
		res, err := rewrite.ApplyGroups(cur.File, groups)
		if err == nil {
			err = rewrite.Verify(p.ConfigDisplay, cur.File, res.Src, res.Applied)
		}
		if err != nil {
			r.internal(err)
			return r
		}
		why := map[int]string{}
		for _, s := range res.Skipped {
			if _, ok := why[s.Group]; !ok || !s.Blocked {
				why[s.Group] = s.Reason
			}
		}
		for g, d := range owners {
			if reason, ok := why[g]; ok {
				failed[fixKey(d)] = reason
				r.notFixed = append(r.notFixed, fixReport{d, reason})
			} else if !r.hasFixed(d) {
				r.fixed = append(r.fixed, fixReport{d: d})
			}
		}
		if !res.Changed() {
			break
		}
		if round == maxRounds {
			r.internal(fmt.Errorf("%s: the fixes still change the file after %d rounds: two fixes undo each other", p.ConfigDisplay, maxRounds))
			return r
		}
		f, err := ast.Parse(p.ConfigDisplay, res.Src)
		if err != nil {
			r.internal(err) // Verify parsed it: cannot happen
			return r
		}
		cur = cur.WithFile(f)
		diags = check(cur, o.rules)
		if rules.Fatal(diags) {
			r.remaining, r.fatal = diags, true
			return r
		}
	}
	if cur != p {
		r.new = cur.File.Src
	}
	for _, d := range diags {
		if d.Fix != nil && d.Fix.Applicability == rules.Unsafe && !o.unsafe {
			r.unsafe++
		}
	}
	r.remaining = diags
	return r
}

// layerOutside is the report of a layer that projects under the paths given
// extend from outside them: checked, not rewritten.
func layerOutside(p *project.Project, o applyOptions) *fileApply {
	r := &fileApply{p: p, outside: true}
	r.setFramework(o)
	r.remaining = rules.Check(p, o.rules)
	for _, d := range r.remaining {
		if d.Fix != nil && (d.Fix.Applicability == rules.Safe || o.unsafe) {
			r.notFixed = append(r.notFixed, fixReport{d, "a layer outside the paths given: apply does not rewrite it (run fwmigrate apply on it)"})
		}
	}
	r.fatal = rules.Fatal(r.remaining)
	return r
}

// setFramework records the framework major the checks run with: package.json's,
// else --framework's (which then becomes the project's).
func (r *fileApply) setFramework(o applyOptions) {
	p := r.p
	switch {
	case p.Framework != 0:
		r.framework, r.frameworkFrom = p.Framework, p.FrameworkSource
		if r.frameworkFrom == "" {
			r.frameworkFrom = "package.json"
		}
		if o.framework != 0 && o.framework != p.Framework {
			r.frameworkNote = fmt.Sprintf("--framework=%d ignored: %s says %d", o.framework, r.frameworkFrom, p.Framework)
		}
	case o.framework != 0:
		p.Framework, p.FrameworkSource = o.framework, "--framework"
		r.framework, r.frameworkFrom = o.framework, "--framework"
	}
}

// fixKey identifies a fix across rounds, when positions have moved.
func fixKey(d *rules.Diagnostic) string {
	return d.Code + "\x00" + d.Option + "\x00" + d.Fix.Description
}

func (r *fileApply) internal(err error) {
	r.fatal, r.new = true, nil
	r.err = "not written"
	r.remaining = []*rules.Diagnostic{{
		Code: rules.CodeInternal, Name: "internal-error", Category: rules.Tool, Severity: rules.Error,
		File:    r.p.ConfigDisplay,
		Message: "the rewrite failed its own checks, so the file was not written: " + err.Error(),
		Notes:   []string{"this is a bug in fwmigrate: please report it with the config"},
	}}
}

// diffPath is the path a diff names: relative to the working directory,
// where `git apply` and `patch -p1` will be run.
func diffPath(display string) string {
	if filepath.IsAbs(display) {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, display); err == nil && !strings.HasPrefix(rel, "..") {
				return rel
			}
		}
	}
	return display
}

// gitDirty asks git which of paths (files or directories under root) have
// changes that are not committed: modified, staged, or untracked. Outside a
// work tree, or without git, there is nothing to protect and the answer is
// none.
func gitDirty(root string, paths []string) ([]string, error) {
	args := []string{"status", "--porcelain", "--"}
	for _, p := range paths {
		if rel, err := filepath.Rel(root, p); err == nil {
			args = append(args, rel)
		}
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) || strings.Contains(stderr.String(), "not a git repository") {
			return nil, nil
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

func (r *fileApply) frameworkText() string {
	switch r.frameworkFrom {
	case "":
		return "framework major unknown (no fw dependency in package.json, no --framework): treated as 3"
	}
	return fmt.Sprintf("framework major %d (from %s)", r.framework, r.frameworkFrom)
}

func (r *fileApply) hasFixed(d *rules.Diagnostic) bool {
	for _, f := range r.fixed {
		if fixKey(f.d) == fixKey(d) {
			return true
		}
	}
	return false
}

// notFixedReason returns why d's fix was not applied, "" when it was not
// tried.
func (r *fileApply) notFixedReason(d *rules.Diagnostic) string {
	if d.Fix == nil {
		return ""
	}
	for _, n := range r.notFixed {
		if fixKey(n.d) == fixKey(d) {
			return n.reason
		}
	}
	return ""
}

func writeApplyText(out, report io.Writer, results []*fileApply, o applyOptions) error {
	var b strings.Builder
	var changed, fixed, notFixed, remaining, unsafe int
	verb := "fixed"
	if o.dryRun {
		verb = "would fix"
	}
	for _, r := range results {
		fixed += len(r.fixed)
		notFixed += len(r.notFixed)
		remaining += len(r.remaining)
		unsafe += r.unsafe
		if r.changed() {
			changed++
		}
		if len(r.fixed) == 0 && len(r.notFixed) == 0 && len(r.remaining) == 0 && r.err == "" && r.plan == nil && len(r.moveNotes) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s: %s\n", r.p.ConfigDisplay, r.summaryLine(o))
		if r.p.File != nil {
			fmt.Fprintf(&b, "  %s\n", r.frameworkText())
		}
		if r.frameworkNote != "" {
			fmt.Fprintf(&b, "  %s\n", r.frameworkNote)
		}
		for _, f := range r.fixed {
			fmt.Fprintf(&b, "  %s %s %s: %s\n", verb, f.d.Code, optionOf(f.d), f.d.Fix.Description)
		}
		if r.plan != nil && !r.fatal {
			moved := "moved into app/"
			if o.dryRun {
				moved = "would move into app/"
			}
			fmt.Fprintf(&b, "  %s: %s", moved, strings.Join(r.movedNames(), ", "))
			if n := r.editedOthers(); n > 0 {
				fmt.Fprintf(&b, " (and %s whose paths follow the move)", plural(n, "edited file"))
			}
			b.WriteByte('\n')
		}
		for _, n := range r.moveNotes {
			fmt.Fprintf(&b, "  note: %s\n", n)
		}
		// What could not be changed, with why; the remaining diagnostics
		// that have no fix are only counted (check lists them).
		var notFixed, unsafeLeft, tool []*rules.Diagnostic
		others := 0
		for _, d := range r.remaining {
			switch {
			case d.Category == rules.Tool: // unreadable, unparsable, not a literal, internal errors
				tool = append(tool, d)
			case r.notFixedReason(d) != "":
				notFixed = append(notFixed, d)
			case d.Fix != nil && d.Fix.Applicability == rules.Unsafe && !o.unsafe:
				unsafeLeft = append(unsafeLeft, d)
			default:
				others++
			}
		}
		for _, d := range tool {
			fmt.Fprintf(&b, "  %s\n", header(d))
			for _, n := range d.Notes {
				fmt.Fprintf(&b, "    = note: %s\n", strings.ReplaceAll(n, "\n", "\n            "))
			}
		}
		if len(notFixed) > 0 {
			b.WriteString("  not fixed:\n")
		}
		for _, d := range notFixed {
			fmt.Fprintf(&b, "    %s\n      = %s: %s\n", header(d), d.Fix.Description, r.notFixedReason(d))
		}
		if len(unsafeLeft) > 0 {
			b.WriteString("  not applied without --unsafe:\n")
		}
		for _, d := range unsafeLeft {
			fmt.Fprintf(&b, "    %s\n      = fix: %s\n", header(d), d.Fix.Description)
		}
		if others > 0 {
			fmt.Fprintf(&b, "  %s without an automatic fix (see 'fwmigrate check')\n", plural(others, "other diagnostic"))
		}
		b.WriteByte('\n')
	}
	files := "file"
	if changed != 1 {
		files = "files"
	}
	if o.dryRun {
		fmt.Fprintf(&b, "Would apply %s to %d %s of %s", plural(fixed, "fix"), changed, files, plural(len(results), "config file"))
	} else {
		fmt.Fprintf(&b, "Applied %s to %d %s of %s", plural(fixed, "fix"), changed, files, plural(len(results), "config file"))
	}
	if notFixed > 0 {
		fmt.Fprintf(&b, "; %s could not be made", plural(notFixed, "fix"))
	}
	if unsafe > 0 {
		fmt.Fprintf(&b, "; %s left for --unsafe", plural(unsafe, "unsafe fix"))
	}
	if remaining > 0 {
		fmt.Fprintf(&b, "; %s remaining", plural(remaining, "diagnostic"))
	}
	b.WriteString(".\n")
	if o.dryRun {
		for _, r := range results {
			if _, err := io.WriteString(out, r.diff); err != nil {
				return err
			}
		}
	}
	_, err := io.WriteString(report, b.String())
	return err
}

func (r *fileApply) summaryLine(o applyOptions) string {
	switch {
	case r.err != "":
		return r.err
	case r.outside:
		return "not rewritten: a layer the projects extend from outside the paths given"
	case r.p.File == nil:
		return "not checked"
	case r.plan != nil && r.written:
		return "migrated to layout A"
	case r.plan != nil && o.dryRun:
		return "would be migrated to layout A"
	case r.new == nil:
		return "unchanged"
	case r.written:
		return "rewritten"
	case o.dryRun:
		return "would be rewritten"
	}
	return "unchanged"
}

func optionOf(d *rules.Diagnostic) string {
	if d.Option != "" {
		return d.Option
	}
	return d.Name
}

type jsonApplyFix struct {
	Code        string `json:"code"`
	Name        string `json:"name"`
	Option      string `json:"option"`
	Description string `json:"description"`
	Reason      string `json:"reason,omitempty"`
}

type jsonApplyFile struct {
	File string `json:"file"`
	// Framework is the major the checks ran with, 0 when unknown (treated
	// as 3); FrameworkSource is "package.json", "--framework", "the projects
	// that extend it" (a layer) or "".
	Framework       int              `json:"framework"`
	FrameworkSource string           `json:"frameworkSource"`
	Changed         bool             `json:"changed"`
	Written         bool             `json:"written"`
	Fixed           []jsonApplyFix   `json:"fixed"`
	NotFixed        []jsonApplyFix   `json:"notFixed"`
	Diagnostics     []jsonDiagnostic `json:"diagnostics"`
	Error           string           `json:"error,omitempty"`
	Diff            string           `json:"diff,omitempty"`
	// Moves are the renames of the layout move (project-relative), Edited
	// the other files it edits, Notes what it left for a person.
	Moves  []jsonMove `json:"moves"`
	Edited []string   `json:"edited"`
	Notes  []string   `json:"notes"`
}

type jsonMove struct {
	From string `json:"from"`
	To   string `json:"to"`
}

type jsonApplySummary struct {
	Files     int `json:"files"`
	Changed   int `json:"changed"`
	Fixed     int `json:"fixed"`
	NotFixed  int `json:"notFixed"`
	Remaining int `json:"remaining"`
}

func writeApplyJSON(w io.Writer, results []*fileApply, o applyOptions) error {
	out := struct {
		Version int              `json:"version"`
		DryRun  bool             `json:"dryRun"`
		Files   []jsonApplyFile  `json:"files"`
		Summary jsonApplySummary `json:"summary"`
	}{Version: 1, DryRun: o.dryRun, Files: []jsonApplyFile{}}
	for _, r := range results {
		jf := jsonApplyFile{
			File: filepath.ToSlash(r.p.ConfigDisplay), Framework: r.framework, FrameworkSource: r.frameworkFrom,
			Changed: r.changed(), Written: r.written, Error: r.err, Diff: r.diff,
			Fixed: []jsonApplyFix{}, NotFixed: []jsonApplyFix{}, Diagnostics: []jsonDiagnostic{},
			Moves: []jsonMove{}, Edited: []string{}, Notes: r.moveNotes,
		}
		if jf.Notes == nil {
			jf.Notes = []string{}
		}
		if r.plan != nil && !r.fatal {
			for _, mv := range r.plan.Moves {
				jf.Moves = append(jf.Moves, jsonMove{relSlashTo(r.p.Root, mv.From), relSlashTo(r.p.Root, mv.To)})
			}
			for _, e := range r.plan.Edits {
				jf.Edited = append(jf.Edited, relSlashTo(r.p.Root, e.NewPath))
			}
		}
		for _, f := range r.fixed {
			jf.Fixed = append(jf.Fixed, jsonApplyFix{f.d.Code, f.d.Name, f.d.Option, f.d.Fix.Description, ""})
		}
		for _, f := range r.notFixed {
			jf.NotFixed = append(jf.NotFixed, jsonApplyFix{f.d.Code, f.d.Name, f.d.Option, f.d.Fix.Description, f.reason})
		}
		for _, d := range r.remaining {
			jf.Diagnostics = append(jf.Diagnostics, toJSONDiagnostic(d))
		}
		out.Files = append(out.Files, jf)
		out.Summary.Files++
		if jf.Changed {
			out.Summary.Changed++
		}
		out.Summary.Fixed += len(jf.Fixed)
		out.Summary.NotFixed += len(jf.NotFixed)
		out.Summary.Remaining += len(jf.Diagnostics)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// changed reports that apply changes (or would change) the project.
func (r *fileApply) changed() bool {
	return !r.fatal && (r.new != nil || r.plan != nil)
}

// movedNames are the entries the layout move renames, project-relative.
func (r *fileApply) movedNames() []string {
	var out []string
	for _, mv := range r.plan.Moves {
		name := relSlashTo(r.p.Root, mv.From)
		if mv.Dir {
			name += "/"
		}
		out = append(out, name)
	}
	return out
}

// editedOthers counts the files the move edits besides the config.
func (r *fileApply) editedOthers() int {
	n := 0
	for _, e := range r.plan.Edits {
		if e.Path != r.p.ConfigPath {
			n++
		}
	}
	return n
}

func relSlashTo(root, p string) string {
	if rel, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}
