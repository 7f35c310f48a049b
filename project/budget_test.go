package project_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fwmigrate/fwmigrate/internal/appgen"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
)

// The budget's tests use generated hostile trees with limits lowered to
// their size, never the clock: the time limit is tested with a deadline
// already past at load, which no machine's speed changes.

const budgetConfig = "export default defineFwConfig({ future: { compatibilityVersion: 4 } })\n"

// loadBudget loads the project of dir with budget b.
func loadBudget(t *testing.T, dir string, b project.Budget) *project.Project {
	t.Helper()
	l := project.NewLoader()
	l.Budget = b
	return l.Load(filepath.Join(dir, "fw.config.ts"), "fw.config.ts")
}

// readAll reads every source of p, and returns the errors by kind.
func readAll(p *project.Project) (read int, over []error, other []error) {
	for _, s := range p.Sources() {
		_, err := s.Read()
		var be *project.BudgetError
		switch {
		case err == nil:
			read++
		case errors.As(err, &be):
			over = append(over, err)
		default:
			other = append(other, err)
		}
	}
	return read, over, other
}

// TestBudgetFiles: a project whose source folders hold more entries than
// its budget is walked up to the limit and says so, naming the limit and
// the flag; under a budget that fits, the same tree is whole.
func TestBudgetFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"fw.config.ts": budgetConfig}
	for i := range 300 {
		files[fmt.Sprintf("app/components/c%03d.vue", i)] = "<template><p /></template>\n"
	}
	testtree.Map(t, dir, files)

	p := loadBudget(t, dir, project.Budget{Files: 100})
	if n := len(p.Sources()); n == 0 || n > 100 {
		t.Errorf("%d sources listed under a budget of 100 entries", n)
	}
	e := p.BudgetExceeded()
	if e == nil || e.Limit != "files" || e.Flag != "--max-files" || !strings.Contains(e.Error(), "more than 100 entries") {
		t.Fatalf("got %v", e)
	}

	p = loadBudget(t, dir, project.Budget{Files: 1000})
	if n := len(p.Sources()); n != 300 {
		t.Errorf("%d sources, want 300", n)
	}
	if e := p.BudgetExceeded(); e != nil {
		t.Errorf("within the budget: %v", e)
	}
}

// TestBudgetDeepTree: a tree a thousand folders deep stops the walk at the
// budget's entries, deep inside, without walking the rest; with the
// default budget it is walked whole (it is small) and nothing breaks.
func TestBudgetDeepTree(t *testing.T) {
	dir := t.TempDir()
	testtree.Map(t, dir, map[string]string{"fw.config.ts": budgetConfig})
	deep := filepath.Join(dir, "app", "components")
	for range 1000 {
		deep = filepath.Join(deep, "d")
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Skip(err) // a system with shorter paths
	}
	if err := os.WriteFile(filepath.Join(deep, "Deep.vue"), []byte("<template><p /></template>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := loadBudget(t, dir, project.Budget{Files: 500})
	if n := len(p.Sources()); n != 0 {
		t.Errorf("the deep file was reached past the budget: %d sources", n)
	}
	e := p.BudgetExceeded()
	if e == nil || e.Limit != "files" || strings.Count(e.At, string(filepath.Separator)+"d") < 400 {
		t.Fatalf("got %v", e)
	}

	p = loadBudget(t, dir, project.Budget{})
	if n := len(p.Sources()); n != 1 {
		t.Errorf("%d sources under the default budget, want the deep file", n)
	}
	if e := p.BudgetExceeded(); e != nil {
		t.Errorf("default budget: %v", e)
	}
}

// TestBudgetBytes: once the sources read pass the budget's bytes, no more
// is read (the reads say why), and the project says so.
func TestBudgetBytes(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"fw.config.ts": budgetConfig}
	big := "<template><p>" + strings.Repeat("x", 10<<10) + "</p></template>\n"
	for i := range 20 {
		files[fmt.Sprintf("app/pages/p%02d.vue", i)] = big
	}
	testtree.Map(t, dir, files)

	p := loadBudget(t, dir, project.Budget{Bytes: 50 << 10})
	read, over, other := readAll(p)
	if read == 0 || read > 5 || len(over) != 20-read || len(other) != 0 {
		t.Fatalf("read %d, over the budget %d, other errors %v", read, len(over), other)
	}
	e := p.BudgetExceeded()
	if e == nil || e.Limit != "bytes" || e.Flag != "--max-read-mb" {
		t.Fatalf("got %v", e)
	}

	p = loadBudget(t, dir, project.Budget{})
	if read, over, other := readAll(p); read != 20 || len(over)+len(other) != 0 {
		t.Errorf("default budget: read %d, %v %v", read, over, other)
	}

	// A file read again (each rule that needs it reads it) counts once.
	p = loadBudget(t, dir, project.Budget{Bytes: 50 << 10})
	s := p.Sources()[0]
	for range 20 {
		if _, err := s.Read(); err != nil {
			t.Fatalf("one file read again: %v", err)
		}
	}
	if e := p.BudgetExceeded(); e != nil {
		t.Errorf("one file read 20 times: %v", e)
	}
}

// TestBudgetTime: a project whose time is up reads nothing more and says
// so (the deadline is past at load: no clock race).
func TestBudgetTime(t *testing.T) {
	dir := t.TempDir()
	testtree.Map(t, dir, map[string]string{"fw.config.ts": budgetConfig, "app/app.vue": "<template />\n", "app/pages/a.vue": "<template />\n"})
	p := loadBudget(t, dir, project.Budget{Time: time.Nanosecond})
	time.Sleep(time.Millisecond) // a nanosecond has passed, whatever the clock's grain
	if read, _, other := readAll(p); read != 0 || len(other) != 0 {
		t.Errorf("read %d files past the time, %v", read, other)
	}
	e := p.BudgetExceeded()
	if e == nil || e.Limit != "time" || e.Flag != "--project-timeout" || !strings.Contains(e.Error(), "took longer than 1ns") {
		t.Fatalf("got %v", e)
	}
}

// TestBudgetFileSize: a source file larger than the budget's size is not
// read, with an error naming the flag that raises it; it is that file's
// alone (the project is within its budget), and a budget that fits reads
// it.
func TestBudgetFileSize(t *testing.T) {
	dir := t.TempDir()
	testtree.Map(t, dir, map[string]string{"fw.config.ts": budgetConfig,
		"app/pages/big.vue":   "<template><p>" + strings.Repeat("x", 4000) + "</p></template>\n",
		"app/pages/small.vue": "<template />\n"})
	p := loadBudget(t, dir, project.Budget{FileSize: 1000})
	read, over, other := readAll(p)
	var se *project.SizeError
	if read != 1 || len(over) != 0 || len(other) != 1 || !errors.As(other[0], &se) || !strings.Contains(other[0].Error(), "larger than the 1000 bytes fwmigrate reads (--max-file-mb raises it)") {
		t.Fatalf("read %d, over %v, other %v", read, over, other)
	}
	if e := p.BudgetExceeded(); e != nil {
		t.Errorf("a file too large is not the project's budget: %v", e)
	}
	if read, _, _ := readAll(loadBudget(t, dir, project.Budget{FileSize: 1 << 20})); read != 2 {
		t.Errorf("read %d with a larger limit, want 2", read)
	}
}

// TestBudgetDefaultsFitRealApps: the generated app of 20,000 files is
// walked and read whole under the default budget.
func TestBudgetDefaultsFitRealApps(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads 20,000 files")
	}
	dir := t.TempDir()
	files := map[string]string{"fw.config.ts": "export default defineFwConfig({})\n"}
	for name, src := range appgen.Files(20000) {
		files[name] = string(src)
	}
	testtree.Map(t, dir, files)
	p := loadBudget(t, dir, project.Budget{})
	read, over, other := readAll(p)
	if read < 19000 || len(over) != 0 || len(other) != 0 {
		t.Fatalf("read %d, over the budget %d, errors %v", read, len(over), other)
	}
	if e := p.BudgetExceeded(); e != nil {
		t.Fatalf("the 20,000-file app went past the default budget: %v", e)
	}
	entries, bytes := p.BudgetUsed()
	t.Logf("%d sources read, %d entries walked, %d MB", read, entries, bytes>>20)
}
