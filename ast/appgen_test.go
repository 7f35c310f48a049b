package ast_test

import (
	"path"
	"testing"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/appgen"
)

// TestReadGeneratedApp: every file of the generated app (internal/appgen,
// which the benchmarks and the front-end tests use) is read by the code
// reader, and every script (a .vue file's script blocks, as SFCBlocks
// finds them) is valid TypeScript for esbuild. (This lives here, not in
// appgen's tests, so that appgen's test binary does not import ast: an
// edit of ast relinks and reruns one test binary less.)
func TestReadGeneratedApp(t *testing.T) {
	for name, src := range appgen.Files(200) {
		if _, err := ast.ReadCode(name, src); err != nil {
			t.Errorf("%s: the code reader: %v", name, err)
		}
		scripts := []string{string(src)}
		if path.Ext(name) == ".vue" {
			scripts = nil
			blocks, ok := ast.SFCBlocks(src)
			if !ok {
				t.Errorf("%s: blocks", name)
			}
			for _, b := range blocks {
				if b.Tag == "script" {
					scripts = append(scripts, string(src[b.Content.Start:b.Content.End]))
				}
			}
		}
		for _, s := range scripts {
			res := api.Transform(s, api.TransformOptions{Loader: api.LoaderTS, LogLevel: api.LogLevelSilent})
			if len(res.Errors) > 0 {
				t.Errorf("%s: esbuild: %s", name, res.Errors[0].Text)
			}
		}
	}
}
