package rules_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/rules/*.txtar")

// Fixture format: testdata/rules/<CODE>.txtar. Each top-level directory of
// the archive is one case: a project tree whose config is at the case's
// root. Besides the tree, a case has the golden file <case>/diagnostics: the
// diagnostics of rule <CODE> (only that rule runs), one block each, as
// renderDiagnostic prints them; empty when the case must not trigger.
// Directories are written as <dir>/.keep. Refresh the goldens with
//
//	go test ./rules -run TestFixtures -update
//
// and read the diff before committing it.
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

func runFixture(t *testing.T, file string, r *rules.Rule) (triggered, clean bool) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir, names := writeCases(t, file, ar)
	golden := map[string]int{} // case -> index of its diagnostics file
	for i, f := range ar.Files {
		if c, rest, _ := strings.Cut(f.Name, "/"); rest == "diagnostics" {
			golden[c] = i
		}
	}
	changed := false
	for _, c := range names {
		root := filepath.Join(dir, c)
		cfg := findConfig(t, root)
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
		got := b.String()
		gi, ok := golden[c]
		if *update {
			if ok {
				if string(ar.Files[gi].Data) != got {
					ar.Files[gi].Data = []byte(got)
					changed = true
				}
			} else {
				ar.Files = append(ar.Files, txtar.File{Name: c + "/diagnostics", Data: []byte(got)})
				changed = true
			}
			continue
		}
		if !ok {
			t.Errorf("%s: case %s has no %s/diagnostics golden (run with -update)", file, c, c)
			continue
		}
		if want := string(ar.Files[gi].Data); want != got {
			t.Errorf("%s: case %s diagnostics differ\n--- want\n%s--- got\n%s", file, c, want, got)
		}
	}
	if changed {
		sortArchive(ar)
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return triggered, clean
}

// writeCases writes the case trees of a fixture archive (file, read as
// ar) into a new temporary directory and returns it with the cases' names,
// sorted.
func writeCases(t *testing.T, file string, ar *txtar.Archive) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	testtree.Write(t, dir, ar, "")
	cases := map[string]bool{}
	for _, f := range ar.Files {
		c, _, ok := strings.Cut(f.Name, "/")
		if !ok {
			t.Fatalf("%s: file %s is not inside a case directory", file, f.Name)
		}
		cases[c] = true
	}
	names := make([]string, 0, len(cases))
	for c := range cases {
		names = append(names, c)
	}
	sort.Strings(names)
	return dir, names
}

// sortArchive keeps each case's files together, with its diagnostics last.
func sortArchive(ar *txtar.Archive) {
	sort.SliceStable(ar.Files, func(i, j int) bool {
		ci, _, _ := strings.Cut(ar.Files[i].Name, "/")
		cj, _, _ := strings.Cut(ar.Files[j].Name, "/")
		if ci != cj {
			return ci < cj
		}
		di := strings.HasSuffix(ar.Files[i].Name, "/diagnostics")
		dj := strings.HasSuffix(ar.Files[j].Name, "/diagnostics")
		return !di && dj
	})
}

func findConfig(t *testing.T, root string) string {
	for _, n := range []string{"fw.config.ts", "fw.config.js", "fw.config.mjs", "fw.config.cjs", "fw.config.mts", "fw.config.cts"} {
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
	}
	return b.String()
}
