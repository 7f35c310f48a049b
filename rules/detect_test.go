package rules_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/appgen"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

// detectProject writes a generated app whose files every data detector
// finds sites in, and loads it.
func detectProject(t *testing.T) *project.Project {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"fw.config.ts": "export default defineFwConfig({\n  ssr: true,\n})\n",
		"package.json": `{"dependencies": {"fw": "^3.12.0"}}`,
	}
	for name, src := range appgen.Dense(16) {
		files[name] = string(src)
	}
	testtree.Map(t, dir, files)
	return project.LoadProject(filepath.Join(dir, "fw.config.ts"), "fw.config.ts")
}

// findingsOf renders the findings of rule code with what a detector's
// site gives them: file, position, option, message, notes.
func findingsOf(diags []*rules.Diagnostic, code string) string {
	var b strings.Builder
	for _, d := range diags {
		if d.Code == code {
			fmt.Fprintf(&b, "%s %d:%d-%d:%d %s %s %v\n", d.File, d.Line, d.Column, d.EndLine, d.EndColumn, d.Option, d.Message, d.Notes)
		}
	}
	return b.String()
}

// TestDetectorsAlone: a detector run alone (a check that selects its rule
// alone: its detector reads the code by itself, as one the check did not
// predict does when a rule asks for it) finds what it finds run with all
// the others in one walk of each file (a check of every rule).
func TestDetectorsAlone(t *testing.T) {
	p := detectProject(t)
	all := rules.Check(p, rules.Options{Target: 4})
	found := 0
	for _, r := range rules.All() {
		if r.Category != rules.Code && r.Category != rules.Types {
			continue
		}
		alone := rules.Check(detectProject(t), rules.Options{Target: 4, Select: []string{r.Code}})
		a, b := findingsOf(all, r.Code), findingsOf(alone, r.Code)
		if a != b {
			t.Errorf("%s: alone\n%s\ntogether\n%s", r.Code, b, a)
		}
		found += strings.Count(a, "\n")
	}
	if found < 50 {
		t.Errorf("the detectors found %d sites: too few to compare", found)
	}
}

// TestDetectorPanic: a detector that panics in the shared walk of a file
// is reported as an internal error of its rule (and of FW204, which asks
// for its sites), and the other rules find what they find without it.
func TestDetectorPanic(t *testing.T) {
	p := detectProject(t)
	codes := func(diags []*rules.Diagnostic, skip ...string) string {
		var b strings.Builder
		for _, d := range diags {
			if !strings.Contains(strings.Join(skip, " "), d.Code) {
				fmt.Fprintf(&b, "%s %s:%d:%d %s\n", d.Code, d.File, d.Line, d.Column, d.Message)
			}
		}
		return b.String()
	}
	want := rules.Check(p, rules.Options{Target: 4})

	// FW608's detector panics in the walk of the fourth file.
	hook := func(rule string, i int, f *code.File) []*code.Visitor {
		if rule != "FW608" || i != 3 {
			return nil
		}
		return []*code.Visitor{{Visit: func(*ast.JSNode, []*ast.JSNode, *ast.TemplateExpr) bool { panic("boom") }}}
	}
	p = detectProject(t)
	got := rules.Check(p, rules.Options{Target: 4, DetectorHook: hook})
	internal := map[string]bool{}
	for _, d := range got {
		if d.Code == rules.Find("FW999").Code && strings.Contains(d.Message, "boom") {
			for _, c := range []string{"FW608", "FW204"} {
				if strings.Contains(d.Message, c) {
					internal[c] = true
				}
			}
		}
	}
	if !internal["FW608"] || !internal["FW204"] {
		t.Errorf("internal errors for %v, want FW608 and FW204:\n%s", internal, codes(got))
	}
	if a, b := codes(want, "FW608", "FW204", "FW999"), codes(got, "FW608", "FW204", "FW999"); a != b {
		t.Errorf("the other rules' findings differ after a panic of FW608's detector:\n%s\nwant\n%s", b, a)
	}
	if strings.Count(codes(want, "FW608", "FW204", "FW999"), "\n") < 50 {
		t.Errorf("too few findings to compare")
	}
}
