package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rules/internal/node"
)

var ruleCommaExpression = &Rule{
	Code:     "FW318",
	Name:     "comma-expression",
	Category: Schema,
	Severity: Warning,
	Doc: Doc{
		Summary: "an option value written as a comma expression: only its last operand is used",
		Why: `In JavaScript, (a, b) is the comma operator: it evaluates a, throws the
result away, and yields b. In a config it is always a slip: extends: (['./base',
'./ui'], './theme') was meant as one list of three layers, but the framework
receives './theme' alone, and the layers before it are silently not loaded.
The same holds for any option and for an entry of an array value. The
framework cannot tell: it only ever sees the last operand.`,
		Example: `export default defineFwConfig({
  extends: (['./layers/base', './layers/ui'], './layers/theme'),
})`,
		Fix: "",
	},
	Run: runCommaExpression,
}

func init() { Register(ruleCommaExpression) }

func runCommaExpression(pass *Pass) {
	pass.walkCached(func(w *walked) bool {
		if w.Prop.Value != nil {
			checkComma(pass, w, w.Prop.Value, false)
		}
		return true
	})
}

// checkComma reports n (an entry of an array when entry is set) when it is a
// comma expression, and looks into the entries of an array n.
func checkComma(pass *Pass, w *walked, n ast.Node, entry bool) {
	if arr, ok := ast.Unwrap(n).(*ast.Array); ok {
		for _, e := range arr.Elements {
			if e != nil {
				checkComma(pass, w, e, true)
			}
		}
		return
	}
	if !node.CommaExpression(n) {
		return
	}
	what := "`" + w.Option + "`"
	if entry {
		what = "an entry of " + what
	}
	d := pass.Report(n.Span(), w.Path.String(), "%s is a comma expression: JavaScript yields only its last operand, so the others are dropped", what)
	if w.Option == "extends" || w.Option == "theme" {
		d.Notes = append(d.Notes, "the layers of the other operands are not loaded: list every source in one array, "+w.Option+": ['a', 'b', 'c']")
	} else {
		d.Notes = append(d.Notes, "write the value that was meant: one value, or one array of all the entries")
	}
}
