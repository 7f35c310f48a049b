// # The code reader
//
// Besides config modules, package ast reads the project's application and
// module code, for the rules that point at the sites version 4 changes.
// It reads; it never edits, and it never runs esbuild (esbuild validates
// only the files an edit touches, when the edit is written).
//
//	c, err := ast.ReadCode(name, src) // .ts .js .mjs .cjs .mts .cts .tsx .jsx .vue
//
// A file it cannot read fully gives a *SyntaxError with the position (and
// whatever it could read): report it once, and never edit that file.
//
// What a rule writer uses:
//
//   - Code: Scripts (one per script file or <script> block), Blocks (a .vue
//     file's top-level blocks), Template, Module (the module scope), Refs
//     (every identifier reference, resolved), Position, Text.
//   - Script: Program (a JSNode tree; offsets are offsets in the file, also
//     in a .vue file), Setup, TS, JSX, Block.
//   - JSNode: Kind (JSCall, JSMember, JSAssign, ...; each kind's fields are
//     listed with its constant), Loc (exact span), X/Y/Z/List/Body, Op,
//     Name, NameLoc, Flags (Has). TypeScript-only syntax and parentheses
//     are not nodes, so expressions are seen through `as`, `!`, `<T>`.
//   - WalkJS(n, fn): every node in source order with its ancestors; fn
//     returns false to skip a subtree.
//   - Bindings: Scope (Lookup, Bindings), Binding (Kind, Ident, Decl, Init,
//     Path, Refs), Ref (Ident, Binding, Read, Write). JSNode.Resolve gives
//     an identifier's binding (nil: a global), Ref its reference,
//     DeclBinding the binding it declares.
//   - Helpers: CalleeName (`useFetch`, `fw.hook`), MemberPath
//     (`route.meta.name`), Unawait, Returns (a function's returned values).
//   - Templates: VueTemplate (Root, Exprs), Element (Tag, Attrs, Children,
//     Scope, Attr(name)), Attr (Name, Value, ValueLoc, Directive, Arg,
//     Modifiers, Expr), TemplateExpr (Node, Aliases, Element, Attr).
//     Template identifiers resolve against the <script setup> bindings and
//     the v-for aliases and slot props around them.
//   - SFCBlocks: the blocks of a .vue file without reading them.
//
// Following the result of a data composable to a strict comparison with
// null, in a script and in the template:
//
//	c, err := ast.ReadCode("pages/index.vue", src)
//	if err != nil { /* report once at info; do not edit the file */ }
//	for _, b := range c.Module.Bindings {
//		// const { data } = await useFetch(...)  ->  Init is the await,
//		// Path is [data]. (const r = useFetch(); r.data: Path nil, then
//		// follow r's Refs to the member `.data`.)
//		if ast.CalleeName(b.Init) != "useFetch" || len(b.Path) != 1 || b.Path[0] != "data" {
//			continue
//		}
//		for _, ref := range b.Refs {
//			// The script reads data.value; the template reads data.
//			// ref.Ident's parents come from WalkJS's stack, or match on
//			// spans: here, find `data.value === null` by walking.
//			_ = ref
//		}
//	}
//	for _, s := range c.Scripts {
//		ast.WalkJS(s.Program, func(n *ast.JSNode, stack []*ast.JSNode) bool {
//			if n.Kind != ast.JSBinary || n.Op != "===" || n.Y == nil || n.Y.Kind != ast.JSNull {
//				return true
//			}
//			x := n.X // data.value
//			if x.Kind == ast.JSMember && x.Name == "value" && x.X.Kind == ast.JSIdent {
//				if b := x.X.Resolve(); b != nil && ast.CalleeName(b.Init) == "useFetch" {
//					// report at n.Loc: `x === null` -> `x == null`
//				}
//			}
//			return true
//		})
//	}
//	// In the template the ref is unwrapped: v-if="data === null" is a
//	// JSBinary whose X is the JSIdent data, resolving to the same Binding.
//
// One grammar: the code reader is the package's only JavaScript parser.
// A config is read by it too (Parse, ParseUnchecked): File's nodes are a
// view of the code tree, and File.Code returns that tree as a Code, the
// same as ReadCode gives for the file, so a config is parsed once for both.
//
// What it covers: ES2024 statements and expressions, destructuring,
// classes (fields, accessors, static blocks, private names), modules,
// TypeScript (types, generics, `as`, `satisfies`, `!`, enums, declare,
// namespaces, interfaces, decorators, parameter properties), JSX, and
// .vue files (every block, CRLF and BOM included). What it does not: it
// keeps no comments (but a config's, in File.Comments); HTML entities in
// template attributes are not decoded; `<template lang="pug">` and
// non-JavaScript script languages are reported as not read; binding
// analysis is syntactic (no types, no `this` or `with` resolution, eval
// ignored).
package ast
