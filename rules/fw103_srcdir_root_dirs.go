package rules

import (
	"path/filepath"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleSrcDirRootDirs = &Rule{
	Code:     "FW103",
	Name:     "srcdir-root-dirs",
	Category: Layout,
	Severity: Error,
	Doc: Doc{
		Summary: "server/, public/ or modules/ inside a custom srcDir: version 4 looks for them at the root",
		Why: `Under compatibility version 3, serverDir, dir.public and dir.modules default to
folders inside srcDir. Version 4 resolves them from rootDir. A project with
srcDir: 'src' and a src/server, src/public or src/modules folder loses them on
the upgrade without an error: server routes are no longer registered, public
files are no longer served, local modules are no longer loaded.`,
		Example: `export default defineFwConfig({
  srcDir: 'src',         // with src/server/api/hello.ts on disk
})`,
		Fix: `Sets the option to the folder as written from the root (serverDir: 'src/server',
dir.public: 'src/public', dir.modules: 'src/modules'), so that version 4 keeps
using it. Safe when the project runs with compatibility version 3 today (the
folder keeps its role); unsafe when it already runs with version 4, where the
folder is unused today and the fix starts using it. dir.public and dir.modules
are read from the root only from version 4 on: apply the fix with the version
step, as 'fwmigrate apply --to=4' does.`,
	},
	Run: runSrcDirRootDirs,
}

func init() { Register(ruleSrcDirRootDirs) }

// srcDirRootDirs are the folders that move from srcDir to rootDir in
// version 4 (migration facts §2, §3), with the option that names each and
// what the framework does with it.
var srcDirRootDirs = []struct {
	name, option, role string
	resolved           func(r *compat.Resolution) string
}{
	{"server", "serverDir", "registered", func(r *compat.Resolution) string { return r.ServerDir }},
	{"public", "dir.public", "served", func(r *compat.Resolution) string { return r.Dir["public"] }},
	{"modules", "dir.modules", "loaded", func(r *compat.Resolution) string { return r.Dir["modules"] }},
}

func runSrcDirRootDirs(pass *Pass) {
	d := pass.Project.Detection
	s := explicitSrcDir(pass.Config)
	if d == nil || pass.Target < 4 || s == "" {
		return
	}
	src := filepath.Join(d.Root, s)
	if filepath.IsAbs(s) {
		src = filepath.Clean(s)
	}
	if src == d.Root {
		return
	}
	for _, k := range srcDirRootDirs {
		if optionMaySet(pass, k.option) || k.name == "public" && optionMaySet(pass, "dir.static") {
			continue // explicit values: FW108 (dir.*) and FW107 (dir.static) judge them
		}
		old := filepath.Join(src, k.name)
		now := k.resolved(&d.V4)
		if now == "" || now == old || !pass.Project.IsDir(old) {
			continue
		}
		shown := shownRel(d.Root, old, true)
		diag := pass.ReportPath(shown, "`%s` is not %s under version 4: `%s` resolves from the root, not from srcDir, and names `%s`", shown, k.role, k.option, shownRel(d.Root, now, true))
		diag.Option = k.option
		if pass.Project.IsDir(now) {
			diag.Notes = append(diag.Notes, "`"+shownRel(d.Root, now, true)+"` exists too: keep one of the two by hand")
			continue
		}
		rel, ok := relFrom(d.Root, old)
		if !ok {
			diag.Notes = append(diag.Notes, "it lies outside the project root: set `"+k.option+"` to its absolute path, or move it")
			continue
		}
		fix := &Fix{
			Description:   "set `" + k.option + ": '" + rel + "'` (written from the root)",
			Applicability: Safe,
			Ops:           []rewrite.Op{{Kind: rewrite.OpSet, Path: ast.ParsePath(k.option), Value: rel}},
		}
		switch d.Compat {
		case 3:
			if k.name != "server" {
				diag.Notes = append(diag.Notes, "with compatibility version 3 `"+k.option+"` is read from srcDir: apply the fix together with the version step (`fwmigrate apply --to=4` does both)")
			}
		case 0:
			fix.Applicability = Unsafe
			fix.Description += "; the compatibility version is only known at run time, so whether the folder is used today is not known"
		default:
			fix.Applicability = Unsafe
			fix.Description += "; the project already runs with version 4, where the folder is unused: the fix starts using it"
		}
		if pass.File != nil && pass.File.Config != nil {
			diag.Fix = fix
		}
	}
}

// optionMaySet reports whether the config sets option, or might: at the top
// level or in an environment override, statically or at run time.
func optionMaySet(pass *Pass, option string) bool {
	if _, st := pass.Config.Value(option); st != compat.Absent {
		return true
	}
	set := false
	pass.OptionProps(option, func(prefix, path ast.Path, prop *ast.Property) { set = true })
	return set
}
