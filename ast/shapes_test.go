package ast_test

import (
	"strings"
	"testing"

	"github.com/fwmigrate/fwmigrate/ast"
)

func mustParse(t *testing.T, name, src string) *ast.File {
	t.Helper()
	f, err := ast.Parse(name, []byte(src))
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	for _, e := range checkSpans(f) {
		t.Error(e)
	}
	for _, e := range checkComments(f) {
		t.Error(e)
	}
	return f
}

func TestShapes(t *testing.T) {
	tests := []struct {
		name, file, src string
		keys            string // keys of the config, comma-separated
		binding         string
		define          bool
		export          ast.ExportKind
		reason          string // substring; the config is then nil
		mutations       int
	}{
		{name: "define", src: "export default defineFwConfig({ a: 1, b: 2 })", keys: "a,b", define: true, export: ast.ExportDefault},
		{name: "plain", src: "export default {\n  a: 1,\n}\n", keys: "a", export: ast.ExportDefault},
		{name: "define-binding", src: "const config = { a: 1 }\nexport default defineFwConfig(config)\n", keys: "a", binding: "config", define: true, export: ast.ExportDefault},
		{name: "binding-define", src: "const config = defineFwConfig({ a: 1 })\nexport default config\n", keys: "a", binding: "config", define: true, export: ast.ExportDefault},
		{name: "typed-binding", src: "import type { FwConfig } from 'fw/schema'\nconst config: FwConfig = { a: 1 }\nexport default config\n", keys: "a", binding: "config", export: ast.ExportDefault},
		{name: "typed-generic-binding", src: "let config: Record<string, Array<number>> = { a: [1] }\nexport default config\n", keys: "a", binding: "config", export: ast.ExportDefault},
		{name: "cjs", file: "fw.config.cjs", src: "const path = require('path')\nmodule.exports = {\n  a: path.resolve(__dirname, 'x'),\n}\n", keys: "a", export: ast.ExportModuleExports},
		{name: "cjs-in-js", file: "fw.config.js", src: "module.exports = { a: 1 };", keys: "a", export: ast.ExportModuleExports},
		{name: "cjs-define", file: "fw.config.ts", src: "module.exports = defineFwConfig({ a: 1 })", keys: "a", define: true, export: ast.ExportModuleExports},
		{name: "cjs-binding", file: "fw.config.cjs", src: "const c = { a: 1 }\nmodule.exports = c\n", keys: "a", binding: "c", export: ast.ExportModuleExports},
		{name: "ts-export-equals", file: "fw.config.cts", src: "export = { a: 1 }", keys: "a", export: ast.ExportModuleExports},
		{name: "as-const", src: "export default { a: 1 } as const", keys: "a", export: ast.ExportDefault},
		{name: "satisfies", src: "import type { FwConfig } from 'fw/schema'\nexport default {\n  a: 1,\n} satisfies FwConfig\n", keys: "a", export: ast.ExportDefault},
		{name: "type-args", src: "export default defineFwConfig<FwConfig>({ a: 1 })", keys: "a", define: true, export: ast.ExportDefault},
		{name: "nonnull", src: "let config = { a: 1 }\nexport default config!\n", keys: "a", binding: "config", export: ast.ExportDefault},
		{name: "parens", src: "export default ({ a: 1 })", keys: "a", export: ast.ExportDefault},
		{name: "wrappers-everywhere", src: "export default (defineFwConfig(({ a: 1 } as const) satisfies X)) as Y", keys: "a", define: true, export: ast.ExportDefault},
		{name: "binding-wrapped", src: "const config = ({ a: 1 }) as const satisfies Z\nexport default defineFwConfig(config as any)\n", keys: "a", binding: "config", define: true, export: ast.ExportDefault},
		{name: "typeassert", src: "export default <FwConfig>{ a: 1 }", keys: "a", export: ast.ExportDefault},
		{name: "arrow-expr", src: "export default defineFwConfig(() => ({ a: 1 }))", keys: "a", define: true, export: ast.ExportDefault},
		{name: "arrow-block", file: "fw.config.js", src: "export default defineFwConfig(() => {\n  const x = f(/}/)\n  return {\n    a: x,\n    b() { return 1 },\n  };\n});\n", keys: "a,b", define: true, export: ast.ExportDefault},
		{name: "function-returning-define", src: "export default defineFwConfig(function () { return defineFwConfig({ a: 1 }) })", keys: "a", define: true, export: ast.ExportDefault},
		{name: "bare-arrow", src: "export default () => ({ a: 1 })", keys: "a", export: ast.ExportDefault},
		{name: "bare-function", src: "export default function () {\n  return { a: 1 }\n}\n", keys: "a", export: ast.ExportDefault},
		{name: "statements-around", src: "import a from 'a'\nimport { b as c, type D } from \"b\"\nimport * as ns from 'ns'\ndeclare module 'x' {\n  interface Y { a: string }\n}\ninterface Z<T> extends Y { b: T }\ntype U = { x: '}' } | `a${string}`\nenum E { A = 1 }\nfunction f() { return {} }\nclass K<T> extends Base<T> implements I { m() { return /}/ } }\nif (a) { c() } else f()\nfor (const x of [1]) {}\nlabel: while (false) break label\nexport default defineFwConfig({ a: 1 })\nfunction g() { return 2 }\n", keys: "a", define: true, export: ast.ExportDefault},
		{name: "async-arrow", src: "export default defineFwConfig(async () => ({ a: 1 }))", keys: "a", export: ast.ExportDefault, define: true},
		{name: "async-factory", src: "export default async () => {\n  const r = await g()\n  return defineFwConfig({ a: r })\n}\n", keys: "a", export: ast.ExportDefault, define: true},
		{name: "async-function", src: "export default async function () {\n  const r = await g()\n  return { a: r, b: 1 }\n}\n", keys: "a,b", export: ast.ExportDefault},
		{name: "body-binding", src: "export default defineFwConfig(() => {\n  const c = { a: 1 }\n  c.b = 2\n  if (x) c.d = 3\n  return c\n  c.e = 4\n})\n", keys: "a,b", define: true, export: ast.ExportDefault, mutations: 2},
		{name: "body-returns-module-binding", src: "const c = { a: 1 }\nc.b = 2\nexport default () => {\n  return c\n}\n", keys: "a,b", binding: "c", export: ast.ExportDefault, mutations: 1},
		{name: "body-binding-define", src: "export default async () => {\n  const c = defineFwConfig({ a: 1 })\n  c.b = { x: 1 }\n  c.b.y = 2\n  return c\n}\n", keys: "a,b", define: true, export: ast.ExportDefault, mutations: 2},
		{name: "export-forms", src: "export const x = 1\nexport { x as y }\nexport * from 'z'\nexport type { T } from 't'\nexport function f() {}\nexport default { a: 1 }\n", keys: "a", export: ast.ExportDefault},

		{name: "call-result", src: "import { withMatrix } from './m'\nexport default withMatrix({ a: 1 })\n", reason: "calling withMatrix(...)", export: ast.ExportDefault},
		{name: "imported", src: "import config from './config'\nexport default config\n", reason: "imported from './config'", export: ast.ExportDefault},
		{name: "imported-define", src: "import { config } from './config'\nexport default defineFwConfig(config)\n", reason: "imported from './config'", export: ast.ExportDefault, define: true},
		{name: "conditional", src: "export default isDev ? { a: 1 } : { b: 2 }", reason: "conditional", export: ast.ExportDefault},
		{name: "function-declaration", src: "function overloaded(a: string): void\nfunction overloaded(a: any) {}\nasync function config() {\n  const r = await g()\n  return defineFwConfig({ a: r })\n}\nconfig.displayName = 'x'\nexport default config\n", keys: "a", define: true, export: ast.ExportDefault},
		{name: "function-variable", src: "const config = defineFwConfig(() => ({ a: 1 }))\nconst c = config\nc.b = 2\nconfig.d = 3\nexport default c\n", keys: "a", define: true, export: ast.ExportDefault},
		{name: "returns-function", src: "export default async () => {\n  return () => ({ a: 1 })\n}\n", reason: "returns a function", export: ast.ExportDefault},
		{name: "arrow-returns-param", src: "const c = { a: 1 }\nexport default defineFwConfig((c) => c)\n", reason: "binds or uses", export: ast.ExportDefault, define: true},
		{name: "arrow-returns-module-binding", src: "const c = { a: 1 }\nc.b = 2\nexport default defineFwConfig(() => c)\n", keys: "a,b", binding: "c", export: ast.ExportDefault, define: true, mutations: 1},
		{name: "returns-param", src: "export default defineFwConfig((c) => {\n  return c\n})\n", reason: "binds or uses", export: ast.ExportDefault, define: true},
		{name: "returns-module-binding-changed", src: "const c = { a: 1 }\nexport default () => {\n  c.b = 2\n  return c\n}\n", reason: "binds or uses", export: ast.ExportDefault},
		{name: "return-in-loop", src: "export default async () => {\n  for (const x of xs) {\n    return { a: 1 }\n  }\n}\n", reason: "single `return`", export: ast.ExportDefault},
		{name: "returns-call", src: "export default async () => {\n  return load()\n}\n", reason: "calling load(...)", export: ast.ExportDefault},
		{name: "two-returns", src: "export default defineFwConfig(() => {\n  if (x) return { a: 1 }\n  return { b: 2 }\n})\n", reason: "single `return`", export: ast.ExportDefault, define: true},
		{name: "unknown-ident", src: "export default config", reason: "not a top-level variable", export: ast.ExportDefault},
		{name: "no-export", src: "const x = { a: 1 }\n", reason: "no `export default`"},
		{name: "empty", src: "", reason: "the file is empty"},
		{name: "only-comments", src: "// nothing here\n", reason: "no `export default`"},
		{name: "class", src: "export default class {}", reason: "a class expression", export: ast.ExportDefault},
		{name: "string", src: "export default 'x'", reason: "a string", export: ast.ExportDefault},
		{name: "define-empty", src: "export default defineFwConfig()", reason: "without a config", export: ast.ExportDefault, define: true},

		{name: "mutations", file: "fw.config.js", src: "const config = { a: 1 }\nconfig.b = 2\nif (x) {\n  config.c.push(1)\n}\nObject.assign(config, { d: 1 })\nconsole.log(config)\ndelete config['e']\nconst other = { x: 1 }\nother.y = 2\nfunction setup() { config.z = 1 }\nexport default config\nconfig.late = true\n", keys: "a,b,d,late", binding: "config", export: ast.ExportDefault, mutations: 5},
		{name: "no-mutation-of-other", src: "const docs: any = { a: 1 }\nif (x) { docs.b = 2 }\nexport default defineFwConfig({ docs })\n", keys: "docs", define: true, export: ast.ExportDefault},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := tt.file
			if file == "" {
				file = "fw.config.ts"
			}
			f := mustParse(t, file, tt.src)
			if f.Export != tt.export {
				t.Errorf("Export = %d, want %d", f.Export, tt.export)
			}
			if tt.reason != "" {
				if f.Config != nil {
					t.Fatalf("Config found, want reason %q", tt.reason)
				}
				if !strings.Contains(f.Reason, tt.reason) {
					t.Errorf("Reason = %q, want %q", f.Reason, tt.reason)
				}
				if (f.DefineCall.Len() > 0) != tt.define {
					t.Errorf("DefineCall = %v, want define %v", f.DefineCall, tt.define)
				}
				return
			}
			if f.Config == nil {
				t.Fatalf("Config = nil: %s", f.Reason)
			}
			var keys []string
			for _, p := range f.Config.Props {
				keys = append(keys, p.Key)
			}
			if got := strings.Join(keys, ","); got != tt.keys {
				t.Errorf("keys = %q, want %q", got, tt.keys)
			}
			if f.Binding != tt.binding {
				t.Errorf("Binding = %q, want %q", f.Binding, tt.binding)
			}
			if (f.DefineCall.Len() > 0) != tt.define {
				t.Errorf("DefineCall = %v, want define %v", f.DefineCall, tt.define)
			}
			if tt.define && !strings.HasPrefix(f.Text(f.DefineCall), "defineFwConfig") {
				t.Errorf("DefineCall text %q", f.Text(f.DefineCall))
			}
			if len(f.Mutations) != tt.mutations {
				var ms []string
				for _, m := range f.Mutations {
					ms = append(ms, f.Text(m))
				}
				t.Errorf("Mutations = %q, want %d", ms, tt.mutations)
			}
			if fn := f.Function.Len() > 0; fn != (strings.Contains(tt.src, "=>") || strings.Contains(tt.src, "function (") || strings.Contains(tt.src, "function config")) {
				t.Errorf("Function = %v (%q)", f.Function, f.Text(f.Function))
			}
			if f.ExportSpan.Len() == 0 || f.ExportValue == nil || f.ExportValue.Span() != f.ExportSpan {
				t.Errorf("ExportSpan %v, ExportValue %v", f.ExportSpan, f.ExportValue)
			}
		})
	}
}

func TestCallResultKeepsArgs(t *testing.T) {
	f := mustParse(t, "fw.config.ts", "export default withMatrix({ a: 1 }, 2)")
	e, ok := f.ExportValue.(*ast.Expr)
	if !ok || e.Hint != ast.HintCall || len(e.Args) != 2 || f.Text(e.Callee) != "withMatrix" {
		t.Fatalf("ExportValue = %#v", f.ExportValue)
	}
	if o, ok := e.Args[0].(*ast.Object); !ok || o.Get("a") == nil {
		t.Errorf("Args[0] = %#v", e.Args[0])
	}
	if f.ReasonSpan != e.Loc {
		t.Errorf("ReasonSpan = %v, want %v", f.ReasonSpan, e.Loc)
	}
}
