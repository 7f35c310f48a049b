package rules

import (
	"strings"

	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules/internal/modpath"
)

var ruleModulePathMoved = &Rule{
	Code:     "FW720",
	Name:     "module-path-moved",
	Category: Deps,
	Severity: Warning,
	Doc: Doc{
		Summary: "a module option that the module resolves from the config's folder names a folder that moves into app/ (`shadcn: { componentDir: './components/ui' }`)",
		Why: `Some modules resolve a path option from the config's folder (the root),
not from srcDir: shadcn-nuxt's componentDir (aliases expanded only from
2.2.0), @fw/icon's customCollections[].dir, @pinia/nuxt's storesDirs before
0.11.3, @nuxtjs/tailwindcss' cssPath written without ~/. In layout B the root
is srcDir, so './components/ui' names the components; once the sources move
into app/ it names a folder that is gone, and the module finds nothing,
mostly without an error (tailwind falls back to its own CSS). The same holds
for shadcn-nuxt's default './components/ui' before 2.2.0.

Where each option resolves from, per version range, is the data's
(ecosystem.json pathOptions, read in each module's published files); the
version is the one installed (node_modules), else locked (the lockfile),
else package.json's range. When the range spans versions that need
different things, FW722 says so instead. The object-form base of
@fw/content 2.x sources is passed on unresolved to the server engine's
storage: a relative base into a moving folder is reported at info, without
a fix. Options that name root files (tailwindcss.configPath,
unocss.configFile, vuetify's config files) are not touched by the move.`,
		Example: `// package.json: "shadcn-nuxt": "^2.1.0"
export default defineFwConfig({
  modules: ['shadcn-nuxt'],
  shadcn: { componentDir: './components/ui' },
})`,
		Fix: `Safe: rewrites the string inside its quotes, byte for byte, as FW110 does for
the config's own paths: './components/ui' becomes './app/components/ui'
(right once the sources move: made by 'fwmigrate apply' with the move);
where every version the project may have expands aliases, with the srcDir
alias instead ('@/components/ui' for shadcn-nuxt 2.2.0+, '~/assets/...' for
tailwindcss' cssPath), which is right in either layout. An unset option
whose default breaks is set (shadcn.componentDir: './app/components/ui').
A string written with escapes, or an option object that is not a literal,
is reported without a fix. In layout A (sources already in app/), a path
that names a missing place whose counterpart is in app/ is reported and
fixed the same way.`,
	},
	Run: runModulePathMoved,
}

func init() { Register(ruleModulePathMoved) }

func runModulePathMoved(pass *Pass) {
	for _, f := range pass.modPathFindings() {
		if !f.ok || f.out.Src || f.out.Kind != modpath.Rewrite && f.out.Kind != modpath.Advice {
			continue
		}
		s := f.site
		d := pass.Report(s.span(), s.option, "%s resolves from the config's folder, but in layout A `%s/` is in `app/`", s.subject(pass.File), f.out.Folder)
		if s.node == nil {
			d.Message = s.subject(pass.File) + " (`" + s.defaultText(f) + "`) resolves from the config's folder, but in layout A `" + f.out.Folder + "/` is in `app/`"
		}
		d.Notes = append(d.Notes, f.versionNote())
		if f.out.Kind == modpath.Advice {
			d.Severity = Info
			d.Message = s.subject(pass.File) + " " + f.out.Says + "; there it names `" + f.out.Folder + "/`, which moves into `app/`"
			d.Notes = append(d.Notes, "not checked: "+f.out.Advice)
			continue
		}
		if f.moving {
			d.Notes = append(d.Notes, "today the path is right; once the sources move into `app/` it names a place that is gone")
		}
		text := f.out.Texts[0]
		layout := f.layout
		if strings.HasPrefix(text, s.spec.Alias+"/") && s.spec.Alias != "" {
			layout = AnyLayout
			who := "every version package.json admits"
			if f.which.Known() {
				who = f.which.Module + " " + f.which.Version
			}
			d.Notes = append(d.Notes, who+" expands `"+s.spec.Alias+"/` to srcDir, which follows the sources in either layout")
		}
		switch {
		case s.node == nil && s.setAt != nil:
			d.Fix = &Fix{
				Description:   "set `" + s.setAt.String() + ": '" + text + "'`",
				Applicability: Safe,
				Ops:           []rewrite.Op{{Kind: rewrite.OpSet, Path: s.setAt, Value: text}},
				Layout:        layout,
			}
		case s.node == nil:
			d.Notes = append(d.Notes, "no automatic fix: the module's options are not a plain object here; set `"+s.shown+": '"+text+"'` by hand")
		case !s.raw:
			d.Notes = append(d.Notes, "no automatic fix: the string is written with escapes; write `"+text+"` by hand")
		default:
			d.Fix = &Fix{
				Description:   "write `" + text + "`",
				Applicability: Safe,
				Ops:           []rewrite.Op{edit(s.contents, text)},
				Layout:        layout,
			}
		}
	}
}
