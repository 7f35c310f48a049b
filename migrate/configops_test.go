package migrate_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/migrate"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules"
)

// TestConfigOpsFirst: a fix of another file with ConfigOps (FW211: the
// tsconfig.json edit that needs its compilerOptions carried into the
// config first) changes both files or neither: its config edits are made
// in the config rounds, the file's edits after them; when the config edits
// fail, or the fix is not allowed (unsafe, another layout), tsconfig.json is
// not edited.
func TestConfigOpsFirst(t *testing.T) {
	load := func(t *testing.T) *project.Project {
		dir := t.TempDir()
		testtree.WriteMap(t, dir, map[string]string{
			"fw.config.ts":  "export default defineFwConfig({})\n",
			"package.json":  `{ "dependencies": { "fw": "^4.1.0" } }`,
			"app/app.vue":   "<template><FwPage /></template>\n",
			"tsconfig.json": "{\n  \"extends\": \"./.fw/tsconfig.json\",\n  \"compilerOptions\": { \"strict\": true }\n}\n",
		})
		p := project.LoadProject(filepath.Join(dir, "fw.config.ts"), "fw.config.ts")
		if p.File == nil || p.TSConfig == nil {
			t.Fatal(p.Err)
		}
		return p
	}
	opts := migrate.Options{Rules: rules.Options{Target: 4, Select: []string{"FW211"}}, Layout: migrate.LayoutMove, Unsafe: true}
	fw211 := func(r *migrate.Result, list []migrate.FixReport) int {
		n := 0
		for _, f := range list {
			if f.D.Code == "FW211" {
				n++
			}
		}
		return n
	}

	t.Run("both", func(t *testing.T) {
		p := load(t)
		r := migrate.ApplyConfig(p, opts, rules.Check)
		if r.Fatal || !strings.Contains(string(r.New), "compilerOptions") || !strings.Contains(string(r.New), "strict: true") {
			t.Fatalf("config not carried: fatal %v %s\n%s", r.Fatal, r.Err, r.New)
		}
		if len(r.CodeEdits) != 1 || r.CodeEdits[0].Path != p.TSConfig.Path {
			t.Fatalf("code edits %+v, want tsconfig.json", r.CodeEdits)
		}
		ts := string(r.CodeEdits[0].New)
		if strings.Contains(ts, "compilerOptions") || strings.Contains(ts, "extends") || !strings.Contains(ts, "tsconfig.node.json") {
			t.Errorf("tsconfig.json:\n%s", ts)
		}
		if fw211(r, r.Fixed) != 1 || fw211(r, r.NotFixed) != 0 {
			t.Errorf("fixed %+v, not fixed %+v: want FW211 fixed once", r.Fixed, r.NotFixed)
		}
	})

	t.Run("config edits fail", func(t *testing.T) {
		p := load(t)
		check := func(p *project.Project, o rules.Options) []*rules.Diagnostic {
			diags := rules.Check(p, o)
			for _, d := range diags {
				if d.Fix != nil && len(d.Fix.ConfigOps) > 0 {
					// An op the engine skips: nothing to move.
					d.Fix.ConfigOps = []rewrite.Op{{Kind: rewrite.OpMove, Path: ast.ParsePath("nope.x"), To: ast.ParsePath("typescript.x")}}
				}
			}
			return diags
		}
		r := migrate.ApplyConfig(p, opts, check)
		if r.Fatal || r.New != nil || len(r.CodeEdits) != 0 {
			t.Fatalf("fatal %v, new %q, code edits %+v: want nothing changed", r.Fatal, r.New, r.CodeEdits)
		}
		if fw211(r, r.Fixed) != 0 || fw211(r, r.NotFixed) != 1 {
			t.Errorf("fixed %+v, not fixed %+v: want FW211 not fixed, once", r.Fixed, r.NotFixed)
		}
	})

	t.Run("safe only", func(t *testing.T) {
		p := load(t)
		o := opts
		o.Unsafe = false
		r := migrate.ApplyConfig(p, o, rules.Check)
		if r.New != nil || len(r.CodeEdits) != 0 || r.Unsafe != 1 {
			t.Fatalf("new %q, code edits %+v, unsafe %d: want the fix left for --unsafe", r.New, r.CodeEdits, r.Unsafe)
		}
	})

	t.Run("other layout", func(t *testing.T) {
		// A fix of another file that holds for the move only is not made
		// under --layout=keep (FW211's holds for both: a check injects it).
		p := load(t)
		check := func(p *project.Project, o rules.Options) []*rules.Diagnostic {
			diags := rules.Check(p, o)
			for _, d := range diags {
				if d.Fix != nil && d.Fix.File != "" {
					d.Fix.Layout = rules.MoveOnly
				}
			}
			return diags
		}
		o := opts
		o.Layout = migrate.LayoutKeep
		r := migrate.ApplyConfig(p, o, check)
		if len(r.CodeEdits) != 0 || fw211(r, r.NotFixed) != 1 || fw211(r, r.Fixed) != 0 {
			t.Fatalf("code edits %+v, not fixed %+v: want FW211 not made under --layout=keep", r.CodeEdits, r.NotFixed)
		}
	})
}
