package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleGenerateExclude = &Rule{
	Code:     "FW202",
	Name:     "generate-exclude",
	Category: Version,
	Severity: Warning,
	Doc: Doc{
		Summary: "`generate.exclude` has no effect: the routes to skip belong in `engine.prerender.ignore`",
		Why: `generate.exclude is a layout-B option that was already unused in version 3
(the reference: "unused, replaced by the prerender ignore option of the server
engine") and that version 4 removed from the config types. The routes listed in
it are prerendered anyway, which is rarely what its author wanted.`,
		Example: `export default defineFwConfig({
  generate: { exclude: ['/admin'] },
})`,
		Fix: `Safe. Moves the property, with its comments, into engine.prerender.ignore,
creating engine.prerender when needed; when engine.prerender.ignore is already
an array the moved entries are appended after its own. The generate object is
removed when nothing else is left in it. The option did nothing, so the move
restores what it was written for: those routes stop being prerendered.`,
	},
	Run: runGenerateExclude,
}

func init() { Register(ruleGenerateExclude) }

func runGenerateExclude(pass *Pass) {
	pass.OptionProps("generate.exclude", func(prefix, path ast.Path, prop *ast.Property) {
		to := join(prefix, "engine", "prerender", "ignore")
		d := pass.ReportProperty(prop, path, "`generate.exclude` has no effect: the routes it lists are still prerendered; they belong in `%s`", to)
		if isAccessor(prop) || prop.KeyKind == ast.KeyComputed {
			return
		}
		if t := pass.Lookup(to.String()); t != nil {
			_, src := ast.Unwrap(prop.Value).(*ast.Array)
			_, dst := ast.Unwrap(t.Value).(*ast.Array)
			if !src || !dst {
				d.Notes = append(d.Notes, "`"+to.String()+"` is already set and the two values cannot be concatenated as arrays: merge them by hand")
				return
			}
		}
		d.Fix = &Fix{
			Description:   "move `generate.exclude` into `" + to.String() + "`",
			Applicability: Safe,
			Ops:           []rewrite.Op{{Kind: rewrite.OpMove, Path: path, To: to}},
		}
	})
}
