package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleEngineRuntimeConfig = &Rule{
	Code:     "FW207",
	Name:     "engine-runtime-config",
	Category: Version,
	Severity: Error,
	Doc: Doc{
		Summary: "values written in `engine.runtimeConfig` are lost: they belong in `runtimeConfig`",
		Why: `The engine's runtime config is rebuilt from the top-level runtimeConfig when
the schema resolves, in both majors: it becomes the
top-level runtimeConfig plus engine: { envPrefix: 'FW_' }. A value written
directly in engine.runtimeConfig is not kept, so the server never sees it and
no FW_ variable can override it. Recent 4.x also deprecates the option. The
one use the reference documents, engine.runtimeConfig.app.baseURL for a relative
base URL, is left alone.`,
		Example: `export default defineFwConfig({
  engine: { runtimeConfig: { apiSecret: '' } },
})`,
		Fix: `Safe. Moves the object into the top-level runtimeConfig (merging key by key
into an existing one), which is what its author meant: the values reach the
server and can be overridden from the environment. Offered only when no key is
set in both places with different values, and when the object does not hold
app.baseURL.`,
	},
	Run: runEngineRuntimeConfig,
}

func init() { Register(ruleEngineRuntimeConfig) }

func runEngineRuntimeConfig(pass *Pass) {
	pass.OptionProps("engine.runtimeConfig", func(prefix, path ast.Path, prop *ast.Property) {
		obj, isObj := ast.Unwrap(prop.Value).(*ast.Object)
		baseURL := false
		if isObj {
			if app := obj.Get("app"); app != nil {
				if ao, ok := ast.Unwrap(app.Value).(*ast.Object); ok && ao.Get("baseURL") != nil {
					baseURL = true
					if len(obj.Props) == 1 && len(ao.Props) == 1 {
						return // only the documented relative base URL
					}
				}
			}
			if len(obj.Props) == 0 {
				return
			}
		}
		to := join(prefix, "runtimeConfig")
		d := pass.ReportProperty(prop, path, "`engine.runtimeConfig` is rebuilt from `runtimeConfig`: the values written here are lost; they belong in `%s`", to)
		switch {
		case !isObj:
			d.Notes = append(d.Notes, "the value is not an object literal: move it by hand")
			return
		case baseURL:
			d.Notes = append(d.Notes, "`app.baseURL` is the one key the reference documents here (for a relative base URL): move the other keys by hand")
			return
		case prop.KeyKind == ast.KeyComputed:
			return
		}
		if t := pass.Lookup(to.String()); t != nil {
			tobj, ok := ast.Unwrap(t.Value).(*ast.Object)
			if !ok {
				d.Notes = append(d.Notes, "`"+to.String()+"` is not an object literal: merge them by hand")
				return
			}
			if c := mergeConflict(obj, tobj); c != "" {
				if c == "..." {
					d.Notes = append(d.Notes, "a spread or computed key in one of the objects hides which keys both set: merge them by hand")
				} else {
					d.Notes = append(d.Notes, "`"+c+"` is set in both with different values: merge them by hand")
				}
				return
			}
		}
		d.Fix = &Fix{
			Description:   "move `engine.runtimeConfig` into `" + to.String() + "`",
			Applicability: Safe,
			Ops:           []rewrite.Op{{Kind: rewrite.OpMove, Path: path, To: to}},
		}
	})
}
