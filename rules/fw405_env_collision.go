package rules

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
)

var ruleEnvCollision = &Rule{
	Code:     "FW405",
	Name:     "env-collision",
	Category: Env,
	Severity: Warning,
	Doc: Doc{
		Summary: "runtimeConfig keys that one environment variable overrides together",
		Why: `The variable name of a key splits the key path into words by case and by the
separators - _ / .: apiKey, api_key, api-key and API_KEY
all read FW_API_KEY, and a nested a: { b } reads the same variable as a_b. Keys
that collide cannot be set separately from the environment: one variable
overwrites all of them, usually by accident.`,
		Example: `export default defineFwConfig({
  runtimeConfig: { apiKey: '', api_key: '' },
})`,
		Fix: "",
	},
	Run: runEnvCollision,
}

func init() { Register(ruleEnvCollision) }

func runEnvCollision(pass *Pass) {
	set := collectRCKeys(pass)
	if set == nil {
		return
	}
	prefix, ok := envPrefixOf(pass)
	if !ok {
		return
	}
	first := map[string]project.RCKey{}
	var paths []string
	for _, k := range set.Keys {
		p := k.Dotted()
		if _, seen := first[p]; !seen {
			first[p] = k
			paths = append(paths, p)
		}
	}
	for _, col := range compat.EnvCollisions(paths) {
		name := prefix + strings.TrimPrefix(col.Name, compat.EnvPrefix)
		// Report at the last key written: the one that made the collision.
		k, ok := first[col.Keys[len(col.Keys)-1]]
		if !ok {
			continue
		}
		all := make([]string, len(col.Keys))
		for i, o := range col.Keys {
			all[i] = "runtimeConfig." + o
		}
		d := pass.ReportProperty(k.Prop, k.Path, "%s are overridden by the same variable `%s`", ticks(all), name)
		d.Notes = append(d.Notes, "variable names split keys into words by case and by - _ / . : rename one of the keys so that it has a variable of its own")
	}
}
