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
		Why: `FW_ variables override runtimeConfig only for keys the config declares
(migration facts §10, gotcha 1): FW_SITE_URL sets runtimeConfig.siteUrl when
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

// envCheck holds what FW403 and FW404 judge variables against.
type envCheck struct {
	pass   *Pass
	prefix string
	keys   []string           // declared and framework key paths, dotted
	target *compat.EnvTargets // keys indexed by variable
	names  []string           // their variables
	byName map[string]string  // variable -> key path
	opaque []string           // variable stems whose value is computed
	others string             // what else may declare keys
}

// newEnvCheck returns nil when variables cannot be judged: no literal config,
// a runtimeConfig that is not fully literal, or an envPrefix other than FW_.
func newEnvCheck(pass *Pass) *envCheck {
	if len(pass.Project.Env) == 0 {
		return nil
	}
	set := collectRCKeys(pass)
	if set == nil || !set.Complete {
		return nil
	}
	prefix, ok := envPrefixOf(pass)
	if !ok || prefix != compat.EnvPrefix {
		return nil
	}
	layerKeys, complete := pass.Project.RuntimeConfigKeys()
	c := &envCheck{pass: pass, prefix: prefix, byName: map[string]string{}, others: othersMayDeclare(pass, complete)}
	seen := map[string]bool{}
	add := func(k string) {
		if seen[k] {
			return
		}
		seen[k] = true
		c.keys = append(c.keys, k)
		n := prefix + compat.EnvKey(k)
		if _, dup := c.byName[n]; !dup {
			c.byName[n] = k
			c.names = append(c.names, n)
		}
	}
	for _, k := range set.Keys {
		add(k.Dotted())
	}
	for _, k := range layerKeys { // the project's own and its layers'
		add(k)
	}
	for _, k := range frameworkKeys() {
		add(k)
	}
	for _, k := range set.Opaque {
		c.opaque = append(c.opaque, prefix+compat.EnvKey(k.Dotted())+"_")
	}
	c.target = compat.NewEnvTargets(c.keys)
	return c
}

// candidate reports whether a variable is one to judge: it carries the
// prefix, overrides no key, is not read by the config itself, and is not
// below a key whose value is computed.
func (c *envCheck) candidate(name string) bool {
	if !strings.HasPrefix(name, c.prefix) || len(name) == len(c.prefix) {
		return false
	}
	if _, ok := c.target.Target(name); ok {
		return false
	}
	for _, o := range c.opaque {
		if strings.HasPrefix(name, o) {
			return false
		}
	}
	return !envMentioned(c.pass, name)
}

// sectionMiss is a variable written for the wrong section.
type sectionMiss struct {
	Key  string // the declared key it was meant for
	Want string // that key's variable
}

// wrongSection returns the declared key a variable would override if it
// named the key's section (public, app) correctly, or nil.
func (c *envCheck) wrongSection(name string) *sectionMiss {
	rest := strings.TrimPrefix(name, c.prefix)
	var tries []string
	for _, sec := range []string{"PUBLIC_", "APP_"} {
		if r, ok := strings.CutPrefix(rest, sec); ok {
			tries = append(tries, r) // FW_PUBLIC_SECRET for the private secret
			for _, other := range []string{"PUBLIC_", "APP_"} {
				if other != sec {
					tries = append(tries, other+r)
				}
			}
		} else {
			tries = append(tries, sec+rest) // FW_API_BASE for public.apiBase
		}
	}
	for _, t := range tries {
		if k, ok := c.byName[c.prefix+t]; ok {
			return &sectionMiss{Key: k, Want: c.prefix + t}
		}
	}
	return nil
}
