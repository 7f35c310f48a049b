package ast_test

import (
	"testing"
)

// TestValidSnippets: programs esbuild accepts must parse, with the
// invariants holding. Each exercises a construct the parser must get past.
func TestValidSnippets(t *testing.T) {
	ts := []string{
		"export default { a: async () => {}, b: async function () {}, c: async x => x }",
		"export default { a: a?.b!.c, b: f()!.x, c: a!?.[0] }",
		"export default { get [Symbol.iterator]() { return 1 }, 1_000: 'k', 1e21: 2 }",
		"declare namespace N { enum E { A } const x: number }\nexport default {}",
		"export default { a: import.meta.env.X, b: import.meta.url }",
		"export default { a: x satisfies { a: number }, b: y as unknown as B }",
		"export default { a: (x): x is string => true, b: (x: unknown): asserts x => {} }",
		"abstract class A { abstract m(): void }\nexport abstract class B {}\nexport default {}",
		"export default interface X { a: string }",
		"for await (const x of y) {}\nexport default {}",
		"label: { break label }\nexport default {}",
		"export default { a: a?.<T>(), b: g<string>, c: h<string>\n}",
		"export default { a: <const T,>() => {}, b: <T>(<U>x) }",
		"export default { a: f<(a: string) => void>(x), b: x as [a: string, b?: number] }",
		"export default { a: x as { [K in keyof T]?: T[K] }, b: x as `a${string}`, c: x as keyof typeof obj }",
		"export default { a: x as typeof import('x'), b: x as import('y').Z<W> }",
		"function f() { if (x) {}\n/foo/.test(y); return (a) / 2 + `//${a}/*` }\nexport default {}",
		"export default { a: a.default.if.class, b: new Foo.Bar, c: new Foo().x }",
		"export default { a: (-a) ** 2, b: a ? (b) => c : d, c: ({ a = 1, b: [c] }, ...rest) => a }",
		"export default { a: class extends mixin(A, B) {}, b: 'a' + 'b' + 'c' + 'd', ...(cond ? {} : { a: 1 }) }",
		"export { default as x } from 'x'\nexport { default as y } from 'z'\nimport json from './x.json' with { type: 'json' }\nexport default { json }",
		"export default { get, set, async, await: 1, static: 2, of: 3 }",
		"export default { a: `a` / 2, b: /[/]+/dv, c: x / y / z }",
		"export /*a*/ default /*b*/ { /*c*/ a /*d*/ : /*e*/ 1 /*f*/ , /*g*/ }",
		"export default { a: x => ({ b: 1 }), b: () => [1, 2], c: () => <T>y }",
		"export default { a: y ? z : w ? v : u, b: (a, b) => a + b }",
		"export default { a: typeof x === 'undefined' ? void 0 : delete x.y }",
		"export default { a: x ??= 1, b: x ||= 2, c: x &&= 3, d: x >>>= 1, e: x **= 2 }",
		"export default { a: a << 1 >> 2 >>> 3, b: a < b, c: a <= b >= c }",
		"export default { a: [,], b: [, ,], c: [1, , ], d: [...a, ...b] }",
		"export default { 'a-b': 1, \"c d\": 2, 0: 3, 0.5: 4, 0x1F: 5 }",
		"const x = 1;;\nexport default { x };",
		"export default { a: function* () { yield 1 }, b: async function* named() {} }",
		"export default { a: class { static {} #p = 1; get #q() { return 1 } static async *m() {} } }",
		"export default { a: @dec() @dec2 class {} }",
		"import x = require('y')\nimport type { Z } from 'z'\nimport { type A, B as C } from 'w'\nexport default { x }",
		"type T<U = string> = U extends string ? 'a' : 'b'\nexport type { T }\nexport default {}",
		"export const enum E { A }\nexport declare const d: number\nexport default {}",
		"export default { a: <T extends keyof U, V = T[]>(x: T, ...y: V[]): [T, ...V[]] => [x, ...y] }",
		"export default { a: (x?: number) => x, b: (x = 1, y: string = '') => y, c: ([a]: [number]) => a }",
		"export default { a: new Map<string, Array<() => void>>(), b: new (class {})() }",
		"export default { m<T>(this: Window, x: T): T { return x } }",
		"if (a) b(); else if (c) d(); else { e() }\ntry { f() } catch { g() } finally {}\nswitch (x) { case 1: { break } default: }\nwhile (x) x--\ndo x++; while (x < 3)\nexport default {}",
		"export default { a: x\n  ? y\n  : z, b: 1 }",
		"export default { a: await import('x'), b: await Promise.all([]) }",
	}
	for _, src := range ts {
		t.Run(src, func(t *testing.T) {
			f := mustParse(t, "fw.config.ts", src)
			if f.ExportValue == nil && f.Reason == "" {
				t.Errorf("no export and no reason")
			}
		})
	}
	js := []string{
		"export default { a: x < y > (z), b: async (a, b) => a }",
		"module.exports = { a() { return /}/ }, b: `${'`'}` }",
		"const path = require('path');\nmodule.exports = { srcDir: path.resolve(__dirname, 'src') };\n",
		"export default { a: function () { return this }, b: await x }",
	}
	for _, src := range js {
		t.Run(src, func(t *testing.T) {
			mustParse(t, "fw.config.js", src)
		})
	}
}
