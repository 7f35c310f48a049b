package rules

import (
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleCSSRelative = &Rule{
	Code:     "FW106",
	Name:     "css-relative",
	Category: Layout,
	Severity: Warning,
	Doc: Doc{
		Summary: "`css` entry starting with ./ or ../: resolved as a module id, not relative to the config",
		Why: `The framework resolves css entries as module ids, not as paths relative to
fw.config: './assets/main.css' does not mean the file next to the config, and
the framework itself warns about it. An alias says where the file is in every
layout: ~/ for srcDir, ~~/ for the root.`,
		Example: `export default defineFwConfig({
  css: ['./assets/main.css'],
})`,
		Fix: `Safe, and only offered when exactly one file matches: the entry read from the
config's folder or from srcDir. Rewrites the string to ~/... when that file is
in srcDir (or moves there with the sources) and to ~~/... when it stays at the
root, keeping its quotes.`,
	},
	Run: runCSSRelative,
}

func init() { Register(ruleCSSRelative) }

func runCSSRelative(pass *Pass) {
	v, known := pass.layoutAfter()
	root := pass.Project.Root
	var moved map[string]bool
	if known && v.Moving {
		moved = map[string]bool{}
		for _, m := range v.moved(pass) {
			moved[strings.TrimSuffix(m, "/")] = true
		}
	}
	pass.pathStrings(func(ps pathString) {
		if _, opt := SplitEnvPrefix(ps.Option); opt.String() != "css" {
			return
		}
		if !strings.HasPrefix(ps.Value, "./") && !strings.HasPrefix(ps.Value, "../") {
			return
		}
		fixed, why := "", ""
		if known {
			fixed, why = cssTarget(pass, v, moved, root, ps.Value)
		}
		var d *Diagnostic
		if fixed != "" {
			d = pass.Report(ps.Node.Span(), ps.Option.String(), "`css` entry `%s` is resolved as a module id, not relative to `fw.config`: write `%s`", ps.Value, fixed)
		} else {
			d = pass.Report(ps.Node.Span(), ps.Option.String(), "`css` entry `%s` is resolved as a module id, not relative to `fw.config`: write it with `~/` (srcDir) or `~~/` (the root)", ps.Value)
			if why != "" {
				d.Notes = append(d.Notes, why)
			}
			return
		}
		if !ps.Raw {
			d.Notes = append(d.Notes, "the string is written with escapes: change it by hand")
			return
		}
		d.Fix = &Fix{
			Description:   "write the entry with an alias: `" + fixed + "`",
			Applicability: Safe,
			Ops:           []rewrite.Op{{Kind: rewrite.OpReplace, Span: ps.Contents, Text: fixed}},
		}
	})
}

// cssTarget returns the aliased spelling of a relative css entry when
// exactly one file matches it, else "" and why not.
func cssTarget(pass *Pass, v layoutView, moved map[string]bool, root, value string) (string, string) {
	rel := filepath.FromSlash(value)
	fromRoot := filepath.Join(root, rel)
	src := v.Src
	if v.Moving {
		src = root // the files are still at the root; ~ follows them into app/
	}
	fromSrc := filepath.Join(src, rel)
	var target string
	switch a, b := pass.Project.IsFile(fromRoot), pass.Project.IsFile(fromSrc); {
	case a && (b && fromRoot == fromSrc || !b):
		target = fromRoot
	case b && !a:
		target = fromSrc
	case a && b:
		return "", "both `" + shownRel(root, fromRoot, false) + "` and `" + shownRel(root, fromSrc, false) + "` exist"
	case fromRoot == fromSrc:
		return "", "`" + shownRel(root, fromRoot, false) + "` does not exist, so where it is meant to be is not known"
	default:
		return "", "neither `" + shownRel(root, fromRoot, false) + "` nor `" + shownRel(root, fromSrc, false) + "` exists, so where it is meant to be is not known"
	}
	defaultAlias := func(name string) bool {
		_, st := pass.Config.Value("alias." + name)
		return st == compat.Absent
	}
	// ~ is srcDir; for a project being moved, only what moves into app/
	// stays under ~.
	if r, ok := relFrom(src, target); ok && r != "." && (!v.Moving || moved[firstSegment(r)]) && defaultAlias("~") {
		return "~/" + r, ""
	}
	if r, ok := relFrom(root, target); ok && r != "." && defaultAlias("~~") {
		return "~~/" + r, ""
	}
	return "", "`" + shownRel(root, target, false) + "` lies outside the project root, where no alias reaches"
}
