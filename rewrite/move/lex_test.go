package move_test

import (
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/fwmigrate/fwmigrate/rewrite/move/internal/specs"
)

func specValues(src string, refs []specs.Ref) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.Value([]byte(src)))
	}
	return out
}

func TestScanJS(t *testing.T) {
	tests := []struct {
		name, file, src string
		want            []string
	}{
		{"static", "a.ts", `import a from './a'; import {b} from "../b"; import * as c from './c'; import './d'`, []string{"./a", "../b", "./c", "./d"}},
		{"export from", "a.ts", "export * from './a'\nexport { x as y } from './b'\nexport const from = './no'", []string{"./a", "./b"}},
		{"dynamic and require", "a.js", "const a = await import('./a'); const b = require(\"./b\"); require.resolve('./c')", []string{"./a", "./b", "./c"}},
		{"comments and strings", "a.ts", "// import x from './no1'\n/* import('./no2') */ const s = \"import x from './no3'\"; const t = `require('./no4')`", nil},
		{"member calls are not imports", "a.ts", "x.import('./no'); y.require('./no2'); z.from './no3'", nil},
		{"regex with quote", "a.js", "const r = /'/g; import a from './a'", []string{"./a"}},
		{"regex class with slash", "a.js", "const r = /[/']/; import('./a')", []string{"./a"}},
		{"division is not regex", "a.js", "const x = a / b; const y = c / 'd'; import('./a')", []string{"./a"}},
		{"template substitution", "a.ts", "const m = import(`./locales/${lang}.json`); const s = `${import('./b')}`", []string{"./locales/", "./b"}},
		{"nested template", "a.ts", "const s = `a${`b${import('./c')}`}`; import d from './d'", []string{"./c", "./d"}},
		{"type imports", "a.ts", "import type { A } from './a'\nimport type from './b'\nexport type { C } from './c'\ntype X = typeof import('./x')", []string{"./a", "./b", "./c", "./x"}},
		{"triple slash", "a.ts", "/// <reference path=\"../types/x.d.ts\" />\n/// <reference types=\"node\" />\n// /// <reference path=\"./no.d.ts\" />", []string{"../types/x.d.ts"}},
		{"new URL", "a.ts", "const u = new URL('./x.wasm', import.meta.url); const v = new URL('./no', base)", []string{"./x.wasm"}},
		{"glob", "a.ts", "const g = import.meta.glob('./modules/*.ts'); const h = import.meta.glob(['../a/**/*.md', '!../a/skip/*'])", []string{"./modules/", "../a/", "../a/skip/"}},
		{"mocks", "a.test.ts", "vi.mock('../components/X.vue'); jest.mock('./y', () => ({}))", []string{"../components/X.vue", "./y"}},
		{"escapes are decoded", "a.js", `import a from './a\u0062'; import b from './b'; import c from "./q\"uote"; import d from './t\tab'`, []string{"./ab", "./b", `./q"uote`, "./t\tab"}},
		{"invalid escape", "a.js", "import a from `./a\\u{zz}`; import b from './b'", []string{"./b"}},
		{"jsx text with apostrophe", "a.jsx", "const a = <p>Don't {x} stop</p>; import('./a'); const b = <img alt='it' src={import('./b')} />", []string{"./a", "./b"}},
		{"jsx nested", "a.tsx", "export default () => <div><span>it's</span>{list.map(i => <b key={i}>'{i}</b>)}</div>\nimport('./a')", []string{"./a"}},
		{"tsx generic arrow", "a.tsx", "const f = <T,>(x: T) => x; const g = a < b; import('./a')", []string{"./a"}},
		{"ts comparison not jsx", "a.ts", "if (a <b) { x = 'y' }; import('./a')", []string{"./a"}},
		{"hashbang", "a.mjs", "#!/usr/bin/env node\nimport a from './a'", []string{"./a"}},
		{"unterminated", "a.js", "import a from './a'; const s = 'oops\nimport b from './b'", []string{"./a", "./b"}},
		{"import meta url", "a.js", "const x = import.meta.url; import './side.css'", []string{"./side.css"}},
		{"spread require", "a.js", "const all = [...require('./a')]", []string{"./a"}},
		{"object key from", "a.js", "export default { from: './no', import: './no2' }", nil},
	}
	var l specs.Lexer
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ext := path.Ext(tt.file)
			refs, _ := l.Scan([]byte(tt.src), 0, ext == ".jsx" || ext == ".tsx", nil)
			if got := specValues(tt.src, refs); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestScanCSS(t *testing.T) {
	tests := []struct {
		name, lang, src string
		want            []string
	}{
		{"import forms", "css", `@import "a.css"; @import url(b.css) screen; @import url('c.css');`, []string{"a.css", "b.css", "c.css"}},
		{"url tokens", "css", `.a{background:url(../img/a.png)} .b{background:URL( "x.svg#i" )} .c{content:"url(no.png)"}`, []string{"../img/a.png", "x.svg#i"}},
		{"comments", "scss", "/* @import 'no1'; */\n// @import 'no2';\n@import 'yes';\n.a { background: url(//cdn.example/x.png) }", []string{"yes", "//cdn.example/x.png"}},
		{"css has no line comments", "css", ".a{b:url(http://x//y.png)} //c\n@import 'd.css';", []string{"http://x//y.png", "d.css"}},
		{"scss use forward", "scss", "@use 'sass:math';\n@use '../styles/vars' as v;\n@forward \"./mixins\";\n@import 'a', 'b';", []string{"sass:math", "../styles/vars", "./mixins", "a", "b"}},
		{"use is not css", "css", "@use 'x';", nil},
		{"less options", "less", "@import (reference) \"../base.less\";", []string{"../base.less"}},
		{"sass indented", "sass", "@import foo, bar/baz\n.a\n  color: red", []string{"foo", "bar/baz"}},
		{"interpolation skipped", "scss", "@import 'themes/#{$theme}'; .a{b:url($x)} .c{d:url(~/assets/x.png)}", []string{"~/assets/x.png"}},
		{"identifier ending in url", "css", ".a{b:myurl(x.png)}", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refs := specs.ScanCSS([]byte(tt.src), 0, tt.lang, nil)
			if got := specValues(tt.src, refs); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestScanVue(t *testing.T) {
	src := `<template>
  <div>
    <template v-if="x"><p>import('./no')</p></template>
    <script>not a block</script>
  </div>
</template>

<!-- <script>import './no2'</script> -->
<script setup lang="ts">
import A from '../components/A.vue'
const s = '</scrip' + 't>'
</script>
<script src="./extra.js"></script>

<style lang="scss" scoped>
@import '../assets/vars';
.a { background: url(../assets/bg.png) }
</style>
<style src="../assets/base.css" />
`
	var l specs.Lexer
	refs, ok := l.ScanVue([]byte(src), nil)
	want := []string{"../components/A.vue", "./extra.js", "../assets/vars", "../assets/bg.png", "../assets/base.css"}
	if got := specValues(src, refs); !ok || !slices.Equal(got, want) {
		t.Errorf("got %q (complete %v), want %q", got, ok, want)
	}
}

// esbuildImports returns what esbuild resolves in src: the oracle for the
// lexer on JavaScript, TypeScript and CSS. Type-only imports are invisible
// to it, and verbatimModuleSyntax keeps unused value imports.
func esbuildImports(t *testing.T, src, loader string) ([]string, bool) {
	var got []string
	loaders := map[string]api.Loader{"js": api.LoaderJS, "jsx": api.LoaderJSX, "ts": api.LoaderTS, "tsx": api.LoaderTSX, "css": api.LoaderCSS}
	res := api.Build(api.BuildOptions{
		Stdin:       &api.StdinOptions{Contents: src, Loader: loaders[loader], Sourcefile: "in." + loader},
		Bundle:      true,
		Write:       false,
		LogLevel:    api.LogLevelSilent,
		TsconfigRaw: `{"compilerOptions":{"verbatimModuleSyntax":true}}`,
		Plugins: []api.Plugin{{Name: "record", Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
				if a.Kind != api.ResolveEntryPoint {
					got = append(got, a.Path)
				}
				return api.OnResolveResult{Path: a.Path, External: true}, nil
			})
		}}},
	})
	for _, e := range res.Errors {
		t.Log(e.Text)
	}
	return got, len(res.Errors) == 0
}

// TestScanAgainstEsbuild compares the lexer's specifiers with esbuild's on
// inputs that mix every construct the lexer must tell apart.
func TestScanAgainstEsbuild(t *testing.T) {
	inputs := []struct{ loader, src string }{
		{"ts", "import a from './a'\nimport type { T } from './t'\nexport { b } from './b'\nconst c = () => import('./c')\nconst r = /import '.\\/no'/\nconst s = `import './no2' ${x / 2}`\n// import './no3'\nexport * as d from './d'\nif (a) { require('./e') }\n"},
		{"tsx", "import React from 'react'\nexport function C() { return <div title=\"it's\">Don't {`x`} <b>{import('./lazy')}</b></div> }\nconst f = <T,>(x: T) => x\nimport './styles.css'\n"},
		{"jsx", "const el = <>\n  <p>'a' \"b\" `c` /d/</p>\n</>\nimport x from '../x.js'\n"},
		{"js", "let a = b / c / d; const re = /\\/*x/; const t = a++ / 2\nrequire('./after')\n"},
		{"js", "label: { import('./a') }\nconst o = { import: 1, require: 2 }\nconst v = o.import\nexport default require('./b')\n"},
		{"css", "@import 'a.css';\n@import url(\"b.css\") layer(x);\n.a { background: url(c.png) } /* url(no.png) */ .b { content: 'url(no2.png)' }\n"},
	}
	var l specs.Lexer
	for _, in := range inputs {
		want, ok := esbuildImports(t, in.src, in.loader)
		if !ok {
			t.Errorf("esbuild rejects %q", in.src)
			continue
		}
		var refs []specs.Ref
		if in.loader == "css" {
			refs = specs.ScanCSS([]byte(in.src), 0, "css", nil)
		} else {
			refs, _ = l.Scan([]byte(in.src), 0, strings.HasSuffix(in.loader, "x"), nil)
		}
		var got []string
		for _, r := range refs {
			if r.Kind != specs.TypeImport {
				got = append(got, in.src[r.Start:r.End])
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: lexer %q, esbuild %q\n%s", in.loader, got, want, in.src)
		}
	}
}
