package rules

import (
	"path/filepath"

	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleAliasRootDir = &Rule{
	Code:     "FW104",
	Name:     "alias-root-dir",
	Category: Layout,
	Severity: Warning,
	Doc: Doc{
		Summary: "`~/` or `@/` path into a folder that stays at the root in layout A (server, public, modules, layers, shared, content)",
		Why: `The ~ and @ aliases are srcDir. In layout B srcDir is the root, so ~/server and
~~/server name the same folder. In layout A srcDir is app/, while server/,
public/, modules/, layers/, shared/ and content/ stay beside the config: a
config value such as modules: ['~/modules/markdown'] or css:
['~/public/base.css'] then points into app/ and is not found. The root
aliases ~~ and @@ name the root in every layout.`,
		Example: `export default defineFwConfig({
  modules: ['~/modules/markdown'],
})`,
		Fix: `Safe: replaces ~/ with ~~/ (and @/ with @@/) inside the string, keeping its
quotes. In layout B both name the same path, so the fix changes nothing until
the sources move into app/; in layout A it restores the folder that was meant.`,
	},
	Run: runAliasRootDir,
}

func init() { Register(ruleAliasRootDir) }

func runAliasRootDir(pass *Pass) {
	v, ok := pass.layoutAfter()
	if !ok {
		return
	}
	staying := v.rootStayingDirs()
	pass.pathStrings(func(ps pathString) {
		a, rest, ok := splitPathAlias(ps.Value)
		if !ok || a != "~" && a != "@" || !v.appSrc(pass, a) {
			return
		}
		seg := firstSegment(rest)
		if seg == "" || seg == "." || seg == ".." || pass.Project.Exists(filepath.Join(v.Src, seg)) {
			return // a folder of that name in app/ may be what is meant
		}
		target := filepath.Join(v.Root, filepath.FromSlash(rest))
		stays := ""
		for _, dir := range staying {
			if pathWithin(target, dir) {
				stays = shownRel(v.Root, dir, true)
				break
			}
		}
		if stays == "" {
			return
		}
		fixed := rootAliasOf(a) + ps.Value[len(a):]
		d := pass.Report(ps.Node.Span(), ps.Option.String(), "`%s` resolves into `app/` in layout A, but `%s` stays at the root: write `%s`", ps.Value, stays, fixed)
		if v.Moving {
			d.Notes = append(d.Notes, "today `"+a+"` is the root, so both spellings name the same path; once the sources move into `app/` only `"+rootAliasOf(a)+"/` does")
		}
		if !ps.Raw {
			d.Notes = append(d.Notes, "the string is written with escapes: change it by hand")
			return
		}
		d.Fix = &Fix{
			Description:   "replace `" + a + "/` with `" + rootAliasOf(a) + "/`: `" + fixed + "`",
			Applicability: Safe,
			Ops:           []rewrite.Op{{Kind: rewrite.OpReplace, Span: ps.Contents, Text: fixed}},
		}
	})
}

// rootStayingDirs are the folders that stay at the root in layout A: the
// fixed names of migration facts §2, and serverDir, dir.public, dir.modules
// and dir.shared as version 4 resolves them, when they lie outside srcDir.
func (v layoutView) rootStayingDirs() []string {
	var out []string
	for _, n := range rootStaying {
		out = append(out, filepath.Join(v.Root, n))
	}
	r := &v.d.V4
	for _, p := range []string{r.ServerDir, r.Dir["public"], r.Dir["modules"], r.Dir["shared"]} {
		if p != "" && pathWithin(p, v.Root) && p != v.Root && !pathWithin(p, v.Src) {
			out = append(out, p)
		}
	}
	return out
}
