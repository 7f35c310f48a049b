package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleViewTransitionDisabled = &Rule{
	Code:     "FW310",
	Name:     "view-transition-disabled",
	Category: Schema,
	Severity: Warning,
	Doc: Doc{
		Summary: "app.viewTransition without experimental.viewTransition",
		Why: `The reference: app.viewTransition is "only effective when experimental
view-transition support is enabled", and experimental.viewTransition defaults
to false. Turning on app.viewTransition alone does nothing. The rule reads
experimental.viewTransition in each environment the setting applies to (see
FW309) and reports it only when it works in none of them; values only known at
run time are not judged.`,
		Example: `export default defineFwConfig({
  app: { viewTransition: true },
})`,
		Fix: `When experimental.viewTransition is not set anywhere that applies, sets
it to true next to app.viewTransition. Unsafe: view transitions start running,
which is what the setting asked for but had never done.`,
	},
	Run: runViewTransitionDisabled,
}

func init() { Register(ruleViewTransitionDisabled) }

func runViewTransitionDisabled(pass *Pass) {
	pass.OptionProps("app.viewTransition", func(prefix, path ast.Path, prop *ast.Property) {
		v, ok := ast.StaticValue(prop)
		if !ok || v == false || v == nil {
			return
		}
		vals := envValues(pass, prefix, "app.viewTransition", "experimental.viewTransition")
		var notes []string
		for _, e := range vals {
			switch {
			case e.st == compat.Absent && len(vals) == 1:
				notes = append(notes, "`experimental.viewTransition` is not set and defaults to false")
			case e.st == compat.Absent:
				notes = append(notes, "`experimental.viewTransition` is not set at the top level and defaults to false")
			case e.st == compat.Static && e.v != true:
				notes = append(notes, "`experimental.viewTransition` is "+quote(e.v)+" "+e.where())
			}
		}
		if len(notes) == 0 || len(notes) < len(vals) {
			return // it works where the experimental support is on
		}
		d := pass.ReportProperty(prop, path, "`app.viewTransition` has no effect: `experimental.viewTransition` is not enabled")
		d.Notes = notes
		if len(vals) == 1 && vals[0].st == compat.Absent {
			to := join(prefix, "experimental", "viewTransition")
			d.Fix = &Fix{
				Description:   "set `" + to.String() + "` to true: view transitions start running",
				Applicability: Unsafe,
				Ops:           []rewrite.Op{{Kind: rewrite.OpSet, Path: to, Value: true}},
			}
		}
	})
}
