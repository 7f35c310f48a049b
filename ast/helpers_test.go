package ast_test

import (
	"path"

	"github.com/fwmigrate/fwmigrate/ast"
)

// Helpers shared by the test files.

// isTS reports whether filename gets esbuild's TypeScript loader, as
// Validate decides: .js, .mjs and .cjs are JavaScript, everything else
// TypeScript.
func isTS(filename string) bool {
	switch path.Ext(filename) {
	case ".js", ".mjs", ".cjs":
		return false
	}
	return true
}

// short cuts s to 40 bytes for a message.
func short(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// The order of a JSNode's children, stated from its exported fields (the
// walk's, code.go, is unexported): kindChildren is its kind's order,
// sortedChildren the general order (X, Y, Z, List, Body sorted stably by
// start), children the one the walk takes.

// children appends n's children in source order: its kind's order when
// that is strictly increasing by start, else the general order.
func children(n *ast.JSNode, out []*ast.JSNode) []*ast.JSNode {
	if out, ok := kindChildren(n, out); ok {
		return out
	}
	return sortedChildren(n, out)
}

// kindChildren appends n's children in its kind's order; ok is false, and
// out unchanged, when they are not strictly increasing by start in it.
func kindChildren(n *ast.JSNode, out []*ast.JSNode) (_ []*ast.JSNode, ok bool) {
	base := len(out)
	switch {
	case n.Kind == ast.JSArrow && n.X == nil && n.Z == nil && len(n.Body) == 0: // parameters, body
		out = appendKids(out, n.List)
		out = appendKid(out, n.Y)
	case n.Kind == ast.JSFunction && n.Z == nil && len(n.Body) == 0: // name, parameters, body
		out = appendKid(out, n.X)
		out = appendKids(out, n.List)
		out = appendKid(out, n.Y)
	case n.Kind == ast.JSImport && n.Y == nil && n.Z == nil && len(n.Body) == 0: // specifiers, source
		out = appendKids(out, n.List)
		out = appendKid(out, n.X)
	case n.Kind == ast.JSExport && n.Z == nil && len(n.Body) == 0: // declaration or value, specifiers, source
		out = appendKid(out, n.X)
		out = appendKids(out, n.List)
		out = appendKid(out, n.Y)
	default:
		out = appendFields(n, out)
	}
	kids := out[base:]
	for i := 1; i < len(kids); i++ {
		if kids[i].Loc.Start <= kids[i-1].Loc.Start {
			return out[:base], false
		}
	}
	return out, true
}

// sortedChildren appends n's children in the general order: the fields
// X, Y, Z, List, Body, sorted stably by start.
func sortedChildren(n *ast.JSNode, out []*ast.JSNode) []*ast.JSNode {
	base := len(out)
	out = appendFields(n, out)
	kids := out[base:]
	for i := 1; i < len(kids); i++ {
		for j := i; j > 0 && kids[j].Loc.Start < kids[j-1].Loc.Start; j-- {
			kids[j], kids[j-1] = kids[j-1], kids[j]
		}
	}
	return out
}

func appendFields(n *ast.JSNode, out []*ast.JSNode) []*ast.JSNode {
	out = appendKid(out, n.X)
	out = appendKid(out, n.Y)
	out = appendKid(out, n.Z)
	out = appendKids(out, n.List)
	return appendKids(out, n.Body)
}

func appendKid(out []*ast.JSNode, c *ast.JSNode) []*ast.JSNode {
	if c != nil {
		out = append(out, c)
	}
	return out
}

func appendKids(out, list []*ast.JSNode) []*ast.JSNode {
	for _, c := range list {
		if c != nil {
			out = append(out, c)
		}
	}
	return out
}

// walkObject calls fn for every property of o at every depth, as
// File.Walk does from the config (api.go): object values, seen through
// Unwrap, are descended into unless fn returns false.
func walkObject(f *ast.File, o *ast.Object, prefix ast.Path, fn func(ast.Path, *ast.Property) bool) {
	for _, pr := range o.Props {
		p := append(prefix[:len(prefix):len(prefix)], f.Segment(pr))
		if !fn(p, pr) {
			continue
		}
		if child, ok := ast.Unwrap(pr.Value).(*ast.Object); ok {
			walkObject(f, child, p, fn)
		}
	}
}
