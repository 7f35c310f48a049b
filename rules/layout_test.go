package rules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules"
)

// layoutCodes are the layout rules with fixtures of their own (FW107 is the
// lead's model rule).
var layoutCodes = []string{"FW101", "FW102", "FW103", "FW104", "FW105", "FW106", "FW108", "FW109"}

// TestLayoutFixes applies the fixes of every layout fixture case with the
// rewrite engine, proves the result with rewrite.Verify, and checks the
// project again: the rule must not offer a fix a second time (apply is
// idempotent), and every diagnostic it still reports must be one that had no
// fix.
func TestLayoutFixes(t *testing.T) {
	for _, code := range layoutCodes {
		t.Run(code, func(t *testing.T) {
			file := filepath.Join("..", "testdata", "rules", code+".txtar")
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dir, cases := writeCases(t, file, ar)
			opts := rules.Options{Target: 4, Select: []string{code}}
			for _, c := range cases {
				cfg := findConfig(t, filepath.Join(dir, c))
				p := project.LoadProject(cfg, filepath.Base(cfg))
				var ops []rewrite.Op
				unfixed := 0
				for _, d := range rules.Check(p, opts) {
					if d.Code != code {
						continue
					}
					if d.Fix == nil {
						unfixed++
						continue
					}
					if len(d.Fix.Ops) == 0 {
						t.Errorf("%s/%s: a fix without operations: %s", code, c, d.Message)
					}
					ops = append(ops, d.Fix.Ops...)
				}
				if len(ops) == 0 {
					continue
				}
				res, err := rewrite.Apply(p.File, ops)
				if err != nil {
					t.Fatalf("%s/%s: Apply: %v", code, c, err)
				}
				if len(res.Skipped) > 0 {
					t.Errorf("%s/%s: ops skipped: %+v", code, c, res.Skipped)
				}
				if err := rewrite.Verify(p.File.Name, p.File, res.Src, res.Applied); err != nil {
					t.Errorf("%s/%s: Verify: %v\n%s", code, c, err, res.Src)
				}
				if err := os.WriteFile(cfg, res.Src, 0o644); err != nil {
					t.Fatal(err)
				}
				again := 0
				for _, d := range rules.Check(project.LoadProject(cfg, filepath.Base(cfg)), opts) {
					if d.Code != code {
						continue
					}
					again++
					if d.Fix != nil {
						t.Errorf("%s/%s: after the fixes, still fixable: %s\n%s", code, c, d.Message, res.Src)
					}
				}
				if again > unfixed {
					t.Errorf("%s/%s: after the fixes, %d diagnostics; %d had no fix before", code, c, again, unfixed)
				}
			}
		})
	}
}

func TestLayoutDocs(t *testing.T) {
	for _, code := range append(layoutCodes, "FW107") {
		r := rules.Find(code)
		if r == nil {
			t.Fatalf("no rule %s", code)
		}
		if r.Category != rules.Layout || r.Doc.Why == "" || r.Doc.Example == "" {
			t.Errorf("%s: incomplete doc or wrong category", code)
		}
		if strings.Contains(r.Doc.Summary, "\n") {
			t.Errorf("%s: the summary is more than one line", code)
		}
	}
}
