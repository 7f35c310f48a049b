package rules_test

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/fix"
	"github.com/fwmigrate/fwmigrate/internal/golden"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules"
)

// Fixture format: testdata/rules/<CODE>.txtar. Each top-level directory of
// the archive is one case: a project tree whose config is at the case's
// root. Besides the tree, a case has golden sections (the names below are
// reserved at a case's root and never written into its tree):
//
//   - <case>/diagnostics: the diagnostics of rule <CODE> (only that rule
//     runs), one block each, as RenderDiagnostic prints them; empty when the
//     case must not trigger.
//   - <case>/fixed/<config>: the config after the rule's fixes are applied,
//     as `fwmigrate apply --unsafe` makes them (safe and unsafe alike): the
//     Ops of every fix, one all-or-nothing group per diagnostic, applied by
//     rewrite.ApplyGroups to the parsed config and proved by rewrite.Verify,
//     as migrate.ApplyConfig does. A case has it when any of its fixes has
//     Ops and all of them hold whatever the layout (rules.AnyLayout).
//   - <case>/fixed-move/<config> and <case>/fixed-keep/<config> instead,
//     when a fix holds for one of apply's layout choices only (MoveOnly,
//     KeepOnly): the config after the fixes apply uses under --layout=move
//     (AnyLayout and MoveOnly fixes) and under --layout=keep (AnyLayout and
//     KeepOnly fixes), each present when that choice has a fix to apply.
//   - <case>/fixed/<path> (or fixed-move/, fixed-keep/): any other file a
//     fix edits (Fix.File: a code file, tsconfig.json), by its path from
//     the case's root, after rewrite.EditCode; a fix with ConfigOps also
//     edits the config, as one apply does.
//
// A fix without Ops is advice only: there is nothing to apply. Every fix
// with Ops must be made: none may be skipped by the engine. After the
// fixes, the project is checked again with the fixed config on disk, and
// the rule must offer no fix of that layout choice any more: fixes are
// idempotent, so that a second `apply` changes nothing.
//
// Directories are written as <dir>/.keep. Refresh the goldens with
//
//	go test ./rules -run TestFixtures -update
//
// and read the diff (above all the fixed configs) before committing it.
func TestFixtures(t *testing.T) {
	files, err := filepath.Glob("../testdata/rules/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		code := strings.TrimSuffix(filepath.Base(file), ".txtar")
		if i := strings.IndexAny(code, "-_."); i >= 0 {
			code = code[:i]
		}
		r := rules.Find(code)
		if r == nil {
			t.Errorf("%s: no rule %s", file, code)
			continue
		}
		t.Run(code, func(t *testing.T) {
			triggered, clean := runFixture(t, file, r)
			if !triggered || !clean {
				t.Errorf("%s needs a case that triggers %s and a case that does not (triggers: %v, clean: %v)", file, r.Code, triggered, clean)
			}
		})
	}
}

// TestEveryRuleHasFixture: every rule the engine runs has its fixture (that
// each fixture triggers its rule and has a clean case is TestFixtures' job).
func TestEveryRuleHasFixture(t *testing.T) {
	for _, r := range rules.All() {
		if r.Run == nil {
			continue
		}
		if _, err := os.Stat(filepath.Join("../testdata/rules", r.Code+".txtar")); err != nil {
			t.Errorf("rule %s (%s) has no fixture testdata/rules/%s.txtar", r.Code, r.Name, r.Code)
		}
	}
}

// TestEveryFixHasFixedSection reads the fixtures as they are committed: a
// case whose diagnostics golden shows a fix with operations has the fixed
// config of each layout choice its fixes hold for, and no other. (Running
// the rules, TestFixtures finds the same; this keeps a fixture from being
// committed with a fix whose result no golden shows.)
func TestEveryFixHasFixedSection(t *testing.T) {
	files, err := filepath.Glob("../testdata/rules/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	// A fix line followed by an operation (RenderDiagnostic's form).
	fixWithOps := regexp.MustCompile(`(?m)^  fix \((?:safe|unsafe)(, when the sources move|, when layout B is kept)?\): .*\n    (?:set|delete|move|rename|replace) `)
	layouts := map[string]rules.FixLayout{"": rules.AnyLayout, ", when the sources move": rules.MoveOnly, ", when layout B is kept": rules.KeepOnly}
	n := 0
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		have := map[string][]string{} // case -> its fixed-config directories
		for _, f := range ar.Files {
			c, rest, _ := strings.Cut(f.Name, "/")
			if dir, _, ok := strings.Cut(rest, "/"); ok && isFixedDir(dir) && !slices.Contains(have[c], dir) {
				have[c] = append(have[c], dir)
			}
		}
		for _, f := range ar.Files {
			c, ok := strings.CutSuffix(f.Name, "/diagnostics")
			if !ok || strings.Contains(c, "/") {
				continue
			}
			var fixes []rules.FixLayout
			for _, m := range fixWithOps.FindAllStringSubmatch(string(f.Data), -1) {
				fixes = append(fixes, layouts[m[1]])
			}
			var want []string
			for _, ch := range fixChoices(fixes) {
				want = append(want, ch.dir)
			}
			slices.Sort(want)
			slices.Sort(have[c])
			if !slices.Equal(want, have[c]) {
				t.Errorf("%s: case %s: its fixes need the fixed configs %q, it has %q (go test ./rules -run TestFixtures -update writes them)", file, c, want, have[c])
			}
			n += len(want)
		}
	}
	if n == 0 {
		t.Error("no fixture case has a fixed config")
	}
}

// fixture is a rule fixture written to disk: its archive, the directory
// holding one tree per case, and the case names in order.
type fixture struct {
	ar    *golden.Archive
	dir   string
	cases []string
}

// isFixedDir reports whether a directory at a case's root is one of its
// fixed-config goldens.
func isFixedDir(name string) bool {
	return name == "fixed" || name == "fixed-move" || name == "fixed-keep"
}

// caseSection splits a fixture section name into its case and its rank:
// 0 for the case's tree, 1 for its diagnostics, 2 for its fixed configs.
func caseSection(name string) (c string, rank int) {
	c, rest, _ := strings.Cut(name, "/")
	dir, _, nested := strings.Cut(rest, "/")
	switch {
	case rest == "diagnostics":
		return c, 1
	case nested && isFixedDir(dir):
		return c, 2
	}
	return c, 0
}

// writeFixture parses a rule fixture and writes the tree of each case under
// a temporary directory (the golden sections left out).
func writeFixture(t *testing.T, file string) *fixture {
	ar := golden.Open(t, file)
	// Each case's files together: its tree, its diagnostics, its fixed
	// configs.
	ar.Order = func(a, b string) int {
		ca, ra := caseSection(a)
		cb, rb := caseSection(b)
		return cmp.Or(strings.Compare(ca, cb), cmp.Compare(ra, rb))
	}
	fx := &fixture{ar: ar, dir: t.TempDir()}
	var tree []txtar.File
	for _, f := range ar.Files {
		c, rank := caseSection(f.Name)
		if !strings.Contains(f.Name, "/") {
			t.Fatalf("%s: file %s is not inside a case directory", file, f.Name)
		}
		if !slices.Contains(fx.cases, c) {
			fx.cases = append(fx.cases, c)
		}
		if rank == 0 {
			tree = append(tree, f)
		}
	}
	sort.Strings(fx.cases)
	testtree.Files(t, fx.dir, tree)
	return fx
}

func runFixture(t *testing.T, file string, r *rules.Rule) (triggered, clean bool) {
	fx := writeFixture(t, file)
	for _, c := range fx.cases {
		cfg := findConfig(t, filepath.Join(fx.dir, c))
		if cfg == "" {
			t.Errorf("%s: case %s has no fw.config.* at its root", file, c)
			continue
		}
		p := project.LoadProject(cfg, filepath.Base(cfg))
		diags := rules.Check(p, rules.Options{Target: 4, Select: []string{r.Code}})
		var b strings.Builder
		n := 0
		for _, d := range diags {
			if d.Code != r.Code {
				continue
			}
			n++
			b.WriteString(RenderDiagnostic(d))
		}
		if n > 0 {
			triggered = true
		} else {
			clean = true
		}
		got := map[string][]byte{c + "/diagnostics": []byte(b.String())}
		for dir, files := range fixedConfigs(t, c, p, r.Code, diags) {
			for rel, src := range files {
				got[c+"/"+dir+"/"+rel] = src
			}
		}
		fx.ar.Check(t, func(name string) bool {
			cc, rank := caseSection(name)
			return cc == c && rank > 0
		}, got)
	}
	return triggered, clean
}

// fixChoice is one fixed-config golden of a case: its directory, and the
// layout choice of apply it stands for ("move", "keep", or "" when every
// fix of the case holds for both).
type fixChoice struct{ dir, layout string }

// fixChoices returns the fixed-config goldens of a case whose fixes (those
// with Ops) hold for the layouts given: one "fixed" when each holds for any
// layout, else "fixed-move" and "fixed-keep", each when it has a fix.
func fixChoices(layouts []rules.FixLayout) []fixChoice {
	if len(layouts) == 0 {
		return nil
	}
	if !slices.ContainsFunc(layouts, func(l rules.FixLayout) bool { return l != rules.AnyLayout }) {
		return []fixChoice{{"fixed", ""}}
	}
	var out []fixChoice
	for _, ch := range []fixChoice{{"fixed-move", "move"}, {"fixed-keep", "keep"}} {
		if slices.ContainsFunc(layouts, func(l rules.FixLayout) bool { return fixAllowed(l, ch.layout) }) {
			out = append(out, ch)
		}
	}
	return out
}

// fixAllowed reports whether apply makes a fix of layout l under the layout
// choice ("move", "keep", or "" for both), as migrate's fixAllowed does.
func fixAllowed(l rules.FixLayout, layout string) bool {
	switch l {
	case rules.MoveOnly:
		return layout == "move"
	case rules.KeepOnly:
		return layout == "keep"
	}
	return true
}

// fixedConfigs applies the fixes of rule code among diags to the project
// p, by layout choice, and returns the fixed texts by golden directory
// (fixed, fixed-move, fixed-keep) and then by path relative to the case's
// root: the config (its fixes' Ops, through fix.Config, as apply and the
// editor make them) and the code files the fixes edit (fix.Code, which
// validates each with esbuild); a fix of another file with ConfigOps
// edits both, as one apply does. It checks that every fix is made, and
// that a second check of the fixed project offers no fix of that choice any
// more.
func fixedConfigs(t *testing.T, c string, p *project.Project, code string, diags []*rules.Diagnostic) map[string]map[string][]byte {
	var fixes []*rules.Diagnostic
	var layouts []rules.FixLayout
	for _, d := range diags {
		if d.Code != code || d.Fix == nil || len(d.Fix.Ops) == 0 {
			continue
		}
		fixes = append(fixes, d)
		layouts = append(layouts, d.Fix.Layout)
	}
	root := filepath.Dir(p.ConfigPath)
	out := map[string]map[string][]byte{}
	for _, ch := range fixChoices(layouts) {
		var groups [][]rewrite.Op
		edits := map[string][]rewrite.Op{} // code file -> its edits
		for _, d := range fixes {
			switch {
			case !fixAllowed(d.Fix.Layout, ch.layout):
			case d.Fix.File != "":
				edits[d.Fix.File] = append(edits[d.Fix.File], d.Fix.Ops...)
				if len(d.Fix.ConfigOps) > 0 {
					groups = append(groups, d.Fix.ConfigOps)
				}
			default:
				groups = append(groups, d.Fix.Ops)
			}
		}
		files := map[string][]byte{}
		if len(groups) > 0 {
			res, err := fix.Config(p.ConfigDisplay, p.File, groups)
			if err != nil {
				t.Errorf("%s/%s: %v", c, ch.dir, err)
				continue
			}
			for g, why := range res.Skipped {
				t.Errorf("%s/%s: a fix was not made: %v: %s", c, ch.dir, groups[g], why)
			}
			files[filepath.Base(p.ConfigPath)] = res.Src
		}
		for path, ops := range edits {
			rel, ok := pathx.Rel(root, path)
			if !ok {
				t.Errorf("%s/%s: a fix edits %s, outside the case", c, ch.dir, path)
				continue
			}
			e, err := fix.Code(path, os.ReadFile, ops)
			if err != nil {
				t.Errorf("%s/%s: %v", c, ch.dir, err)
				continue
			}
			files[filepath.ToSlash(rel)] = e.New
		}
		out[ch.dir] = files
		checkFixedAgain(t, c+"/"+ch.dir, p, root, code, ch.layout, files)
	}
	return out
}

// checkFixedAgain checks the project again with the fixed files on disk (a
// second `fwmigrate check`; the layout is detected anew), then puts the
// original files back: the rule must offer no fix of the layout choice any
// more.
func checkFixedAgain(t *testing.T, name string, p *project.Project, root, code, layout string, files map[string][]byte) {
	for rel, src := range files {
		path := filepath.Join(root, filepath.FromSlash(rel))
		old, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := os.WriteFile(path, old, 0o644); err != nil {
				t.Fatal(err)
			}
		}()
	}
	again := project.LoadProject(p.ConfigPath, p.ConfigDisplay)
	for _, d := range rules.Check(again, rules.Options{Target: 4, Select: []string{code}}) {
		if d.Code == code && d.Fix != nil && len(d.Fix.Ops) > 0 && fixAllowed(d.Fix.Layout, layout) {
			t.Errorf("%s: after its fixes, the project still has a fix: %s: %s (%s)", name, d.File, d.Message, d.Fix.Description)
		}
	}
}

func findConfig(t *testing.T, root string) string {
	for _, n := range compat.ConfigNames {
		p := filepath.Join(root, n)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// RenderDiagnostic prints a diagnostic for goldens: position, severity,
// code, message, option, path, notes, and the fix with its operations.
func RenderDiagnostic(d *rules.Diagnostic) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d-%d:%d: %s %s [%s] %s\n", d.File, d.Line, d.Column, d.EndLine, d.EndColumn, d.Severity, d.Code, d.Name, d.Message)
	if d.Option != "" {
		fmt.Fprintf(&b, "  option: %s\n", d.Option)
	}
	if d.Path != "" {
		fmt.Fprintf(&b, "  path: %s\n", d.Path)
	}
	for _, n := range d.Notes {
		fmt.Fprintf(&b, "  note: %s\n", strings.ReplaceAll(n, "\n", "\n        "))
	}
	if d.Fix != nil {
		cond := ""
		switch d.Fix.Layout {
		case rules.MoveOnly:
			cond = ", when the sources move"
		case rules.KeepOnly:
			cond = ", when layout B is kept"
		}
		fmt.Fprintf(&b, "  fix (%s%s): %s\n", d.Fix.Applicability, cond, d.Fix.Description)
		for _, op := range d.Fix.Ops {
			switch op.Kind.String() {
			case "set":
				fmt.Fprintf(&b, "    set %s = %#v\n", op.Path, op.Value)
			case "delete":
				fmt.Fprintf(&b, "    delete %s\n", op.Path)
			case "move", "rename":
				fmt.Fprintf(&b, "    %s %s -> %s\n", op.Kind, op.Path, op.To)
			case "replace":
				fmt.Fprintf(&b, "    replace [%d,%d) with %q\n", op.Span.Start, op.Span.End, op.Text)
			}
		}
		for _, dir := range d.Fix.Also {
			fmt.Fprintf(&b, "    also move %s/ into app/ with the sources\n", dir)
		}
	}
	return b.String()
}
