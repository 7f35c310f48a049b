package rules

import (
	"fmt"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
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
nothing, which is rarely what the author expected.
Not reported: the variables npm sets while it runs a script (npm_package_version,
npm_lifecycle_event, every npm_*), which are build-time by intent.
A config that reads many variables this way makes the same mistake many times:
up to four sites are reported one by one; from five on, the first three are,
and one summary at the fourth lists the others (each key with the variable it
reads and the one that overrides it), so that the finding is read once.`,
		Example: `export default defineFwConfig({
  runtimeConfig: { public: { apiBase: process.env.API_BASE || '/api' } },
})`,
		Fix: "",
	},
	Run: runProcessEnvName,
}

func init() { Register(ruleProcessEnvName) }

// processEnvSites is how many sites FW402 reports one by one in a config
// that has more than processEnvSites+1: the rest go into one summary.
const processEnvSites = 3

// processEnvSite is one runtimeConfig value that reads another variable.
type processEnvSite struct {
	key   project.RCKey
	read  string // the variable it reads
	right string // the variable that overrides it at run time
}

func runProcessEnvName(pass *Pass) {
	set := collectRCKeys(pass)
	if set == nil {
		return
	}
	prefix, ok := envPrefixOf(pass)
	if !ok {
		return
	}
	var sites []processEnvSite
	for _, k := range set.Keys {
		if k.Prop.Value == nil {
			continue
		}
		n := ast.Unwrap(k.Prop.Value)
		if _, isExpr := n.(*ast.Expr); !isExpr {
			continue
		}
		var reads []string
		for _, r := range pass.File.EnvReads(n) {
			if !strings.HasPrefix(r, "npm_") { // set by npm while a script runs: build-time by intent
				reads = append(reads, r)
			}
		}
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
		if !good {
			sites = append(sites, processEnvSite{k, reads[0], right})
		}
	}
	// Sites whose line suppresses this rule are reported on their own, so
	// that their suppressions apply (and count as used).
	var alone, grouped []processEnvSite
	if len(sites) > processEnvSites+1 {
		for _, s := range sites {
			if pass.suppressedAt(s.key.Prop.Value.Span().Start) {
				alone = append(alone, s)
			} else {
				grouped = append(grouped, s)
			}
		}
	} else {
		grouped = sites
	}
	one := len(grouped)
	if one > processEnvSites+1 {
		one = processEnvSites
	}
	for _, s := range append(alone, grouped[:one]...) {
		d := pass.ReportValue(s.key.Prop, s.key.Path, "`runtimeConfig.%s` reads `%s` when the app is built: at run time only `%s` overrides it", s.key.Dotted(), s.read, s.right)
		d.Notes = append(d.Notes,
			"fw.config runs at build time: the value of "+s.read+" is frozen into the build, and setting it on the server changes nothing",
			"set `"+s.right+"` where the app runs (the value written here stays the build-time default)")
	}
	if rest := grouped[one:]; len(rest) > 0 {
		s := rest[0]
		d := pass.ReportValue(s.key.Prop, s.key.Path, "%d more runtimeConfig values read variables other than their own when the app is built, from `runtimeConfig.%s` on: at run time only their own variables override them", len(rest), s.key.Dotted())
		for _, s := range rest {
			d.Notes = append(d.Notes, fmt.Sprintf("`runtimeConfig.%s` reads `%s`: set `%s` where the app runs", s.key.Dotted(), s.read, s.right))
		}
	}
}
