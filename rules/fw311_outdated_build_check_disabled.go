package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleOutdatedBuildCheckDisabled = &Rule{
	Code:     "FW311",
	Name:     "outdated-build-check-disabled",
	Category: Schema,
	Severity: Warning,
	Doc: Doc{
		Summary: "experimental.checkOutdatedBuildInterval with experimental.appManifest: false",
		Why: `The reference: the check for new builds is "disabled when appManifest is
false". An interval set next to appManifest: false never runs, which is rarely
what the person who set it expects. The rule reads appManifest in each
environment the interval applies to (see FW309) and reports the interval only
when it runs in none of them; an interval of false (the check turned off) is
not reported.`,
		Example: `export default defineFwConfig({
  experimental: { appManifest: false, checkOutdatedBuildInterval: 60000 },
})`,
		Fix: `Deletes checkOutdatedBuildInterval. Safe: the check did not run anyway.`,
	},
	Run: runOutdatedBuildCheckDisabled,
}

func init() { Register(ruleOutdatedBuildCheckDisabled) }

func runOutdatedBuildCheckDisabled(pass *Pass) {
	pass.OptionProps("experimental.checkOutdatedBuildInterval", func(prefix, path ast.Path, prop *ast.Property) {
		if v, ok := ast.StaticValue(prop); ok && (v == false || v == nil) {
			return
		}
		vals := envValues(pass, prefix, "experimental.checkOutdatedBuildInterval", "experimental.appManifest")
		var notes []string
		for _, e := range vals {
			if e.st == compat.Static && e.v == false {
				notes = append(notes, "`experimental.appManifest` is false "+e.where())
			}
		}
		if len(notes) == 0 || len(notes) < len(vals) {
			return // it works where appManifest is on
		}
		d := pass.ReportProperty(prop, path, "`experimental.checkOutdatedBuildInterval` has no effect: the check for new builds is disabled while `experimental.appManifest` is false")
		d.Notes = notes
		d.Fix = &Fix{
			Description:   "delete `" + path.String() + "` (the check never runs)",
			Applicability: Safe,
			Ops:           []rewrite.Op{{Kind: rewrite.OpDelete, Path: path}},
		}
	})
}
