package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
)

var ruleProcessEnvName = &Rule{
	Code:     "FW402",
	Name:     "process-env-name",
	Category: Env,
	Severity: Warning,
	Doc: Doc{
		Summary: "a runtimeConfig value read from `process.env` under another name than the key's `FW_` variable",
		Why: `fw.config runs when the app is built, so runtimeConfig: { apiSecret:
process.env.API_SECRET } reads API_SECRET once, at build time, and freezes the
value into the build. At run time the key is overridden only by its own
variable, FW_API_SECRET (or ENGINE_API_SECRET), derived from the key path.
Setting API_SECRET on the server then changes
nothing, which is rarely what the author expected.`,
		Example: `export default defineFwConfig({
  runtimeConfig: { public: { apiBase: process.env.API_BASE || '/api' } },
})`,
		Fix: "",
	},
	Run: runProcessEnvName,
}

func init() { Register(ruleProcessEnvName) }

func runProcessEnvName(pass *Pass) {
	set := collectRCKeys(pass)
	if set == nil {
		return
	}
	prefix, ok := envPrefixOf(pass)
	if !ok {
		return
	}
	for _, k := range set.Keys {
		if k.Prop.Value == nil {
			continue
		}
		n := ast.Unwrap(k.Prop.Value)
		if _, isExpr := n.(*ast.Expr); !isExpr {
			continue
		}
		reads := pass.File.EnvReads(n)
		if len(reads) == 0 {
			continue
		}
		right := envKeyName(prefix, k)
		engine := compat.EngineEnvPrefix + compat.EnvKey(k.Dotted())
		good := false
		for _, r := range reads {
			if r == right || r == engine {
				good = true
			}
		}
		if good {
			continue
		}
		d := pass.ReportValue(k.Prop, k.Path, "`runtimeConfig.%s` reads `%s` when the app is built: at run time only `%s` overrides it", k.Dotted(), reads[0], right)
		d.Notes = append(d.Notes,
			"fw.config runs at build time: the value of "+reads[0]+" is frozen into the build, and setting it on the server changes nothing",
			"set `"+right+"` where the app runs (the value written here stays the build-time default)")
	}
}
