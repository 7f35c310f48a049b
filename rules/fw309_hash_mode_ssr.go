package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
)

var ruleHashModeSSR = &Rule{
	Code:     "FW309",
	Name:     "hash-mode-ssr",
	Category: Schema,
	Severity: Warning,
	Doc: Doc{
		Summary: "router.options.hashMode with server-side rendering on",
		Why: `The reference: hash history is for client-only mode; the part after
'#' is never sent to the server, and SSR is unsupported with it. With ssr left
at its default (true) the server renders every URL as the root route. The rule
reads ssr in each environment the hashMode setting applies to: inside an
override block ($production, $env.<name>, ...) the block's own ssr, else the
top-level one; for a top-level hashMode, the top-level ssr and that of every
override block that sets it. Values only known at run time are not judged.`,
		Example: `export default defineFwConfig({
  router: { options: { hashMode: true } },
})`,
		Fix: "",
	},
	Run: runHashModeSSR,
}

func init() { Register(ruleHashModeSSR) }

func runHashModeSSR(pass *Pass) {
	pass.OptionProps("router.options.hashMode", func(prefix, path ast.Path, prop *ast.Property) {
		if v, ok := ast.StaticValue(prop); !ok || v != true {
			return
		}
		var notes []string
		vals := envValues(pass, prefix, "router.options.hashMode", "ssr")
		for _, e := range vals {
			switch {
			case e.st == compat.Absent && len(vals) > 1:
				notes = append(notes, "`ssr` is not set at the top level, so it is true wherever no override block sets it")
			case e.st == compat.Absent:
				notes = append(notes, "`ssr` is not set and defaults to true")
			case e.st == compat.Static && e.v == true:
				notes = append(notes, "`ssr` is true "+e.where())
			}
		}
		if len(notes) == 0 {
			return
		}
		d := pass.ReportProperty(prop, path, "`router.options.hashMode` is on while server-side rendering is on: hash history does not support SSR, and the server never sees the route after '#'")
		d.Notes = append(notes, "set `ssr: false` for a client-only app, or turn hashMode off")
	})
}
