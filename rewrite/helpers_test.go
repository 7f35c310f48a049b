package rewrite_test

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

// Helpers shared by the test files: the tests' own statement, on the
// exported tree, of what they ask about the engine's ops and trees.

// describeOp names an op's target in a message, as the engine's errors
// and reasons do: "a.b -> c.b", "[3,7)", "a.b".
func describeOp(op rewrite.Op) string {
	switch op.Kind {
	case rewrite.OpMove, rewrite.OpRename:
		return op.Path.String() + " -> " + op.To.String()
	case rewrite.OpReplace:
		return fmt.Sprintf("[%d,%d)", op.Span.Start, op.Span.End)
	}
	return op.Path.String()
}

// isNamed reports whether p has a static key: not a spread, not computed.
func isNamed(p *ast.Property) bool {
	return p.Kind != ast.PropSpread && p.KeyKind != ast.KeyComputed && p.KeyKind != ast.KeyNone
}

func isDynamic(p *ast.Property) bool {
	return p.Kind == ast.PropSpread || p.KeyKind == ast.KeyComputed
}

// dynamicIn returns the first spread or computed key of o, or nil.
func dynamicIn(o *ast.Object) *ast.Property {
	for _, q := range o.Props {
		if isDynamic(q) {
			return q
		}
	}
	return nil
}

// eachNode calls fn for n and every value node inside it.
func eachNode(n ast.Node, fn func(ast.Node)) {
	if n == nil {
		return
	}
	fn(n)
	switch n := n.(type) {
	case *ast.Object:
		for _, p := range n.Props {
			eachNode(p.Value, fn)
		}
	case *ast.Array:
		for _, e := range n.Elements {
			eachNode(e, fn)
		}
	case *ast.Unary:
		eachNode(n.Operand, fn)
	case *ast.Expr:
		eachNode(n.Inner, fn)
		for _, a := range n.Args {
			eachNode(a, fn)
		}
	}
}

// lookup returns the effective (last) property at path, seen through
// wrappers, or nil.
func lookup(f *ast.File, path ast.Path) *ast.Property {
	if f.Config == nil || len(path) == 0 {
		return nil
	}
	obj := f.Config
	for i, seg := range path {
		var found *ast.Property
		for _, p := range obj.Props {
			if isNamed(p) && p.Key == seg {
				found = p
			}
		}
		if found == nil || i == len(path)-1 {
			return found
		}
		if found.Value == nil {
			return nil
		}
		o, ok := ast.Unwrap(found.Value).(*ast.Object)
		if !ok {
			return nil
		}
		obj = o
	}
	return nil
}

// hasPrefix reports whether p starts with prefix.
func hasPrefix(p, prefix ast.Path) bool {
	return len(p) >= len(prefix) && reflect.DeepEqual([]string(p[:len(prefix)]), []string(prefix))
}

// normText drops the indentation of every line: what a move may change.
func normText(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(strings.TrimLeft(l, " \t"), "\r")
	}
	return strings.Join(lines, "\n")
}

// normalize converts an Op value to the types ast.Static returns.
func normalize(v any) (any, bool) {
	switch v := v.(type) {
	case nil, bool, string, float64:
		return v, true
	case float32:
		return float64(v), true
	case int:
		return float64(v), true
	case int32:
		return float64(v), true
	case int64:
		return float64(v), true
	case uint:
		return float64(v), true
	case uint64:
		return float64(v), true
	case []string:
		out := make([]any, len(v))
		for i, s := range v {
			out[i] = s
		}
		return out, true
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			n, ok := normalize(x)
			if !ok {
				return nil, false
			}
			out[i] = n
		}
		return out, true
	case rewrite.Object:
		out := make(map[string]any, len(v))
		for _, kv := range v {
			n, ok := normalize(kv.Value)
			if !ok {
				return nil, false
			}
			out[kv.Key] = n
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			n, ok := normalize(x)
			if !ok {
				return nil, false
			}
			out[k] = n
		}
		return out, true
	}
	return nil, false
}
