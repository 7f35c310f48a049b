package ast_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fwmigrate/fwmigrate/ast"
)

var writeSeeds = flag.Bool("fuzzseeds", false, "rewrite testdata/fuzz/FuzzParse from the corpus and the table tests")

// FuzzParse: no input panics or hangs ParseUnchecked or Parse; when Parse
// succeeds, the span and comment invariants hold; and the parser accepts
// what esbuild accepts (but for the depth limit). With -short, inputs
// longer than 4 KB are skipped: the corpus seeds, which TestCorpus parses
// too, and which get none of the span and comment checks.
func FuzzParse(f *testing.F) {
	f.Add([]byte("export default defineFwConfig({ a: 1 })"), true)
	f.Fuzz(func(t *testing.T, src []byte, ts bool) {
		if testing.Short() && len(src) > 4096 {
			t.Skip("a long input: not with -short")
		}
		name := "fw.config.js"
		if ts {
			name = "fw.config.ts"
		}
		timer := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("hang on %q", src)) })
		defer timer.Stop()
		uf, uerr := ast.ParseUnchecked(name, src)
		if uerr == nil {
			for _, c := range uf.Comments {
				if c.Loc.Start < 0 || c.Loc.End > len(src) || c.Loc.Start >= c.Loc.End {
					t.Fatalf("comment span %v", c.Loc)
				}
			}
		} else {
			var se *ast.SyntaxError
			if !errors.As(uerr, &se) || se.Line < 1 || se.Column < 1 || se.Offset < 0 || se.Offset > len(src) {
				t.Fatalf("ParseUnchecked error %v", uerr)
			}
		}
		pf, err := ast.Parse(name, src)
		if err != nil {
			var se *ast.SyntaxError
			if errors.As(err, &se) && (se.Messages != nil || strings.Contains(se.Text, "Too deeply nested")) {
				return // esbuild's error, or the depth limit
			}
			t.Fatalf("esbuild accepts the input but the parser does not: %v", err)
		}
		if len(src) > 4096 {
			return // the checks below are for inputs of a readable size
		}
		for _, e := range checkSpans(pf) {
			t.Error(e)
		}
		for _, e := range checkComments(pf) {
			t.Error(e)
		}
	})
}

// FuzzParseUnchecked runs the parser alone, far faster than FuzzParse
// (esbuild runs only on what the parser rejects): no panic or hang, errors
// with positions, spans inside the source, nothing rejected that esbuild
// accepts, and File.Code the tree ReadCode reads.
func FuzzParseUnchecked(f *testing.F) {
	f.Add([]byte("export default defineFwConfig({ a: 1 })"), true)
	f.Fuzz(func(t *testing.T, src []byte, ts bool) {
		name := "fw.config.js"
		if ts {
			name = "fw.config.ts"
		}
		timer := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("hang on %q", src)) })
		defer timer.Stop()
		pf, err := ast.ParseUnchecked(name, src)
		if err != nil {
			var se *ast.SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Column < 1 || se.Offset < 0 || se.Offset > len(src) {
				t.Fatalf("error %v", err)
			}
			// What the parser rejects, esbuild must reject too.
			if len(src) <= 4096 && !strings.Contains(se.Text, "Too deeply nested") && ast.Validate(name, src) == nil {
				t.Fatalf("esbuild accepts the input but the parser does not: %v", err)
			}
			return
		}
		// One grammar: the config's code tree is the one ReadCode reads.
		if len(src) <= 4096 {
			rc, err := ast.ReadCode(name, src)
			if err != nil || treeText(rc.Scripts[0].Program) != treeText(pf.Code().Scripts[0].Program) {
				t.Fatalf("File.Code differs from ReadCode (%v)", err)
			}
		}
		if pf.ExportValue == nil {
			return
		}
		visit(pf.ExportValue, func(p *ast.Property) {
			if p.Loc.Start < 0 || p.Loc.Start > p.Loc.End || p.Loc.End > len(src) {
				t.Fatalf("property span %v", p.Loc)
			}
		}, func(n ast.Node) {
			if s := n.Span(); s.Start < 0 || s.Start > s.End || s.End > len(src) {
				t.Fatalf("node span %v", s)
			}
		})
		pf.Walk(func(ast.Path, *ast.Property) bool { return true })
		ast.Static(pf.ExportValue)
		if pf.Config != nil {
			for _, p := range pf.Config.Props {
				if e := p.Extent(pf); e.Start < 0 || e.Start > e.End || e.End > len(src) {
					t.Fatalf("extent %v", e)
				}
			}
		}
	})
}

// TestFuzzSeeds writes the seed corpus with -fuzzseeds, and otherwise checks
// that it is there.
func TestFuzzSeeds(t *testing.T) {
	dirs := []string{filepath.Join("testdata", "fuzz", "FuzzParse"), filepath.Join("testdata", "fuzz", "FuzzParseUnchecked")}
	if !*writeSeeds {
		for _, dir := range dirs {
			entries, err := os.ReadDir(dir)
			if err != nil || len(entries) < 50 {
				t.Fatalf("seed corpus %s: %d entries, %v (regenerate with -fuzzseeds)", dir, len(entries), err)
			}
		}
		return
	}
	write := func(name string, src []byte, ts bool) {
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%s)\nbool(%t)\n", strconv.Quote(string(src)), ts)
		for _, dir := range dirs {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range corpusConfigs(t) {
		name := strings.NewReplacer("/", "_", ".txtar", "").Replace(c.id)
		write("corpus_"+name, c.src, isTS(c.name))
	}
	snippets := []string{
		"export default { a: /[/}]+,\\//g, b: (x) / 2 / y }",
		"export default { a() { if (x) /}/.test(y); return 1 / 2 }, b: 1 }",
		"export default { a: `${ {a: '}'}.a }`, b: `x${`}${'`'}`}` }",
		"export default { // it's a } brace\n  a: 1, /* \"}\" ' */\n  b: 2, // `\n}\n",
		"export default { a: f<T>(x), b: a < b, c: d > (e), g: h<i, j>(k), l: x as Array<Array<number>> }",
		"export default { a: <T,>(x: T) => x, b: c ? (x): T => x : (y) => y, d: (x?: number, y?) => x }",
		"export default { a: x as T extends U ? V : W, b: f as (x: number) => void }",
		"const config = { a: 1 }\nconfig.b = 2\nif (x) { config.c.push(1) }\nObject.assign(config, {})\nexport default config\n",
		"export default defineFwConfig(() => {\n  const x = f(/}/)\n  return { a: x }\n})\n",
		"module.exports = { a: require('x'), ...b, [c]: d, get e() { return 1 }, async *f() {} }",
		"\uFEFFexport default {\r\n\ta: 'é😀',\r\n}",
		"export default { 'k': 0x10, 1.5: 1_000n, \\u0061: .5e-3, b: -Infinity, c: !x, d: typeof y, e: await z }",
		"declare module 'x' { interface Y { a: string } }\ntype U = { x: '}' } | `a${string}`\nenum E { A = 1 }\nexport default {}",
		"export default withMatrix({ a: 1 })",
		"export default async () => ({ a: 1 })",
		"export default async () => {\n  const r = await g()\n  const c = defineFwConfig({ a: r, d: { x: 1 } })\n  c.d.y = [1]\n  Object.assign(c, { e: 2 });\n  return c\n}\n",
		"const c = { a: { b: {} }, ...s }\nc.a.b.c = 1\nc['a'][\"b\"] = { d: 2 }\nc.x.y = 1\nc[k] = 2\nc.z = 3, f()\nexport default c\nc.late = { ok: true }\n",
		"export default defineFwConfig(function (p) {\n  for (;;) { return { a: 1 } }\n  return p\n})\n",
	}
	for i, s := range snippets {
		write(fmt.Sprintf("snippet_%02d", i), []byte(s), true)
	}
}
