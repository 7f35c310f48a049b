package rules

import (
	"fmt"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/semver"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleModuleIncompatible = &Rule{
	Code:     "FW703",
	Name:     "module-incompatible",
	Category: Deps,
	Severity: Error,
	Doc: Doc{
		Summary: "a module the config names declares framework versions that exclude the target major",
		Why: `Each module declares the framework versions it supports (meta.compatibility.fw
in its definition, written into its built dist/module.json). On a version
outside that range the framework prints "Module X is disabled due to
incompatibility issues" and goes on: the build still exits 0, and the app
breaks where the module's features were used.
What is known of the module is taken, in order, from its dist/module.json in
node_modules; from fwmigrate's ecosystem table (compat/ecosystem.json: the
declarations of the module's published versions) at the version installed or
locked (package-lock.json, pnpm-lock.yaml, yarn.lock, bun.lock); else from the
table over every version package.json's range allows. The finding names the
first version the table knows to be compatible, and whether package.json's
range already allows it.
A warning instead of an error when only the range is known and it allows
both: the version the install picks decides. Modules that declare nothing
are loaded by the framework and are not reported; modules of which nothing
is known are listed by FW704.`,
		Example: `// package.json: "@nuxtjs/i18n": "~8.2.0" (8.2.0 declares fw: ^3.0.0-rc.11)
export default defineFwConfig({
  modules: ['@nuxtjs/i18n'],
})`,
		Fix: `When package.json's range allows no compatible version and is a plain
range (^, ~, exact), writes the first compatible version in its style
(~8.2.0 becomes ~8.3.2). Unsafe: a newer module version may change its
options and behaviour. When the range already allows it, the finding says
which command gets it (no fix: package.json is right).`,
	},
	Run: runModuleIncompatible,
}

func init() { Register(ruleModuleIncompatible) }

func runModuleIncompatible(pass *Pass) {
	major := depsMajor(pass)
	if major == 0 || pass.File == nil || pass.File.Config == nil {
		return
	}
	p := pass.Project
	ps := p.Packages()
	for _, m := range pass.ConfigModules() {
		f := factsOf(p, m, major)
		if f.admits != compat.No && !f.straddles {
			continue
		}
		first, inRange, allowed := f.firstCompatible(major)
		var d *Diagnostic
		if f.straddles {
			d = pass.Report(m.Span, m.Option, "module %s may be disabled on framework major %d: %s", quote(m.Spec), major, f.why)
			d.Severity = Warning
		} else {
			why := f.why
			if !strings.Contains(why, "exclude") {
				why += fmt.Sprintf(", which excludes major %d", major)
			}
			d = pass.Report(m.Span, m.Option, "module %s is disabled on framework major %d: %s; the framework prints \"Module %s is disabled due to incompatibility issues\" and the build still succeeds", quote(m.Spec), major, why, m.Package)
		}
		install := ps.Manager.InstallCommand()
		switch {
		case inRange != "":
			d.Notes = append(d.Notes, fmt.Sprintf("package.json's `%s` allows %s, which admits major %d: run `%s`", f.dep.Range, inRange, major, updateCommand(ps.Manager.Name, m.Package)))
			if first != "" && first != inRange {
				d.Notes = append(d.Notes, fmt.Sprintf("from %s on, every version the table read admits it", first))
			}
		case first == "":
			mm := f.table.Major(major)
			if mm.LastExcluding != "" {
				d.Notes = append(d.Notes, fmt.Sprintf("no version of %s the table read declares compatibility with major %d: the newest read, %s, still excludes it; replace the module or ask its authors", m.Package, major, mm.LastExcluding))
			}
		case f.dep == nil:
			d.Notes = append(d.Notes, fmt.Sprintf("%s is the first version compatible with major %d; package.json does not list %s: add it", first, major, m.Package))
		case allowed == compat.Yes:
			d.Notes = append(d.Notes, fmt.Sprintf("%s is the first version compatible with major %d, and package.json's `%s` already allows it: run `%s`", first, major, f.dep.Range, updateCommand(ps.Manager.Name, m.Package)))
		case allowed == compat.Unknown:
			d.Notes = append(d.Notes, fmt.Sprintf("%s is the first version compatible with major %d; package.json's `%s` is not a range fwmigrate reads", first, major, f.dep.Range))
		default:
			d.Notes = append(d.Notes, fmt.Sprintf("%s is the first version compatible with major %d; package.json's `%s` does not allow it", first, major, f.dep.Range))
			if ps.Manifest == nil || !f.dep.Plain {
				break
			}
			if nr, ok := restyle(f.dep.Range, semver.MustParse(first)); ok {
				d.Fix = &Fix{
					Description:   fmt.Sprintf("write `%s: %s` in package.json; then run `%s`", m.Package, nr, install),
					Applicability: Unsafe,
					File:          ps.Manifest.Path,
					Ops:           []rewrite.Op{replaceRange(f.dep, nr)},
				}
			} else {
				d.Notes = append(d.Notes, protocolNote(m.Package, f.dep.Range))
			}
		}
	}
}

// updateCommand is the command that updates one package within its range.
func updateCommand(manager, pkg string) string {
	switch manager {
	case "yarn":
		return "yarn upgrade " + pkg
	case "pnpm", "bun":
		return manager + " update " + pkg
	}
	return "npm update " + pkg
}
