package rules

import (
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rewrite/move"
	"github.com/fwmigrate/fwmigrate/rules/internal/modpath"
)

var ruleModuleFolderStays = &Rule{
	Code:     "FW721",
	Name:     "module-folder-stays",
	Category: Deps,
	Severity: Warning,
	Doc: Doc{
		Summary: "a module reads a folder from srcDir, but the folder stays at the root when the sources move into app/ (`i18n: { langDir: 'locales' }` on @nuxtjs/i18n 8)",
		Why: `Some modules read a folder from srcDir: @nuxtjs/i18n 8.x its langDir (9.x
too with restructureDir: false), @pinia/nuxt its stores (the default
srcDir/stores in every version, an explicit storesDirs from 0.11.3),
@fw/image its dir, @fw/content 2.x before 2.13 the content/ folder. In
layout B srcDir is the root; in layout A it is app/. The move takes the app
sources by name (pages/, components/, composables/, ...) and the folders the
app code imports through ~/ or @/; a locales/ or stores/ folder that is
neither stays at the root, where the module no longer looks: the
translations, the stores or the images are gone, mostly without an error.

Where each module reads from, per version range, is the data's
(ecosystem.json pathOptions); the version is the one installed
(node_modules), else locked (the lockfile), else package.json's range. When
the range spans versions that read from different places, FW722 says so
instead. @nuxtjs/i18n 9.x and later read langDir from the root's i18n/
folder (restructureDir), @fw/content 2.13+ and 3.x the root content/: the
move changes nothing for them.`,
		Example: `// package.json: "@nuxtjs/i18n": "^8.5.0"; locales/en.json at the root
export default defineFwConfig({
  modules: ['@nuxtjs/i18n'],
  i18n: { langDir: 'locales', locales: [{ code: 'en', file: 'en.json' }] },
})`,
		Fix: `Safe, when the sources move: a folder the module reads from srcDir (i18n's
langDir, pinia's stores) moves into app/ with the sources, in the same
transaction as the move ('fwmigrate apply' adds it to the move, as --also
does, and says why when the move cannot take it: a name already in app/).
@fw/image's dir must keep naming the root's folder (public/ stays at the
root): the string is rewritten to climb out of app/ ('public' becomes
'../public'), byte for byte; so is a value in a folder the move never takes
(langDir: 'shared/locales' becomes '../shared/locales'). @fw/content before 2.13 is reported without a
fix: update it to 2.13 or later, which reads the root content/. In layout A
(sources already in app/) a folder left at the root is reported with the
command that moves it.`,
	},
	Run: runModuleFolderStays,
}

func init() { Register(ruleModuleFolderStays) }

func runModuleFolderStays(pass *Pass) {
	for _, f := range pass.modPathFindings() {
		if !f.ok || !f.out.Src || f.out.Kind == modpath.None || f.out.Kind == modpath.Unknown {
			continue
		}
		s := f.site
		subject := s.subject(pass.File)
		if s.node == nil {
			subject += " (`" + s.defaultText(f) + "`)"
		}
		folder := f.out.Folder
		d := pass.Report(s.span(), s.option, "%s is read from srcDir: in layout A that is `app/%s/`, but `%s/` stays at the root", subject, folder, folder)
		d.Notes = append(d.Notes, f.versionNote())
		switch {
		case move.StaysAtRoot(folder):
			d.Notes = append(d.Notes, "`"+folder+"/` stays at the root in layout A: the move never takes it")
		case f.moving:
			d.Notes = append(d.Notes, "the move takes the app sources by name (pages/, components/, composables/, ...) and the folders the app code imports through `~/` or `@/`; `"+folder+"/` is neither")
		}
		switch f.out.Kind {
		case modpath.MoveFolder:
			if !f.moving {
				d.Notes = append(d.Notes, "move it into app/ with the other sources: `git mv "+folder+" app/"+folder+"`")
				continue
			}
			d.Fix = &Fix{
				Description:   "move `" + folder + "/` into `app/` with the sources",
				Applicability: Safe,
				Also:          []string{folder},
				Layout:        MoveOnly,
			}
		case modpath.Rewrite:
			text := f.out.Texts[0]
			if !s.raw || s.node == nil {
				d.Notes = append(d.Notes, "no automatic fix: the string is written with escapes; write `"+text+"` by hand")
				continue
			}
			d.Fix = &Fix{
				Description:   "write `" + text + "`: `" + folder + "/` stays at the root",
				Applicability: Safe,
				Ops:           []rewrite.Op{edit(s.contents, text)},
				Layout:        f.layout,
			}
		case modpath.Advice:
			d.Notes = append(d.Notes, f.out.Advice)
		}
	}
}
