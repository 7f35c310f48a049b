package rules

import (
	"strconv"
	"strings"
)

// CodeExtendsCycle is reported when a config's layers extend it back.
const CodeExtendsCycle = "FW906"

var ruleExtendsCycle = &Rule{
	Code:           CodeExtendsCycle,
	Name:           "extends-cycle",
	Category:       Tool,
	Severity:       Error,
	Unsuppressible: true,
	Doc: Doc{
		Summary: "a layer in `extends` or `theme` extends this config back",
		Why: `When layer a extends b and b extends a, the framework's loader follows the
chain without end: the project cannot start. fwmigrate loads each layer once,
reports the cycle in every config on it, at the entry that leads back, and goes
on with the other projects; the run exits with status 2.`,
		Example: `// a/fw.config.ts
export default defineFwConfig({ extends: ['../b'] })
// b/fw.config.ts
export default defineFwConfig({ extends: ['../a'] })`,
		Fix: "",
	},
	Run: runExtendsCycle,
}

func init() { Register(ruleExtendsCycle) }

func runExtendsCycle(pass *Pass) {
	for _, r := range pass.Project.Extends {
		if r.Cycle == nil {
			continue
		}
		var chain []string
		for _, s := range r.Cycle {
			chain = append(chain, strconv.Quote(s))
		}
		d := pass.Report(r.Span, r.Option, "extends cycle: %s leads back to this config", strings.Join(chain, " → "))
		d.Notes = append(d.Notes, "the framework cannot load a layer that extends itself; remove one of the entries on the cycle")
	}
}
