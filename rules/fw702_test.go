package rules_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
)

// TestNodeMatrixLong: a workflow's matrix list of tens of thousands of
// entries (a hostile file) is read once, not once per entry, and the line
// table of the file is made once (reportIn): the check ends in linear
// time, and every entry that would repeat the Node the first moves to is
// removed, the first moved. (A flow list is one line, whose UTF-16 columns
// ast.Lines.Position counts from the line's start for each entry: fewer
// entries there.)
func TestNodeMatrixLong(t *testing.T) {
	for _, form := range []string{"block", "flow"} {
		t.Run(form, func(t *testing.T) {
			n := 40000
			if form == "flow" {
				n = 10000
			}
			if testing.Short() {
				n = 2000
			}
			var b strings.Builder
			b.WriteString("jobs:\n  a:\n    strategy:\n      matrix:\n")
			if form == "block" {
				b.WriteString("        node:\n")
				for range n {
					b.WriteString("          - 20\n")
				}
			} else {
				b.WriteString("        node: [" + strings.Repeat("20, ", n-1) + "20]\n")
			}
			b.WriteString("    steps:\n      - uses: actions/setup-node@v4\n        with:\n          node-version: ${{ matrix.node }}\n")
			dir := t.TempDir()
			testtree.Map(t, dir, map[string]string{
				"fw.config.ts":             "export default defineFwConfig({})\n",
				"package.json":             `{ "dependencies": { "fw": "^3.16.0" } }`,
				".github/workflows/ci.yml": b.String(),
			})
			p := project.LoadProject(filepath.Join(dir, "fw.config.ts"), "fw.config.ts")
			start := time.Now()
			diags := rules.Check(p, rules.Options{Target: 4, Select: []string{"FW702"}})
			if took := time.Since(start); took > time.Minute {
				t.Errorf("the check took %v", took)
			}
			moved, removed := 0, 0
			for _, d := range diags {
				switch {
				case d.Fix == nil:
				case strings.HasPrefix(d.Fix.Description, "write Node `22`"):
					moved++
				case strings.HasPrefix(d.Fix.Description, "remove Node `20`"):
					removed++
				}
			}
			if moved != 1 || removed != n-1 {
				t.Errorf("%d moved, %d removed of %d findings", moved, removed, len(diags))
			}
		})
	}
}
