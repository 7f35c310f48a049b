package rules

import (
	"fmt"
	"strings"
)

var ruleModulesUnknown = &Rule{
	Code:     "FW704",
	Name:     "modules-unknown",
	Category: Deps,
	Severity: Info,
	Doc: Doc{
		Summary: "modules the config names whose compatibility with the target major nothing says",
		Why: `FW703 reports modules whose declared framework versions exclude the target
major. It knows a module's declaration from its built dist/module.json in
node_modules, or from fwmigrate's ecosystem table at the version installed or
locked. A module that is neither in the table nor installed with its
metadata (or installed at a version the table did not read) cannot be
judged: it is listed here, once per project, so that someone checks it by
hand (its release notes, or an install and 'fw build', whose log names the
disabled modules).`,
		Example: `export default defineFwConfig({
  modules: ['fw-some-module', '@acme/fw-module'],
})`,
		Fix: "None: install the project (node_modules with the modules' dist/module.json) and check again, or read the modules' release notes.",
	},
	Run: runModulesUnknown,
}

func init() { Register(ruleModulesUnknown) }

func runModulesUnknown(pass *Pass) {
	major := depsMajor(pass)
	if major == 0 || pass.File == nil || pass.File.Config == nil {
		return
	}
	var names, notes []string
	first := -1
	mods := pass.ConfigModules()
	for i, m := range mods {
		f := factsOf(pass.Project, m, major)
		if f.unknown == "" || f.table != nil && f.version == "" {
			// Known, or in the table without a version to look up: the
			// table cannot judge, and nothing is unknown about the module.
			continue
		}
		if first < 0 {
			first = i
		}
		names = append(names, quote(m.Spec))
		notes = append(notes, m.Spec+": "+f.unknown)
	}
	if first < 0 {
		return
	}
	span := mods[first].Span
	option := mods[first].Option
	if prop := pass.Lookup("modules"); prop != nil {
		span = prop.KeySpan
		option = "modules"
	}
	what := "module"
	if len(names) > 1 {
		what = fmt.Sprintf("%d modules", len(names))
	}
	d := pass.Report(span, option, "%s %s: nothing fwmigrate can read says whether %s framework major %d", what, strings.Join(names, ", "), pluralVerb(len(names), "it supports", "they support"), major)
	d.Notes = append(d.Notes, notes...)
}

func pluralVerb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
