package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleRedundantDefault = &Rule{
	Code:     "FW205",
	Name:     "redundant-default",
	Category: Version,
	Severity: Info,
	Doc: Doc{
		Summary: "an option set to its version-4 default",
		Why: `Projects often opt into version-4 defaults one by one before migrating
(experimental.sharedPrerenderData: true, experimental.pendingWhenIdle: false).
Under version 4 those values are the defaults (a value set equal
to the version-4 default is redundant after the migration), and the settings
only make the config longer and hide the options that really differ.
Options removed in version 4 are FW203's; directory defaults are the layout
rules'.`,
		Example: `export default defineFwConfig({
  future: { compatibilityVersion: 4 },
  experimental: { sharedPrerenderData: true },
})`,
		Fix: `Deletes the option (and the objects it leaves empty). Safe when the project
already runs compatibility version 4 and extends no layer: the value is the
default, nothing changes. Unsafe while the project still runs version 3 (the
value differs from today's default until the version step of FW206 is made),
or when a layer could set the option to something else.`,
	},
	Run: runRedundantDefault,
}

func init() { Register(ruleRedundantDefault) }

func runRedundantDefault(pass *Pass) {
	if pass.Target < 4 {
		return
	}
	cv := projectCompat(pass)
	if cv == 0 || cv >= 5 {
		// Unknown, or compatibility 5, whose defaults this table does not
		// describe.
		return
	}
	layers := layerSources(pass)
	c := pass.Index
	for _, f := range flippedDefaults() {
		if isPathFlip(f) || !f.V4.Set || removedPath(f.Path) {
			continue
		}
		c.optionProps(f.Path, func(prefix, path ast.Path, prop *ast.Property) {
			v, ok := ast.StaticValue(prop)
			if !ok || !sameValue(v, f.V4.Value) {
				return
			}
			if len(prefix) > 0 {
				// In an environment override, the value also overrides the
				// top-level one: redundant only when that one is the
				// default too, or absent.
				tv, st := pass.Config.Value(f.Path)
				if st == compat.Dynamic || st == compat.Static && !sameValue(tv, f.V4.Value) {
					return
				}
			}
			d := pass.ReportValue(prop, path, "`%s: %s` is the version-4 default: this setting is redundant after migration", f.Path, jsLiteral(v))
			if prop.KeyKind == ast.KeyComputed {
				return
			}
			fix := &Fix{
				Description:   "delete `" + path.String() + "`",
				Applicability: Safe,
				Ops:           []rewrite.Op{{Kind: rewrite.OpDelete, Path: path}},
			}
			if cv < 4 {
				fix.Applicability = Unsafe
				fix.Description += ": until the project runs compatibility version 4 the default is " + defaultWords(f.V3)
				if pass.Project.Framework == 0 {
					d.Notes = append(d.Notes, "package.json does not pin the framework major: on major 3 the project runs compatibility version 3, where the default is "+defaultWords(f.V3)+"; on major 4 the setting is redundant already")
				} else {
					d.Notes = append(d.Notes, "the project still runs compatibility version 3, where the default is "+defaultWords(f.V3))
				}
			}
			if layers != "" {
				fix.Applicability = Unsafe
				d.Notes = append(d.Notes, "the project has "+layers+": a layer may set this option to another value, which this setting overrides")
			}
			d.Fix = fix
		})
	}
}
