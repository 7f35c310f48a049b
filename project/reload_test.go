package project_test

import (
	"fmt"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
)

// TestReloadKeepsBudget: a project loaded again (apply's check after the
// move) keeps the run's budget: one raised above the default stays raised,
// one lowered stays lowered, rather than the default's.
func TestReloadKeepsBudget(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"fw.config.ts": budgetConfig}
	for i := range 300 {
		files[fmt.Sprintf("app/components/c%03d.vue", i)] = "<template><p /></template>\n"
	}
	testtree.Map(t, dir, files)

	for _, files := range []int{100, 1000} {
		p := loadBudget(t, dir, project.Budget{Files: files})
		q := p.Reload()
		if b := q.Budget(); b.Files != files {
			t.Fatalf("budget of %d files reloaded as %+v", files, b)
		}
		if a, b := len(p.Sources()), len(q.Sources()); a != b {
			t.Errorf("budget of %d files: %d sources, %d reloaded", files, a, b)
		}
		if q.Checkout != p.Checkout {
			t.Errorf("checkout %q reloaded as %q", p.Checkout, q.Checkout)
		}
	}
}
