package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleClearStateReset = &Rule{
	Code:     "FW618",
	Name:     "clear-state-reset",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "clearFwState without { reset: false } in a project on compatibility version 5, where clearing resets the state to its initial value",
		Why: `On framework major 4, clearFwState(key) sets the cleared state to undefined. With
future.compatibilityVersion: 5, experimental.defaults.useState.resetOnClear flips
from false to true: the state is reset to what its useState init function
returns. Code that checks for undefined after clearing (to know the state is
gone, to refetch) then sees the initial value. Reported only for projects on
framework major 4 whose config sets compatibilityVersion: 5; calls that pass an
options object with reset, or options that are not an object literal, are left
alone.`,
		Example: `// fw.config.ts: future: { compatibilityVersion: 5 }
clearFwState('cart')`,
		Fix: `Unsafe: adds { reset: false } (clearFwState(undefined, { reset: false }) for a
call without arguments), which keeps compatibility version 4's undefined. Drop
it where the initial value is what the code wants.`,
	},
	Run:   runCompat5Rule,
	Flips: []string{"experimental.defaults.useState.resetOnClear"},
}

func init() {
	ruleClearStateReset.scan = scanClearStateReset
	Register(ruleClearStateReset)
}

func scanClearStateReset(ci *codeIndex) *fileScan {
	return perFileSites(ci, func(f *code.File, out *[]*site) *code.Visitor {
		if f.Code == nil || f.Config {
			return nil
		}
		return &code.Visitor{Visit: func(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool {
			if n.Kind != ast.JSCall || !code.ImportedAs(n.X, "clearFwState") {
				return true
			}
			for _, a := range n.List {
				if a.Kind == ast.JSSpread {
					return true
				}
			}
			s := &site{file: f, span: n.Loc,
				msg: "`" + f.Code.Text(n.Loc) + "` resets the cleared state to its initial value on compatibility version 5, no longer to undefined",
			}
			desc := "pass `{ reset: false }`, which keeps compatibility version 4's undefined"
			switch len(n.List) {
			case 0:
				if at := n.Loc.End - 1; f.Text[at] == ')' {
					s.fix = codeFix(f, desc, Unsafe, edit(ast.Span{Start: at, End: at}, "undefined, { reset: false }"))
				}
			case 1:
				at := n.List[0].Loc.End
				s.fix = codeFix(f, desc, Unsafe, edit(ast.Span{Start: at, End: at}, ", { reset: false }"))
			default:
				opts := n.List[1]
				if opts.Kind != ast.JSObject || code.ObjProp(opts, "reset") != nil {
					return true
				}
				for _, p := range opts.List {
					if p.Kind == ast.JSSpread || p.Has(ast.FlagComputed) {
						return true // may set reset
					}
				}
				if span, text, ok := code.InsertProp(f, opts, "reset: false"); ok {
					s.fix = codeFix(f, desc, Unsafe, edit(span, text))
				}
			}
			*out = append(*out, s)
			return true
		}}
	}, nil)
}
