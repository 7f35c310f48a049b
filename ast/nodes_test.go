package ast_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
)

// valueOf parses `export default { k: <value> }` and returns the value.
func valueOf(t *testing.T, file, value string) (*ast.File, ast.Node) {
	t.Helper()
	f := mustParse(t, file, "export default {\n  k: "+value+",\n  after: 1,\n}\n")
	if f.Config == nil || len(f.Config.Props) != 2 {
		t.Fatalf("config: %v", f.Reason)
	}
	v := f.Config.Props[0].Value
	if got := f.Text(v.Span()); got != value {
		t.Fatalf("value span %q, want %q", got, value)
	}
	return f, v
}

func TestValues(t *testing.T) {
	tests := []struct {
		file  string
		value string
		kind  ast.Kind
		hint  string
		want  any // the Static value, or nil when not static
	}{
		{value: `'a'`, kind: ast.KindString, want: "a"},
		{value: `"a\nb"`, kind: ast.KindString, want: "a\nb"},
		{value: `'\x41\u0042\u{43}\0\'\"\\'`, kind: ast.KindString, want: "ABC\x00'\"\\"},
		{value: "'line \\\ncontinued'", kind: ast.KindString, want: "line continued"},
		{value: "'crlf \\\r\ncontinued'", kind: ast.KindString, want: "crlf continued"},
		{value: `'\uD83D\uDE00 é'`, kind: ast.KindString, want: "😀 é"},
		{value: `'\b\f\v\t\r'`, kind: ast.KindString, want: "\b\f\v\t\r"},
		{value: "`static ${'no'}`", kind: ast.KindTemplate},
		{value: "`static`", kind: ast.KindTemplate, want: "static"},
		{value: "`a\\u0041\\`b`", kind: ast.KindTemplate, want: "aA`b"},
		{value: "css`a`", kind: ast.KindTemplate},
		{value: "`${ {a: '}'}.a }`", kind: ast.KindTemplate},
		{value: "`a${`b${c}`}d`", kind: ast.KindTemplate},
		{value: `0x10`, kind: ast.KindNumber, want: 16.0},
		{value: `0o17`, kind: ast.KindNumber, want: 15.0},
		{value: `0B11`, kind: ast.KindNumber, want: 3.0},
		{value: `1_000.5`, kind: ast.KindNumber, want: 1000.5},
		{value: `1e3`, kind: ast.KindNumber, want: 1000.0},
		{value: `.5`, kind: ast.KindNumber, want: 0.5},
		{value: `5.`, kind: ast.KindNumber, want: 5.0},
		{value: `10n`, kind: ast.KindNumber},
		{value: `0xFFFFFFFFFFFFFFFFFF`, kind: ast.KindNumber, want: 4.722366482869645e+21},
		{value: `true`, kind: ast.KindBoolean, want: true},
		{value: `false`, kind: ast.KindBoolean, want: false},
		{value: `null`, kind: ast.KindNull, want: nil},
		{value: `undefined`, kind: ast.KindIdent},
		{value: `isDev`, kind: ast.KindIdent},
		{value: `/a\/b[/}]+,/gi`, kind: ast.KindRegExp},
		{value: `-1`, kind: ast.KindUnary, want: -1.0},
		{value: `+2`, kind: ast.KindUnary, want: 2.0},
		{value: `-Infinity`, kind: ast.KindUnary},
		{value: `{ a: [1, 'x', { b: null }] }`, kind: ast.KindObject, want: map[string]any{"a": []any{1.0, "x", map[string]any{"b": nil}}}},
		{value: `[1, , 2]`, kind: ast.KindArray},
		{value: `[...a, 1]`, kind: ast.KindArray},
		{value: `{ ...a }`, kind: ast.KindObject},
		{value: `{ [k]: 1 }`, kind: ast.KindObject},
		{value: `{ m() {} }`, kind: ast.KindObject},
		{value: `'pre' as const`, kind: ast.KindExpr, hint: ast.HintAs, want: "pre"},
		{value: `({ a: 1 }) satisfies X`, kind: ast.KindExpr, hint: ast.HintSatisfies, want: map[string]any{"a": 1.0}},
		{value: `x!`, kind: ast.KindExpr, hint: ast.HintNonNull},
		{value: `<T>y`, kind: ast.KindExpr, hint: ast.HintTypeAssert},
		{value: `(1)`, kind: ast.KindExpr, hint: ast.HintParen, want: 1.0},
		{value: `f(1, ...rest)`, kind: ast.KindExpr, hint: ast.HintCall},
		{value: `f<string, Map<A, B>>(x)`, kind: ast.KindExpr, hint: ast.HintCall},
		{value: `a?.b?.[c]?.(d)`, kind: ast.KindExpr, hint: ast.HintCall},
		{value: `process.env.X`, kind: ast.KindExpr, hint: ast.HintMember},
		{value: `(x: number, y?: string): Map<A, B> => x`, kind: ast.KindExpr, hint: ast.HintArrow},
		{value: `<T,>(x: T) => x`, kind: ast.KindExpr, hint: ast.HintArrow},
		{value: `<T extends object>(x: T): T => ({ ...x })`, kind: ast.KindExpr, hint: ast.HintArrow},
		{value: `async (a, b) => { await a; return /}/ }`, kind: ast.KindExpr, hint: ast.HintArrow},
		{value: `async x => x`, kind: ast.KindExpr, hint: ast.HintArrow},
		{value: `x => y => x + y`, kind: ast.KindExpr, hint: ast.HintArrow},
		{value: `function named<T>(a: T): void { if (a) /re/.test('}') }`, kind: ast.KindExpr, hint: ast.HintFunction},
		{value: `async function* () {}`, kind: ast.KindExpr, hint: ast.HintFunction},
		{value: `class extends Base<T> implements I { x = '}' }`, kind: ast.KindExpr, hint: ast.HintClass},
		{value: `new URL('..', import.meta.url)`, kind: ast.KindExpr, hint: ast.HintNew},
		{value: `new Map<string, number>()`, kind: ast.KindExpr, hint: ast.HintNew},
		{value: `a ? b : c`, kind: ast.KindExpr, hint: ast.HintConditional},
		{value: `a ? (b) : (c)`, kind: ast.KindExpr, hint: ast.HintConditional},
		{value: `a ?? (b || c)`, kind: ast.KindExpr, hint: ast.HintBinary},
		{value: `a < b && c > d`, kind: ast.KindExpr, hint: ast.HintBinary},
		{value: `x as 'a' | 'b' ?? 'a'`, kind: ast.KindExpr, hint: ast.HintBinary},
		{value: `a ** b ** c`, kind: ast.KindExpr, hint: ast.HintBinary},
		{value: `'k' in o`, kind: ast.KindExpr, hint: ast.HintBinary},
		{value: `o instanceof C`, kind: ast.KindExpr, hint: ast.HintBinary},
		{value: `a ||= b`, kind: ast.KindExpr, hint: ast.HintAssign},
		{value: `await x`, kind: ast.KindExpr, hint: ast.HintUnary},
		{value: `typeof x === 'string'`, kind: ast.KindExpr, hint: ast.HintBinary},
		{value: `!x`, kind: ast.KindExpr, hint: ast.HintUnary},
		{value: `void 0`, kind: ast.KindExpr, hint: ast.HintUnary},
		{value: `(a, b)`, kind: ast.KindExpr, hint: ast.HintParen},
		{value: `import('x')`, kind: ast.KindExpr, hint: ast.HintCall},
		{value: `a[0].b<T>`, kind: ast.KindExpr, hint: ast.HintOther},
		{value: `(x) / 2 / y`, kind: ast.KindExpr, hint: ast.HintBinary},
		{value: `f(/}/, '/*', "//")`, kind: ast.KindExpr, hint: ast.HintCall},
		{file: "fw.config.js", value: `a < b > c`, kind: ast.KindExpr, hint: ast.HintBinary},
		{file: "fw.config.js", value: `x => ({ a: /,/ })`, kind: ast.KindExpr, hint: ast.HintArrow},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			file := tt.file
			if file == "" {
				file = "fw.config.ts"
			}
			_, v := valueOf(t, file, tt.value)
			if v.Kind() != tt.kind {
				t.Fatalf("kind %v, want %v", v.Kind(), tt.kind)
			}
			if e, ok := v.(*ast.Expr); ok && e.Hint != tt.hint {
				t.Errorf("hint %q, want %q", e.Hint, tt.hint)
			}
			got, bad := ast.Static(v)
			if tt.want == nil && tt.kind != ast.KindNull {
				if bad == nil {
					t.Errorf("Static = %#v, want not static", got)
				}
				return
			}
			if bad != nil {
				t.Fatalf("not static at %T %v", bad, bad.Span())
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Static = %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestNodeDetails(t *testing.T) {
	_, v := valueOf(t, "fw.config.ts", `"double"`)
	if s := v.(*ast.String); s.Quote != ast.QuoteDouble || s.Value != "double" {
		t.Errorf("string %#v", s)
	}
	_, v = valueOf(t, "fw.config.ts", `'single'`)
	if s := v.(*ast.String); s.Quote != ast.QuoteSingle {
		t.Errorf("string %#v", s)
	}
	_, v = valueOf(t, "fw.config.ts", `/a\/b[/}]+,/gi`)
	if r := v.(*ast.RegExp); r.Pattern != `a\/b[/}]+,` || r.Flags != "gi" {
		t.Errorf("regexp %#v", r)
	}
	_, v = valueOf(t, "fw.config.ts", `12_3n`)
	if n := v.(*ast.Number); !n.IsBigInt || n.Raw != "12_3n" || n.Value != 123 {
		t.Errorf("bigint %#v", n)
	}
	f, v := valueOf(t, "fw.config.ts", "css`a${b}`")
	if tp := v.(*ast.Template); tp.Static || f.Text(tp.Tag) != "css" {
		t.Errorf("template %#v", tp)
	}
	_, v = valueOf(t, "fw.config.ts", `-x`)
	if u := v.(*ast.Unary); u.Op != '-' || u.Operand.(*ast.Ident).Name != "x" {
		t.Errorf("unary %#v", u)
	}
	f, v = valueOf(t, "fw.config.ts", `[1, , ...rest, ]`)
	a := v.(*ast.Array)
	if len(a.Elements) != 3 || a.Elements[1] != nil || !reflect.DeepEqual(a.Spreads, []int{2}) || !a.TrailingComma || f.Text(a.Elements[2].Span()) != "rest" {
		t.Errorf("array %#v", a)
	}
	f, v = valueOf(t, "fw.config.ts", `new Foo(1, 2)`)
	if e := v.(*ast.Expr); f.Text(e.Callee) != "Foo" || len(e.Args) != 2 {
		t.Errorf("new %#v", e)
	}
	if _, v = valueOf(t, "fw.config.ts", `NaN`); v.(*ast.Ident).Name != "NaN" {
		t.Errorf("ident %#v", v)
	}
	if _, v = valueOf(t, "fw.config.ts", `0.1 + 0.2`); v.(*ast.Expr).Hint != ast.HintBinary {
		t.Errorf("binary %#v", v)
	}
	if v, ok := ast.Decode(`\101\8\0`, false); !ok || v != "A8\x00" {
		t.Errorf("legacy octal: %q", v)
	}
	if _, ok := ast.Decode(`\1`, true); ok {
		t.Errorf("octal escape in a template decoded")
	}
	if n := numberValue(t, "017"); n != 15 {
		t.Errorf("017 = %v", n)
	}
	if n := numberValue(t, "1e400"); !math.IsInf(n, 1) {
		t.Errorf("1e400 = %v", n)
	}
}

func TestProperties(t *testing.T) {
	src := `export default {
  plain: 1,
  'quoted-key': 2,
  "dq": 3,
  0x10: 4,
  1.50: 5,
  7n: 6,
  [computed]: 7,
  shorthand,
  method() { return '}' },
  async asyncMethod() {},
  *gen() {},
  async *agen() {},
  get getter() { return 1 },
  set setter(v) {},
  get: 8,
  set() {},
  async: 9,
  ...spread,
  default: 10,
  if: 11,
  café: 12,
  ünï: 'çödé',
  \u0061bc: 13,
  'esc\x41pe': 14,
  generic<T>(x: T): T { return x },
}
`
	f := mustParse(t, "fw.config.ts", src)
	type want struct {
		key     string
		kind    ast.PropKind
		keyKind ast.KeyKind
		text    string
	}
	wants := []want{
		{"plain", ast.PropInit, ast.KeyIdent, "plain: 1"},
		{"quoted-key", ast.PropInit, ast.KeyString, "'quoted-key': 2"},
		{"dq", ast.PropInit, ast.KeyString, `"dq": 3`},
		{"16", ast.PropInit, ast.KeyNumber, "0x10: 4"},
		{"1.5", ast.PropInit, ast.KeyNumber, "1.50: 5"},
		{"7", ast.PropInit, ast.KeyNumber, "7n: 6"},
		{"", ast.PropInit, ast.KeyComputed, "[computed]: 7"},
		{"shorthand", ast.PropShorthand, ast.KeyIdent, "shorthand"},
		{"method", ast.PropMethod, ast.KeyIdent, "method() { return '}' }"},
		{"asyncMethod", ast.PropMethod, ast.KeyIdent, "async asyncMethod() {}"},
		{"gen", ast.PropMethod, ast.KeyIdent, "*gen() {}"},
		{"agen", ast.PropMethod, ast.KeyIdent, "async *agen() {}"},
		{"getter", ast.PropGetter, ast.KeyIdent, "get getter() { return 1 }"},
		{"setter", ast.PropSetter, ast.KeyIdent, "set setter(v) {}"},
		{"get", ast.PropInit, ast.KeyIdent, "get: 8"},
		{"set", ast.PropMethod, ast.KeyIdent, "set() {}"},
		{"async", ast.PropInit, ast.KeyIdent, "async: 9"},
		{"", ast.PropSpread, ast.KeyNone, "...spread"},
		{"default", ast.PropInit, ast.KeyIdent, "default: 10"},
		{"if", ast.PropInit, ast.KeyIdent, "if: 11"},
		{"café", ast.PropInit, ast.KeyIdent, "café: 12"},
		{"ünï", ast.PropInit, ast.KeyIdent, "ünï: 'çödé'"},
		{"abc", ast.PropInit, ast.KeyIdent, `\u0061bc: 13`},
		{"escApe", ast.PropInit, ast.KeyString, `'esc\x41pe': 14`},
		{"generic", ast.PropMethod, ast.KeyIdent, "generic<T>(x: T): T { return x }"},
	}
	if len(f.Config.Props) != len(wants) {
		t.Fatalf("%d props, want %d", len(f.Config.Props), len(wants))
	}
	for i, w := range wants {
		p := f.Config.Props[i]
		if p.Key != w.key || p.Kind != w.kind || p.KeyKind != w.keyKind || f.Text(p.Loc) != w.text {
			t.Errorf("prop %d: key %q kind %v keyKind %d text %q; want %+v", i, p.Key, p.Kind, p.KeyKind, f.Text(p.Loc), w)
		}
		if p.Parent != f.Config {
			t.Errorf("prop %d: parent", i)
		}
		if (p.Value == nil) != (p.Kind == ast.PropMethod || p.Kind == ast.PropGetter || p.Kind == ast.PropSetter) {
			t.Errorf("prop %d: value %v", i, p.Value)
		}
	}
	if v := f.Lookup("ünï"); v == nil || v.Value.(*ast.String).Value != "çödé" {
		t.Errorf("Lookup unicode: %v", v)
	}
	if f.Config.Get("16") == nil || !f.Config.HasSpread() {
		t.Errorf("Get/HasSpread")
	}
}

// TestLexicalTraps: each config must come out with exactly the keys listed.
func TestLexicalTraps(t *testing.T) {
	tests := []struct {
		name, file, src, keys string
	}{
		{"regex with slash brace comma", "", "export default { a: /[/}]+,\\//g, b: 1 }", "a,b"},
		{"regex after paren", "", "export default { a: f(/}/), b: 1 }", "a,b"},
		{"division after paren and ident", "", "export default { a: (x) / 2 / y, b: y / 2 / 1, c: a[0] / 2 }", "a,b,c"},
		{"regex in body after if", "", "export default { a() { if (x) /}/.test(y); return 1 / 2 }, b: 1 }", "a,b"},
		{"regex after block", "", "export default { a() { if (x) {} /}/.test(s) }, b: 1 }", "a,b"},
		{"division after object", "", "export default { a: () => { const z = {}.x / 2; return ({}) / 1 }, b: 1 }", "a,b"},
		{"regex after keyword", "", "export default { a() { return /}/ }, b() { return typeof /,/ }, c: 1 }", "a,b,c"},
		{"regex after case", "", "export default { a(x) { switch (x) { case /}/.source: return } }, b: 1 }", "a,b"},
		{"nested template", "", "export default { a: `${ {a: '}'}.a }`, b: `x${`}${'`'}`}`, c: 1 }", "a,b,c"},
		{"template in body", "", "export default { a() { return `}${ `{` }` }, b: 1 }", "a,b"},
		{"strings with comment starts", "", "export default { a: 'http://x/*}', b: \"}//\", c: '\\'}' }", "a,b,c"},
		{"comments with quotes and braces", "", "export default { // it's a } brace\n  a: 1, /* \"}\" ' */\n  b: 2, // `\n}\n", "a,b"},
		{"tabs", "", "export default {\n\ta: 1,\n\tb: {\n\t\tc: 2,\n\t},\n}\n", "a,b"},
		{"crlf", "", "export default {\r\n  a: 1, // x\r\n  b: 2,\r\n}\r\n", "a,b"},
		{"no final newline", "", "export default {\n  a: 1,\n}", "a"},
		{"bom", "", "\uFEFFexport default { a: 1 }", "a"},
		{"hashbang", "", "#!/usr/bin/env node\nexport default { a: 1 }", "a"},
		{"generic call vs compare", "", "export default { a: f<T>(x), b: a < b, c: d > (e), g: h<i, j>(k) }", "a,b,c,g"},
		{"greater-than split", "", "export default { a: x as Array<Array<number>>, b: 1 }", "a,b"},
		{"arrow generics", "", "export default { a: <T,>(x: T) => x, b: <const T extends string = 'x'>(y: T) => y }", "a,b"},
		{"conditional with arrow", "", "export default { a: c ? (x): T => x : (y) => y, b: c ? (d) : e }", "a,b"},
		{"optional params", "", "export default { a: (x?: number, y?) => x, b: 1 }", "a,b"},
		{"function type in cast", "", "export default { a: f as (x: number) => void, b: g as { c: '}' }, d: 1 }", "a,b,d"},
		{"conditional type in cast", "", "export default { a: x as T extends U ? V : W, b: 1 }", "a,b"},
		{"asi after arrow body", "", "export default { a: () => {}, b: 1 }", "a,b"},
		{"unicode escapes and values", "", "export default { 'ключ': 'значение', k2: '😀' }", "ключ,k2"},
		{"js keywords as keys", "fw.config.js", "export default { new: 1, class: 2, function: 3, typeof: 4, in: 5 }", "new,class,function,typeof,in"},
		{"line terminator in template", "", "export default { a: `line1\nline2`, b: 1 }", "a,b"},
		{"regex class with slash after paren", "", "export default { a: [/[/]/, /\\//], b: 1 }", "a,b"},
		{"decorated class", "", "export default { a: @dec class {}, b: 1 }", "a,b"},
		{"private in", "", "export default { a: class { #x = 1; m(o) { return #x in o } }, b: 1 }", "a,b"},
		{"getter named get", "", "export default { get get() { return 1 }, set set(v) {} }", "get,set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := tt.file
			if file == "" {
				file = "fw.config.ts"
			}
			f := mustParse(t, file, tt.src)
			if f.Config == nil {
				t.Fatalf("Config nil: %s", f.Reason)
			}
			var keys []string
			for _, p := range f.Config.Props {
				keys = append(keys, p.Key)
			}
			if got := strings.Join(keys, ","); got != tt.keys {
				t.Errorf("keys %q, want %q", got, tt.keys)
			}
		})
	}
}

// numberValue is the value the parser gives the numeric literal raw (read
// without the esbuild gate, which refuses legacy octal in a module).
func numberValue(t *testing.T, raw string) float64 {
	t.Helper()
	f, err := ast.ParseUnchecked("fw.config.js", []byte("export default { k: "+raw+" }\n"))
	if err != nil || f.Config == nil || len(f.Config.Props) != 1 {
		t.Fatalf("%s: %v", raw, err)
	}
	n, ok := f.Config.Props[0].Value.(*ast.Number)
	if !ok || n.Raw != raw {
		t.Fatalf("%s: value %#v", raw, f.Config.Props[0].Value)
	}
	return n.Value
}
