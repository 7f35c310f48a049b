package rules

import "strings"

var ruleEnvWrongSection = &Rule{
	Code:     "FW404",
	Name:     "env-wrong-section",
	Category: Env,
	Severity: Warning,
	Doc: Doc{
		Summary: "an `FW_` variable that names the wrong runtimeConfig section",
		Why: `runtimeConfig.public is an ordinary nested key, so its variables carry
PUBLIC_: public.apiBase is FW_PUBLIC_API_BASE.
FW_API_BASE overrides nothing when only public.apiBase is declared, and
FW_PUBLIC_SECRET nothing when the key is the private secret. The value never
reaches the app, silently. The same holds for the app section
(FW_APP_BASE_URL, not FW_BASE_URL).`,
		Example: `# .env
FW_API_BASE=https://api.example.com
// fw.config.ts
export default defineFwConfig({
  runtimeConfig: { public: { apiBase: '' } },
})`,
		Fix: "",
	},
	Run: runEnvWrongSection,
}

func init() { Register(ruleEnvWrongSection) }

func runEnvWrongSection(pass *Pass) {
	c := newEnvCheck(pass)
	if c == nil {
		return
	}
	for _, ef := range pass.Project.Env {
		for _, v := range ef.Vars {
			if !c.candidate(v.Name) {
				continue
			}
			m := c.wrongSection(v.Name)
			if m == nil {
				continue
			}
			d := pass.ReportEnv(ef, v, "`%s` overrides no `runtimeConfig` key: `runtimeConfig.%s` is overridden by `%s`", v.Name, m.Key, m.Want)
			section := "private (server only)"
			if s, _, ok := strings.Cut(m.Key, "."); ok && (s == "public" || s == "app") {
				section = "in `" + s + "`"
			}
			d.Notes = append(d.Notes, "`runtimeConfig."+m.Key+"` is "+section+": rename the variable to `"+m.Want+"`")
			if strings.HasPrefix(m.Key, "public.") && !strings.Contains(v.Name, "PUBLIC") {
				d.Notes = append(d.Notes, "values under `runtimeConfig.public` are sent to every browser: if this one is a secret, declare it outside `public` instead")
			}
			if c.others != "" {
				d.Notes = append(d.Notes, "unless one of the project's "+c.others+" declares a key for `"+v.Name+"`")
			}
		}
	}
}
