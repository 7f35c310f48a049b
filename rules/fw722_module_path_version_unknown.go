package rules

import (
	"github.com/fwmigrate/fwmigrate/rules/internal/modpath"
)

var ruleModulePathVersionUnknown = &Rule{
	Code:     "FW722",
	Name:     "module-path-version-unknown",
	Category: Deps,
	Severity: Info,
	Doc: Doc{
		Summary: "a module path option whose meaning after the move depends on the module's version, which the project does not pin (no node_modules, no lockfile, a range across versions)",
		Why: `Where a module reads a path option from changed between its versions:
@nuxtjs/i18n 8.x reads langDir from srcDir, 9.x from the root's i18n/
folder; @fw/content before 2.13 reads content/ from srcDir, 2.13+ from the
root; @pinia/nuxt resolves storesDirs from the root before 0.11.3 and from
srcDir after; shadcn-nuxt expands aliases in componentDir from 2.2.0. A
caret range such as ^8.0.0 || ^9.0.0 resolves to either, and only what is
installed (node_modules) or locked (the lockfile) says which. When neither
is there and the versions the range admits need different things once the
sources move into app/, the rule says what each needs instead of guessing.
FW720 and FW721 report the option once the version is known.`,
		Example: `// package.json: "@nuxtjs/i18n": ">=8.0.0"; no lockfile, no node_modules
export default defineFwConfig({
  modules: ['@nuxtjs/i18n'],
  i18n: { langDir: 'locales' },
})`,
		Fix: `None: install the dependencies (or commit the lockfile) and check again,
or pin the module's range to one line of versions; FW720 or FW721 then
fixes what that version needs.`,
	},
	Run: runModulePathVersionUnknown,
}

func init() { Register(ruleModulePathVersionUnknown) }

func runModulePathVersionUnknown(pass *Pass) {
	for _, f := range pass.modPathFindings() {
		if f.ok || len(f.cases) < 2 || f.which.Known() {
			continue
		}
		s := f.site
		subject := s.subject(pass.File)
		d := pass.Report(s.span(), s.option, "what %s names in layout A (srcDir `app/`) depends on the module's version, and the installed version is unknown", subject)
		d.Notes = append(d.Notes, f.which.Describe())
		for _, c := range f.cases {
			d.Notes = append(d.Notes, s.need(c))
		}
		d.Notes = append(d.Notes, "install the dependencies (`"+pass.Project.Packages().Manager.InstallCommand()+"`) or commit the lockfile, then check again: "+modNextRule(f.cases))
	}
}

// modNextRule names the rules that report the option once the version is
// known.
func modNextRule(cases []modpath.Case) string {
	root, src := false, false
	for _, c := range cases {
		switch {
		case c.Out.Kind == modpath.None || c.Out.Kind == modpath.Unknown:
		case c.Out.Src:
			src = true
		default:
			root = true
		}
	}
	switch {
	case root && src:
		return "FW720 or FW721 then fixes what the installed version needs"
	case src:
		return "FW721 then fixes what the installed version needs"
	}
	return "FW720 then fixes what the installed version needs"
}
