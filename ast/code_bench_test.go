package ast_test

import (
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/appgen"
)

// scriptsOf returns the scripts esbuild would transform: the .ts files,
// and the script blocks of the .vue files.
func scriptsOf(b testing.TB, files map[string][]byte) (scripts []string, total int) {
	for name, src := range files {
		total += len(src)
		if !strings.HasSuffix(name, ".vue") {
			scripts = append(scripts, string(src))
			continue
		}
		blocks, _ := ast.SFCBlocks(src)
		for _, bl := range blocks {
			if bl.Tag == "script" {
				scripts = append(scripts, string(src[bl.Content.Start:bl.Content.End]))
			}
		}
	}
	return scripts, total
}

// BenchmarkReadCode reads an app of 200 files (scripts and .vue files with
// their templates). BenchmarkReadCodeEsbuild is the yardstick: esbuild's
// Transform of the same files' scripts (the templates left out, so
// esbuild does less work than the reader). Compare ns per byte of input.
func BenchmarkReadCode(b *testing.B) {
	files := appgen.Dense(200)
	_, total := scriptsOf(b, files)
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for name, src := range files {
			if _, err := ast.ReadCode(name, src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkReadCodeEsbuild(b *testing.B) {
	scripts, total := scriptsOf(b, appgen.Dense(200))
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, s := range scripts {
			res := api.Transform(s, api.TransformOptions{Loader: api.LoaderTS, LogLevel: api.LogLevelSilent})
			if len(res.Errors) > 0 {
				b.Fatal(res.Errors[0].Text)
			}
		}
	}
}

func TestAppFilesRead(t *testing.T) {
	for name, src := range appgen.Dense(8) {
		c, err := ast.ReadCode(name, src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, e := range checkTree(c) {
			t.Errorf("%s: %s", name, e)
		}
		if len(src) < 1000 || len(src) > 4096 {
			t.Errorf("%s: %d bytes, want 1-4 KB", name, len(src))
		}
	}
	scripts, _ := scriptsOf(t, appgen.Dense(8))
	for _, s := range scripts {
		if res := api.Transform(s, api.TransformOptions{Loader: api.LoaderTS, LogLevel: api.LogLevelSilent}); len(res.Errors) > 0 {
			t.Fatalf("esbuild rejects a generated script: %s\n%s", res.Errors[0].Text, s)
		}
	}
}

// BenchmarkWalkJS walks every script and template expression of an app of
// 200 dense files (appgen.Dense) once: what one walk of the code rules
// costs, the reading excluded.
func BenchmarkWalkJS(b *testing.B) {
	var roots []*ast.JSNode
	for name, src := range appgen.Dense(200) {
		c, err := ast.ReadCode(name, src)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range c.Scripts {
			roots = append(roots, s.Program)
		}
		if c.Template != nil {
			for _, x := range c.Template.Exprs {
				roots = append(roots, x.Node)
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		for _, r := range roots {
			ast.WalkJS(r, func(*ast.JSNode, []*ast.JSNode) bool { n++; return true })
		}
	}
}
