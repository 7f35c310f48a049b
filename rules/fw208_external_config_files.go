package rules

import (
	"path/filepath"
)

var ruleExternalConfigFiles = &Rule{
	Code:     "FW208",
	Name:     "external-config-files",
	Category: Version,
	Severity: Warning,
	Doc: Doc{
		Summary: "bundler, engine or style post-processor config files beside fw.config are not read",
		Why: `The framework configures its bundlers, its server engine and the style
post-processor itself, from the bundlerA, bundlerB, engine and cssproc keys of
fw.config. Root files such as bundlerA.config.ts, bundlerB.config.js,
engine.config.ts or cssproc.config.js are not read (the framework warns
"External configuration files are not supported", B5004), so the settings in
them silently do not apply to the app.`,
		Example: `fw.config.ts
cssproc.config.js   <- ignored: move its plugins into cssproc.plugins`,
		Fix: "",
	},
	Run: runExternalConfigFiles,
}

func init() { Register(ruleExternalConfigFiles) }

// externalConfigs lists the root files of migration facts §11 (B5004) with
// the fw.config key their settings belong in.
var externalConfigs = []struct {
	base string
	exts []string
	key  string
}{
	{"bundlerA.config", []string{"js", "mjs", "ts", "cjs", "mts", "cts"}, "bundlerA"},
	{"bundlerB.config", []string{"js", "mjs", "ts", "cjs", "mts", "cts", "coffee"}, "bundlerB"},
	{"engine.config", []string{"ts", "mts"}, "engine"},
	{"cssproc.config", []string{"js", "cjs"}, "cssproc"},
}

func runExternalConfigFiles(pass *Pass) {
	if pass.Project == nil || pass.Project.Root == "" {
		return
	}
	// One listing of the root rules out most of the 17 names at once.
	listing := pass.Project.List(pass.Project.Root)
	for _, c := range externalConfigs {
		for _, ext := range c.exts {
			name := c.base + "." + ext
			if !listing.MayHold(name) {
				continue
			}
			if p := filepath.Join(pass.Project.Root, name); !pass.Project.Exists(p) || pass.Project.IsDir(p) {
				continue
			}
			d := pass.ReportPath(name, "`%s` is not read by the framework: its settings do not apply; move them into `%s` in the config", name, c.key)
			d.Notes = append(d.Notes, "if another tool (a test runner, an editor plugin) reads this file, keep it and ignore this diagnostic for it")
		}
	}
}
