package rewrite_test

import (
	"fmt"
	"reflect"

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

// hasPrefix reports whether p starts with prefix.
func hasPrefix(p, prefix ast.Path) bool {
	return len(p) >= len(prefix) && reflect.DeepEqual([]string(p[:len(prefix)]), []string(prefix))
}
