package rules_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules"
)

// TestCodeFixes applies the fixes of every code rule's fixture cases (all of
// them, safe and unsafe, as apply --unsafe would) and checks the result:
// each edited file still reads, its scripts and template expressions pass
// esbuild, and a check of the edited project finds none of the fixed sites
// again (the sites reported without a fix stay).
func TestCodeFixes(t *testing.T) {
	files, err := filepath.Glob("../testdata/rules/FW6*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		code := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(code, func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dir, cases := writeCases(t, file, ar)
			for _, c := range cases {
				checkCaseFixes(t, code, filepath.Join(dir, c))
			}
		})
	}
}

func checkCaseFixes(t *testing.T, code, root string) {
	cfg := findConfig(t, root)
	if cfg == "" {
		return
	}
	check := func() []*rules.Diagnostic {
		p := project.LoadProject(cfg, filepath.Base(cfg))
		var out []*rules.Diagnostic
		for _, d := range rules.Check(p, rules.Options{Target: 4, Select: []string{code}}) {
			if d.Code == code {
				out = append(out, d)
			}
		}
		return out
	}
	before := check()
	edits := map[string][]rewrite.Op{}
	fixed := 0
	for _, d := range before {
		if d.Fix == nil || d.Fix.File == "" {
			continue
		}
		fixed++
		edits[d.Fix.File] = append(edits[d.Fix.File], d.Fix.Ops...)
	}
	if fixed == 0 {
		return
	}
	for path, ops := range edits {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out, err := applyOps(src, ops)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		validateCode(t, path, out)
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	after := check()
	left := 0
	for _, d := range after {
		if d.Fix != nil {
			t.Errorf("%s: after the fixes, %s:%d:%d still has a fixable site: %s", filepath.Base(root), d.File, d.Line, d.Column, d.Message)
		}
		left++
	}
	if want := len(before) - fixed; left != want {
		t.Errorf("%s: after %d fixes, %d sites are left, want %d (the ones reported without a fix)", filepath.Base(root), fixed, left, want)
	}
}

// applyOps makes byte edits (OpReplace, spans in src), refusing overlaps.
func applyOps(src []byte, ops []rewrite.Op) ([]byte, error) {
	ops = append([]rewrite.Op(nil), ops...)
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].Span.Start < ops[j].Span.Start })
	var b strings.Builder
	at := 0
	for _, op := range ops {
		if op.Kind != rewrite.OpReplace {
			return nil, &os.PathError{Op: "apply", Path: op.Kind.String(), Err: os.ErrInvalid}
		}
		if op.Span.Start < at {
			return nil, &os.PathError{Op: "apply", Path: "overlapping edits", Err: os.ErrInvalid}
		}
		b.Write(src[at:op.Span.Start])
		b.WriteString(op.Text)
		at = op.Span.End
	}
	b.Write(src[at:])
	return []byte(b.String()), nil
}

// validateCode checks an edited code file with esbuild: a script file
// whole, a .vue file's script blocks and template expressions one by one.
func validateCode(t *testing.T, path string, src []byte) {
	t.Helper()
	c, err := ast.ReadCode(path, src)
	if err != nil {
		t.Errorf("%s: the edited file does not read: %v\n%s", path, err, src)
		return
	}
	if filepath.Ext(path) != ".vue" {
		if err := ast.Validate(path, src); err != nil {
			t.Errorf("%s: esbuild refuses the edited file: %v\n%s", path, err, src)
		}
		return
	}
	for _, s := range c.Scripts {
		name := path + ".js"
		if s.TS {
			name = path + ".ts"
		}
		text := src[s.Program.Loc.Start:s.Program.Loc.End]
		if err := ast.Validate(name, text); err != nil {
			t.Errorf("%s: esbuild refuses the edited script block: %v\n%s", path, err, text)
		}
	}
	if c.Template == nil {
		return
	}
	for _, x := range c.Template.Exprs {
		text := string(src[x.Loc.Start:x.Loc.End])
		switch {
		case x.Attr == nil, x.Attr.Directive == "bind", x.Attr.Directive == "if", x.Attr.Directive == "else-if", x.Attr.Directive == "show", x.Attr.Directive == "model":
			text = "(" + text + ");"
		case x.Attr.Directive == "on":
		default:
			continue // v-for, slot props: not expressions
		}
		if err := ast.Validate(path+".ts", []byte(text)); err != nil {
			t.Errorf("%s: esbuild refuses the edited template expression %q: %v", path, text, err)
		}
	}
}
