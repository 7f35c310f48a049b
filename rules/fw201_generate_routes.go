package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleGenerateRoutes = &Rule{
	Code:     "FW201",
	Name:     "generate-routes",
	Category: Version,
	Severity: Warning,
	Doc: Doc{
		Summary: "`generate.routes` belongs in `engine.prerender.routes`",
		Why: `generate.routes is a layout-B option that version 4 removed from the config
types. Its value is still appended to the engine's prerender routes, which is
where the reference says the routes belong: engine.prerender.routes. Leaving it
in generate keeps a type error in the config and hides the routes from anyone
reading the engine's prerender settings.`,
		Example: `export default defineFwConfig({
  generate: { routes: ['/sitemap.xml'] },
})`,
		Fix: `Safe. Moves the property, with its comments, into engine.prerender.routes,
creating engine.prerender when needed; when engine.prerender.routes is already
an array the moved routes are appended after its own. The generate object is
removed when nothing else is left in it. The prerendered routes stay the same.`,
	},
	Run: runGenerateRoutes,
}

func init() { Register(ruleGenerateRoutes) }

func runGenerateRoutes(pass *Pass) {
	pass.OptionProps("generate.routes", func(prefix, path ast.Path, prop *ast.Property) {
		to := join(prefix, "engine", "prerender", "routes")
		d := pass.ReportProperty(prop, path, "`generate.routes` was removed in version 4: the routes belong in `%s`", to)
		if prop.Kind == ast.PropMethod || prop.Kind == ast.PropGetter || prop.Kind == ast.PropSetter {
			return
		}
		d.Fix = &Fix{
			Description:   "move `generate.routes` into `" + to.String() + "`",
			Applicability: Safe,
			Ops:           []rewrite.Op{{Kind: rewrite.OpMove, Path: path, To: to}},
		}
	})
}
