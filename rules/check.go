package rules

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

// Options select what Check runs.
type Options struct {
	// Target is the compatibility version to check against (default 4).
	Target int
	// Select and Ignore filter rules by code ("FW201"), code prefix ("FW2"),
	// name ("generate-routes") or category ("version"). An empty Select
	// selects everything; Ignore wins over Select.
	Select, Ignore []string
	// Framework is the framework major (3 or 4) of projects whose
	// package.json does not say (--framework); 0 leaves it unknown.
	// FrameworkSource says where it comes from ("--framework" when "").
	Framework       int
	FrameworkSource string
	// Finish, when set, has the last word on each diagnostic of a project,
	// once positions are known and suppressions applied: it may change the
	// severity, and it drops the diagnostic by returning false. The
	// settings' severity and per-path overrides and the baseline are
	// applied through it (settings.Resolved), here rather than by each
	// caller, so that check, apply's rounds and the check after a move see
	// the same findings at the same severities.
	Finish func(*Diagnostic) bool
	// Context, when set, is asked between rules: once it is done the check
	// stops and Run's result says so (the language server drops a check
	// that a newer edit made stale).
	Context context.Context
	// Before, when set, is the version the project runs before the
	// version step this check looks past: the fixes of a project whose fw
	// dependency FW701 bumps are made for the new major (fix.Rounds checks
	// it as that major before package.json says so), and the rules that
	// report what the step changes for the code (FW851's flag) judge it
	// from the version the project runs today. Unset (Framework 0): the
	// project's own (VersionsOf).
	Before Versions
	// Release are the codes of the rules whose held fixes (Diagnostic.Held:
	// withheld because code reads what they change) are made all the same,
	// as the user asked (apply --unsafe=FW501). Only apply's checks set it.
	Release []string
	// DetectorHook, when set (by tests: rules' TestDetectorPanic), is
	// called in the shared walk of the code files for the detector of each
	// code rule (its code) in file i, after the detector's own visitors are
	// made, and its visitors walk the file as that detector's: a panic in
	// one is the detector's panic, as a bug of the rule would be. Its
	// types are rules/internal/code's: no package outside rules can set it.
	DetectorHook func(rule string, i int, f *code.File) []*code.Visitor
}

// Versions are the framework major and compatibility version a project runs
// with.
type Versions struct {
	Framework int // 0 when unknown
	Compat    int // 0 when it cannot be known before the config runs
}

// VersionsOf are the versions p runs with: its framework major, and the
// compatibility version its config gives it on that major.
func VersionsOf(p *project.Project) Versions {
	v := Versions{Framework: p.Framework}
	if p.File != nil {
		val, st := project.ConfigValues(p.File).Value("future.compatibilityVersion")
		v.Compat, _ = compat.EffectiveCompat(p.Framework, val, st)
	}
	return v
}

// Matches reports whether the selector sel (a code, a code prefix such as
// FW2, a name, a category, or "all") names r: the forms --select takes.
func (r *Rule) Matches(sel string) bool { return matchesAny(r, []string{sel}) }

// Selected reports whether opts select rule r. An unsuppressible rule is
// always selected.
func (o Options) Selected(r *Rule) bool {
	if r.Unsuppressible {
		return true
	}
	if len(o.Select) > 0 && !matchesAny(r, o.Select) {
		return false
	}
	return !matchesAny(r, o.Ignore)
}

func matchesAny(r *Rule, pats []string) bool {
	for _, p := range pats {
		p = strings.TrimSpace(p)
		switch {
		case p == "":
		case strings.EqualFold(p, "all"):
			return true
		case strings.EqualFold(p, r.Name), strings.EqualFold(p, string(r.Category)):
			return true
		case len(p) >= 2 && strings.HasPrefix(strings.ToUpper(r.Code), strings.ToUpper(p)) && strings.HasPrefix(strings.ToUpper(p), "FW"):
			return true
		}
	}
	return false
}

// ValidateSelectors returns an error naming the first selector that matches
// no rule, so that a typo in --select or --ignore is not silently ignored.
func ValidateSelectors(sels []string) error {
	for _, s := range sels {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		found := false
		for _, r := range All() {
			if matchesAny(r, []string{s}) {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("%q matches no rule code, name or category (see 'fwmigrate rules')", s)
		}
	}
	return nil
}

// Check runs the selected rules on one project and returns its diagnostics
// with positions filled in, suppressions applied, sorted by file, position
// and code. Reading and syntax errors come back as FW901/FW904 diagnostics,
// a project on framework major 2 as FW907 alone (Fatal reports whether the
// project had one).
//
// Check reads the project's framework major (Project.Framework); it never
// decides it: the loader takes it from package.json or from the apps that
// extend a layer, and the workspace from the settings.
func Check(p *project.Project, opts Options) []*Diagnostic { return Run(p, opts).Diags }

// Result is what one check of a project found.
type Result struct {
	Diags []*Diagnostic
	// Texts are the texts of the files the diagnostics point into, by
	// Diagnostic.File, as the check read them: code frames and editor
	// ranges are made from them, never from a second read of the disk.
	Texts map[string][]byte
	// Cancelled says Options.Context ended the check: Diags are partial.
	Cancelled bool
	// ReusedDetection says the check reused what the code rules' detectors
	// found in the last check of the project (a project loaded through a
	// Cache that keeps results: the language server's): it walked again
	// only the files whose text changed. A front end may log it; tests
	// count it.
	ReusedDetection bool
}

// Run is Check, with the texts of the files its diagnostics point into.
func Run(p *project.Project, opts Options) *Result {
	diags, index := check(p, opts)
	defer index.keepCode()
	res := &Result{Diags: diags, Texts: map[string][]byte{}, ReusedDetection: index != nil && index.reusedDetection}
	if opts.Context != nil && opts.Context.Err() != nil {
		res.Cancelled = true
		return res
	}
	if len(diags) == 0 {
		return res
	}
	// Every file the check read, by display: a map, as a large app has
	// thousands of files with findings.
	texts := map[string][]byte{}
	if index != nil {
		for _, tf := range index.otherFiles() {
			texts[tf.Display] = tf.Src
		}
	}
	for _, ef := range p.Env {
		if ef.Src != nil {
			texts[ef.Display] = ef.Src
		}
	}
	if p.File != nil {
		texts[p.ConfigDisplay] = p.File.Src
	}
	for _, d := range diags {
		if src, ok := texts[d.File]; ok {
			res.Texts[d.File] = src
		}
	}
	return res
}

func check(p *project.Project, opts Options) ([]*Diagnostic, *Index) {
	if opts.Target == 0 {
		opts.Target = 4
	}
	var diags []*Diagnostic
	if (p.Journal != "" || p.JournalRefused != nil) && opts.Selected(ruleUnfinishedApply) {
		diags = append(diags, unfinishedApply(p))
	}
	if p.File == nil {
		if p.ConfigOutside != "" && errors.As(p.Err, new(*project.OutsideError)) {
			// Not read: FW910 says so, naming the link alone.
			diags = append(diags, outsideProject(p))
			finish(p, diags)
			return opts.finish(diags), nil
		}
		diags = append(diags, loadErrorDiagnostic(p))
		finish(p, diags)
		return opts.finish(diags), nil
	}
	if d := unsupportedMajor(p); d != nil {
		// Out of scope: this finding alone, whatever the selection, and it
		// cannot be suppressed (as a syntax error).
		diags = append(diags, d)
		finish(p, diags)
		return diags, nil
	}
	index := NewIndex(p, p.File, opts.Target)
	index.before = opts.Before
	index.detectorHook = opts.DetectorHook
	index.detectors = predictDetectors(p, index, opts)
	for _, r := range All() {
		if r.Run == nil || !opts.Selected(r) {
			continue
		}
		if opts.Context != nil && opts.Context.Err() != nil {
			return nil, index // cancelled: Run only keeps the index's code (keepCode)
		}
		pass := &Pass{Rule: r, Project: p, File: p.File, Config: index.config, Target: opts.Target, Index: index}
		runRule(pass)
		diags = append(diags, pass.diags...)
	}
	release(diags, opts.Release)
	withholdFixes(p, diags)
	diags = append(diags, engineDiagnostics(p, opts)...)
	if d := notFullyChecked(p); d != nil {
		diags = append(diags, d) // past its budget, whatever the selection
	}
	finish(p, diags)
	diags = applySuppressions(p, diags, opts, index.otherFiles())
	diags = opts.finish(diags)
	sortDiagnostics(diags)
	return diags, index
}

// finish applies o.Finish to diags, in place.
func (o Options) finish(diags []*Diagnostic) []*Diagnostic {
	if o.Finish == nil {
		return diags
	}
	kept := diags[:0]
	for _, d := range diags {
		if o.Finish(d) {
			kept = append(kept, d)
		}
	}
	return kept
}

// Fatal reports whether diags hold an error that makes the run fail with
// exit status 2: a config that could not be read or parsed, an extends
// cycle, a project on framework major 2, an internal error. The same codes
// at a lower severity (an unreadable .env file is a warning) do not.
func Fatal(diags []*Diagnostic) bool {
	for _, d := range diags {
		if IsFatal(d) {
			return true
		}
	}
	return false
}

// IsFatal reports whether d says a file or project could not be checked
// (an error of an unsuppressible rule).
func IsFatal(d *Diagnostic) bool { return d.Severity == Error && !Suppressible(d.Code) }

// Suppressible reports whether the findings of the rule with code may be
// hidden (Rule.Unsuppressible); an unknown code may.
func Suppressible(code string) bool {
	r := registry[code]
	return r == nil || r.Suppressible()
}

// runRule runs one rule, turning a panic into an internal-error diagnostic:
// a bug in one rule must not take the whole run down.
func runRule(pass *Pass) {
	defer func() {
		if e := recover(); e != nil {
			d := ruleInternal.Diagnose(pass.Project.ConfigDisplay, ast.Span{}, "", fmt.Sprintf("internal error in rule %s (%s): %v", pass.Rule.Code, pass.Rule.Name, e))
			pass.diags = append(pass.diags, d)
			d.Notes = append(d.Notes, "please report this with the config that triggers it", text.FirstLines(string(debug.Stack()), 12))
		}
	}()
	pass.Rule.Run(pass)
}

func loadErrorDiagnostic(p *project.Project) *Diagnostic {
	var se *ast.SyntaxError
	if !errors.As(p.Err, &se) {
		return ruleIO.Diagnose(p.ConfigDisplay, ast.Span{}, "", ioMessage(p.Err))
	}
	d := ruleSyntax.Diagnose(p.ConfigDisplay, ast.Span{Start: se.Offset, End: se.Offset}, "", se.Text)
	d.Line, d.Column = se.Line, se.Column
	d.EndLine, d.EndColumn = se.Line, se.Column
	return d
}

// ioMessage says what went wrong with a file without repeating its path,
// which the diagnostic already names.
func ioMessage(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("cannot %s: %v", pe.Op, pe.Err)
	}
	return fmt.Sprint(err)
}

// engineDiagnostics are the tool's own findings about a parsed project.
func engineDiagnostics(p *project.Project, opts Options) []*Diagnostic {
	var out []*Diagnostic
	f := p.File
	if f.Config == nil && opts.Selected(ruleNotLiteral) {
		span := f.ReasonSpan
		if span.Len() == 0 {
			span = f.ExportSpan
		}
		reason := f.Reason
		if reason == "" {
			reason = "the exported config is not an object literal"
		}
		d := ruleNotLiteral.Diagnose(p.ConfigDisplay, span, "", "cannot check: "+reason)
		d.Notes = []string{"fwmigrate checks and rewrites configs written as an object literal (export default defineFwConfig({...})), also one that a function returns once, directly in its body"}
		out = append(out, d)
	}
	for _, ef := range p.Env {
		if ef.Err != nil && opts.Selected(ruleIO) {
			// A file that cannot be read at all is an error, as a config
			// is: the framework fails to load it too. A line that does not
			// parse is a warning at that line.
			d := ruleIO.Diagnose(ef.Display, ef.ErrSpan, "", fmt.Sprintf("%s: %s", ef.Name, ioMessage(ef.Err)))
			d.Path = ef.Name
			if !ef.Unreadable || errors.As(ef.Err, new(*project.OutsideError)) {
				// Not read on purpose (a link out of the checkout): the
				// check goes on without it.
				d.Severity = Warning
			}
			out = append(out, d)
		}
	}
	if p.Detection != nil && p.Detection.MajorErr != nil && opts.Selected(ruleIO) {
		out = append(out, packageDiagnostic(p, p.Detection.MajorErr, opts))
	}
	if p.ConfigOutside != "" && opts.Selected(ruleOutsideProject) {
		out = append(out, outsideProject(p))
	}
	if p.DetectErr != nil && opts.Selected(ruleIO) {
		d := ruleIO.Diagnose(p.ConfigDisplay, ast.Span{}, "", fmt.Sprintf("cannot read the project's directory layout: %v", p.DetectErr))
		d.Severity, d.Notes = Warning, []string{"layout checks were skipped"}
		out = append(out, d)
	}
	return out
}

// finish fills in positions from spans.
func finish(p *project.Project, diags []*Diagnostic) {
	// One line table per file: a .env of a million lines has as many
	// findings, and a table per finding made the check quadratic.
	tables := map[string]ast.Lines{}
	for _, d := range diags {
		if d.Line != 0 {
			continue
		}
		var src []byte
		var f *ast.File
		if d.File == p.ConfigDisplay {
			f = p.File
		} else if p.TSConfig != nil && d.File == p.TSConfig.Display {
			src = p.TSConfig.Src
		} else {
			for _, ef := range p.Env {
				if ef.Display == d.File {
					src = ef.Src
				}
			}
		}
		if f == nil && src == nil {
			continue
		}
		var start, end ast.Position
		if f != nil {
			start, end = f.Position(d.Span.Start), f.Position(d.Span.End)
		} else {
			lines, ok := tables[d.File]
			if !ok {
				lines = ast.NewLines(src)
				tables[d.File] = lines
			}
			start, end = lines.Position(d.Span.Start), lines.Position(d.Span.End)
		}
		d.Line, d.Column, d.ColumnUTF16 = start.Line, start.Column, start.ColumnUTF16
		d.EndLine, d.EndColumn, d.EndColumnUTF16 = end.Line, end.Column, end.ColumnUTF16
	}
}

func sortDiagnostics(diags []*Diagnostic) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i], diags[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Message < b.Message
	})
}

// SortDiagnostics sorts diagnostics from many projects into the
// deterministic output order.
func SortDiagnostics(diags []*Diagnostic) { sortDiagnostics(diags) }
