package appgen_test

import (
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/appgen"
)

// TestFiles: every generated script (every .vue script block) is valid
// TypeScript for esbuild and for the code reader, sizes are 1-4 KB, about
// half the files are .vue, and the output is the same on every call.
func TestFiles(t *testing.T) {
	files := appgen.Files(200)
	if !reflect.DeepEqual(files, appgen.Files(200)) {
		t.Fatal("two calls differ")
	}
	vue := 0
	for name, src := range files {
		if len(src) < 1024 || len(src) > 4096+512 {
			t.Errorf("%s: %d bytes", name, len(src))
		}
		if _, err := ast.ReadCode(name, src); err != nil {
			t.Errorf("%s: the code reader: %v", name, err)
		}
		scripts := []string{string(src)}
		if path.Ext(name) == ".vue" {
			vue++
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
	if vue < 80 || vue > 120 {
		t.Errorf("%d of 200 files are .vue", vue)
	}
	n := 0
	for name, src := range files {
		if strings.HasPrefix(name, "pages/") && strings.Contains(string(src), "useFetch") {
			n++
		}
	}
	if n == 0 {
		t.Error("no page calls a data composable")
	}
}
