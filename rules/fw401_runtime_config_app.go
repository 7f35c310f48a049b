package rules

import (
	"github.com/fwmigrate/fwmigrate/compat"
)

var ruleRuntimeConfigApp = &Rule{
	Code:     "FW401",
	Name:     "runtime-config-app",
	Category: Env,
	Severity: Error,
	Doc: Doc{
		Summary: "keys under `runtimeConfig.app` that the framework deletes",
		Why: `runtimeConfig.app is the framework's reserved namespace: it holds baseURL,
buildAssetsDir, cdnURL and buildId, and it is exposed to the browser. Any other
key written there is deleted when the config resolves (the framework
warns, B5003), so code that reads useRuntimeConfig().app.<key> gets undefined, and no
FW_APP_* variable can set it.`,
		Example: `export default defineFwConfig({
  runtimeConfig: { app: { analyticsId: 'UA-1' } },
})`,
		Fix: "",
	},
	Run: runRuntimeConfigApp,
}

func init() { Register(ruleRuntimeConfigApp) }

func runRuntimeConfigApp(pass *Pass) {
	set := collectRCKeys(pass)
	if set == nil {
		return
	}
	allowed := compat.Siblings("runtimeConfig.app")
	for _, k := range set.Keys {
		if len(k.Rel) != 2 || k.Rel[0] != "app" {
			continue
		}
		ok := false
		for _, a := range allowed {
			if k.Rel[1] == a {
				ok = true
			}
		}
		if ok {
			continue
		}
		d := pass.ReportProperty(k.Prop, k.Path, "`runtimeConfig.app.%s` is deleted by the framework: the `app` namespace is reserved for %s", k.Rel[1], ticks(allowed))
		d.Notes = append(d.Notes,
			"move it to `runtimeConfig.public` (sent to the browser, like `app`) or to the top level of `runtimeConfig` (server only), and update the code that reads it")
	}
}
