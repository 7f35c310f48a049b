package ast_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/appgen"
)

// dumpCode lists "kind text" for every node of every script and template
// expression: a node's text is its span, so the lists pin exact spans.
func dumpCode(c *ast.Code) []string {
	var out []string
	add := func(root *ast.JSNode) {
		ast.WalkJS(root, func(n *ast.JSNode, _ []*ast.JSNode) bool {
			out = append(out, n.Kind.String()+" "+c.Text(n.Loc))
			return true
		})
	}
	for _, s := range c.Scripts {
		add(s.Program)
	}
	if c.Template != nil {
		for _, x := range c.Template.Exprs {
			for _, a := range x.Aliases {
				add(a)
			}
			add(x.Node)
		}
	}
	return out
}

// checkTree reports spans outside the source, children outside their
// parent, and siblings out of order or overlapping.
func checkTree(c *ast.Code) []string {
	var errs []string
	check := func(root *ast.JSNode) {
		ast.WalkJS(root, func(n *ast.JSNode, anc []*ast.JSNode) bool {
			if n.Loc.Start < 0 || n.Loc.End > len(c.Src) || n.Loc.Start > n.Loc.End {
				errs = append(errs, fmt.Sprintf("%v span %v out of %d bytes", n.Kind, n.Loc, len(c.Src)))
			}
			if len(anc) > 0 {
				p := anc[len(anc)-1]
				if n.Loc.Start < p.Loc.Start || n.Loc.End > p.Loc.End {
					errs = append(errs, fmt.Sprintf("%v %v outside its parent %v %v", n.Kind, n.Loc, p.Kind, p.Loc))
				}
			}
			kids := children(n, nil)
			strict := true
			for i := 1; i < len(kids); i++ {
				if kids[i].Loc.Start < kids[i-1].Loc.End {
					errs = append(errs, fmt.Sprintf("children of %v overlap: %v %v, %v %v", n.Kind, kids[i-1].Kind, kids[i-1].Loc, kids[i].Kind, kids[i].Loc))
				}
				strict = strict && kids[i].Loc.Start > kids[i-1].Loc.Start
			}
			// Children apart in the source come in their kind's order:
			// the walk does not sort them.
			if _, ok := kindChildren(n, nil); strict && !ok {
				errs = append(errs, fmt.Sprintf("children of %v %v are not in its kind's order", n.Kind, n.Loc))
			}
			return true
		})
	}
	for _, s := range c.Scripts {
		check(s.Program)
	}
	if c.Template != nil {
		for _, x := range c.Template.Exprs {
			check(x.Node)
		}
	}
	return errs
}

func TestReadCodeShapes(t *testing.T) {
	tests := []struct {
		name, file, src string
		want            []string // "kind text" that must be among the nodes
	}{
		{"destructuring", "a.ts", "const { data: d, error = null, ...rest } = await useFetch<Post[]>('/api', { key: 'k' })",
			[]string{"var const { data: d, error = null, ...rest } = await useFetch<Post[]>('/api', { key: 'k' })",
				"object { data: d, error = null, ...rest }", "property data: d", "ident d", "default error = null", "spread ...rest",
				"await await useFetch<Post[]>('/api', { key: 'k' })", "call useFetch<Post[]>('/api', { key: 'k' })",
				"ident useFetch", "string '/api'", "property key: 'k'"}},
		{"array pattern", "a.js", "let [a, , b = 1, ...c] = x", []string{"array [a, , b = 1, ...c]", "default b = 1", "spread ...c"}},
		{"members", "a.ts", "x = a?.b['c'].d!.e?.[f]", []string{"member a?.b", "member a?.b['c']", "member a?.b['c'].d!.e", "member a?.b['c'].d!.e?.[f]"}},
		{"assign ops", "a.js", "a ||= 1; b.c += 2; d **= 3; [e, f] = [f, e]; ({ g } = h)",
			[]string{"assign a ||= 1", "assign b.c += 2", "assign d **= 3", "assign [e, f] = [f, e]", "assign { g } = h"}},
		{"update unary", "a.js", "data.value.n++; --x; delete data.value.x; typeof e === 'string'; !ok",
			[]string{"update data.value.n++", "update --x", "unary delete data.value.x", "binary typeof e === 'string'", "unary typeof e", "unary !ok"}},
		{"functions", "a.ts", "export function useX<T>(a: T, { b }: O = {}): R { return useAsyncData(() => $fetch(a)) }\nconst f = async (x?: number) => x ?? 1",
			[]string{"export export function useX<T>(a: T, { b }: O = {}): R { return useAsyncData(() => $fetch(a)) }",
				"function function useX<T>(a: T, { b }: O = {}): R { return useAsyncData(() => $fetch(a)) }",
				"default { b }: O = {}", "return return useAsyncData(() => $fetch(a))", "arrow () => $fetch(a)",
				"arrow async (x?: number) => x ?? 1", "binary x ?? 1"}},
		{"generic arrows", "a.ts", "const f = <T,>(x: T) => x; const g = <T>(y) => y; const h = <T>z",
			[]string{"arrow <T,>(x: T) => x", "arrow <T>(y) => y", "ident z"}},
		{"tsx generic arrow and jsx", "a.tsx", "const f = <T,>(x: T) => <div className={x.cls} {...rest}>{x.items.map(i => <b key={i}>{i}</b>)} text's</div>",
			[]string{"arrow <T,>(x: T) => <div className={x.cls} {...rest}>{x.items.map(i => <b key={i}>{i}</b>)} text's</div>",
				"jsx <div className={x.cls} {...rest}>{x.items.map(i => <b key={i}>{i}</b>)} text's</div>",
				"property className={x.cls}", "member x.cls", "spread ...rest", "call x.items.map(i => <b key={i}>{i}</b>)", "jsx <b key={i}>{i}</b>"}},
		{"ts wrappers", "a.ts", "(data.value as Post[]).push(x satisfies P); y = <any>z; enum E { A } declare const q: number; interface I { a: string } type T = { b: 1 }",
			[]string{"call (data.value as Post[]).push(x satisfies P)", "member (data.value as Post[]).push", "member data.value", "ident x", "typedecl enum E { A }", "typedecl interface I { a: string }", "typedecl type T = { b: 1 }"}},
		{"classes and decorators", "a.ts", "@Component({}) class A extends B<C> implements D { @Prop() x?: string = 'a'; static y = 1; private z!: number; constructor(private s: S) { super() } get v() { return this.x } static { init() } [k: string]: any }",
			[]string{"class class A extends B<C> implements D { @Prop() x?: string = 'a'; static y = 1; private z!: number; constructor(private s: S) { super() } get v() { return this.x } static { init() } [k: string]: any }",
				"property x?: string = 'a'", "property static y = 1", "property constructor(private s: S) { super() }", "call super()", "property get v() { return this.x }", "block static { init() }"}},
		{"statements", "a.js", "lbl: for (const [k, v] of Object.entries(o)) { if (!k) continue lbl; else break }\nfor (let i = 0; i < n; i++) {}\nfor (k in o);\nwhile (x) x--\ndo { y() } while (z)\nswitch (a) { case 1: b(); default: c() }\ntry { t() } catch ({ message }) { m(message) } finally { f() }",
			[]string{"labeled lbl: for (const [k, v] of Object.entries(o)) { if (!k) continue lbl; else break }", "forin for (const [k, v] of Object.entries(o)) { if (!k) continue lbl; else break }",
				"continue continue lbl;", "for for (let i = 0; i < n; i++) {}", "forin for (k in o);", "while while (x) x--", "dowhile do { y() } while (z)",
				"case case 1: b();", "case default: c()", "catch catch ({ message }) { m(message) }", "object { message }"}},
		{"modules", "a.ts", "import def, { a as b, type T, 'c-d' as e } from './x'\nimport * as ns from 'y'\nimport 'side'\nexport { b as default, e }\nexport * from './z'\nexport default defineFwModule({ hooks: { 'pages:extend'(pages) { pages.push(p) } } })",
			[]string{"import import def, { a as b, type T, 'c-d' as e } from './x'", "specifier a as b", "ident b", "string './x'", "specifier * as ns",
				"export export { b as default, e }", "specifier b as default", "export export * from './z'", "property 'pages:extend'(pages) { pages.push(p) }", "call pages.push(p)"}},
		{"templates and regexps", "a.js", "const s = tag`a${b}c${`d${e}`}`; const r = /[/]`/g.test(x) ? 1 : 2",
			[]string{"template tag`a${b}c${`d${e}`}`", "template `d${e}`", "ident e", "regexp /[/]`/g", "cond /[/]`/g.test(x) ? 1 : 2"}},
		{"hooks", "a.ts", "fw.hook('builder:watch', (event, path) => { if (path.startsWith('pages/')) reload() })",
			[]string{"call fw.hook('builder:watch', (event, path) => { if (path.startsWith('pages/')) reload() })", "arrow (event, path) => { if (path.startsWith('pages/')) reload() }", "call path.startsWith('pages/')"}},
		{"json parse", "a.js", "const e = useError(); JSON.parse(e.value.data); new URL(x, import.meta.url)",
			[]string{"call JSON.parse(e.value.data)", "new new URL(x, import.meta.url)", "meta import.meta"}},
		{"parenthesised arrows as operands", "a.ts", ";(async () => { await 1 })()\nconst a = (() => 1)()\n;(() => {}).call(null)\nuseHead((() => ({ title })) as () => T)\nexport const f = ((x: number) => x) satisfies unknown\nconst z = useFetch('/x')",
			[]string{"call (async () => { await 1 })()", "arrow async () => { await 1 }", "call (() => 1)()", "arrow () => 1",
				"call (() => {}).call(null)", "member (() => {}).call", "call useHead((() => ({ title })) as () => T)", "arrow () => ({ title })",
				"arrow (x: number) => x", "call useFetch('/x')"}},
		{"an arrow's body takes what follows", "a.js", "const g = () => 1 + 2, h = x => x.y()",
			[]string{"arrow () => 1 + 2", "binary 1 + 2", "arrow x => x.y()", "call x.y()"}},
		{"hashbang and object methods", "a.mjs", "#!/usr/bin/env node\nexport default { async setup(o, fw) { await x }, get a() { return 1 }, *g() { yield 1 }, [k]: v, 1: 2 }",
			[]string{"property async setup(o, fw) { await x }", "await await x", "property get a() { return 1 }", "yield yield 1", "property [k]: v", "property 1: 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ast.ReadCode(tt.file, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			got := dumpCode(c)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("missing %q in\n%s", w, strings.Join(got, "\n"))
				}
			}
			for _, e := range checkTree(c) {
				t.Error(e)
			}
		})
	}
}

func TestReadCodeBindings(t *testing.T) {
	src := `import { useFetch } from '#app'
var hoisted = () => later
const { data: d, refresh: r } = await useFetch('/a')
const whole = useLazyFetch('/b')
function useX() { return useAsyncData('k', () => 1) }
const { data } = useX()
if (d.value === null) r({ dedupe: true })
whole.data.value.list.push(1)
{ let d = 1; d++ }
let later = 1
later = 2
;[later] = [3]
function shadow(d) { return d }
`
	c, err := ast.ReadCode("a.ts", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	b := c.Module.Bindings
	for _, name := range []string{"useFetch", "hoisted", "d", "r", "whole", "useX", "data", "later", "shadow"} {
		if b[name] == nil {
			t.Fatalf("no module binding %q", name)
		}
	}
	if k := b["useFetch"].Kind; k != ast.BindImport {
		t.Errorf("useFetch kind %v", k)
	}
	if got := b["d"].Path; !slices.Equal(got, []string{"data"}) {
		t.Errorf("d path %q", got)
	}
	if got := ast.CalleeName(b["d"].Init); got != "useFetch" {
		t.Errorf("d init callee %q", got)
	}
	// d: read at `d.value === null` only (the block's d and shadow's
	// parameter are other bindings).
	if n := len(b["d"].Refs); n != 1 {
		t.Errorf("d refs = %d", n)
	}
	if n := len(b["r"].Refs); n != 1 || !b["r"].Refs[0].Read {
		t.Errorf("r refs %v", b["r"].Refs)
	}
	// later: read in hoisted's arrow (declared after), written twice.
	var reads, writes int
	for _, ref := range b["later"].Refs {
		if ref.Read {
			reads++
		}
		if ref.Write {
			writes++
		}
	}
	if reads != 1 || writes != 2 {
		t.Errorf("later reads %d writes %d", reads, writes)
	}
	// One level of composable: useX returns useAsyncData(...).
	rets := ast.Returns(b["useX"].Decl)
	if len(rets) != 1 || ast.CalleeName(rets[0]) != "useAsyncData" {
		t.Errorf("useX returns %v", rets)
	}
	if ast.CalleeName(b["data"].Init) != "useX" {
		t.Errorf("data init %v", b["data"].Init)
	}
	// Globals.
	for _, ref := range c.Refs {
		if ref.Ident.Name == "useLazyFetch" && ref.Binding != nil {
			t.Errorf("useLazyFetch resolved to %v", ref.Binding)
		}
	}
}

func TestReadVue(t *testing.T) {
	src := "\uFEFF<script lang=\"ts\">\r\nexport default defineComponent({ name: 'X' })\r\n</script>\r\n" +
		"<script setup lang=\"ts\">\r\nconst { data, refresh } = await useFetch<Post[]>('/api')\r\nconst route = useRoute()\r\nconst n = route.meta.name\r\n</script>\r\n" +
		"<template>\r\n  <KeepAlive include=\"a,b\">\r\n    <div v-if=\"data === null\" v-for=\"(item, i) in data.list\" :key=\"item.id\" @click=\"data.n++; refresh()\">{{ item.name }}</div>\r\n" +
		"    <input v-model=\"data.x\" v-bind=\"attrs\">\r\n  </KeepAlive>\r\n  <Comp #default=\"{ row }\"><span :title=\"row.t\">{{ window.__FW__ }}</span></Comp>\r\n</template>\r\n<style scoped>\r\n.a { color: red }\r\n</style>\r\n"
	c, err := ast.ReadCode("p.vue", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Blocks) != 4 || len(c.Scripts) != 2 || !c.Scripts[1].Setup || !c.Scripts[1].TS {
		t.Fatalf("blocks %d scripts %d", len(c.Blocks), len(c.Scripts))
	}
	if got := c.Text(c.Scripts[0].Program.Loc); got != "\r\nexport default defineComponent({ name: 'X' })\r\n" {
		t.Errorf("first script %q", got)
	}
	data := c.Module.Bindings["data"]
	if data == nil || ast.CalleeName(data.Init) != "useFetch" {
		t.Fatalf("data binding %v", data)
	}
	var texts []string
	for _, ref := range data.Refs {
		texts = append(texts, fmt.Sprintf("%s@%d", c.Text(ref.Ident.Loc), c.Position(ref.Ident.Loc.Start).Line))
	}
	if want := []string{"data@11", "data@11", "data@11", "data@12"}; !slices.Equal(texts, want) {
		t.Errorf("data refs %q, want %q", texts, want)
	}
	root := c.Template.Root
	ka := root.Children[0]
	if ka.Tag != "KeepAlive" || ka.Attr("include") == nil || c.Text(ka.Attr("include").ValueLoc) != "a,b" {
		t.Fatalf("KeepAlive %+v", ka)
	}
	div := ka.Children[0]
	var dirs []string
	for _, a := range div.Attrs {
		dirs = append(dirs, a.Directive+":"+a.Arg)
	}
	if want := []string{"if:", "for:", "bind:key", "on:click"}; !slices.Equal(dirs, want) {
		t.Errorf("directives %q", dirs)
	}
	// item resolves to the v-for alias in the div's attributes and text.
	item := 0
	for _, ref := range c.Refs {
		if ref.Ident.Name == "item" {
			if ref.Binding == nil || ref.Binding.Kind != ast.BindTemplate {
				t.Errorf("item@%d unresolved", ref.Ident.Loc.Start)
			}
			item++
		}
		if ref.Ident.Name == "row" && (ref.Binding == nil || ref.Binding.Kind != ast.BindTemplate) {
			t.Errorf("row unresolved")
		}
		if ref.Ident.Name == "window" && ref.Binding != nil {
			t.Errorf("window resolved")
		}
	}
	if item != 2 {
		t.Errorf("item refs %d", item)
	}
	got := dumpCode(c)
	for _, w := range []string{"binary data === null", "member data.list", "update data.n++", "call refresh()", "member data.x", "member route.meta.name", "member window.__FW__", "object { row }"} {
		if !slices.Contains(got, w) {
			t.Errorf("missing %q", w)
		}
	}
	for _, e := range checkTree(c) {
		t.Error(e)
	}
}

func TestReadCodeErrors(t *testing.T) {
	tests := []struct{ file, src, text string }{
		{"a.ts", "const = 1", `Expected "identifier" but found "="`},
		{"a.js", "let x = (1 +", "Unexpected end of file"},
		{"a.js", "a b", `Expected ";" but found "b"`},
		{"a.js", "const s = 'open", "Unterminated string literal"},
		{"a.js", strings.Repeat("(", 5000), "Too deeply nested"},
		{"a.js", strings.Repeat("[", 5000), "Too deeply nested"},
		{"a.jsx", "x = <div><b></div>", "Expected closing tag </b>"},
		{"p.vue", "<script setup>\nconst a = \n</script>", "Unexpected end of file"},
		{"p.vue", "<template><p v-if=\"a ==\">x</p></template>", "Unexpected end of file"},
		{"p.vue", "<template><p v-for=\"a at b\"></p></template>", `Expected "in" or "of"`},
		{"p.vue", "<script lang=\"coffee\">x</script>", "does not read"},
		{"p.vue", "<script>const a = 1", "Unterminated block"},
	}
	for _, tt := range tests {
		_, err := ast.ReadCode(tt.file, []byte(tt.src))
		var se *ast.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: error %v, want a SyntaxError", tt.src, err)
			continue
		}
		if !strings.Contains(se.Text, tt.text) || se.Line < 1 || se.Offset < 0 || se.Offset > len(tt.src) {
			t.Errorf("%q: %v (offset %d), want %q", tt.src, err, se.Offset, tt.text)
		}
	}
}

func TestWalkJSDeep(t *testing.T) {
	// A member chain is built by a loop, not recursion: the walker must
	// not recurse either. (200,000 links; 50,000 with -short.)
	n := 200000
	if testing.Short() {
		n = 50000
	}
	src := "x = a" + strings.Repeat(".b", n)
	c, err := ast.ReadCode("a.js", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	visited := 0
	ast.WalkJS(c.Scripts[0].Program, func(*ast.JSNode, []*ast.JSNode) bool { visited++; return true })
	if visited < n {
		t.Errorf("visited %d, want %d or more", visited, n)
	}
}

// TestVForAliasList: `row, i in rows` (no parentheses), as the SFC compiler
// takes it: both aliases bind in the element, the source reads the outer
// scope, and the rest of the template is read.
func TestVForAliasList(t *testing.T) {
	src := "<script setup>\nconst rows = useRows()\n</script>\n<template>\n  <li v-for=\"row, i in rows\" :key=\"i\">{{ row.name }}</li>\n  <p v-if=\"rows === null\">none</p>\n</template>\n"
	c, err := ast.ReadCode("p.vue", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range c.Refs {
		switch ref.Ident.Name {
		case "row", "i":
			if ref.Binding == nil || ref.Binding.Kind != ast.BindTemplate {
				t.Errorf("%s@%d is not the v-for alias", ref.Ident.Name, ref.Ident.Loc.Start)
			}
		case "rows":
			if ref.Binding == nil || ref.Binding.Kind == ast.BindTemplate {
				t.Errorf("rows@%d does not resolve to the script's binding", ref.Ident.Loc.Start)
			}
		}
	}
	if got := dumpCode(c); !slices.Contains(got, "binary rows === null") {
		t.Errorf("the template after the v-for is not read:\n%s", strings.Join(got, "\n"))
	}
}

// TestChildOrder: in every tree of the generated apps, the corpus configs
// and the fuzz seeds, each node's children are in its kind's order
// (kindChildren), which the walk relies on instead of sorting, and the
// walk visits the same nodes in the same order as sorting each node's
// children did.
func TestChildOrder(t *testing.T) {
	var codes []*ast.Code
	for _, files := range []map[string][]byte{appgen.Dense(16), appgen.Files(64)} {
		for name, src := range files {
			c, err := ast.ReadCode(name, src)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			codes = append(codes, c)
		}
	}
	for _, cc := range corpusConfigs(t) {
		if f, err := ast.Parse(cc.name, cc.src); err == nil && f.Code() != nil {
			codes = append(codes, f.Code())
		}
	}
	for _, s := range codeSeeds {
		if c, _ := ast.ReadCode(codeModes[int(s.mode)%len(codeModes)].file, []byte(s.src)); c != nil {
			codes = append(codes, c)
		}
	}
	nodes := 0
	for _, c := range codes {
		var roots []*ast.JSNode
		for _, s := range c.Scripts {
			roots = append(roots, s.Program)
		}
		if c.Template != nil {
			for _, x := range c.Template.Exprs {
				roots = append(roots, x.Node)
			}
		}
		for _, root := range roots {
			var got []*ast.JSNode
			ast.WalkJS(root, func(n *ast.JSNode, _ []*ast.JSNode) bool {
				got = append(got, n)
				if _, ok := kindChildren(n, nil); !ok {
					t.Errorf("children of %v %v are not in its kind's order", n.Kind, n.Loc)
				}
				return true
			})
			// The walk as it was: children sorted on every visit.
			var want []*ast.JSNode
			var rec func(n *ast.JSNode)
			rec = func(n *ast.JSNode) {
				want = append(want, n)
				for _, k := range sortedChildren(n, nil) {
					rec(k)
				}
			}
			rec(root)
			if len(got) != len(want) {
				t.Fatalf("walk visits %d nodes, sorted children %d", len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("node %d: walk visits %v %v, sorted children %v %v", i, got[i].Kind, got[i].Loc, want[i].Kind, want[i].Loc)
				}
			}
			nodes += len(got)
		}
	}
	if nodes < 10000 {
		t.Errorf("only %d nodes checked", nodes)
	}
}
