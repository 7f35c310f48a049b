package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
)

var ruleNotSerializable = &Rule{
	Code:     "FW308",
	Name:     "not-serializable",
	Category: Schema,
	Severity: Error,
	Doc: Doc{
		Summary: "a function, class instance or regular expression in app.keepalive or ui.config",
		Why: `The reference: app.keepalive takes JSON-serializable values only, and
ui.config only serializable options ("others in a plugin"). Both are written
into the generated app as data, so a function, a regular expression or a class
instance inside them does not survive: the app runs without it and nothing
says so. Values the parser cannot see (identifiers, calls) are not judged.`,
		Example: `export default defineFwConfig({
  app: { keepalive: { include: /^Cached/ } },
  ui: { config: { errorHandler: (err) => console.error(err) } },
})`,
		Fix: "",
	},
	Run: runNotSerializable,
}

func init() { Register(ruleNotSerializable) }

func runNotSerializable(pass *Pass) {
	for _, option := range []string{"app.keepalive", "ui.config"} {
		pass.OptionProps(option, func(prefix, path ast.Path, prop *ast.Property) {
			if prop.Value == nil {
				d := pass.ReportProperty(prop, path, "`%s` is a %s: only JSON-serializable values survive into the app", option, prop.Kind)
				serializableNote(d, option)
				return
			}
			notSerializable(prop.Value, func(n ast.Node, what string) {
				d := pass.Report(n.Span(), path.String(), "`%s` holds %s, which is not JSON-serializable: it does not survive into the app", option, what)
				serializableNote(d, option)
			})
		})
	}
}

func serializableNote(d *Diagnostic, option string) {
	if option == "ui.config" {
		d.Notes = append(d.Notes, "set options that are not serializable in a plugin instead")
	}
}

// notSerializable calls fn for each node inside n that certainly is not
// JSON data: functions, methods, getters and setters, classes, `new`
// instances, regular expressions. Identifiers and calls may be anything and
// are not judged.
func notSerializable(n ast.Node, fn func(n ast.Node, what string)) {
	switch n := ast.Unwrap(n).(type) {
	case *ast.RegExp:
		fn(n, "a regular expression")
	case *ast.Expr:
		switch n.Hint {
		case ast.HintArrow, ast.HintFunction:
			fn(n, "a function")
		case ast.HintClass:
			fn(n, "a class")
		case ast.HintNew:
			fn(n, "a class instance (`new`)")
		}
	case *ast.Array:
		for i, e := range n.Elements {
			if e != nil && !n.IsSpread(i) {
				notSerializable(e, fn)
			}
		}
	case *ast.Object:
		for _, pr := range n.Props {
			switch pr.Kind {
			case ast.PropMethod:
				fn(&ast.Expr{Loc: pr.Loc}, "a method")
			case ast.PropGetter, ast.PropSetter:
				fn(&ast.Expr{Loc: pr.Loc}, "a "+pr.Kind.String())
			case ast.PropInit:
				notSerializable(pr.Value, fn)
			}
		}
	}
}
