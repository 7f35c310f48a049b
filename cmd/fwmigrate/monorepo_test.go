package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
)

// TestSharedLayer: a layer that two apps extend is checked once, whether it
// is under the paths given (a project itself) or outside them (reached
// through the apps), and its remote source is reported once.
func TestSharedLayer(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	testtree.Map(t, dir, map[string]string{
		"apps/web/fw.config.ts":    "export default defineFwConfig({ extends: ['../../shared/base'] })\n",
		"apps/docs/fw.config.ts":   "export default defineFwConfig({ extends: '../../shared/base/fw.config.ts' })\n",
		"shared/base/fw.config.ts": "export default defineFwConfig({ extends: ['github:org/theme'], generate: { routes: ['/'] } })\n",
	})
	for _, args := range [][]string{nil, {"repo/apps"}, {"repo/apps/web/fw.config.ts", "repo/apps/docs"}} {
		var out string
		if args == nil {
			out, _ = checkTree(t, dir)
		} else {
			out, _ = checkTree(t, dir, args...)
		}
		for _, want := range []string{"repo/shared/base/fw.config.ts:1:76: warning FW201", `repo/shared/base/fw.config.ts:1:43: info FW905 [layer-not-loaded] remote layer "github:org/theme"`} {
			if n := strings.Count(out, want); n != 1 {
				t.Errorf("check %v: %d times %s, want once\n%s", args, n, want, out)
			}
		}
	}
}

// TestDeterministic checks the whole corpus, each archive a project of one
// monorepo, three times (twice with -short): the output is the same byte
// for byte, whatever order the workers finish in. The corpus's major-2
// projects (FW907) make the exit status 2; nothing else may.
func TestDeterministic(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	testtree.Corpus(t, dir, "../../testdata/corpus/*.txtar")
	runs := 3
	if testing.Short() {
		runs = 2
	}
	var first string
	for i := 0; i < runs; i++ {
		out, code := checkTree(t, dir, "--format=json")
		if code == exitError && (!strings.Contains(out, `"code": "FW907"`) || strings.Contains(out, `"code": "FW901"`) || strings.Contains(out, `"code": "FW904"`) || strings.Contains(out, `"code": "FW906"`) || strings.Contains(out, `"code": "FW999"`)) {
			t.Fatalf("exit status %d: a corpus config cannot be checked\n%s", code, out)
		}
		if i == 0 {
			first = out
		} else if out != first {
			t.Fatalf("run %d differs from run 1", i+1)
		}
	}
}
