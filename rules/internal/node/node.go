// Package node holds helpers over the config's syntax nodes (ast.Node)
// that several rules share: what an array element, an extends value or an
// expression is, and what a value is to the knowledge base's types. Rules take them from here rather than from one another's
// files, so that each rule file can be read, moved or deleted alone.
package node

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
)

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
		if e == nil || arr.IsSpread(i) {
			continue
		}
		if t, ok := ast.Unwrap(e).(*ast.Array); ok {
			if len(t.Elements) > 0 && !t.IsSpread(0) && t.Elements[0] != nil {
				out = append(out, t.Elements[0])
			}
			continue
		}
		out = append(out, e)
	}
	return out
}

// PartialValue converts n into a value for compat.Type.Check: static parts
// as ast.Static gives them, compat.DynamicValue{} for anything only known at
// run time (which fits every type). An object with a spread or a computed
// key is dynamic as a whole, since the spread may set any key; an array's
// spread elements are left out, since its literal elements are there
// whatever the spread adds.
func PartialValue(n ast.Node) any {
	if n == nil {
		return compat.DynamicValue{}
	}
	if v, bad := ast.Static(n); bad == nil {
		return v
	}
	switch n := ast.Unwrap(n).(type) {
	case *ast.Array:
		out := make([]any, 0, len(n.Elements))
		for i, e := range n.Elements {
			if n.IsSpread(i) {
				continue
			}
			out = append(out, PartialValue(e))
		}
		return out
	case *ast.Object:
		if n.HasSpread() || n.HasComputedKey() {
			return compat.DynamicValue{}
		}
		out := make(map[string]any, len(n.Props))
		for _, pr := range n.Props {
			if pr.Kind == ast.PropInit {
				out[pr.Key] = PartialValue(pr.Value)
			} else {
				out[pr.Key] = compat.DynamicValue{}
			}
		}
		return out
	}
	return compat.DynamicValue{}
}

// prefixRE finds the source prefixes a compat rule text names in backticks:
// `github:`, `https://`.
var prefixRE = lazyregexp.New("`([a-z][a-z0-9+.-]*:(?://)?)`")

// SourcePrefixes returns the remote-source prefixes the knowledge base
// documents for option (extends, theme), read from its rule text.
func SourcePrefixes(option string) []string {
	o := compat.Find(option)
	if o == nil {
		return nil
	}
	var out []string
	for _, m := range prefixRE().FindAllStringSubmatch(o.Rule, -1) {
		out = append(out, m[1])
	}
	return out
}
