package rules

import (
	"fmt"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleTypeMismatch = &Rule{
	Code:     "FW303",
	Name:     "type-mismatch",
	Category: Schema,
	Severity: Warning,
	Doc: Doc{
		Summary: "a static option value of the wrong type",
		Why: `The framework does not validate option values at run time: a string
where a boolean is expected is kept as it is, and a non-empty string is truthy,
so ssr: 'false' leaves server rendering on. Type checking is the only thing that
flags it. This rule checks every static value against the
option's type in the knowledge base, down to the element of an array or the
field of an object that is wrong, and checks formats (absolute URLs, YYYY-MM-DD
dates). Values only known at run time, spreads and computed keys fit every type;
null is left alone (the resolvers treat it like an unset option). Enum values
of the right kind are FW304's, future.compatibilityVersion is FW206's,
app.cdnURL is FW307's, and removed options are the version rules'.`,
		Example: `export default defineFwConfig({
  ssr: 'false',
  devServer: { port: '3000' },
})`,
		Fix: `Only when the value meant is obvious: a numeric string becomes the
number and 'true' becomes true (safe: the value the option is read as stays the
same); 'false' becomes false (unsafe: the string is truthy, so today the option
is on, and the fix turns it off).`,
	},
	Run: runTypeMismatch,
}

func init() { Register(ruleTypeMismatch) }

func runTypeMismatch(pass *Pass) {
	typeProblems(pass, func(tp typeProblem) {
		if tp.enum {
			return
		}
		name := tp.path[len(tp.prefix):].String() + tp.where
		d := pass.Report(tp.node.Span(), tp.path.String(), "`%s` must be %s, not %s", name, typeWords(tp.typ, tp.value), describe(tp.value))
		if s, ok := tp.value.(string); ok && strings.TrimSpace(s) == "false" && tp.typ.Has(compat.KindBoolean) {
			d.Notes = append(d.Notes, "a non-empty string is truthy: the framework reads '"+s+"' as true")
		}
		typeFix(d, tp)
	})
}

// typeWords describes what a type accepts, for a message.
func typeWords(t compat.Type, v any) string {
	if _, ok := v.(string); ok {
		switch {
		case t.Has(compat.KindDate):
			return "a date written YYYY-MM-DD"
		case t.Has(compat.KindURL):
			return "an absolute URL (scheme and host)"
		}
	}
	return "of type `" + humanType(t) + "`"
}

// Compiled at first use, like the other regexps of the rules: most runs
// never need them, and compiling takes time at every start.
var numericRE = lazyregexp.New(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$`)

// typeFix replaces a string that obviously means a boolean or a number.
func typeFix(d *Diagnostic, tp typeProblem) {
	s, ok := tp.value.(string)
	if !ok {
		return
	}
	var span ast.Span
	switch lit := ast.Unwrap(tp.node).(type) {
	case *ast.String:
		span = lit.Loc
	case *ast.Template:
		span = lit.Loc // static: typeProblems only sees static values here
	default:
		return
	}
	var text string
	var v any
	app := Safe
	desc := ""
	switch t := strings.TrimSpace(s); {
	case t == "true" && tp.typ.Check(true):
		text, v = "true", true
		desc = "replace the string 'true' with true"
	case t == "false" && tp.typ.Check(false):
		text, v = "false", false
		app = Unsafe
		desc = "replace the string 'false' with false: today the string counts as true, so this turns the option off"
	case numericRE().MatchString(t):
		var f float64
		if _, err := fmt.Sscan(t, &f); err != nil || !tp.typ.Check(f) {
			return
		}
		text, v = t, f
		desc = fmt.Sprintf("replace the string '%s' with the number %s", s, t)
	default:
		return
	}
	if !tp.typ.Check(v) {
		return
	}
	d.Fix = &Fix{
		Description:   desc,
		Applicability: app,
		Ops:           []rewrite.Op{{Kind: rewrite.OpReplace, Path: tp.path, Span: span, Text: text}},
	}
}
