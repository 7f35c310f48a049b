package migrate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// TestLeftoverBackup: an apply whose every step is written and durable,
// but that cannot remove an old copy of an edited file (txn's backup, here
// made a non-empty folder at the point the copy was made), is written:
// the report says so and names the leftover, not "not written".
func TestLeftoverBackup(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	testtree.Map(t, dir, map[string]string{
		"fw.config.ts": "export default defineFwConfig({\n  experimental: { compileTemplate: true },\n})\n",
		// Big enough for its edit to keep a backup (a small file's undo
		// writes its old text from the journal, and keeps none).
		"package.json":    `{"devDependencies": {"fw": "^3.12.0"}, "description": "` + strings.Repeat("x", 64<<10) + `"}`,
		"pages/index.vue": "<template><p /></template>\n",
	})
	spoiled := false
	hook := func(point string, i int) {
		if point != "kept" || spoiled {
			return
		}
		olds, _ := filepath.Glob(filepath.Join(dir, "*", ".*.fwmigrate-*.old"))
		more, _ := filepath.Glob(filepath.Join(dir, ".*.fwmigrate-*.old"))
		olds = append(olds, more...)
		if len(olds) == 0 {
			return
		}
		spoiled = true
		b := olds[0]
		if err := os.Remove(b); err != nil {
			t.Error(err)
		}
		if err := os.MkdirAll(filepath.Join(b, "x"), 0o755); err != nil {
			t.Error(err)
		}
	}
	rs := applyDirHook(dir, false, hook)
	if !spoiled {
		t.Fatal("no old copy was made")
	}
	r := rs[0]
	if r.Fatal || !r.Written {
		t.Fatalf("fatal %v written %v: %s", r.Fatal, r.Written, r.Err)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "were not all removed") {
		t.Errorf("notes: %q", r.Notes)
	}
	if _, err := os.Stat(filepath.Join(dir, "app", "pages", "index.vue")); err != nil {
		t.Errorf("not moved: %v", err)
	}
}
