package move_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/fwmigrate/fwmigrate/rewrite/move/internal/specs"
)

// FuzzScan checks the lexers on any input: no panic, every specifier inside
// the input, and, where esbuild accepts the input as TypeScript, the same
// specifiers for the constructs esbuild resolves.
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"import a from './a'; export * from \"../b\"",
		"const r = /'/g; import('./x')",
		"const s = `a${`b${import('./c')}`}`",
		"<p>Don't {import('./a')}</p>",
		"@import 'a.css'; .x { background: url(b.png) }",
		"<template><p/></template><script>import x from './y'</script><style>@import 'z';</style>",
		"/// <reference path=\"./a.d.ts\" />\nrequire('./b')",
		"x = a / b / c; y = (1) / 2; z = {} / 1",
		"@source not '../a/**/*.vue'; @config \"./t.js\"; @plugin 'x'; @source inline('y');",
		"<template><img src=\"../a.png\"><source srcset=\"./b.png 1x,./c.png\"><use href=../i.svg#x /></template>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				panic(fmt.Sprintf("slow input %q", src))
			}
		}()
		var l specs.Lexer
		check := func(name string, refs []specs.Ref) {
			for _, r := range refs {
				if r.Start < 0 || r.End > len(src) || r.Start > r.End {
					t.Fatalf("%s: ref %d..%d out of %d bytes", name, r.Start, r.End, len(src))
				}
			}
		}
		jsRefs, _ := l.Scan([]byte(src), 0, false, nil)
		check("ts", jsRefs)
		jsxRefs, _ := l.Scan([]byte(src), 0, true, nil)
		check("tsx", jsxRefs)
		vueRefs, _ := l.ScanVue([]byte(src), nil)
		check("vue", vueRefs)
		for _, lang := range []string{"css", "scss", "sass", "less"} {
			check(lang, specs.ScanCSS([]byte(src), 0, lang, nil))
		}
		if !utf8.ValidString(src) || strings.Contains(src, "<") || strings.Contains(src, "\\") || strings.Contains(src, "//") && strings.Contains(src, "<reference") {
			return // JSX-like generics and escapes: esbuild's reading is not comparable
		}
		want, ok := esbuildImports(t, src, "ts")
		if !ok {
			return
		}
		var got []string
		for _, r := range jsRefs {
			switch r.Kind {
			case specs.Import, specs.Dynamic, specs.Require:
				if !r.Prefix {
					got = append(got, src[r.Start:r.End])
				}
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("lexer %q, esbuild %q", got, want)
		}
	})
}
