package project

import (
	"path/filepath"
)

// The test runner's configs at the project's root, which name the app's
// sources through aliases (FW852).

// VitestConfigNames are the names of the test runner's configs that it
// looks for at the root: its config (in its lookup order) and its
// workspace file.
var VitestConfigNames = []string{
	"vitest.config.ts", "vitest.config.mts", "vitest.config.cts", "vitest.config.js", "vitest.config.mjs", "vitest.config.cjs",
	"vitest.workspace.ts", "vitest.workspace.mts", "vitest.workspace.cts", "vitest.workspace.js", "vitest.workspace.mjs", "vitest.workspace.cjs",
}

// VitestConfigs returns the test runner's configs at the project's root
// that exist (regular files, or symlinks to files inside the project), read
// with ReadSource's limits, in VitestConfigNames' order. A file that cannot
// be read is returned in errs, keyed by its path. Each call reads them
// again (they are small, and a front end's check must see an edit).
func (p *Project) VitestConfigs() (files []*TextFile, errs map[string]error) {
	for _, name := range VitestConfigNames {
		path := filepath.Join(p.Root, name)
		if !p.IsFile(path) {
			continue
		}
		tf, err := p.ReadText(path)
		if err != nil {
			if errs == nil {
				errs = map[string]error{}
			}
			errs[path] = err
			continue
		}
		files = append(files, tf)
	}
	return files, errs
}
