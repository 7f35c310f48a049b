package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/spf13/cobra"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/par"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/settings"
	"github.com/fwmigrate/fwmigrate/workspace"
)

func init() { commands = append(commands, newApplyCmd) }

// runApply loads the projects under args and applies their fixes, each
// with the settings of the file nearest to it. The results are in
// discovery order, then the layers they extend from outside args. Errors
// (bad settings, a directory without configs) come before anything is
// written: then nothing is.
func runApply(args []string, ws *workspace.Workspace, allowNoConfig bool, o migrate.Options) ([]*migrate.Result, error) {
	return runApplyShown(args, ws, allowNoConfig, o, nil, nil)
}

// runApplyShown is runApply with its progress shown on prog (nil: none),
// and, with ask (the guided mode), a question before an interrupted apply
// is finished: errDeclined when the answer is no.
func runApplyShown(args []string, ws *workspace.Workspace, allowNoConfig bool, o migrate.Options, prog *progress, ask *asker) ([]*migrate.Result, error) {
	prog.set("find", "", 0, 0)
	found, err := discover(args, allowNoConfig)
	if err != nil {
		return nil, err
	}
	for _, f := range found {
		if f.only != nil {
			return nil, usageError{fmt.Errorf("%s: apply migrates whole projects: give the project's folder or its config (%s), not its code files", pathx.Display(f.only[0]), f.path)}
		}
	}
	projects := make([]*project.Project, len(found))
	l := ws.Loader()
	var loaded atomic.Int64
	prog.set("load", "", 0, len(found))
	par.For(len(found), func(i int) {
		projects[i] = loadOne(l, found[i])
		projects[i].Via = found[i].via
		if prog != nil {
			// The code files the run will read, for the progress's count
			// (the walk is the one the checks make, kept by the project).
			prog.codeFiles.Add(int64(len(projects[i].Sources())))
			prog.set("load", "", int(loaded.Add(1)), len(found))
		}
	})
	// A project without a major of its own that others extend as a layer
	// runs under theirs (as the layers from outside args do).
	for _, p := range projects {
		if p.File != nil {
			l.InheritMajor(p)
		}
	}
	outside := l.LayerProjects()
	for _, p := range append(projects[:len(projects):len(projects)], outside...) {
		if _, err := ws.Settings(p.ConfigPath); err != nil {
			return nil, err
		}
	}
	if ask != nil && !o.Rollback {
		// migrate.Run finishes an interrupted apply before it plans: the
		// guided mode asks first.
		var pending []string
		for _, p := range projects {
			if p.Journal != "" && p.Via == "" {
				pending = append(pending, p.ConfigDisplay)
			}
		}
		if len(pending) > 0 && !ask.confirmRecovery(pending) {
			return nil, errDeclined
		}
	}
	o.Workspace = ws
	o.Hook = writeHook
	return migrate.Run(projects, outside, o), nil
}

// writeHook, when set (by the tests' TestMain), is called at every point of
// apply's journaled writes (migrate.Options.Hook): the scripts end the
// process there, as a kill -9 would, to leave an interrupted apply.
var writeHook func(point string, i int)

// applyRun runs apply (and check --fix) and prints its report.
func applyRun(cmd *cobra.Command, args []string, filter ruleFilter, flags settings.Flags, o migrate.Options, format string, verbose, yes bool) error {
	if format != "text" && format != "json" && format != "markdown" {
		return usageError{fmt.Errorf("--format must be text, json or markdown, not %q", format)}
	}
	if o.Layout != migrate.LayoutMove && o.Layout != migrate.LayoutKeep {
		return usageError{fmt.Errorf("--layout must be move or keep, not %q", o.Layout)}
	}
	if err := migrate.ValidatePins(o.Pin); err != nil {
		return usageError{err}
	}
	for _, a := range o.Also {
		if a == "" || filepath.IsAbs(a) || strings.Contains(filepath.ToSlash(a), "..") {
			return usageError{fmt.Errorf("--also takes folder names relative to the project root, not %q", a)}
		}
	}
	if err := missingPaths(args); err != nil {
		return err
	}
	o.Rules = rules.Options{Target: 4, Select: flags.Select, Ignore: flags.Ignore, Framework: flags.Framework}
	ws := workspace.New(flags)
	ws.NewLoader = newLoader
	ws.Tops = topsOf(args)
	budget, err := filter.budget.value()
	if err != nil {
		return err
	}
	ws.Budget = budget
	on, inPlace := progressMode(cmd, cmd.ErrOrStderr())
	prog := newProgress(cmd.ErrOrStderr(), on, inPlace, "find")
	defer prog.stop()
	if prog != nil {
		ws.Overlay = prog.overlay
		o.Progress = prog.event
	}
	var ask *asker
	declined := false
	if guided(cmd.InOrStdin(), cmd.OutOrStdout(), o, format, yes) {
		ask = newAsker(cmd.InOrStdin(), cmd.OutOrStdout(), prog)
		confirm := ask.confirm(o)
		o.Confirm = func(results []*migrate.Result) bool {
			ok := confirm(results)
			declined = !ok
			return ok
		}
	}
	out, report := cmd.OutOrStdout(), cmd.OutOrStdout()
	if o.DryRun && format == "text" {
		// The diff alone goes to stdout, so that it can be piped to
		// `git apply`; the report goes to stderr.
		report = cmd.ErrOrStderr()
	}
	var stream *applyTextStream
	if o.DryRun && format == "text" && ask == nil {
		// Each project's patch is written, and its report made, as soon
		// as it is planned: the projects are not all held at once.
		stream = newApplyTextStream(out, o, applyText{verbose: verbose, width: terminalWidth(report)})
		stream.prog = prog
		o.Stream = stream.add
	}
	// The collector as check sets it (tuneMemory): apply's checks are
	// check's, and what it holds besides (the findings, the plan's texts)
	// is small next to what they allocate.
	defer tuneMemory()()
	results, err := runApplyShown(args, ws, filter.noConfig, o, prog, ask)
	prog.stop()
	if errors.Is(err, errDeclined) || declined {
		// The answer was no: the plan was shown, nothing is written, and
		// the changes are still to make (as with --dry-run).
		return exitCodeError{exitFindings}
	}
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "fwmigrate: %s\n", text.Escape(err.Error()))
		return exitCodeError{exitError}
	}
	var werr error
	switch {
	case stream != nil:
		werr = stream.finish(report)
	case format == "json":
		werr = writeApplyJSON(out, results, o)
	case format == "markdown":
		// The summary alone, for the pull request: the patch of --dry-run
		// is not in it.
		werr = writeApplyMarkdown(out, results, o, verbose)
	default:
		werr = writeApplyText(out, report, results, o, applyText{verbose: verbose, width: terminalWidth(report)})
	}
	if werr != nil {
		return werr
	}
	changed := false
	for _, r := range results {
		if r.Fatal {
			return exitCodeError{exitError}
		}
		if r.Changed() {
			changed = true
		}
	}
	if o.DryRun && changed {
		return exitCodeError{exitFindings}
	}
	return nil
}

func newApplyCmd() *cobra.Command {
	var (
		filter  ruleFilter
		o       migrate.Options
		format  string
		verbose bool
		yes     bool
	)
	cmd := &cobra.Command{
		Use:   "apply --to=4 [paths...]",
		Short: "Apply the fixes: rewrite fw.config files for version 4",
		Long: `Apply runs the checks of 'fwmigrate check' on every fw.config.* under the given
paths and applies their fixes to the config files: the safe ones, and the
unsafe ones too with --unsafe. --unsafe=FW501,FW203 makes the unsafe fixes of
those rules only, and also the fixes they withhold because code reads what
they change (FW501's move of a key that browser code reads: the report names
those reads); bare --unsafe never makes those. Only the bytes a fix must
change are changed: comments, quotes, indentation, line endings and the rest
of the file stay as they are. Every rewritten file is parsed again and checked to hold the
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
unless --allow-dirty, so that 'git diff' shows exactly what apply did. git
runs with the repository's commands off (fsmonitor, hooks, pager); a
project folder that looks like a git directory (HEAD, objects/, refs/) is
refused.

Each project is written through a journal, kept outside its tree (in the
repository's .git/fwmigrate/, else in the user's state folder), which
records every move and edit before the first write and goes once all are
durable. A run that was interrupted (killed, a full disk, a power cut) is
finished by the next apply, or undone by apply --rollback; until then check
reports the project (FW909). A journal found in the tree
(.fw-migrate/journal) or one that fails its checks is never run: the
project is refused until it is removed. Nothing is written outside a
project's root, in a .git folder, nor through a symlink that leads out of
it.

On a terminal, apply shows its plan once everything is planned (what moves,
the fixes by rule, the unsafe fixes by rule, the pins that would keep the
version-3 behaviour) and asks before it writes; --yes writes without asking.
In CI (CI set), in a pipe, with --dry-run or --format=json|markdown it asks
nothing. Progress shows on stderr on a terminal (--progress: in a pipe too).
The report groups what is left by rule with its first places (--verbose:
all of them); --format=markdown writes a summary for the pull request.

Exit status: 0 when done (--dry-run: nothing would change), 1 with --dry-run
when there are changes to make, and when the answer to the question was no,
2 for usage errors, files that cannot be read or parsed, refused or
unwritable files, and internal errors (FW999).`,
		Example: `  fwmigrate apply --to=4
  fwmigrate apply --to=4 --yes
  fwmigrate apply --to=4 --dry-run | git apply --check
  fwmigrate apply --to=4 --format=markdown > migration.md
  fwmigrate apply --to=4 apps/web --unsafe
  fwmigrate apply --to=4 --unsafe=FW501 --dry-run
  fwmigrate apply --to=4 --select=FW2 --framework=3`,
		RunE: func(cmd *cobra.Command, args []string) error {
			flags, err := filter.flags(cmd)
			if err != nil {
				return err
			}
			return applyRun(cmd, args, filter, flags, o, format, verbose, yes)
		},
	}
	filter.register(cmd)
	addUnsafeFlag(cmd, &o, "also apply fixes that change behaviour (review them); with rule codes (--unsafe=FW501), those of these rules only, and the fixes they withhold because code reads what they change")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "write nothing; print a unified diff of the changes (exit status 1 when there are any)")
	cmd.Flags().BoolVar(&o.AllowDirty, "allow-dirty", false, "rewrite config files that have uncommitted changes in git")
	cmd.Flags().StringVar(&o.Layout, "layout", migrate.LayoutMove, "move: move layout-B sources into app/ and fix the paths that follow; keep: pin layout B (srcDir: '.', dir.app: 'app') instead")
	cmd.Flags().StringSliceVar(&o.Also, "also", nil, "more root folders to move into app/ (e.g. stores,types), besides those found through ~/ imports")
	cmd.Flags().StringSliceVar(&o.Pin, "pin", nil, "keep the version-3 behaviour of default changes while the code is changed: affected (those that reach the project's code), all, or option paths (e.g. experimental.defaults.useAsyncData.deep)")
	var pins []string
	for _, to := range []int{4, 5} {
		for _, f := range compat.FlipsTo(to) {
			pins = append(pins, f.Path)
		}
	}
	completeValues(cmd, "pin", append([]string{migrate.PinAffected, migrate.PinAll}, pins...)...)
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json or markdown (a summary for the pull request)")
	completeValues(cmd, "layout", migrate.LayoutMove, migrate.LayoutKeep)
	completeValues(cmd, "format", "text", "json", "markdown")
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "write without asking: on a terminal, apply shows its plan and asks first (never in CI or a pipe)")
	cmd.Flags().Bool("progress", false, "show progress on stderr even when it is not a terminal (--progress=false: never); by default it shows on a terminal only, not in CI")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "list every place of the findings left and every file edited (the report shows the first few of each rule)")
	cmd.Flags().BoolVar(&o.Rollback, "rollback", false, "undo the apply that was interrupted in each project (as its journal recorded it) and nothing else")
	return cmd
}

func frameworkText(r *migrate.Result) string {
	if r.FrameworkFrom != "" {
		return fmt.Sprintf("framework major %d (from %s)", r.Framework, text.Escape(r.FrameworkFrom))
	}
	if r.Project != nil {
		if d := r.Project.Packages().Dep(compat.FrameworkPackage); d != nil {
			return fmt.Sprintf("framework major unknown (package.json's %s range %s names no major, and neither node_modules nor a lockfile says which version is installed; no --framework): treated as 3", compat.FrameworkPackage, text.Escape(strconv.Quote(d.Range)))
		}
	}
	return "framework major unknown (package.json has no " + compat.FrameworkPackage + " dependency; no --framework): treated as 3"
}

// applyState is what happened to one project, for the report's wording.
type applyState int

const (
	stateWritten   applyState = iota // written (or would be, with --dry-run)
	stateUnchanged                   // nothing to change
	stateRefused                     // refused or failed: nothing written
	stateOutside                     // a layer outside the paths given
)

func stateOf(r *migrate.Result) applyState {
	switch {
	case r.Outside:
		return stateOutside
	case r.Fatal:
		return stateRefused
	case r.Changed():
		return stateWritten
	}
	return stateUnchanged
}

// applyTally adds up the report's counts over the projects.
type applyTally struct {
	configs, changed, refused         int
	fixes, moved, paths               int
	unsafe, notFixable, settled, none int
	versionStep                       bool // the compatibility version was set: version-4 defaults apply
	codeFiles                         int
	toTest                            []string
}

// writeApplyText writes apply's report: per project, what was done (moved,
// fixed), what is left and why (for --unsafe, not fixable, no fix), what
// was refused; every position in it is one in the files on disk. Then the
// totals and the next steps. With --dry-run the patch goes to out and the
// report to report.
func writeApplyText(out, report io.Writer, results []*migrate.Result, o migrate.Options, ao applyText) error {
	s := newApplyTextStream(out, o, ao)
	for _, r := range results {
		s.add(r)
	}
	return s.finish(report)
}

// applyTextStream is writeApplyText a project at a time (migrate.Options.
// Stream): each project's patch is written to out, and its report made,
// as it comes; finish writes the report (to stderr with --dry-run) with
// the totals. The bytes are those of writeApplyText over every result.
type applyTextStream struct {
	out  io.Writer
	o    migrate.Options
	ao   applyText
	prog *progress // paused while a patch is written (nil: none)
	b    strings.Builder
	t    applyTally
	err  error // the first failed write of a patch
}

func newApplyTextStream(out io.Writer, o migrate.Options, ao applyText) *applyTextStream {
	return &applyTextStream{out: out, o: o, ao: ao}
}

func (s *applyTextStream) add(r *migrate.Result) {
	s.t.configs++
	writeApplyProject(&s.b, r, s.o, &s.t, s.ao)
	if s.o.DryRun && s.err == nil && r.Diff != "" {
		s.prog.pause()
		_, s.err = io.WriteString(s.out, r.Diff)
		s.prog.resume()
	}
}

func (s *applyTextStream) finish(report io.Writer) error {
	if s.err != nil {
		return s.err
	}
	writeApplyTotals(&s.b, s.t, s.o)
	// The names in it are escaped where they are written; EscapeLines
	// catches what the tree put into any other line.
	_, err := io.WriteString(report, wrapLines(text.EscapeLines(s.b.String(), false), s.ao.width))
	return err
}

// applyText shapes apply's text report.
type applyText struct {
	verbose bool // every place of every rule, every file edited
	width   int  // wrap at this width; 0: no wrapping (not a terminal)
}

// firstNames is how many names of a long list (the code files edited)
// the text report shows without --verbose; firstPlaces (markdown.go) how
// many places of each rule.
const firstNames = 5

// writeGroups writes findings left for a person by rule: each rule with
// its count, then its first places (every one with --verbose), each with
// the lines more returns below it (its fix, its notes).
func writeGroups(b *strings.Builder, diags []*rules.Diagnostic, ao applyText, more func(*rules.Diagnostic) []string) {
	for _, g := range groupByRule(diags) {
		fmt.Fprintf(b, "    %s %s (%d):\n", g.code, g.name, len(g.diags))
		shown := g.diags
		if !ao.verbose && len(shown) > firstPlaces {
			shown = shown[:firstPlaces]
		}
		for _, d := range shown {
			fmt.Fprintf(b, "      %s\n", header(d))
			for _, line := range more(d) {
				fmt.Fprintf(b, "        %s\n", line)
			}
		}
		if n := len(g.diags) - len(shown); n > 0 {
			fmt.Fprintf(b, "      and %d more (--verbose lists them)\n", n)
		}
	}
}

func writeApplyProject(b *strings.Builder, r *migrate.Result, o migrate.Options, t *applyTally, ao applyText) {
	state := stateOf(r)
	// would: the changes are not made (dry run, or refused).
	would := o.DryRun || state == stateRefused
	notWritten := ""
	if state == stateRefused {
		notWritten = " (not written)"
	}

	left := leftOf(r, o)
	unsafe, tool, none, paths := left.unsafe, left.tool, left.none, left.byHand
	if state == stateUnchanged && len(r.Found) == 0 && len(r.Notes) == 0 && r.FrameworkNote == "" && journalLine(r) == "" {
		return
	}

	fmt.Fprintf(b, "%s: %s\n", text.Escape(r.Project.ConfigDisplay), text.EscapeLines(applyStatus(r, state, o), false))
	if r.Project.File != nil {
		fmt.Fprintf(b, "  %s\n", frameworkText(r))
	}
	if r.FrameworkNote != "" {
		fmt.Fprintf(b, "  %s\n", text.Escape(r.FrameworkNote))
	}
	if r.Plan != nil && (state == stateWritten || state == stateRefused) {
		verb := "moved into app/"
		if would {
			verb = "would move into app/"
		}
		paths, files := r.PathEdits()
		fmt.Fprintf(b, "  %s%s: %s (%s): %s\n", verb, notWritten, text.Plural(len(r.Plan.Moves), "entry"), text.Plural(r.MovedFiles, "file"), text.Escape(strings.Join(r.MovedNames(), ", ")))
		if paths > 0 {
			rewritten := "rewritten"
			if would {
				rewritten = "to rewrite"
			}
			fmt.Fprintf(b, "    and %s %s to follow the move, in %s\n", text.Plural(paths, "path"), rewritten, text.Plural(files, "file"))
		}
		if state == stateWritten {
			t.moved += r.MovedFiles
			t.paths += paths
		}
	}
	if state == stateWritten {
		for _, line := range r.ToTest {
			if !slices.Contains(t.toTest, line) {
				t.toTest = append(t.toTest, line)
			}
		}
	}
	if n := len(r.Fixed) + len(r.ByMove); n > 0 {
		verb := "fixed"
		if would {
			verb = "would fix"
		}
		fmt.Fprintf(b, "  %s%s:\n", verb, notWritten)
		// The same fix made in many places (a hundred pages) is one line
		// with its count; every one counts as a fix, as check counts it.
		var lines []string
		count := map[string]int{}
		for _, f := range r.Fixed {
			line := fmt.Sprintf("%s %s: %s", f.D.Code, text.Escape(optionOf(f.D)), text.Escape(f.D.Fix.Description))
			if count[line] == 0 {
				lines = append(lines, line)
			}
			count[line]++
			if f.D.Code == "FW206" && !strings.HasPrefix(f.D.Fix.Description, "delete") && state == stateWritten {
				t.versionStep = true
			}
		}
		for _, line := range lines {
			if n := count[line]; n > 1 {
				line = fmt.Sprintf("%s (×%d)", line, n)
			}
			fmt.Fprintf(b, "    %s\n", line)
		}
		for _, d := range r.ByMove {
			fmt.Fprintf(b, "    %s %s: by the move into app/\n", d.Code, d.Name)
		}
		if state == stateWritten {
			t.fixes += n
		}
	}
	if len(r.CodeEdits) > 0 {
		verb := "edited"
		if would {
			verb = "would edit"
		}
		var names []string
		for _, e := range r.CodeEdits {
			// Shown as the findings show it, from the working directory,
			// where the file is now: in app/ once the move is made.
			path := e.Path
			if state == stateWritten && r.Plan != nil {
				path = r.Plan.Paths.Map(path)
			}
			names = append(names, filepath.ToSlash(filepath.Join(filepath.Dir(r.Project.ConfigDisplay), relSlashTo(r.Project.Root, path))))
		}
		shown, more := names, 0
		if !ao.verbose && len(names) > firstNames {
			shown, more = names[:firstNames], len(names)-firstNames
		}
		list := text.Escape(strings.Join(shown, ", "))
		if more > 0 {
			list += fmt.Sprintf(" and %d more (--verbose lists them)", more)
		}
		fmt.Fprintf(b, "  %s%s %s: %s\n", verb, notWritten, text.Plural(len(names), "code file"), list)
		if state == stateWritten {
			t.codeFiles += len(names)
		}
	}
	if len(unsafe) > 0 {
		fmt.Fprintf(b, "  left for --unsafe (%d, they change behaviour):\n", len(unsafe))
		writeGroups(b, unsafe, ao, func(d *rules.Diagnostic) []string {
			return []string{"= fix: " + text.Escape(d.Fix.Description)}
		})
	}
	if len(r.NotFixed) > 0 {
		fmt.Fprintf(b, "  not fixable (%d):\n", len(r.NotFixed))
		var ds []*rules.Diagnostic
		reason := map[*rules.Diagnostic]string{}
		for _, f := range r.NotFixed {
			ds = append(ds, f.D)
			reason[f.D] = f.Reason
		}
		writeGroups(b, ds, ao, func(d *rules.Diagnostic) []string {
			return []string{fmt.Sprintf("= %s: not made: %s", text.Escape(d.Fix.Description), text.Escape(reason[d]))}
		})
	}
	if len(r.Settled) > 0 {
		fmt.Fprintf(b, "  no longer reported once the changes above are made: %s", codeCounts(r.Settled))
		if left.settledUnsafe > 0 {
			fmt.Fprintf(b, " (%d had unsafe fixes of their own, which 'fwmigrate apply --unsafe' makes instead)", left.settledUnsafe)
		}
		b.WriteByte('\n')
	}
	for _, d := range tool {
		fmt.Fprintf(b, "  %s\n", header(d))
		for _, n := range d.Notes {
			fmt.Fprintf(b, "    = note: %s\n", strings.ReplaceAll(text.EscapeLines(n, false), "\n", "\n            "))
		}
	}
	if len(paths) > 0 {
		fmt.Fprintf(b, "  to edit by hand (%d):\n", len(paths))
		writeGroups(b, paths, ao, func(d *rules.Diagnostic) []string {
			var out []string
			for _, n := range d.Notes {
				out = append(out, "= note: "+strings.ReplaceAll(text.EscapeLines(n, false), "\n", "\n        "))
			}
			return out
		})
	}
	if len(none) > 0 {
		fmt.Fprintf(b, "  %s without an automatic fix: %s (see 'fwmigrate check')\n", text.Plural(len(none), "finding"), codeCounts(none))
	}
	if line := journalLine(r); line != "" {
		fmt.Fprintf(b, "  %s\n", text.Escape(line))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(b, "  note: %s\n", text.EscapeLines(n, false))
	}
	b.WriteByte('\n')
	switch state {
	case stateWritten:
		t.changed++
	case stateRefused:
		t.refused++
	}
	if state != stateRefused {
		t.unsafe += len(unsafe)
		t.notFixable += len(r.NotFixed)
		t.settled += len(r.Settled)
		t.none += len(none) + len(paths)
	}
}

// leftover is what stands of a project's findings once apply has run, by
// what is left to do about them. The fixes that could not be made are
// r.NotFixed, with their reasons.
type leftover struct {
	unsafe []*rules.Diagnostic // fixes left for --unsafe
	tool   []*rules.Diagnostic // what fwmigrate itself says (the tool category)
	// byHand are the findings to edit by hand where they are: a layout
	// finding left standing is a path that names the wrong place in layout
	// A, and a withheld fix a change the config's statements keep from
	// being made. none are the other findings without an automatic fix.
	byHand, none []*rules.Diagnostic
	// settledUnsafe counts the settled findings (r.Settled) that had an
	// unsafe fix of their own.
	settledUnsafe int
}

func leftOf(r *migrate.Result, o migrate.Options) leftover {
	var l leftover
	for _, d := range r.Remaining {
		switch {
		case d.Category == rules.Tool:
			l.tool = append(l.tool, d)
		case r.NotFixedReason(d) != "":
			// listed with the reason, from r.NotFixed
		case d.Fix != nil && d.Fix.Applicability == rules.Unsafe && !o.MakesUnsafe(d):
			l.unsafe = append(l.unsafe, d)
		case d.Category == rules.Layout && d.Severity >= rules.Warning || d.Withheld != "":
			l.byHand = append(l.byHand, d)
		default:
			l.none = append(l.none, d)
		}
	}
	for _, d := range r.Settled {
		if d.Fix != nil && d.Fix.Applicability == rules.Unsafe && !o.MakesUnsafe(d) {
			l.settledUnsafe++
		}
	}
	return l
}

// applyStatus is the first line of a project's report.
func applyStatus(r *migrate.Result, state applyState, o migrate.Options) string {
	if r.Recovered != "" && !r.Fatal {
		return r.Recovered + " the interrupted apply"
	}
	switch state {
	case stateOutside:
		return "not rewritten: a layer the projects extend from outside the paths given"
	case stateRefused:
		why := strings.TrimPrefix(strings.TrimPrefix(r.Err, "not written: "), "nothing written: ")
		switch {
		case r.Project.File == nil:
			return "not checked: it cannot be read or parsed (below)"
		case why == "" || why == "not written":
			return "nothing written: it cannot be checked or rewritten safely (below)"
		}
		return "refused, nothing written: " + why
	case stateUnchanged:
		return "unchanged"
	}
	switch {
	case r.Plan != nil && o.DryRun:
		return "would be migrated to layout A"
	case r.Plan != nil:
		return "migrated to layout A"
	case o.DryRun:
		return "would be rewritten"
	}
	return "rewritten"
}

// codeCounts lists the codes of diags with their counts: FW204 ×12, FW403.
func codeCounts(diags []*rules.Diagnostic) string {
	counts := map[string]int{}
	var codes []string
	for _, d := range diags {
		if counts[d.Code] == 0 {
			codes = append(codes, d.Code)
		}
		counts[d.Code]++
	}
	sort.Strings(codes)
	for i, c := range codes {
		if counts[c] > 1 {
			codes[i] = fmt.Sprintf("%s ×%d", c, counts[c])
		}
	}
	return strings.Join(codes, ", ")
}

// writeApplyTotals ends the report: what was done over all projects, what
// is left, and what to do next.
func writeApplyTotals(b *strings.Builder, t applyTally, o migrate.Options) {
	b.WriteString(applyTotalsLine(t, o))
	b.WriteByte('\n')
	if t.refused > 0 {
		fmt.Fprintf(b, "Not written: %s (the reasons are above).\n", text.Plural(t.refused, "config file"))
	}
	if t.changed == 0 && t.unsafe == 0 {
		return
	}
	b.WriteString("Next:\n")
	if o.DryRun {
		if t.changed > 0 {
			b.WriteString("  - apply it: run without --dry-run, or pipe this patch into 'git apply' here or at the repository's top\n")
		}
	} else if t.changed > 0 {
		if t.moved > 0 {
			b.WriteString("  - review: 'git status', then 'git add -A && git diff --staged -M' (the moves show as renames)\n")
		} else {
			b.WriteString("  - review: 'git status' and 'git diff'\n")
		}
		b.WriteString("  - test: run the dev server, the production build and the tests")
		if t.moved > 0 || t.versionStep || len(t.toTest) > 0 {
			b.WriteString(", and check in particular:\n")
			if t.moved > 0 {
				b.WriteString("      that every page, layout and component loads from app/ (the build fails on an import the move missed)\n")
			}
			if t.versionStep && len(t.toTest) == 0 {
				b.WriteString("      the behaviour that version 4's defaults change ('fwmigrate explain FW204' lists them)\n")
			}
			if len(t.toTest) > 0 {
				b.WriteString("      the behaviour that the version step changes here:\n")
				for _, line := range t.toTest {
					b.WriteString("        " + line + "\n")
				}
			}
		} else {
			b.WriteByte('\n')
		}
	}
	if t.unsafe > 0 {
		b.WriteString("  - the fixes left for --unsafe change behaviour: see them with 'fwmigrate apply --to=4 --unsafe --dry-run'\n")
	}
	if t.notFixable+t.none > 0 {
		b.WriteString("  - 'fwmigrate check' lists what is left, with the reasons\n")
	}
}

// applyTotalsLine is the report's summary: what was done over all
// projects, and what is left.
func applyTotalsLine(t applyTally, o migrate.Options) string {
	var b strings.Builder
	made, moved := "Made", "moved"
	if o.DryRun {
		made, moved = "Would make", "move"
	}
	fmt.Fprintf(&b, "%s %s in %d of %s", made, text.Plural(t.fixes, "fix"), t.changed, text.Plural(t.configs, "config file"))
	if t.codeFiles > 0 {
		fmt.Fprintf(&b, " and %s", text.Plural(t.codeFiles, "code file"))
	}
	if t.moved > 0 {
		fmt.Fprintf(&b, " and %s %s into app/", moved, text.Plural(t.moved, "file"))
	}
	b.WriteString(".")
	var left []string
	if t.unsafe > 0 {
		left = append(left, text.Plural(t.unsafe, "fix")+" for --unsafe")
	}
	if t.notFixable > 0 {
		left = append(left, text.Plural(t.notFixable, "fix")+" that cannot be made")
	}
	if t.none > 0 {
		left = append(left, text.Plural(t.none, "finding")+" without an automatic fix")
	}
	if len(left) > 0 {
		fmt.Fprintf(&b, " Left: %s.", strings.Join(left, ", "))
	}
	if t.settled > 0 {
		fmt.Fprintf(&b, " No longer reported once the changes are made: %s.", text.Plural(t.settled, "finding"))
	}
	return b.String()
}

// tallyApply adds up the report's counts over the projects, as the text
// report counts them.
func tallyApply(results []*migrate.Result, o migrate.Options) applyTally {
	var t applyTally
	var scratch strings.Builder
	for _, r := range results {
		t.configs++
		writeApplyProject(&scratch, r, o, &t, applyText{})
		scratch.Reset()
	}
	return t
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
	Framework       int            `json:"framework"`
	FrameworkSource string         `json:"frameworkSource"`
	Changed         bool           `json:"changed"`
	Written         bool           `json:"written"`
	Fixed           []jsonApplyFix `json:"fixed"`
	NotFixed        []jsonApplyFix `json:"notFixed"`
	// ByMove are the findings the layout move resolves (FW102); Settled
	// those the changes make go away without a fix of their own.
	ByMove      []jsonApplyFix   `json:"byMove"`
	Settled     []jsonDiagnostic `json:"settled"`
	Diagnostics []jsonDiagnostic `json:"diagnostics"`
	Error       string           `json:"error,omitempty"`
	Diff        string           `json:"diff,omitempty"`
	// Moves are the renames of the layout move (project-relative), Edited
	// the other files it edits, Notes what it left for a person.
	Moves  []jsonMove `json:"moves"`
	Edited []string   `json:"edited"`
	Notes  []string   `json:"notes"`
	// Journal is the journal apply wrote through or found (an interrupted
	// apply), JournalKept that it is still there, Recovered what this run
	// did with an interrupted apply: "completed" or "rolled back".
	Journal     string `json:"journal,omitempty"`
	JournalKept bool   `json:"journalKept,omitempty"`
	Recovered   string `json:"recovered,omitempty"`
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

func writeApplyJSON(w io.Writer, results []*migrate.Result, o migrate.Options) error {
	out := struct {
		Version int              `json:"version"`
		DryRun  bool             `json:"dryRun"`
		Files   []jsonApplyFile  `json:"files"`
		Summary jsonApplySummary `json:"summary"`
	}{Version: 1, DryRun: o.DryRun, Files: []jsonApplyFile{}}
	for _, r := range results {
		jf := jsonApplyFile{
			File: filepath.ToSlash(r.Project.ConfigDisplay), Framework: r.Framework, FrameworkSource: r.FrameworkFrom,
			Changed: r.Changed(), Written: r.Written, Error: r.Err, Diff: r.Diff,
			Fixed: []jsonApplyFix{}, NotFixed: []jsonApplyFix{}, ByMove: []jsonApplyFix{}, Settled: []jsonDiagnostic{}, Diagnostics: []jsonDiagnostic{},
			Moves: []jsonMove{}, Edited: []string{}, Notes: r.Notes,
			Journal: filepath.ToSlash(r.Journal), JournalKept: r.JournalKept, Recovered: r.Recovered,
		}
		if jf.Notes == nil {
			jf.Notes = []string{}
		}
		if r.Plan != nil && !r.Fatal {
			for _, mv := range r.Plan.Moves {
				jf.Moves = append(jf.Moves, jsonMove{relSlashTo(r.Project.Root, mv.From), relSlashTo(r.Project.Root, mv.To)})
			}
			for _, e := range r.Plan.Edits {
				jf.Edited = append(jf.Edited, relSlashTo(r.Project.Root, e.NewPath))
			}
		}
		for _, f := range r.Fixed {
			jf.Fixed = append(jf.Fixed, jsonApplyFix{f.D.Code, f.D.Name, f.D.Option, f.D.Fix.Description, ""})
		}
		for _, f := range r.NotFixed {
			jf.NotFixed = append(jf.NotFixed, jsonApplyFix{f.D.Code, f.D.Name, f.D.Option, f.D.Fix.Description, f.Reason})
		}
		for _, d := range r.ByMove {
			jf.ByMove = append(jf.ByMove, jsonApplyFix{d.Code, d.Name, d.Option, "the move into app/", ""})
		}
		for _, d := range r.Settled {
			jf.Settled = append(jf.Settled, toJSONDiagnostic(d))
		}
		for _, d := range r.Remaining {
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
	return encodeJSON(w, out)
}

func relSlashTo(root, p string) string {
	if rel, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

// unsafeFlag is --unsafe: bare (or =true), every unsafe fix, as before;
// with rule codes (--unsafe=FW501,FW203), the unsafe fixes of those rules
// only, and the fixes those rules withhold because code reads what they
// change (rules.Diagnostic.Held), which bare --unsafe never makes: a fix
// that breaks code is made only for a rule the user named, as ruff's
// --unsafe-fixes is widened per rule by its extend-safe-fixes.
type unsafeFlag struct{ o *migrate.Options }

func (f unsafeFlag) String() string {
	switch {
	case f.o.Unsafe:
		return "all"
	case len(f.o.UnsafeRules) > 0:
		return strings.Join(f.o.UnsafeRules, ",")
	}
	return "false"
}

func (f unsafeFlag) Type() string { return "codes" }

func (f unsafeFlag) Set(s string) error {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "all", "true":
		f.o.Unsafe = true
		return nil
	case "false":
		f.o.Unsafe, f.o.UnsafeRules = false, nil
		return nil
	}
	for _, c := range strings.Split(s, ",") {
		c = strings.TrimSpace(c)
		r := rules.Find(c)
		if r == nil || !strings.EqualFold(r.Code, c) {
			return fmt.Errorf("%q is not a rule code (see 'fwmigrate rules')", text.Escape(c))
		}
		if !slices.Contains(f.o.UnsafeRules, r.Code) {
			f.o.UnsafeRules = append(f.o.UnsafeRules, r.Code)
		}
	}
	return nil
}

// addUnsafeFlag registers --unsafe on cmd, into o.
func addUnsafeFlag(cmd *cobra.Command, o *migrate.Options, usage string) {
	cmd.Flags().VarPF(unsafeFlag{o}, "unsafe", "", usage).NoOptDefVal = "all"
}
