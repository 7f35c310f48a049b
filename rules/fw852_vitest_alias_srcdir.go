package rules

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleVitestAlias = &Rule{
	Code:     "FW852",
	Name:     "vitest-alias-srcdir",
	Category: Types,
	Severity: Warning,
	Doc: Doc{
		Summary: "an alias of the test runner's config (`~`, `@`, `#imports`) that resolves to the project's root, where version 4's srcDir is app/",
		Why: `The framework's ~ and @ name srcDir. A vitest.config.* (or vitest.workspace.*)
that sets them by hand from the config's folder (resolve(__dirname, '.'),
fileURLToPath(new URL('./', import.meta.url)), import.meta.dirname) names the
root, which was srcDir in layout B; in version 4 srcDir is app/ (the sources
move there, or already are in a layout-A tree that version 3 read from the
root), so the tests' imports of ~/components/... no longer resolve: the tests
fail to load, and the type checker's paths (which follow srcDir) no longer
agree with the test runner. The framework's own aliases ~~ and @@ name the root
and are right. Other paths of the test config that name moved folders
(include globs, a setup file, an alias into components/) and the tests' own
imports of moved files are rewritten by the move itself, like any import.
Found: alias entries of an alias object or list (resolve.alias, test.alias,
in the config or a workspace project) whose value is a path fwmigrate can
follow to the root. Not reported when the config sets alias.~ or alias.@
itself, or keeps layout B (srcDir: '.').
Which test helper the target expects (the framework's test module,
@fw/test-utils, sets up aliases of its own) is not in fwmigrate's data: the
spec (typescript-contexts.md, migration-facts.md) does not say, so the rule does
not ask for one.`,
		Example: `// vitest.config.ts, layout B
export default defineConfig({
  resolve: { alias: { '~': fileURLToPath(new URL('./', import.meta.url)) } },
})`,
		Fix: `Safe: points the alias at app/: the one string of the path that names the root
becomes './app/' ('./' kept, the trailing slash too), resolve(__dirname)
becomes resolve(__dirname, 'app'), a bare __dirname or import.meta.dirname
becomes a template string ending in /app. In a layout-B project the fix is made
by apply with the move (none with --layout=keep). A path built another way is
reported without a fix.`,
	},
	Run: runVitestAlias,
}

func init() { Register(ruleVitestAlias) }

// vitestAliases are the alias names that mean srcDir (and the framework's
// auto-imports module, which a test config may point anywhere).
var vitestAliases = map[string]bool{"~": true, "@": true, "~/": true, "@/": true, "#imports": true}

func runVitestAlias(pass *Pass) {
	v, ok := pass.layoutAfter()
	if !ok || v.Pinned || v.Src == v.Root || !v.appSrc(pass, "~") || !v.appSrc(pass, "@") {
		return
	}
	for _, f := range pass.Index.vitestFiles() {
		for _, e := range vitestAliasEntries(f) {
			p, ok := aliasPath(f, e.value)
			if !ok || filepath.Clean(p) != v.Root {
				continue
			}
			d := pass.reportCode(f, e.value.Loc, "", "the test runner's alias `%s` resolves to the project's root, where srcDir was; in version 4 srcDir is `%s/`", e.name, relOrAbs(v.Root, v.Src))
			d.Notes = append(d.Notes, "imports of `"+strings.TrimSuffix(e.name, "/")+"/...` in the tests resolve against the root, where the app's sources are no longer")
			if span, text, ok := vitestAliasFix(f, e.value, v.Root, v.Src); ok {
				value := string(f.Text[e.value.Loc.Start:span.Start]) + text + string(f.Text[span.End:e.value.Loc.End])
				d.Fix = codeFix(f, "point `"+e.name+"` at "+relOrAbs(v.Root, v.Src)+"/: "+excerptOf([]byte(value), ast.Span{End: len(value)}), Safe, edit(span, text))
				if d.Fix != nil {
					d.Fix.Layout = v.fixLayout()
				}
			} else {
				d.Notes = append(d.Notes, "no automatic fix: the path is not written as the config's folder with one plain string, resolve(__dirname) or a bare __dirname: point it at "+relOrAbs(v.Root, v.Src)+"/ by hand")
			}
			if v.Moving {
				d.Notes = append(d.Notes, "right today; wrong once apply moves the sources into app/")
			}
		}
	}
}

// relOrAbs is p relative to root, slash-separated, or p when outside.
func relOrAbs(root, p string) string {
	if rel, ok := pathx.Rel(root, p); ok {
		return filepath.ToSlash(rel)
	}
	return p
}

// vitestFiles returns the test runner's configs at the root, parsed (the
// ones that parse at all), once per check.
func (x *Index) vitestFiles() []*code.File {
	x.vitestOnce.Do(func() {
		tfs, _ := x.project.VitestConfigs()
		for _, tf := range tfs {
			f := &code.File{Path: tf.Path, Display: tf.Display, Rel: filepath.Base(tf.Path), Text: tf.Src}
			f.Code, f.Err = x.project.ReadCode(f.Path, f.Text)
			if f.Code != nil {
				x.vitest = append(x.vitest, f)
			}
		}
	})
	return x.vitest
}

// aliasEntry is one alias a test config sets: its name and value.
type aliasEntry struct {
	name  string
	value *ast.JSNode
}

// vitestAliasEntries returns the entries of f's alias objects ({ '~': v })
// and lists ([{ find: '~', replacement: v }]) whose name is one of
// vitestAliases.
func vitestAliasEntries(f *code.File) []aliasEntry {
	var out []aliasEntry
	code.Walk(f, func(n *ast.JSNode, _ []*ast.JSNode, _ *ast.TemplateExpr) bool {
		if n.Kind != ast.JSProperty || n.Has(ast.FlagComputed) || n.Name != "alias" || n.Y == nil {
			return true
		}
		switch val := n.Y; val.Kind {
		case ast.JSObject:
			for _, p := range val.List {
				if p.Kind == ast.JSProperty && !p.Has(ast.FlagComputed) && vitestAliases[p.Name] && p.Y != nil && p.Op == "" {
					out = append(out, aliasEntry{p.Name, p.Y})
				}
			}
		case ast.JSArray:
			for _, el := range val.List {
				find, repl := code.ObjProp(el, "find"), code.ObjProp(el, "replacement")
				if find == nil || repl == nil || repl.Y == nil {
					continue
				}
				if name, ok := code.StringValue(find.Y); ok && vitestAliases[name] {
					out = append(out, aliasEntry{name, repl.Y})
				}
			}
		}
		return true
	})
	return out
}

// aliasPath is the directory an alias value names, when it can be
// followed statically: a path built from the config's folder (code.
// StaticPath), or a file URL's pathname. A plain string is left out: the
// test runner takes a relative one as it is.
func aliasPath(f *code.File, n *ast.JSNode) (string, bool) {
	if _, ok := code.StringValue(n); ok {
		return "", false
	}
	if n.Kind == ast.JSMember && !n.Has(ast.FlagComputed) && n.Name == "pathname" {
		n = n.X
	}
	p, ok := code.StaticPath(f, n, 0)
	if !ok {
		return "", false
	}
	return strings.TrimPrefix(p, "file://"), true
}

// vitestAliasFix returns the edit that makes the alias value n, which
// names root, name src instead.
func vitestAliasFix(f *code.File, n *ast.JSNode, root, src string) (ast.Span, string, bool) {
	rel, ok := pathx.Under(root, src)
	if !ok {
		return ast.Span{}, "", false
	}
	// The one string that names the root.
	var hit *ast.JSNode
	count := 0
	ast.WalkJS(n, func(m *ast.JSNode, _ []*ast.JSNode) bool {
		if s, ok := code.StringValue(m); ok && !filepath.IsAbs(s) && filepath.Join(root, filepath.FromSlash(s)) == root {
			hit = m
			count++
		}
		return true
	})
	if count > 1 {
		return ast.Span{}, "", false
	}
	if hit != nil {
		s, _ := code.StringValue(hit)
		span := ast.Span{Start: hit.Loc.Start + 1, End: hit.Loc.End - 1}
		if span.End < span.Start || string(f.Text[span.Start:span.End]) != s {
			return ast.Span{}, "", false
		}
		out := "./" + rel
		if s == "" {
			out = rel
		}
		if strings.HasSuffix(s, "/") {
			out += "/"
		}
		return span, out, true
	}
	q := f.QuoteAt(n.Loc, nil)
	switch {
	case n.Kind == ast.JSCall && (code.PathFunc(f, n.X) == "resolve" || code.PathFunc(f, n.X) == "join") && f.Text[n.Loc.End-1] == ')':
		at := n.Loc.End - 1
		if len(n.List) == 0 {
			return ast.Span{Start: at, End: at}, q + rel + q, true
		}
		last := n.List[len(n.List)-1].Loc.End
		return ast.Span{Start: last, End: last}, ", " + q + rel + q, true
	case n.Kind == ast.JSIdent && n.Name == "__dirname" && n.Resolve() == nil, code.ImportMetaProp(n) == "dirname":
		text := f.Text[n.Loc.Start:n.Loc.End]
		if bytes.ContainsAny(text, "`$\\") {
			return ast.Span{}, "", false
		}
		return n.Loc, "`${" + string(text) + "}/" + rel + "`", true
	}
	return ast.Span{}, "", false
}
