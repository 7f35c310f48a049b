package rules

import (
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleResolvedPathMoved = &Rule{
	Code:     "FW110",
	Name:     "resolved-path-moved",
	Category: Layout,
	Severity: Warning,
	Doc: Doc{
		Summary: "a path the config resolves from its own folder (`resolve('./components')`, `join(__dirname, 'assets/x.css')`) into a source that moves into app/",
		Why: `A config that builds absolute paths from its own folder, with the resolve
of createResolver(import.meta.url), or path.resolve or join with __dirname
or import.meta.dirname (also through a local helper that wraps them:
const fromHere = (p) => resolve(here, p)), names the root's components/,
assets/, ... by their place on disk. The aliases
follow srcDir; these paths do not: once the sources move into app/ they
name folders that are gone, and the framework finds no components, no css,
no layouts there, mostly without an error. (new URL('./x', import.meta.url)
is a reference the move rewrites itself, like an import.)`,
		Example: `const { resolve } = createResolver(import.meta.url)
export default defineFwConfig({
  css: [resolve('./assets/css/main.css')],
  components: [{ path: resolve('./components/app'), global: true }],
})`,
		Fix: `Safe: inserts app/ after the leading ./ of the string
(resolve('./app/assets/css/main.css')), when the path is the config's folder
joined with that one string. In a layout-B project it is made by 'fwmigrate
apply' together with the move (so in a mixed project, whose app/ holds a
module or router.options.ts while the sources are at the root, which apply
moves the same way); with --layout=keep the path stays right and
the rule says nothing. In layout A (sources moved by apply or by hand) a
path that names a missing place whose counterpart is in app/ is reported
and fixed the same way. A path built from several strings or variables is
reported without a fix.`,
	},
	Run: runResolvedPathMoved,
}

func init() { Register(ruleResolvedPathMoved) }

// resolvedPathWords are the words a config must hold for a path resolved
// from its folder: the rule reads the config as code only then.
var resolvedPathWords = [][]byte{[]byte("import.meta"), []byte("__dirname")}

func runResolvedPathMoved(pass *Pass) {
	v, ok := pass.layoutAfter()
	if ok && !v.Moving && !v.Pinned && v.d.Layout == compat.LayoutMixed && explicitSrcDir(pass.Config) == "" {
		// A mixed project (app/ holds a module, router.options.ts and
		// layout-B sources at the root): apply moves its root sources into
		// app/ as it moves a layout-B project's.
		v.Moving = true
	}
	// A project apply moves, or one already in app/ (moved by apply or by
	// hand), whose config may still name the old places.
	if !ok || pass.File == nil || v.Pinned || !v.Moving && v.Src != filepath.Join(v.Root, "app") {
		return
	}
	src := pass.File.Src
	if !code.Triggered(src, resolvedPathWords) {
		return
	}
	moved := v.moved(pass)
	if v.Moving && len(moved) == 0 {
		return
	}
	f := pass.Index.configCode()
	if f.Code == nil {
		return
	}
	root := filepath.Dir(f.Path)
	// movedEntry returns the root entry p lies in ("components/",
	// "app.vue") when it moves into app/, or (in layout A) when p does not
	// exist and its place in app/ does; "" otherwise.
	movedEntry := func(p string) string {
		rel, ok := relFrom(root, p)
		if !ok || rel == "." {
			return ""
		}
		seg := firstSegment(rel)
		if !v.Moving {
			if seg == "app" || pass.Project.Exists(p) || !pass.Project.Exists(filepath.Join(v.Src, filepath.FromSlash(rel))) {
				return ""
			}
			if pass.Project.IsDir(filepath.Join(v.Src, seg)) {
				return seg + "/"
			}
			return seg
		}
		for _, m := range moved {
			if m == seg || m == seg+"/" {
				return m
			}
		}
		return ""
	}
	for _, s := range f.Code.Scripts {
		ast.WalkJS(s.Program, func(n *ast.JSNode, _ []*ast.JSNode) bool {
			if n.Kind != ast.JSCall && n.Kind != ast.JSNew {
				return true
			}
			p, ok := code.StaticPath(f, n, 0)
			if !ok {
				return true
			}
			if holdsImportMetaURL(n) {
				// new URL('./x', import.meta.url) is a reference the move
				// itself rewrites, as it rewrites imports (also inside
				// fileURLToPath(...)).
				return false
			}
			p = strings.TrimPrefix(p, "file://")
			entry := movedEntry(p)
			if entry == "" {
				return true // an argument may be one: new URL(...) inside a call
			}
			shown := strings.TrimSuffix(entry, "/")
			// One message before and after the move, so that apply's report
			// sees the same finding when the move cannot fix it.
			d := pass.Report(n.Loc, optionAt(pass.File, n.Loc), "`%s` resolves to `%s` from the config's folder, but in layout A `%s` is in `app/`",
				string(src[n.Loc.Start:n.Loc.End]), shownRel(root, p, false), entry)
			if v.Moving {
				d.Notes = append(d.Notes, "today the path is right; once the sources move into `app/` it names a place that is gone")
			}
			d.Notes = append(d.Notes, "the aliases follow srcDir; a path built from the config's folder does not")
			if span, fixed, ok := resolvedFix(f, n, root, p); ok {
				d.Fix = &Fix{
					Description:   "insert `app/`: `" + fixed + "`",
					Applicability: Safe,
					Ops:           []rewrite.Op{edit(span, fixed)},
					Layout:        v.fixLayout(),
				}
			} else {
				d.Notes = append(d.Notes, "no automatic fix: the path is not the config's folder joined with one plain string; write it with `app/"+shown+"` by hand")
			}
			return false
		})
	}
}

// resolvedFix finds the one string literal of the path expression n that
// the config's folder root is joined with to give p, and returns the span
// inside its quotes with the string that names p's place in app/ (`./`
// kept); ok is false when there is no such single string, or it is written
// with escapes.
func resolvedFix(f *code.File, n *ast.JSNode, root, p string) (span ast.Span, fixed string, ok bool) {
	var lits []*ast.JSNode
	ast.WalkJS(n, func(m *ast.JSNode, _ []*ast.JSNode) bool {
		if _, isStr := code.StringValue(m); isStr {
			lits = append(lits, m)
		}
		return true
	})
	var hit *ast.JSNode
	for _, m := range lits {
		s, _ := code.StringValue(m)
		if !filepath.IsAbs(s) && filepath.Join(root, filepath.FromSlash(s)) == p {
			if hit != nil {
				return span, "", false
			}
			hit = m
		}
	}
	if hit == nil {
		return span, "", false
	}
	s, _ := code.StringValue(hit)
	span = ast.Span{Start: hit.Loc.Start + 1, End: hit.Loc.End - 1}
	if span.End < span.Start || string(f.Text[span.Start:span.End]) != s {
		return span, "", false
	}
	lead := ""
	for strings.HasPrefix(s[len(lead):], "./") {
		lead += "./"
	}
	rest := s[len(lead):]
	if rest == "" || strings.HasPrefix(rest, "../") || strings.HasPrefix(rest, "/") {
		return span, "", false
	}
	return span, lead + "app/" + rest, true
}

// holdsImportMetaURL reports whether n is or holds `new URL(s,
// import.meta.url)`.
func holdsImportMetaURL(n *ast.JSNode) bool {
	found := false
	ast.WalkJS(n, func(m *ast.JSNode, _ []*ast.JSNode) bool {
		found = m.Kind == ast.JSNew && ast.MemberPath(m.X) == "URL" && len(m.List) == 2 && code.ImportMetaProp(m.List[1]) == "url"
		return !found
	})
	return found
}

// optionAt returns the option path of the innermost property of the config
// whose value holds span, "" when none does (a path built outside the
// config object).
func optionAt(f *ast.File, span ast.Span) string {
	out := ""
	f.Walk(func(path ast.Path, p *ast.Property) bool {
		if p.Value == nil {
			return false
		}
		v := p.Value.Span()
		if v.Start <= span.Start && span.End <= v.End {
			out = path.String()
			return true
		}
		return false
	})
	return out
}
