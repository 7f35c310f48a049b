package rules_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules"
)

// FuzzTsconfigReferences checks FW211 on arbitrary tsconfig.json text (served
// through the loader's overlay): it never panics; on a file that is JSON
// with comments, its fix edits tsconfig.json into JSON with comments and
// carries the compilerOptions into the config (every op made, the result
// verified); and once both are made, it offers no fix any more.
func FuzzTsconfigReferences(f *testing.F) {
	for _, s := range []string{
		"{\n  \"extends\": \"./.fw/tsconfig.json\"\n}\n",
		"{ \"compilerOptions\": { \"strict\": true, \"x\": [1, {\"a\": null}] }, // c\n \"extends\": [\"./.fw/tsconfig.json\", \"./b.json\"], }",
		"{\r\n\t/* c */ \"extends\": \"./.fw/tsconfig\", \"compilerOptions\": {\"strict\": false,},\r\n}",
		"{ \"extends\": \"./.fw/tsconfig.json\", \"include\": [] }",
		"{ \"extends\": \"./.fw/tsconfig.json\", \"compilerOptions\": { \"\\u0061\": 1, \"b\": \"\\\"\" } }",
		"\ufeff{\"extends\":\"./.fw/tsconfig.json\",\"compilerOptions\":{}}",
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	testtree.Write(f, dir, txtar.Parse([]byte(`
-- fw.config.ts --
export default defineFwConfig({
  typescript: { tsConfig: { compilerOptions: { strict: true } } },
})
-- package.json --
{ "dependencies": { "fw": "^4.1.0" } }
-- app/app.vue --
`)), "")
	cfg := filepath.Join(dir, "fw.config.ts")
	tsPath := filepath.Join(dir, "tsconfig.json")
	opts := rules.Options{Target: 4, Select: []string{"FW211"}}
	load := func(ts []byte, config *ast.File) *project.Project {
		l := project.NewLoader()
		l.Overlay = func(path string) ([]byte, bool) {
			if path == tsPath {
				return ts, true
			}
			if config != nil && path == cfg {
				return config.Src, true
			}
			return nil, false
		}
		return l.Load(cfg, "fw.config.ts")
	}
	f.Fuzz(func(t *testing.T, src string) {
		p := load([]byte(src), nil)
		for _, d := range rules.Check(p, opts) {
			if d.Code == rules.CodeInternal {
				t.Fatalf("%s", RenderDiagnostic(d))
			}
			if d.Code != "FW211" || d.Fix == nil {
				continue
			}
			if _, err := rewrite.EditCode(tsPath, []byte(src), nil); err != nil {
				continue // not JSON with comments: the fix may not hold
			}
			ts, err := rewrite.EditCode(tsPath, []byte(src), d.Fix.Ops)
			if err != nil {
				t.Fatalf("the fix breaks tsconfig.json: %v\n%s", err, src)
			}
			config := p.File
			if len(d.Fix.ConfigOps) > 0 {
				res, err := rewrite.ApplyGroups(p.File, [][]rewrite.Op{d.Fix.ConfigOps})
				if err == nil {
					err = rewrite.Verify(p.ConfigDisplay, p.File, res.Src, res.Applied)
				}
				if err != nil || len(res.Skipped) > 0 {
					t.Fatalf("the config edits fail: %v %+v\n%s", err, res.Skipped, src)
				}
				if config, err = ast.Parse(p.ConfigDisplay, res.Src); err != nil {
					t.Fatal(err)
				}
			}
			for _, d := range rules.Check(load(ts, config), opts) {
				if d.Code == "FW211" && d.Fix != nil {
					t.Fatalf("a fix again after the fix: %s\nfrom\n%s\nto\n%s", d.Fix.Description, src, ts)
				}
			}
		}
	})
}
