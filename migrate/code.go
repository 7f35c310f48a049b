package migrate

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/fix"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/internal/text"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/txn"
)

// Fixes of the project's code (the code rules' fixes: Fix.File set) and
// pins of default changes (--pin).
//
// Code fixes are byte edits of application and module files. They are made
// once the config's rounds are done, from the diagnostics that still stand:
// a pinned default change takes its sites away, so their code is not edited
// (the pin keeps the version-3 behaviour instead). Each file's edits are
// applied together and validated by esbuild (rewrite.EditCode); a file whose
// edits fail is left as it is, and its fixes are listed as not made. The
// edited files join the project's write: the move's plan when the sources
// move, the journal's edits otherwise.

// makeCodeFixes makes the code fixes of diags (safe ones; unsafe ones too with
// --unsafe) and records the edited files in r.CodeEdits.
func (r *Result) makeCodeFixes(diags []*rules.Diagnostic, o Options) []*rules.Diagnostic {
	byFile := map[string][]*rules.Diagnostic{}
	var files []string
	for _, d := range diags {
		if d.Fix == nil || d.Fix.File == "" || len(d.Fix.Ops) == 0 {
			continue
		}
		if d.Fix.Applicability == rules.Unsafe && !o.MakesUnsafe(d) {
			continue
		}
		if rules.FrameworkBump(d) != 0 && len(o.Pin) > 0 {
			r.addNotFixed(d, "--pin keeps version-3 behaviour on framework major 3 with compatibility version 4, which major 4 removes in part; bump fw once the code is changed")
			continue
		}
		if !fixAllowed(d, o.Layout) {
			if r.NotFixedReason(d) == "" {
				r.addNotFixed(d, layoutSkipReason(d, o.Layout))
			}
			continue
		}
		if len(d.Fix.ConfigOps) > 0 {
			// The config rounds did not make the config edits this fix
			// needs first (the reason is in NotFixed): its file stays.
			if r.NotFixedReason(d) == "" {
				r.addNotFixed(d, "the config edits it needs were not made")
			}
			continue
		}
		if byFile[d.Fix.File] == nil {
			files = append(files, d.Fix.File)
		}
		byFile[d.Fix.File] = append(byFile[d.Fix.File], d)
	}
	sort.Strings(files)
	fixed := map[*rules.Diagnostic]bool{}
	for i, path := range files {
		o.progress(StepEdit, r.Project.ConfigDisplay, i+1, len(files))
		ds := byFile[path]
		var ops []rewrite.Op
		for _, d := range ds {
			ops = append(ops, d.Fix.Ops...)
		}
		read := o.read
		if read == nil {
			read = project.ReadSource
		}
		e, err := fix.Code(path, read, ops)
		if err != nil {
			for _, d := range ds {
				r.addNotFixed(d, "the edit of "+d.Path+" failed: "+strings.TrimPrefix(err.Error(), path+": "))
			}
			continue
		}
		r.CodeEdits = append(r.CodeEdits, txn.Edit{Path: path, NewPath: path, Old: e.Old, New: e.New, Mode: e.Mode})
		for _, d := range ds {
			fixed[d] = true
			if !r.hasFixed(d) {
				r.addFixed(d)
			}
		}
	}
	left := make([]*rules.Diagnostic, 0, len(diags))
	for _, d := range diags {
		if !fixed[d] {
			left = append(left, d)
		}
	}
	return left
}

// Pins (--pin) of default changes: "affected" pins those that reach code
// (their code rules found sites), "all" every one the config leaves unset,
// else the option paths named.
const (
	PinAffected = "affected"
	PinAll      = "all"
)

// ValidatePins returns an error naming the first pin that is neither
// "affected", "all" nor a default that version 4 or compatibility version 5
// changes.
func ValidatePins(pins []string) error {
	for _, p := range pins {
		if p == PinAffected || p == PinAll {
			continue
		}
		if _, ok := flipAt(p); !ok {
			var names []string
			for _, f := range append(compat.FlipsTo(4), compat.FlipsTo(5)...) {
				names = append(names, f.Path)
			}
			msg := fmt.Sprintf("--pin: %q is not a default that version 4 changes", p)
			if s := compat.SuggestWord(p, names); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return fmt.Errorf("%s; 'fwmigrate explain FW204' lists them", msg)
		}
	}
	return nil
}

func flipAt(path string) (compat.Flip, bool) {
	for _, f := range append(compat.FlipsTo(4), compat.FlipsTo(5)...) {
		if f.Path == path {
			return f, true
		}
	}
	return compat.Flip{}, false
}

// pinFixes returns the pins --pin asks for p, as fixes of their own: each
// sets an option to the value that keeps the version-3 behaviour. diags are
// p's findings (the sites of the code rules say which changes reach code).
// A pin the framework cannot honour on the project's major is reported as
// not made.
func (r *Result) pinFixes(p *project.Project, diags []*rules.Diagnostic, o Options) []*rules.Diagnostic {
	if len(o.Pin) == 0 || p.File == nil || p.File.Config == nil {
		return nil
	}
	to := 4
	if v, st := project.ConfigValues(p.File).Value("future.compatibilityVersion"); st == compat.Static && p.Framework >= 4 {
		if n, ok := v.(float64); ok && n >= 5 {
			to = 5
		}
	}
	// want maps each flip to pin to whether it was named: affected and all
	// pin only what framework major 4 honours (a pin of v3 with
	// compatibility version 4 alone stops working at the upgrade); a name
	// is pinned wherever the project's major can.
	want := map[string]bool{}
	for _, pin := range o.Pin {
		switch pin {
		case PinAffected:
			for _, d := range diags {
				if d.Category == rules.Code && d.Option != "" {
					want[d.Option] = want[d.Option] || false
				}
			}
		case PinAll:
			for _, f := range compat.FlipsTo(to) {
				if !isPathOption(f.Path) {
					want[f.Path] = want[f.Path] || false
				}
			}
		default:
			want[pin] = true
		}
	}
	cfg := project.ConfigValues(p.File)
	var out []*rules.Diagnostic
	var paths []string
	for path := range want {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	ruleFlip := rules.Find("FW204")
	for _, path := range paths {
		f, ok := flipAt(path)
		if !ok {
			continue
		}
		if _, st := cfg.Value(path); st != compat.Absent {
			continue // the config decides it already
		}
		d := ruleFlip.Diagnose(p.ConfigDisplay, ast.Span{}, path, "pinned with --pin: `"+path+"` keeps its version-3 value")
		canPin := f.Restore.Set && (p.Framework >= 4 && f.OnV4 || p.Framework < 4 && f.OnCompat4 && (f.OnV4 || want[path]))
		value := any(nil)
		if f.Restore.Set {
			value = f.Restore.Value
		}
		d.Fix = &rules.Fix{
			Description:   fmt.Sprintf("pin `%s: %s` to keep the version-3 behaviour while the code is changed", path, literal(value)),
			Applicability: rules.Unsafe,
			Ops:           []rewrite.Op{{Kind: rewrite.OpSet, Path: ast.ParsePath(path), Value: value}},
		}
		if !canPin {
			why := "framework major " + majorWords(p.Framework) + " cannot keep the version-3 behaviour of `" + path + "`: change the code"
			if p.Framework < 4 && f.OnCompat4 {
				why = "framework major 4 no longer reads `" + path + "` (v3 with compatibility version 4 does, until the upgrade): change the code, or name the option in --pin to keep it until then"
			}
			r.addNotFixed(d, why)
			continue
		}
		out = append(out, d)
	}
	return out
}

func isPathOption(path string) bool {
	return path == "srcDir" || path == "serverDir" || strings.HasPrefix(path, "dir.")
}

func majorWords(major int) string {
	if major >= 4 {
		return "4"
	}
	return "3 (with compatibility version 4)"
}

// literal writes a pinned value as the config would hold it.
func literal(v any) string {
	switch v := v.(type) {
	case string:
		return "'" + v + "'"
	case nil:
		return "null"
	case map[string]any:
		if len(v) == 0 {
			return "{}"
		}
	}
	return fmt.Sprint(v)
}

// codeEditPaths are the code files r edits, for the git guard.
func (r *Result) codeEditPaths() []string {
	var out []string
	for _, e := range r.CodeEdits {
		out = append(out, e.Path)
	}
	return out
}

// realPath is path (under the project's root as named) under the root with
// symlinks resolved, where the journal writes.
func realPath(p *project.Project, path string) string {
	if p.RealRoot == "" || p.Root == p.RealRoot {
		return path
	}
	if rel, ok := pathx.Rel(p.Root, path); ok {
		return filepath.Join(p.RealRoot, rel)
	}
	return path
}

// toTest returns the behaviour changes of the version step the project
// should be tested for once apply has run: the default changes whose sites
// are left in its code (not fixed, not pinned), and those only testing can
// judge, unless the config sets them. Empty for a project that changes no
// version.
func (r *Result) toTest(p *project.Project, final *ast.File, diags []*rules.Diagnostic) []string {
	if final == nil || final.Config == nil {
		return nil
	}
	cfg := project.ConfigValues(p.File)
	v, st := cfg.Value("future.compatibilityVersion")
	now, _ := compat.EffectiveCompat(p.Framework, v, st)
	to := 0
	switch {
	case p.Framework < 4 && now == 3:
		to = 4
	case p.Framework >= 4 && now == 5:
		to = 5
	}
	if to == 0 {
		return nil
	}
	sites := map[string]int{}
	var order []string
	for _, d := range diags {
		if d.Category != rules.Code || d.Option == "" {
			continue
		}
		if sites[d.Option] == 0 {
			order = append(order, d.Option)
		}
		sites[d.Option]++
	}
	var out []string
	after := project.ConfigValues(final)
	for _, path := range order {
		verb := "depend"
		if sites[path] == 1 {
			verb = "depends"
		}
		out = append(out, fmt.Sprintf("`%s`: %s in the code %s on it ('fwmigrate check' shows where)", path, text.Plural(sites[path], "place"), verb))
	}
	for _, f := range rules.Undetected(to) {
		if _, st := after.Value(f.Path); st != compat.Absent {
			continue
		}
		out = append(out, fmt.Sprintf("`%s`: no tool can judge it from the code", f.Path))
	}
	return out
}
