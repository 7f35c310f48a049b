package rules

import (
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleDirMeaning = &Rule{
	Code:     "FW108",
	Name:     "dir-meaning",
	Category: Layout,
	Severity: Error,
	Doc: Doc{
		Summary: "a `dir.*` value that names another folder under version 4",
		Why: `dir.assets, dir.layouts, dir.middleware, dir.pages, dir.plugins and dir.app are
read from srcDir, and srcDir becomes app/ in layout A: dir.pages: 'views' then
names app/views. dir.public and dir.modules were read from srcDir and are read
from the root in version 4: with srcDir: 'src', dir.public: 'static' named
src/static and names static/. Either way the framework silently uses another
folder (or none): no routes, no public files, no error. Folders that move into
app/ with the sources keep their value; the rule reports the values whose
folder stays where it is.`,
		Example: `export default defineFwConfig({
  srcDir: 'src',
  dir: { public: 'static' },    // src/static/ today, static/ in version 4
})`,
		Fix: `Safe: sets the option to the value that names today's folder under version 4
(dir.public: 'src/static', dir.pages: '../views'); for dir.app: 'app' in layout
A, deletes the option, whose default is app/ itself in every version. The
values are meant for version 4: apply them with the version step, as
'fwmigrate apply --to=4' does. No fix when a folder would have to move along
with the sources to keep its value, or when both folders exist.`,
	},
	Run: runDirMeaning,
}

func init() { Register(ruleDirMeaning) }

func runDirMeaning(pass *Pass) {
	v, ok := pass.layoutAfter()
	if !ok || v.Pinned {
		return
	}
	d := v.d
	srcNow := d.Current.SrcDir
	if d.Compat == 0 || srcNow == "" {
		return // today's folders are not known
	}
	for _, k := range []string{"app", "assets", "layouts", "middleware", "pages", "plugins", "public", "modules"} {
		option := "dir." + k
		pass.OptionProps(option, func(prefix, path ast.Path, prop *ast.Property) {
			if prop.Kind != ast.PropInit {
				return
			}
			val, _, _, ok := literalString(pass.File, prop.Value)
			if !ok || val == "" || filepath.IsAbs(val) {
				return
			}
			rel := filepath.FromSlash(val)
			fromRoot := k == "public" || k == "modules" // version 4 (migration facts §3)
			today, after := filepath.Join(srcNow, rel), filepath.Join(v.Src, rel)
			if fromRoot {
				after = filepath.Join(v.Root, rel)
				if d.Compat >= 4 {
					today = after
				}
			}
			if today == after {
				return
			}
			if k != "app" {
				if v.Moving && !fromRoot {
					// A top-level folder moves into app/ with the sources
					// and keeps its value.
					if r, ok := relFrom(v.Root, today); ok && r != "." && !strings.Contains(r, "/") {
						return
					}
				}
				if !pass.Project.Exists(today) {
					return // nothing to keep: the value may be written for version 4 already
				}
			} else if today != v.Src && !pass.Project.Exists(today) {
				return
			}
			shown := func(p string) string { return "`" + shownRel(v.Root, p, true) + "`" }
			var diag *Diagnostic
			if fromRoot {
				diag = pass.ReportValue(prop, path, "`%s: '%s'` is read from the root in version 4, not from srcDir: it names %s instead of %s", option, val, shown(after), shown(today))
			} else {
				diag = pass.ReportValue(prop, path, "`%s: '%s'` is read from srcDir, which is %s in layout A: it names %s instead of %s", option, val, shown(v.Src), shown(after), shown(today))
			}
			if k == "app" && today == v.Src {
				diag.Fix = &Fix{
					Description:   "delete `" + option + "`: its default is srcDir itself (`app/`) in layout A, and `app/` in layout B",
					Applicability: Safe,
					Ops:           []rewrite.Op{{Kind: rewrite.OpDelete, Path: path}},
					Layout:        v.fixLayout(),
				}
				return
			}
			if pass.Project.Exists(after) {
				diag.Notes = append(diag.Notes, shown(after)+" exists too: keep the value or change it by hand")
				return
			}
			base := v.Src
			if fromRoot {
				base = v.Root
			}
			keep, err := filepath.Rel(base, today)
			if err != nil {
				return
			}
			keep = filepath.ToSlash(keep)
			if strings.HasPrefix(val, "./") && !strings.HasPrefix(keep, ".") {
				keep = "./" + keep
			}
			if v.Moving {
				top := today
				if r, ok := relFrom(v.Root, today); ok {
					top = firstSegment(r)
				}
				diag.Notes = append(diag.Notes, "the move into `app/` cannot take "+shown(today)+" alone: move `"+top+"/` along (`fwmigrate apply --also="+top+"`) and keep the value, or leave the folder where it is and set `"+option+": '"+keep+"'`")
				return
			}
			diag.Fix = &Fix{
				Description:   "set `" + option + ": '" + keep + "'`, which names " + shown(today) + " under version 4",
				Applicability: Safe,
				Ops:           []rewrite.Op{{Kind: rewrite.OpSet, Path: path, Value: keep}},
			}
			if d.Compat == 3 {
				diag.Notes = append(diag.Notes, "the new value is read the version-4 way: apply it together with the version step (`fwmigrate apply --to=4` does both)")
			}
		})
	}
}
