package rules

import (
	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleDirStatic = &Rule{
	Code:     "FW107",
	Name:     "dir-static",
	Category: Layout,
	Severity: Error,
	Doc: Doc{
		Summary: "`dir.static` was removed: version 4 ignores it",
		Why: `In version 3, dir.static is a deprecated alias of dir.public: when dir.public is
not set, the public directory falls back to dir.static. Version 4 removed the
option from the schema and ignores it silently, so a project that names its
public directory through dir.static stops serving it, with no error.`,
		Example: `export default defineFwConfig({
  dir: { static: 'static' },
})`,
		Fix: `Safe. When dir.public is not set, renames dir.static to dir.public (the
directory served stays the same). When dir.public is set too, it already won
over dir.static, so dir.static is deleted.`,
	},
	Run: runDirStatic,
}

func init() { Register(ruleDirStatic) }

func runDirStatic(pass *Pass) {
	pass.OptionProps("dir.static", func(prefix, path ast.Path, prop *ast.Property) {
		d := pass.ReportProperty(prop, path, "`dir.static` is ignored in version 4: the public directory is `dir.public`")
		if prop.KeyKind == ast.KeyComputed {
			return
		}
		public := prop.Parent.Get("public")
		switch {
		case public != nil:
			d.Notes = append(d.Notes, "`dir.public` is set too and already wins over `dir.static`")
			d.Fix = &Fix{
				Description:   "delete `dir.static`",
				Applicability: Safe,
				Ops:           []rewrite.Op{{Kind: rewrite.OpDelete, Path: path}},
			}
		case prop.Parent.HasSpread():
			d.Notes = append(d.Notes, "the `dir` object has a spread that may set `public`: rename it by hand")
		default:
			d.Fix = &Fix{
				Description:   "rename `dir.static` to `dir.public`",
				Applicability: Safe,
				Ops:           []rewrite.Op{{Kind: rewrite.OpRename, Path: path, To: join(path[:len(path)-1], "public")}},
			}
		}
	})
}
