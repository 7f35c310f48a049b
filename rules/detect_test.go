package rules

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/appgen"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
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

func siteList(ss []*site) string {
	var b strings.Builder
	for _, s := range ss {
		fmt.Fprintf(&b, "%s %v %s %s %v\n", s.file.Rel, s.span, s.option, s.msg, s.notes)
	}
	return b.String()
}

// TestDetectorsAlone: a detector run alone, as a rule the check did not
// predict asks for it (Index.sitesOf without Index.detectors), finds what
// it finds run with all the others in one walk of each file.
func TestDetectorsAlone(t *testing.T) {
	p := detectProject(t)
	all := NewIndex(p, p.File, 4)
	all.detectors = predictDetectors(p, all, Options{Target: 4})
	alone := NewIndex(p, p.File, 4)
	found := 0
	for _, r := range All() {
		if r.detect == nil && r.scan == nil {
			continue
		}
		a, b := siteList(all.sitesOf(r)), siteList(alone.sitesOf(r))
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
	codes := func(diags []*Diagnostic, skip ...string) string {
		var b strings.Builder
		for _, d := range diags {
			if !strings.Contains(strings.Join(skip, " "), d.Code) {
				fmt.Fprintf(&b, "%s %s:%d:%d %s\n", d.Code, d.File, d.Line, d.Column, d.Message)
			}
		}
		return b.String()
	}
	want := Check(p, Options{Target: 4})

	saved := ruleErrorDataParsed.scan
	defer func() { ruleErrorDataParsed.scan = saved }()
	ruleErrorDataParsed.scan = func(ci *codeIndex) *fileScan {
		s := saved(ci)
		file := s.file
		s.file = func(i int, f *code.File) []*code.Visitor {
			vs := file(i, f)
			if i == 3 {
				vs = append(vs, &code.Visitor{Visit: func(*ast.JSNode, []*ast.JSNode, *ast.TemplateExpr) bool { panic("boom") }})
			}
			return vs
		}
		return s
	}
	p = detectProject(t)
	got := Check(p, Options{Target: 4})
	internal := map[string]bool{}
	for _, d := range got {
		if d.Code == ruleInternal.Code && strings.Contains(d.Message, "boom") {
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
