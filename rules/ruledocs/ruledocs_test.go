package ruledocs_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/fwmigrate/fwmigrate/rules/ruledocs"
)

// TestPagesInSync fails when docs/rules differs from what the rules' docs
// generate: a rule's doc changed without `go generate ./rules`, a page was
// edited by hand, or a rule was added or removed.
func TestPagesInSync(t *testing.T) {
	dir := filepath.Join("..", "..", "docs", "rules")
	want := ruledocs.Pages()
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range files {
		have[filepath.Base(f)] = true
	}
	var names []string
	for name := range want {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v (run go generate ./rules)", name, err)
			continue
		}
		if string(got) != want[name] {
			t.Errorf("docs/rules/%s is stale: run go generate ./rules", name)
		}
	}
	for name := range have {
		if _, ok := want[name]; !ok {
			t.Errorf("docs/rules/%s is no rule's page: run go generate ./rules", name)
		}
	}
}

// TestWrite checks that Write creates the pages and removes a stale one.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "FW000.md")
	if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ruledocs.Write(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the page of a rule that does not exist was kept")
	}
	got, err := os.ReadFile(filepath.Join(dir, "FW201.md"))
	if err != nil || string(got) != ruledocs.Pages()["FW201.md"] {
		t.Errorf("FW201.md not written as generated: %v", err)
	}
}
