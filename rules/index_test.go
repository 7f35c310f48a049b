package rules_test

import (
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

func TestIsEnvOverride(t *testing.T) {
	want := map[string]bool{"$production": true, "$development": true, "$test": true}
	for _, k := range []string{"$production", "$development", "$test", "$env", "production", "", "$Test"} {
		if compat.IsEnvOverride(k) != want[k] {
			t.Errorf("IsEnvOverride(%q) = %v", k, compat.IsEnvOverride(k))
		}
	}
}

// TestIndexFollowsFile checks that a project whose File is replaced (apply
// checks its rewritten config that way) is judged by the new file: each
// check builds its index from the file it checks.
func TestIndexFollowsFile(t *testing.T) {
	f1, _ := ast.Parse("fw.config.ts", []byte(`export default { ssr: false }`))
	f2, _ := ast.Parse("fw.config.ts", []byte(`export default { app: { ssr: false }, ssr: true }`))
	props := func(p *rules.Pass) (out []*ast.Property) {
		p.OptionProps("ssr", func(_, _ ast.Path, prop *ast.Property) { out = append(out, prop) })
		return out
	}
	proj := &project.Project{Layer: &project.Layer{File: f1}}
	if got := props(&rules.Pass{Project: proj, File: f1, Index: rules.NewIndex(proj, f1, 4)}); len(got) != 1 || got[0] != f1.Lookup("ssr") {
		t.Fatalf("first file: %v", got)
	}
	next := proj.WithFile(f2)
	if got := props(&rules.Pass{Project: next, File: f2, Index: rules.NewIndex(next, f2, 4)}); len(got) != 1 || got[0] != f2.Lookup("ssr") {
		t.Fatalf("after the File changed: %v", got)
	}
	if got := props(&rules.Pass{Project: proj, Index: rules.NewIndex(proj, nil, 4)}); got != nil {
		t.Fatalf("without a file: %v", got)
	}
}
