// Evaluates fw.config files for the semantic oracle test (oracle_test.go).
//
//   node eval.cjs ESBUILD_DIR MANIFEST.json
//
// MANIFEST is a JSON array of file paths. For each, the script strips the
// types with esbuild (from npm, installed in ESBUILD_DIR), runs the module
// with every import stubbed and defineFwConfig the identity, and prints the
// exported config as JSON: one {value} or {error} per file, in order.
// Functions are represented by their esbuild-minified source, so that a
// moved function compares equal whatever its indentation, while any change
// inside its template literals does not.
'use strict'
const fs = require('fs')
const path = require('path')
const esbuild = require(path.join(process.argv[2], 'node_modules', 'esbuild'))

// Stubs: any import, and anything read from or called on it, is a stub.
// esbuild's CommonJS interop copies a module's own properties onto a new
// object whose prototype is the module's: the stub's prototype answers
// every named import.
const stubs = new WeakSet()
const anyName = new Proxy({}, { get: (_, key) => typeof key === 'symbol' ? undefined : named(key) })
function named(key) {
  return key === 'defineFwConfig' ? (c) => c : stub()
}
function stub() {
  const p = new Proxy(function () {}, {
    get(target, key) {
      if (key === Symbol.toPrimitive) return () => 'stub'
      if (key === Symbol.iterator) return function* () {}
      if (key === 'then' || key === '__esModule' || typeof key === 'symbol') return undefined
      if (key === 'prototype') return target.prototype
      return named(key)
    },
    getPrototypeOf() { return anyName },
    apply() { return stub() },
    construct() { return stub() },
  })
  stubs.add(p)
  return p
}

// A run must not depend on the clock or on chance.
const RealDate = Date
global.Date = class extends RealDate {
  constructor(...a) { super(...(a.length ? a : [0])) }
  static now() { return 0 }
}
Math.random = () => 0.5

function minify(src) {
  for (const [open, close] of [['(', '\n)'], ['({', '\n})'], ['({ ', '\n})']]) {
    try {
      return esbuild.transformSync(open + src + close, { loader: 'ts', minifyWhitespace: true }).code
    } catch {}
  }
  return 'unparsable: ' + src
}

function ser(v, seen) {
  if (v === undefined) return { '\u0000': 'undefined' }
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v
  if (typeof v === 'number') return Number.isFinite(v) ? v : { '\u0000': 'number', v: String(v) }
  if (typeof v === 'bigint') return { '\u0000': 'bigint', v: String(v) }
  if (typeof v === 'symbol') return { '\u0000': 'symbol', v: String(v) }
  if (stubs.has(v)) return { '\u0000': 'stub' }
  if (typeof v === 'function') return { '\u0000': 'function', src: minify(Function.prototype.toString.call(v)) }
  if (v instanceof RegExp) return { '\u0000': 'regexp', v: String(v) }
  if (seen.has(v)) return { '\u0000': 'cycle' }
  seen.add(v)
  let out
  if (Array.isArray(v)) {
    out = []
    for (let i = 0; i < v.length; i++) out.push(i in v ? ser(v[i], seen) : { '\u0000': 'hole' })
  } else {
    out = {}
    for (const k of Object.keys(v)) out[k] = ser(v[k], seen)
  }
  seen.delete(v)
  return out
}

async function evaluate(file) {
  const ts = /\.[cm]?ts$/.test(file)
  const code = esbuild.transformSync(fs.readFileSync(file, 'utf8'), {
    loader: ts ? 'ts' : 'js', format: 'cjs', platform: 'node', logLevel: 'silent',
    // The same place for every file, so that before and after compare.
    define: { 'import.meta.url': JSON.stringify('file:///project/' + path.basename(file)) },
  }).code
  // Names the file uses without declaring them (a helper of the real
  // project, a fixture's placeholder) become global stubs, one by one.
  let mod
  for (let tries = 0; ; tries++) {
    mod = { exports: {} }
    const fn = new Function('require', 'module', 'exports', '__dirname', '__filename', 'defineFwConfig', code)
    try {
      fn(() => stub(), mod, mod.exports, '/project', '/project/' + path.basename(file), (c) => c)
      break
    } catch (e) {
      const m = e instanceof ReferenceError && /^(\S+) is not defined$/.exec(e.message)
      if (!m || tries > 20) throw e
      globalThis[m[1]] = stub()
    }
  }
  let cfg = mod.exports && mod.exports.__esModule ? mod.exports.default : mod.exports
  if (typeof cfg === 'function' && !stubs.has(cfg)) cfg = cfg()
  cfg = await cfg
  return ser(cfg, new Set())
}

async function main() {
  const files = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'))
  const out = []
  for (const f of files) {
    try {
      out.push({ value: await evaluate(f) })
    } catch (e) {
      out.push({ error: String(e && e.message || e) })
    }
  }
  process.stdout.write(JSON.stringify(out))
}
main()
