package rules

import (
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleDoubledApp = &Rule{
	Code:     "FW105",
	Name:     "doubled-app",
	Category: Layout,
	Severity: Warning,
	Doc: Doc{
		Summary: "`~/app/...` in layout A resolves to app/app/...",
		Why: `In layout A the ~ and @ aliases are app/ itself, so ~/app/components names
app/app/components, which does not exist: the framework reports the file as not
found (css) or silently scans nothing (components and auto-import dirs). The
same holds for imports.dirs entries written from srcDir (app/composables).
Values like these are usually left over from layout B, where ~ was the root.`,
		Example: `export default defineFwConfig({
  components: { dirs: [{ path: '~/app/components' }] },
})`,
		Fix: `Safe: removes the doubled app/ inside the string, keeping its quotes
(~/app/components becomes ~/components). In a layout-B project the fix belongs
to the move into app/ that 'fwmigrate apply' makes; with --layout=keep the
value is right as it is and the rule says nothing.`,
	},
	Run: runDoubledApp,
}

func init() { Register(ruleDoubledApp) }

func runDoubledApp(pass *Pass) {
	v, ok := pass.layoutAfter()
	if !ok {
		return
	}
	pass.pathStrings(func(ps pathString) {
		var fixed, doubled, inner string
		if a, rest, ok := splitPathAlias(ps.Value); ok {
			if a != "~" && a != "@" || !v.appSrc(pass, a) {
				return
			}
			var ok bool
			if inner, ok = cutApp(rest); !ok {
				return
			}
			fixed, doubled = a+"/"+inner, filepath.Join(v.Src, "app", filepath.FromSlash(inner))
			if inner == "" && !strings.HasSuffix(rest, "/") {
				fixed = a // ~/app is srcDir itself
			}
		} else if _, opt := SplitEnvPrefix(ps.Option); opt.String() == "imports.dirs" && v.Src == filepath.Join(v.Root, "app") && !v.Pinned {
			// imports.dirs entries resolve against srcDir (migration facts §2).
			lead, body := "", ps.Value
			if strings.HasPrefix(body, "./") {
				lead, body = "./", body[2:]
			}
			var ok bool
			if inner, ok = cutApp(body); !ok || inner == "" {
				return
			}
			fixed, doubled = lead+inner, filepath.Join(v.Src, "app", filepath.FromSlash(inner))
		} else {
			return
		}
		if pass.Project.Exists(doubled) || hasGlobPrefixDir(pass.Project, doubled) {
			return // app/app/... is real
		}
		d := pass.Report(ps.Node.Span(), ps.Option.String(), "`%s` resolves to `%s` in layout A, where srcDir is `app/` itself: write `%s`", ps.Value, shownRel(v.Root, doubled, false), fixed)
		if v.Moving {
			today := strings.TrimSuffix("app/"+inner, "/")
			d.Notes = append(d.Notes, "today srcDir is the root, so the value names `"+today+"` and is right; once the sources move into `app/` it must be `"+fixed+"`")
		}
		if !ps.Raw {
			d.Notes = append(d.Notes, "the string is written with escapes: change it by hand")
			return
		}
		d.Fix = &Fix{
			Description:   "remove the doubled `app/`: `" + fixed + "`",
			Applicability: Safe,
			Ops:           []rewrite.Op{{Kind: rewrite.OpReplace, Span: ps.Contents, Text: fixed}},
			Layout:        v.fixLayout(),
		}
	})
}

// cutApp strips a leading "app/" (or a lone "app") from a relative path.
func cutApp(rel string) (string, bool) {
	if rel == "app" {
		return "", true
	}
	return strings.CutPrefix(rel, "app/")
}

// hasGlobPrefixDir reports that the literal folder in front of a glob
// (app/app/stores for app/app/stores/**) exists.
func hasGlobPrefixDir(pr *project.Project, p string) bool {
	i := strings.IndexAny(p, "*?[{")
	if i < 0 {
		return false
	}
	return pr.IsDir(filepath.Dir(p[:i] + "x"))
}
