package rules

import (
	"fmt"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleRemovedOption = &Rule{
	Code:     "FW203",
	Name:     "removed-option",
	Category: Version,
	Severity: Warning,
	Doc: Doc{
		Summary: "options removed in version 4 or in the next major",
		Why: `Version 4 removed a set of options (the configuration reference's
Versioning section). None is rejected at run time: the framework silently ignores
them and behaves as if they had their version-4 value, so a config that sets one
to anything else stops doing what it says, with no error. Some are removed with
compatibility version 4 itself (v3 with compatibility 4 warns and forces the
version-4 value); the others ("removed in the next major") still work on v3 with
compatibility 4 and stop working with framework major 4. dir.static,
generate.routes and generate.exclude have rules of their own (FW107, FW201,
FW202).`,
		Example: `export default defineFwConfig({
  experimental: { compileTemplate: true, treeshakeClientOnly: true },
})`,
		Fix: `Deletes the option (and the objects it leaves empty). Safe when the value
already equals the version-4 behaviour (treeshakeClientOnly: true): nothing
changes. Otherwise unsafe: the fix description says what the project loses and
the notes name the replacement.`,
	},
	Run: runRemovedOption,
}

func init() { Register(ruleRemovedOption) }

// removedElsewhere are removals another rule reports, with a better fix than a delete.
var removedElsewhere = map[string]string{
	"dir.static":       "FW107",
	"generate.routes":  "FW201",
	"generate.exclude": "FW202",
}

func runRemovedOption(pass *Pass) {
	if pass.Target < 4 {
		return
	}
	c := pass.Index
	for _, r := range removedOptions() {
		if removedElsewhere[r.Path] != "" {
			continue
		}
		c.optionProps(r.Path, func(prefix, path ast.Path, prop *ast.Property) {
			reportRemoved(pass, r, path, prop)
		})
	}
}

func reportRemoved(pass *Pass, r compat.Removal, path ast.Path, prop *ast.Property) {
	when := "version 4"
	if r.When == compat.RemovedNextMajor {
		when = "framework major 4"
	}
	v, static := ast.StaticValue(prop)
	behaves := ""
	if r.V4.Set {
		behaves = fmt.Sprintf(" and behaves as `%s`", jsLiteral(r.V4.Value))
	}
	var d *Diagnostic
	switch {
	case !static:
		d = pass.ReportProperty(prop, path, "`%s` is removed in %s, which ignores the value set here%s", r.Path, when, behaves)
		d.Notes = append(d.Notes, "the value is computed at run time, so whether the project relies on it cannot be checked")
	case r.V4.Set && sameValue(v, r.V4.Value):
		d = pass.ReportProperty(prop, path, "`%s` is removed in %s, where it is always `%s`: this setting is redundant", r.Path, when, jsLiteral(v))
	default:
		d = pass.ReportProperty(prop, path, "`%s` is removed in %s, which ignores `%s`%s", r.Path, when, jsLiteral(v), behaves)
	}
	if r.When == compat.RemovedNextMajor {
		d.Notes = append(d.Notes, "v3 with compatibility version 4 still honours it; framework major 4 ignores it")
	} else {
		d.Notes = append(d.Notes, "v3 with compatibility version 4 already warns and forces the version-4 value")
	}
	if r.Why != "" {
		d.Notes = append(d.Notes, r.Why)
	}
	if r.Replacement != "" {
		d.Notes = append(d.Notes, "use `"+r.Replacement+"` instead")
	}
	if prop.KeyKind == ast.KeyComputed {
		return
	}
	fix := &Fix{
		Description:   "delete `" + path.String() + "`",
		Applicability: Safe,
		Ops:           []rewrite.Op{{Kind: rewrite.OpDelete, Path: path}},
	}
	if !static || !r.V4.Set || !sameValue(v, r.V4.Value) {
		fix.Applicability = Unsafe
		if r.V4.Set {
			fix.Description += fmt.Sprintf(": what it sets is lost, version 4 behaves as `%s`", jsLiteral(r.V4.Value))
		} else {
			fix.Description += ": what it sets is lost"
		}
	}
	d.Fix = fix
}
