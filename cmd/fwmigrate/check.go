package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spf13/cobra"

	"github.com/fwmigrate/fwmigrate/internal/par"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/settings"
	"github.com/fwmigrate/fwmigrate/workspace"
)

func init() { commands = append(commands, newCheckCmd) }

// ruleFilter holds the flags shared by check and apply.
type ruleFilter struct {
	to        int
	sel       []string
	ignore    []string
	framework int
	isolated  bool
	noConfig  bool // --allow-no-config
	budget    budgetFlags
}

func (f *ruleFilter) register(cmd *cobra.Command) {
	cmd.Flags().IntVar(&f.to, "to", 4, "compatibility version to check against")
	cmd.Flags().StringSliceVar(&f.sel, "select", nil, "run only these rules: codes (FW201), code prefixes (FW2), names or categories, comma-separated (overrides the settings file's select)")
	cmd.Flags().StringSliceVar(&f.ignore, "ignore", nil, "skip these rules (same forms as --select; overrides the settings file's ignore)")
	cmd.Flags().IntVar(&f.framework, "framework", 0, "framework major (3 or 4) for projects whose package.json does not say")
	cmd.Flags().BoolVar(&f.isolated, "isolated", false, "read no settings file (fwmigrate.json, package.json's \"fwmigrate\" key)")
	cmd.Flags().BoolVar(&f.noConfig, "allow-no-config", false, "exit 0 when a directory given holds no fw.config.* (default: exit status 2)")
	f.budget.register(cmd)
	completeValues(cmd, "to", "4")
	completeValues(cmd, "framework", "3", "4")
	cmd.RegisterFlagCompletionFunc("select", completeSelectors)
	cmd.RegisterFlagCompletionFunc("ignore", completeSelectors)
}

// flags checks the flags and returns them as settings.Flags: a flag given
// overrides the same setting of the file.
func (f *ruleFilter) flags(cmd *cobra.Command) (settings.Flags, error) {
	if f.to != 4 {
		return settings.Flags{}, usageError{fmt.Errorf("--to=%d: fwmigrate migrates to compatibility version 4 only", f.to)}
	}
	if err := rules.ValidateSelectors(f.sel); err != nil {
		return settings.Flags{}, usageError{fmt.Errorf("--select: %v", err)}
	}
	if err := rules.ValidateSelectors(f.ignore); err != nil {
		return settings.Flags{}, usageError{fmt.Errorf("--ignore: %v", err)}
	}
	for _, s := range f.ignore {
		if err := rules.HidingError(s); err != nil {
			return settings.Flags{}, usageError{fmt.Errorf("--ignore: %v", err)}
		}
	}
	if f.framework != 0 && f.framework != 3 && f.framework != 4 {
		return settings.Flags{}, usageError{fmt.Errorf("--framework must be 3 or 4, not %d", f.framework)}
	}
	changed := cmd.Flags().Changed
	return settings.Flags{
		Select: f.sel, SelectSet: changed("select"),
		Ignore: f.ignore, IgnoreSet: changed("ignore"),
		Framework: f.framework, FrameworkSet: changed("framework") && f.framework != 0,
		Isolated: f.isolated,
	}, nil
}

// checkFlags are check's own flags.
type checkFlags struct {
	format, color, failOn string
	baseline              string
	updateBaseline        bool
	showSettings          bool
	statistics, quiet     bool
	output                string
	fix                   bool
	dryRun                bool            // with --fix only
	unsafe                migrate.Options // with --fix only: its Unsafe and UnsafeRules (--unsafe)
}

func newCheckCmd() *cobra.Command {
	var (
		filter ruleFilter
		cf     checkFlags
	)
	cmd := &cobra.Command{
		Use:   "check [paths...]",
		Short: "Report what breaks or changes meaning under version 4",
		Long: `Check finds every fw.config.* under the given paths (directories are walked,
config files are taken as given, a .env file stands for the config beside it,
a code file (.vue, a script) is checked alone in its project, other files are
ignored; default: the current directory) and reports options that are
invalid, removed, layout-B only, or change meaning under compatibility
version 4 and layout A, and the places in the app's code whose behaviour
version 4 changes, with the fix where one exists.

Settings come from the fwmigrate.json (or package.json "fwmigrate" key)
nearest to each project, from its directory upwards; flags override them.
'check --show-settings' prints what applies and where each setting comes
from.

Exit status: 0 when nothing is reported at or above --fail-on, 1 otherwise,
2 for usage errors, paths that do not exist, directories that hold no
config (unless --allow-no-config), bad settings files, and files that cannot
be read or parsed (the other files are still checked and reported).

Suppress a finding with a comment on its line or the line above:
  // fwmigrate-ignore FW201: the reason`,
		Example: `  fwmigrate check
  fwmigrate check apps/web --format=json
  fwmigrate check --select=layout,FW2 --fail-on=error
  fwmigrate check --format=sarif -o fwmigrate.sarif
  fwmigrate check --baseline=fwmigrate-baseline.json --update-baseline
  fwmigrate check --fix`,
		RunE: func(cmd *cobra.Command, args []string) error {
			flags, err := filter.flags(cmd)
			if err != nil {
				return err
			}
			if cf.fix {
				return runFix(cmd, args, filter, flags, cf)
			}
			for _, name := range []string{"unsafe", "dry-run"} {
				if cmd.Flags().Changed(name) {
					return usageError{fmt.Errorf("--%s goes with --fix (or 'fwmigrate apply')", name)}
				}
			}
			if !contains(formats, cf.format) {
				return usageError{fmt.Errorf("--format must be one of %s, not %q", strings.Join(formats, ", "), cf.format)}
			}
			if cmd.Flags().Changed("fail-on") {
				// The spellings other linters take mean the same here.
				if v, ok := failOnAliases[strings.ToLower(cf.failOn)]; ok {
					cf.failOn = v
				}
				if !contains(settings.FailOnValues, cf.failOn) {
					return usageError{fmt.Errorf("--fail-on must be one of %s, not %q", strings.Join(settings.FailOnValues, ", "), cf.failOn)}
				}
				flags.FailOn, flags.FailOnSet = cf.failOn, true
			}
			if cmd.Flags().Changed("baseline") {
				if cf.baseline == "" {
					return usageError{errors.New("--baseline needs a file")}
				}
				flags.Baseline, flags.BaselineSet = cf.baseline, true
			}
			if cf.statistics && cf.format != "text" && cf.format != "concise" {
				return usageError{errors.New("--statistics prints a table: use it with --format=text or concise")}
			}
			if err := missingPaths(args); err != nil {
				return err
			}
			ws := workspace.New(flags)
			ws.Tops = topsOf(args)
			if ws.Budget, err = filter.budget.value(); err != nil {
				return err
			}
			if cf.showSettings {
				return showSettings(cmd.OutOrStdout(), ws.Finder(), args)
			}
			out := cmd.OutOrStdout()
			if cf.output != "" && !cf.updateBaseline {
				f, err := os.Create(cf.output)
				if err != nil {
					return fmt.Errorf("--output-file: %v", err)
				}
				defer f.Close()
				out = f
			}
			useColor, err := colorEnabled(cf.color, out)
			if err != nil {
				return usageError{err}
			}
			ws.NewLoader = newLoader
			on, inPlace := progressMode(cmd, cmd.ErrOrStderr())
			prog := newProgress(cmd.ErrOrStderr(), on, inPlace, "checkrun")
			if prog != nil {
				ws.Overlay = prog.overlay
			}
			// The report is made under the same settings as the check: it
			// holds every finding.
			defer tuneMemory()()
			rep := runCheck(args, ws, checkRun{
				frames:         cf.format == "text" && !cf.statistics,
				updateBaseline: cf.updateBaseline,
				allowNoConfig:  filter.noConfig,
			})
			defer rep.findings.close()
			prog.stop()
			errOut := cmd.ErrOrStderr()
			for _, err := range rep.errs {
				fmt.Fprintf(errOut, "fwmigrate: %s\n", text.Escape(err.Error()))
			}
			if cf.updateBaseline {
				return updateBaselines(errOut, rep)
			}
			if len(rep.errs) == 0 || rep.files > 0 {
				opts := textOptions{color: useColor, quiet: cf.quiet, statistics: cf.statistics, width: terminalWidth(out)}
				if err := writeReport(out, rep, cf.format, opts); err != nil {
					return err
				}
				if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" && cf.format == "github" {
					appendStepSummary(errOut, path, rep)
				}
			}
			switch {
			case rep.fatal || len(rep.errs) > 0:
				return exitCodeError{exitError}
			case rep.failing:
				return exitCodeError{exitFindings}
			}
			return nil
		},
	}
	filter.register(cmd)
	cmd.Flags().StringVar(&cf.format, "format", "text", "output format: "+strings.Join(formats, ", "))
	cmd.Flags().StringVar(&cf.color, "color", "auto", "colour the text output: auto, always or never (NO_COLOR and FORCE_COLOR are respected)")
	cmd.Flags().StringVar(&cf.failOn, "fail-on", "warning", "lowest severity that makes the exit status 1: info, warning, error or never (overrides the settings file's failOn)")
	cmd.Flags().StringVar(&cf.baseline, "baseline", "", "a file of known findings: fail only on findings that are not in it (overrides the settings file's baseline)")
	cmd.Flags().BoolVar(&cf.updateBaseline, "update-baseline", false, "write the current findings to the baseline (--baseline or the settings file's), instead of reporting them")
	cmd.Flags().BoolVar(&cf.showSettings, "show-settings", false, "print the settings each path is checked with, and where each comes from; check nothing")
	cmd.Flags().BoolVar(&cf.statistics, "statistics", false, "print the number of findings per rule instead of the findings")
	cmd.Flags().BoolVarP(&cf.quiet, "quiet", "q", false, "print the findings only, without the summary")
	cmd.Flags().StringVarP(&cf.output, "output-file", "o", "", "write the report to this file instead of the standard output")
	cmd.Flags().Bool("progress", false, "show progress on stderr even when it is not a terminal (--progress=false: never); by default it shows on a terminal only, not in CI")
	cmd.Flags().BoolVar(&cf.fix, "fix", false, "apply the safe fixes: the same as 'fwmigrate apply --to=4'")
	addUnsafeFlag(cmd, &cf.unsafe, "with --fix: apply the unsafe fixes too, or with rule codes those of these rules (apply --unsafe)")
	cmd.Flags().BoolVar(&cf.dryRun, "dry-run", false, "with --fix: print the patch, write nothing (apply --dry-run)")
	completeValues(cmd, "format", formats...)
	completeValues(cmd, "color", "auto", "always", "never")
	completeValues(cmd, "fail-on", settings.FailOnValues...)
	cmd.MarkFlagFilename("baseline", "json")
	return cmd
}

// runFix is check --fix: apply with the safe fixes, as ruff, eslint and
// biome users type it.
func runFix(cmd *cobra.Command, args []string, filter ruleFilter, flags settings.Flags, cf checkFlags) error {
	for _, name := range []string{"baseline", "update-baseline", "show-settings", "statistics", "output-file", "fail-on", "color"} {
		if cmd.Flags().Changed(name) {
			return usageError{fmt.Errorf("--fix runs 'fwmigrate apply', which does not take --%s", name)}
		}
	}
	if cf.format != "text" && cf.format != "json" && cf.format != "markdown" {
		return usageError{fmt.Errorf("--fix runs 'fwmigrate apply', whose --format is text, json or markdown, not %q", cf.format)}
	}
	o := migrate.Options{Layout: migrate.LayoutMove, Unsafe: cf.unsafe.Unsafe, UnsafeRules: cf.unsafe.UnsafeRules, DryRun: cf.dryRun}
	// check --fix asks nothing, as eslint --fix and ruff --fix do.
	return applyRun(cmd, args, filter, flags, o, cf.format, false, true)
}

// checkRun says what runCheck does besides checking.
type checkRun struct {
	frames         bool // keep the lines of the findings, for code frames
	updateBaseline bool // keep the findings a baseline hides, to write them
	allowNoConfig  bool
}

// checked is what the report keeps of a project: the diagnostics, and for
// code frames their lines.
type checked struct {
	display string
	id      int32    // its findings' add in the report's findings
	counts  summary  // its findings by severity and fix
	fatal   bool     // a file could not be checked
	failing bool     // a finding at or above the project's failOn
	files   []string // the files the project's check covers, absolute
	res     *settings.Resolved
	known   settings.Known // with --update-baseline: the findings, as the baseline records them
}

// runCheck checks every project under args, each with the settings of the
// file nearest to it, through the workspace ws.
//
// It streams: the walk hands each config to the workers as it finds it,
// each worker loads and checks one project and keeps only what the report
// needs, and the Loader then forgets the project unless it is another's
// layer. The walk overlaps the work, and memory grows with the findings,
// not with the projects. The layers that are not projects are checked last.
func runCheck(args []string, ws *workspace.Workspace, cr checkRun) *report {
	defer tuneMemory()()
	ws.KeepBaselined = cr.updateBaseline

	store := &findings{}
	var (
		mu      sync.Mutex
		results []checked
		errs    []error
		errSeen = map[string]bool{}
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if !errSeen[err.Error()] {
			errSeen[err.Error()] = true
			errs = append(errs, err)
		}
	}
	// check checks one project with its settings; false when they cannot
	// be read (the error is reported, the project is not checked).
	check := func(p *project.Project, only []string) bool {
		c := ws.Check(p)
		if c.Err != nil {
			fail(c.Err)
			return false
		}
		if only != nil {
			c.Diags = onlyIn(c.Diags, only)
		}
		kept := checked{display: p.ConfigDisplay, res: c.Settings, failing: c.Failing(), fatal: rules.Fatal(c.Diags), counts: countOf(c.Diags)}
		kept.id = store.add(p.ConfigDisplay, c.Diags, c.Texts, cr.frames)
		if c.Settings.Baseline != "" {
			kept.files = coveredFiles(p, c.Diags)
			if cr.updateBaseline {
				kept.known = settings.KnownFindings(c.Settings.Baseline, c.Diags)
			}
		}
		mu.Lock()
		results = append(results, kept)
		mu.Unlock()
		return true
	}
	l := ws.Loader()
	next := make(chan found)
	var walkErr error
	go func() {
		walkErr = discoverEach(args, cr.allowNoConfig, func(f found) { next <- f })
		close(next)
	}()
	// A project without a framework major of its own (no package.json)
	// that other projects of the run extend as a layer runs under theirs
	// (before the settings' major): it is checked again once every project
	// is loaded, when they agree.
	var unknown []found
	par.Each(next, func(f found) {
		p := loadOne(l, f)
		ok := check(p, f.only)
		if ok && p.File != nil && !strings.HasPrefix(p.FrameworkSource, "package.json") && p.ConfigReal != "" {
			mu.Lock()
			unknown = append(unknown, found{path: f.path, real: p.ConfigReal, via: f.via, explict: f.explict, only: f.only})
			mu.Unlock()
		}
		l.Release(p)
	})
	for _, f := range unknown {
		if l.ExtendersMajor(f.real) == 0 {
			continue // not loaded again for nothing
		}
		p := loadOne(l, found{path: f.path, via: f.via, explict: f.explict, only: f.only})
		if !l.InheritMajor(p) {
			l.Release(p)
			continue
		}
		mu.Lock()
		results = slices.DeleteFunc(results, func(c checked) bool {
			if c.display == p.ConfigDisplay {
				store.take(c.id)
				return true
			}
			return false
		})
		mu.Unlock()
		check(p, f.only)
		l.Release(p)
	}
	layers := l.LayerProjects()
	par.For(len(layers), func(i int) {
		check(layers[i], nil)
	})
	if walkErr != nil {
		errs = append(errs, walkErr)
	}

	// Workers finish in any order: the baselines are written from the
	// projects in the order of their configs, the same every run.
	sort.Slice(results, func(i, j int) bool { return results[i].display < results[j].display })
	rep := &report{files: len(results), findings: store, errs: errs}
	covered := map[string]map[string]bool{} // baseline -> files checked against it
	for _, r := range results {
		rep.fatal = rep.fatal || r.fatal
		rep.failing = rep.failing || r.failing
		rep.counts.add(r.counts)
		if base := r.res.Baseline; base != "" {
			if covered[base] == nil {
				covered[base] = map[string]bool{}
			}
			for _, f := range r.files {
				covered[base][f] = true
			}
			if cr.updateBaseline {
				rep.toBaseline = append(rep.toBaseline, baselineFindings{base, r.known})
			}
		}
	}
	rep.covered = covered
	for path, b := range ws.Baselines() {
		rep.baselined += b.Matched()
		rep.stale += b.Stale(covered[path])
	}
	return rep
}

// coveredFiles are the files a project's check speaks for, absolute: a
// baseline's entries for them are replaced when it is written, and those
// not found again are stale.
func coveredFiles(p *project.Project, diags []*rules.Diagnostic) []string {
	var out []string
	add := func(f string) {
		if abs, err := filepath.Abs(f); err == nil {
			out = append(out, abs)
		}
	}
	add(p.ConfigPath)
	for _, ef := range p.Env {
		add(ef.Path)
	}
	if p.Root != "" {
		add(filepath.Join(p.Root, ".fwignore"))
	}
	for _, d := range diags {
		add(d.File)
	}
	return out
}

// baselineFindings are one project's findings for the baseline at path.
type baselineFindings struct {
	path  string
	known settings.Known
}

// updateBaselines writes the baselines of a run (check --update-baseline).
func updateBaselines(w io.Writer, rep *report) error {
	if rep.fatal || len(rep.errs) > 0 {
		fmt.Fprintln(w, "fwmigrate: no baseline written: some files could not be checked")
		return exitCodeError{exitError}
	}
	if len(rep.covered) == 0 {
		return usageError{errors.New("--update-baseline: no baseline to write: give --baseline=FILE, or set \"baseline\" in fwmigrate.json")}
	}
	byPath := map[string]settings.Known{}
	for _, bf := range rep.toBaseline {
		byPath[bf.path] = append(byPath[bf.path], bf.known...)
	}
	var paths []string
	for p := range rep.covered {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		b, err := settings.LoadBaseline(p, true)
		if err != nil {
			return err
		}
		n, err := b.Write(byPath[p], rep.covered[p])
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "fwmigrate: wrote %s: %s\n", text.Escape(pathx.Display(p)), text.Plural(n, "known finding"))
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// newLoader makes the Loader of a run. Tests replace it to inject read
// errors that the OS does not give a root user.
var newLoader = project.NewLoader

// loadOne loads one config discovery found (or records why it could not).
func loadOne(l *project.Loader, f found) *project.Project {
	display := filepath.Clean(f.path)
	if f.err != nil {
		return project.Failed(f.path, display, f.err)
	}
	return l.Load(f.path, display)
}

// onlyIn keeps the diagnostics of the code files given (absolute), and
// those that say the project could not be checked: a code file named on
// the command line is checked alone, its project's other findings are not
// its author's to hear.
func onlyIn(diags []*rules.Diagnostic, files []string) []*rules.Diagnostic {
	want := map[string]bool{}
	for _, f := range files {
		want[f] = true
	}
	var out []*rules.Diagnostic
	for _, d := range diags {
		abs, err := filepath.Abs(d.File)
		if err == nil && want[abs] || rules.IsFatal(d) {
			out = append(out, d)
		}
	}
	return out
}

// failOnAliases are the other spellings --fail-on takes (eslint's warn,
// biome's and ruff's words) for its values.
var failOnAliases = map[string]string{
	"info": "info", "information": "info", "hint": "info",
	"warning": "warning", "warn": "warning", "warnings": "warning",
	"error": "error", "err": "error", "errors": "error",
	"never": "never", "none": "never", "off": "never",
}

// softLimit is check's soft memory limit while the live heap is small (a
// variable for the tests).
var softLimit int64 = 256 << 20

// tuneMemory sets the collector for a check, and returns the function that
// puts the settings back. GOGC and GOMEMLIMIT, when set, are the user's
// choice, and tuneMemory leaves them alone; a call while the settings are
// tuned does nothing (check tunes around its report too).
//
// What stays live is small next to what a check allocates: the texts of
// the files read and the findings, since a file's trees are let go once
// its findings are made (code.Read). So the collector may let the heap
// grow 9x between cycles (GOGC=800) instead of 2x, under a soft limit of
// 256 MiB: below it a cycle costs what the live heap does, and a run
// collects a few dozen times. Measured on appgen.Dense apps (2 CPUs, load
// average 25): 20,000 files, 155 MB live at most (79 MB of it texts):
// peak RSS 273 MB and 8.4 s CPU with this limit, 207 MB and 9.9 s at 192
// MiB, 197 MB and 13 s at 160 MiB (the limit binds: the collector runs
// without pause), 372 MB and 8.4 s with no limit at GOGC=100, 634 MB at
// GOGC=400. The limit must never bind, or the collector takes half the
// CPU (issue 25: 49% at 1.28 GB live on the same app before the trees were
// let go): once a cycle ends with more than two thirds of the limit live
// (a larger project: more texts and findings), the limit is raised to
// twice the live heap, which then grows as with GOGC=100.
func tuneMemory() (restore func()) {
	if tuned.Swap(true) {
		return func() {}
	}
	var undo []func()
	if os.Getenv("GOGC") == "" {
		old := debug.SetGCPercent(800)
		undo = append(undo, func() { debug.SetGCPercent(old) })
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		old := debug.SetMemoryLimit(softLimit)
		stop := &atomic.Bool{}
		watchLiveHeap(stop)
		undo = append(undo, func() { stop.Store(true); debug.SetMemoryLimit(old) })
	}
	return func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
		tuned.Store(false)
	}
}

// tuned says tuneMemory's settings are in place.
var tuned atomic.Bool

// watchLiveHeap raises the soft memory limit to twice the live heap after
// each collection that ends with more than two thirds of the limit live, until
// stop is set: a finalizer runs once per cycle, on a sentinel made anew
// each time.
func watchLiveHeap(stop *atomic.Bool) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var arm func()
	arm = func() {
		runtime.SetFinalizer(new([16]byte), func(*[16]byte) {
			if stop.Load() {
				return
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				live := int64(sample[0].Value.Uint64())
				if limit := debug.SetMemoryLimit(-1); 3*live > 2*limit {
					debug.SetMemoryLimit(2 * live)
				}
			}
			arm()
		})
	}
	arm()
}
