// Package node holds helpers over the config's syntax nodes (ast.Node)
// that several rules share: what an array element, an extends value or an
// expression is. Rules take them from here rather than from one another's
// files, so that each rule file can be read, moved or deleted alone.
package node

import (
	"github.com/fwmigrate/fwmigrate/ast"
)

// IsSpread reports whether element i of a is written `...x`.
func IsSpread(a *ast.Array, i int) bool {
	for _, s := range a.Spreads {
		if s == i {
			return true
		}
	}
	return false
}

// CommaExpression reports whether n is a comma (sequence) expression,
// parentheses and type wrappers seen through: (a, b).
func CommaExpression(n ast.Node) bool {
	e, ok := ast.Unwrap(n).(*ast.Expr)
	return ok && e.Hint == ast.HintSequence
}

// ExtendsSources returns the source nodes of an extends or theme value: the
// value itself, or the elements of an array, an element that is a
// [source, options] tuple giving its first element.
func ExtendsSources(v ast.Node) []ast.Node {
	arr, ok := ast.Unwrap(v).(*ast.Array)
	if !ok {
		return []ast.Node{v}
	}
	var out []ast.Node
	for i, e := range arr.Elements {
		if e == nil || IsSpread(arr, i) {
			continue
		}
		if t, ok := ast.Unwrap(e).(*ast.Array); ok {
			if len(t.Elements) > 0 && !IsSpread(t, 0) && t.Elements[0] != nil {
				out = append(out, t.Elements[0])
			}
			continue
		}
		out = append(out, e)
	}
	return out
}
