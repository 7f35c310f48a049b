package rules_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules"
)

// TestCodeFixes applies the fixes of each code rule (FW6xx) to the files
// of its fixture's cases, as one edit set per file (an edit several sites
// share is made once), and checks the result: esbuild accepts every edited
// script (each <script> block of a .vue file), the code reader reads the
// edited file (templates included), and the rule checked again finds no
// site with a fix in it: only the sites it had no fix for are left.
func TestCodeFixes(t *testing.T) {
	files, err := filepath.Glob("../testdata/rules/FW6*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		code := strings.TrimSuffix(filepath.Base(file), ".txtar")
		r := rules.Find(code)
		if r == nil {
			continue
		}
		t.Run(code, func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			testtree.Write(t, dir, ar, "")
			cases := map[string]bool{}
			for _, f := range ar.Files {
				c, _, _ := strings.Cut(f.Name, "/")
				cases[c] = true
			}
			for c := range cases {
				root := filepath.Join(dir, c)
				cfg := findConfig(t, root)
				if cfg == "" {
					continue
				}
				checkFixes(t, r, cfg)
			}
		})
	}
}

func checkFixes(t *testing.T, r *rules.Rule, cfg string) {
	check := func() []*rules.Diagnostic {
		var out []*rules.Diagnostic
		for _, d := range rules.Check(project.LoadProject(cfg, cfg), rules.Options{Target: 4, Select: []string{r.Code}}) {
			if d.Code == r.Code {
				out = append(out, d)
			}
		}
		return out
	}
	before := check()
	edits := map[string][]rewrite.Op{} // file -> its edits, each once
	unfixed := map[string]int{}        // file -> sites without a fix
	for _, d := range before {
		if d.Fix == nil {
			unfixed[d.File]++
			continue
		}
		f := d.Fix.File
		if f == "" {
			// A fix of the config itself (a hooks key renamed): its
			// option operations are the fixture harness's (fixedConfigs),
			// so the site stays here.
			unfixed[d.File]++
			continue
		}
	ops:
		for _, op := range d.Fix.Ops {
			if op.Kind != rewrite.OpReplace {
				t.Fatalf("%s: a code fix with a %v operation", d.File, op.Kind)
			}
			for _, o := range edits[f] {
				if o.Span == op.Span && o.Text == op.Text {
					continue ops
				}
			}
			edits[f] = append(edits[f], op)
		}
	}
	if len(edits) == 0 {
		return
	}
	for f, ops := range edits {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out := applyEdits(t, f, src, ops)
		validateCode(t, f, out)
		if err := os.WriteFile(f, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	after := check()
	left := map[string]int{}
	for _, d := range after {
		if d.Fix != nil {
			f := d.Fix.File
			if f == "" {
				f = cfg
			}
			if _, ok := edits[f]; ok {
				t.Errorf("%s: a site with a fix is left after the fixes: %s", d.File, d.Message)
			}
		}
		left[d.File]++
	}
	for f, n := range left {
		if n > unfixed[f] {
			t.Errorf("%s: %d sites after the fixes, %d had no fix before", f, n, unfixed[f])
		}
	}
}

// applyEdits applies byte edits of the original text, in order; edits may
// not overlap (two insertions at one offset apply in their given order).
func applyEdits(t *testing.T, name string, src []byte, ops []rewrite.Op) []byte {
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].Span.Start < ops[j].Span.Start })
	var b strings.Builder
	at := 0
	for _, op := range ops {
		if op.Span.Start < at || op.Span.End > len(src) {
			t.Fatalf("%s: overlapping or out-of-range edit %v", name, op.Span)
		}
		b.Write(src[at:op.Span.Start])
		b.WriteString(op.Text)
		at = op.Span.End
	}
	b.Write(src[at:])
	return []byte(b.String())
}

// validateCode checks an edited file: esbuild accepts its scripts, and the
// code reader reads all of it.
func validateCode(t *testing.T, name string, src []byte) {
	t.Helper()
	if filepath.Ext(name) == ".vue" {
		blocks, ok := ast.SFCBlocks(src)
		if !ok {
			t.Fatalf("%s: the edited file's blocks do not close:\n%s", name, src)
		}
		for _, b := range blocks {
			if b.Tag != "script" {
				continue
			}
			ext := ".js"
			if b.Lang == "ts" {
				ext = ".ts"
			}
			if err := ast.Validate(name+ext, src[b.Content.Start:b.Content.End]); err != nil {
				t.Errorf("%s: esbuild rejects the edited script: %v\n%s", name, err, src)
			}
		}
	} else if err := ast.Validate(name, src); err != nil {
		t.Errorf("%s: esbuild rejects the edited file: %v\n%s", name, err, src)
	}
	if _, err := ast.ReadCode(name, src); err != nil {
		t.Errorf("%s: the code reader cannot read the edited file: %v\n%s", name, err, src)
	}
}

// TestCodeFixLineEnds: an inserted line takes the file's line ends and the
// indentation of the statement it goes before (a CRLF file with a BOM).
func TestCodeFixLineEnds(t *testing.T) {
	dir := t.TempDir()
	mod := "\ufeffimport { join } from 'node:path';\r\n\r\nexport default defineFwModule({\r\n\tsetup(options, fw) {\r\n\t\tfw.hook('builder:watch', (event, path) => {\r\n\t\t\tif (path.startsWith('pages/')) reload();\r\n\t\t});\r\n\t},\r\n});\r\n"
	want := "\ufeffimport { join, relative, resolve } from 'node:path';\r\n\r\nexport default defineFwModule({\r\n\tsetup(options, fw) {\r\n\t\tfw.hook('builder:watch', (event, path) => {\r\n\t\t\tpath = relative(fw.options.srcDir, resolve(fw.options.srcDir, path));\r\n\t\t\tif (path.startsWith('pages/')) reload();\r\n\t\t});\r\n\t},\r\n});\r\n"
	for name, text := range map[string]string{"fw.config.ts": "export default defineFwConfig({})\n", "modules/a.ts": mod} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(dir, "fw.config.ts")
	diags := rules.Check(project.LoadProject(cfg, cfg), rules.Options{Target: 4, Select: []string{"FW605"}})
	if len(diags) != 1 || diags[0].Fix == nil {
		t.Fatalf("want one FW605 site with a fix, got %d", len(diags))
	}
	got := applyEdits(t, "modules/a.ts", []byte(mod), diags[0].Fix.Ops)
	if string(got) != want {
		t.Errorf("fixed file:\n%q\nwant\n%q", got, want)
	}
}
