package rules

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
)

var ruleEnvNoTarget = &Rule{
	Code:     "FW403",
	Name:     "env-no-target",
	Category: Env,
	Severity: Warning,
	Doc: Doc{
		Summary: "an `FW_` variable in a .env file that overrides no runtimeConfig key",
		Why: `FW_ variables override runtimeConfig only for keys the config declares:
FW_SITE_URL sets runtimeConfig.siteUrl when
siteUrl is declared, and does nothing otherwise. A variable that matches no key
is usually a typo or a key that was renamed or never declared, and the value
silently never reaches the app. The framework's own variables (FW_APP_BASE_URL,
FW_APP_CDN_URL, FW_APP_BUILD_ASSETS_DIR, FW_APP_SECRET, ...) are valid, and so
are variables the config reads itself through process.env, and keys declared by
the local layers the project extends. Modules may declare keys of their own, and
so may layers that cannot be read (remote, packages): then only a variable within
a typo of a declared key is reported, at info. Nothing is reported when
runtimeConfig is not fully literal (a spread, a computed key, a mutation) or
uses another envPrefix. A variable that matches a key in another section is
FW404's.`,
		Example: `# .env
FW_PUBLIC_API_BASEURL=https://api.example.com
// fw.config.ts
export default defineFwConfig({
  runtimeConfig: { public: { apiBase: '' } },
})`,
		Fix: "",
	},
	Run: runEnvNoTarget,
}

func init() { Register(ruleEnvNoTarget) }

func runEnvNoTarget(pass *Pass) {
	c := newEnvCheck(pass)
	if c == nil {
		return
	}
	for _, ef := range pass.Project.Env {
		for _, v := range ef.Vars {
			if !c.candidate(v.Name) || c.wrongSection(v.Name) != nil {
				continue
			}
			meant := compat.SuggestWord(v.Name, c.names)
			if c.others != "" && meant == "" {
				continue
			}
			rest := strings.TrimPrefix(v.Name, c.prefix)
			msg := "`%s` overrides no `runtimeConfig` key: the framework ignores it"
			args := []any{v.Name}
			if meant != "" {
				msg += "; did you mean `%s`?"
				args = append(args, meant)
			}
			d := pass.ReportEnv(ef, v, msg, args...)
			if meant != "" {
				d.Notes = append(d.Notes, "`"+meant+"` overrides `runtimeConfig."+c.byName[meant]+"`")
			} else {
				d.Notes = append(d.Notes, "only keys declared in the config can be overridden: declare `runtimeConfig."+suggestKeyPath(rest)+"` (any spelling that splits into the same words) for the variable to reach the app")
			}
			if c.others != "" {
				d.Severity = Info
				d.Notes = append(d.Notes, "the project has "+c.others+", which may declare runtimeConfig keys of their own")
			}
		}
	}
}
