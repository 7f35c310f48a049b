package ast_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/fwmigrate/fwmigrate/ast"
)

var codeModes = []struct {
	file   string
	loader api.Loader
}{
	{"a.ts", api.LoaderTS}, {"a.js", api.LoaderJS}, {"a.tsx", api.LoaderTSX}, {"a.jsx", api.LoaderJSX}, {"a.vue", api.LoaderNone},
}

// codeSeeds are the fuzz seeds of FuzzReadCode: the table tests' inputs
// and shapes code-changes.md names.
var codeSeeds = []struct {
	src  string
	mode uint8
}{
	{"const { data: d, refresh } = await useFetch<Post[]>('/api'); if (d.value === null) refresh({ dedupe: true })", 0},
	{"export function useX() { return useAsyncData('k', () => $fetch('/x')) }\nconst r = useX(); r.data.value.list.push(x)", 0},
	{"fw.hook('builder:watch', (event, path) => { if (path.startsWith('pages/')) return })", 1},
	{"export default defineFwConfig({ hooks: { 'pages:extend'(pages) { pages[0].meta.x = 1 } } })", 0},
	{"const f = <T,>(x: T) => <div a={x}>{x.map(i => <b>{i}</b>)} it's</div>", 2},
	{"x = <p>Don't {import('./a')}</p>", 3},
	{"<script setup lang=\"ts\">\nconst { data } = await useFetch('/a')\n</script>\n<template><div v-if=\"data === null\" v-for=\"(item, i) in data.list\" @click=\"data.n++; save()\">{{ item.name }}</div><KeepAlive include=\"a,b\"/></template>", 4},
	{"class A<T> extends B { @d() x?: T = 1; static { y() } #p = 2; get v() { return #p in this } }", 0},
	{"for await (const [k, v] of m) { label: { break label } }", 1},
	{"a ? (b) : c => d; (a, b) => a; async (x) => await x; async(x)", 0},
	// Issue 21: parenthesised arrows as operands, a v-for alias list
	// without parentheses.
	{";(async () => { await 1 })()\nconst a = (() => 1)()\n;(() => {}).call(null)", 1},
	{"useHead((() => ({ title })) as () => T)\nexport const f = ((x: number) => x) satisfies unknown", 0},
	{"<template><li v-for=\"row, i in rows\" :key=\"i\">{{ row }}</li><p v-if=\"rows === null\"/></template>", 4},
}

// FuzzReadCode: no input panics or hangs the code reader; errors carry a
// position; every span is inside the input and nested in its parent; and
// what esbuild accepts, the reader reads (but for the depth limit).
func FuzzReadCode(f *testing.F) {
	for _, s := range codeSeeds {
		f.Add([]byte(s.src), s.mode)
	}
	f.Fuzz(func(t *testing.T, src []byte, mode uint8) {
		m := codeModes[int(mode)%len(codeModes)]
		timer := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("hang on %q", src)) })
		defer timer.Stop()
		c, err := ast.ReadCode(m.file, src)
		if err != nil {
			var se *ast.SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Column < 1 || se.Offset < 0 || se.Offset > len(src) {
				t.Fatalf("error %v", err)
			}
		}
		if c != nil && len(src) <= 4096 {
			for _, e := range checkTree(c) {
				t.Fatal(e)
			}
		}
		if err == nil || m.loader == api.LoaderNone {
			return
		}
		var se *ast.SyntaxError
		errors.As(err, &se)
		if strings.Contains(se.Text, "Too deeply nested") {
			return
		}
		res := api.Transform(string(src), api.TransformOptions{Loader: m.loader, LogLevel: api.LogLevelSilent})
		if len(res.Errors) == 0 {
			t.Fatalf("esbuild accepts %s %q, the reader does not: %v", m.file, src, err)
		}
	})
}

// TestWriteCodeSeeds writes the seeds to testdata (go test -run
// TestWriteCodeSeeds -fuzzseeds): go test runs them as cases of
// FuzzReadCode without the fuzzer.
func TestWriteCodeSeeds(t *testing.T) {
	if !*writeSeeds {
		t.Skip("-fuzzseeds not set")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzReadCode")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, s := range codeSeeds {
		body := "go test fuzz v1\n[]byte(" + strconv.Quote(s.src) + ")\nuint8(" + strconv.Itoa(int(s.mode)) + ")\n"
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed_%02d", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
