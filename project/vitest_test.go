package project_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
)

func TestVitestConfigs(t *testing.T) {
	dir := t.TempDir()
	testtree.Map(t, dir, map[string]string{
		"p/fw.config.ts":           "export default defineFwConfig({})\n",
		"p/vitest.config.mts":      "export default {}\n",
		"p/vitest.workspace.ts":    "export default []\n",
		"p/vite.config.ts":         "export default {}\n",
		"p/sub/vitest.config.ts":   "export default {}\n",
		"outside/vitest.config.ts": "export default {}\n",
	})
	root := filepath.Join(dir, "p")
	if err := os.Mkdir(filepath.Join(root, "vitest.config.ts"), 0o755); err != nil {
		t.Fatal(err) // a directory of that name is no config
	}
	if err := os.Symlink(filepath.Join(dir, "outside", "vitest.config.ts"), filepath.Join(root, "vitest.config.js")); err != nil {
		t.Skip("no symlinks:", err)
	}
	p := project.LoadProject(filepath.Join(root, "fw.config.ts"), "p/fw.config.ts")
	files, errs := p.VitestConfigs()
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f.Path))
	}
	if len(names) != 2 || names[0] != "vitest.config.mts" || names[1] != "vitest.workspace.ts" {
		t.Errorf("configs %v", names)
	}
	if len(errs) != 1 || errs[filepath.Join(root, "vitest.config.js")] == nil {
		t.Errorf("a config linked from outside the project is read: %v", errs)
	}
}
