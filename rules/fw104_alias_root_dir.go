package rules

import (
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleAliasRootDir = &Rule{
	Code:     "FW104",
	Name:     "alias-root-dir",
	Category: Layout,
	Severity: Warning,
	Doc: Doc{
		Summary: "`~/` or `@/` path to a file or folder that stays at the root in layout A (server, public, modules, layers, shared, content, node_modules, any root file)",
		Why: `The ~ and @ aliases are srcDir. In layout B srcDir is the root, so ~/server and
~~/server name the same folder. In layout A srcDir is app/, while server/,
public/, modules/, layers/, shared/, content/, node_modules/ and every file
or folder that is not a source (main.css, a docs/ folder) stay beside the
config: a config value such as modules: ['~/modules/markdown'], css:
['~/main.css'] or css: ['~/node_modules/x/y.css'] then points into app/ and
is not found. The root aliases ~~ and @@ name the root in every layout.
Sources that apply moves into app/ (pages/, components/, app.vue, ...) are
not reported: ~/ follows them.`,
		Example: `export default defineFwConfig({
  modules: ['~/modules/markdown'],
  css: ['~/main.css'],
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
	var sources map[string]bool // root entries that are sources: they follow srcDir
	// Options that hold paths by definition are judged by name as well;
	// strings elsewhere (module options) only when the target exists at the
	// root, so that a word that merely starts with ~/ stays silent.
	check := func(known bool) func(ps pathString) {
		return func(ps pathString) {
			a, rest, ok := splitPathAlias(ps.Value)
			if !ok || a != "~" && a != "@" || !v.appSrc(pass, a) {
				return
			}
			seg := firstSegment(rest)
			if seg == "" || seg == "." || seg == ".." || pass.Project.Exists(filepath.Join(v.Src, seg)) {
				return // a folder of that name in app/ may be what is meant
			}
			if sources == nil {
				sources = v.sourceEntries(pass)
			}
			stays := v.staysAtRoot(pass, staying, sources, rest)
			if stays == "" || !known && seg != "node_modules" && !pass.Project.Exists(filepath.Join(v.Root, seg)) {
				return
			}
			fixed := rootAliasOf(a) + ps.Value[len(a):]
			d := pass.Report(ps.Node.Span(), ps.Option.String(), "`%s` resolves into `app/` in layout A, but `%s` stays at the root: write `%s`", ps.Value, stays, fixed)
			if seg == "node_modules" {
				d.Notes = append(d.Notes, "a package id without the folder (`"+strings.TrimPrefix(rest, "node_modules/")+"`) names it too, where the package exports that path")
			}
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
		}
	}
	pass.pathStrings(check(true))
	pass.otherPathStrings(check(false))
}

// staysAtRoot returns how the root entry that the srcDir-relative path rest
// names is shown ("server/", "main.css") when that entry stays at the root
// in layout A, and "" when it moves with the sources, lies in app/ or does
// not exist. A folder of migration facts §2 (and its dir.* equivalents)
// stays even before it exists; node_modules always stays; any other file or
// folder at the root stays unless it is a source that follows srcDir
// (sources: moved by apply, or left stray for FW101 to move).
func (v layoutView) staysAtRoot(pass *Pass, staying []string, sources map[string]bool, rest string) string {
	target := filepath.Join(v.Root, filepath.FromSlash(rest))
	for _, dir := range staying {
		if pathWithin(target, dir) {
			return shownRel(v.Root, dir, true)
		}
	}
	seg := firstSegment(rest)
	if seg == "node_modules" {
		return "node_modules/"
	}
	if sources[seg] || sources[seg+"/"] {
		return ""
	}
	entry := filepath.Join(v.Root, seg)
	if entry == v.Src || !pass.Project.Exists(entry) {
		return "" // ~/app/x: FW105's doubled app/
	}
	return shownRel(v.Root, entry, pass.Project.IsDir(entry))
}

// sourceEntries are the root-relative names of the root entries that are
// sources following srcDir (directories end in "/"): what apply moves for a
// Moving project, the stray sources of a mixed one.
func (v layoutView) sourceEntries(pass *Pass) map[string]bool {
	names := v.d.Stray
	if v.Moving {
		names = v.moved(pass)
	}
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[n] = true
	}
	return out
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
