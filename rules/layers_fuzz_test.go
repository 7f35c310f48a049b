package rules_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/testtree"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules"
	"golang.org/x/tools/txtar"
)

// FuzzLayers loads arbitrary config text beside a layer tree: reading its
// extends, theme and runtimeConfig never panics, and the layer rules run.
func FuzzLayers(f *testing.F) {
	for _, s := range []string{
		"export default defineFwConfig({ extends: ['./a', ['../b', {}], 'github:x/y', 'pkg', null, ...x, [], [[]]], theme: './a' })",
		"export default { extends: './a', runtimeConfig: { a: { b: '' }, ...c, [d]: 1, e() {} }, $production: { runtimeConfig: 1 }, $env: { x: { runtimeConfig: { f: 1 } }, y: 2 } }",
		"module.exports = { extends: `./a`, theme: `${x}` }",
		"export default defineFwConfig({ extends: '.' })",
	} {
		f.Add(s)
	}
	files, _ := filepath.Glob("../testdata/corpus/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, fl := range ar.Files {
			if compat.IsConfigName(fl.Name) {
				f.Add(string(fl.Data))
			}
		}
	}
	dir := f.TempDir()
	testtree.Write(f, dir, txtar.Parse([]byte(`
-- a/fw.config.ts --
export default defineFwConfig({ extends: '../p', runtimeConfig: { a: 1 } })
-- p/layers/x/.keep --
`)), "")
	cfg := filepath.Join(dir, "p", "fw.config.ts")
	opts := rules.Options{Target: 4, Select: []string{rules.CodeLayerNotLoaded, rules.CodeExtendsCycle}}
	f.Fuzz(func(t *testing.T, src string) {
		if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		p := project.NewLoader().Load(cfg, "fw.config.ts")
		p.RuntimeConfigKeys()
		for _, d := range rules.Check(p, opts) {
			if d.Code == rules.CodeInternal {
				t.Fatalf("%s", RenderDiagnostic(d))
			}
		}
	})
}
