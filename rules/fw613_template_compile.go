package rules

import (
	"bytes"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/project"
)

var ruleTemplateCompile = &Rule{
	Code:     "FW613",
	Name:     "template-compile",
	Category: Code,
	Severity: Warning,
	Doc: Doc{
		Summary: "a module template written with <% %> or with the template utilities, which version 4 no longer compiles",
		Why: `On version 3 addTemplate, addPluginTemplate and addTypeTemplate (fw/kit)
compile the file named by src as a template: <%= options.x %> is replaced
(experimental.compileTemplate), and serialize, importName and importSources are
at hand in it and in getContents's data as utils (experimental.templateUtils).
Version 4 compiles nothing and has no template utilities (both flip to false
and framework major 4 removed them): the file is written out with its tags, and
a template that calls the utilities fails. Found in modules and in the config's
inline modules, with src written as a path relative to the module file, or built
with resolve/join from node:path (__dirname, import.meta.dirname,
dirname(fileURLToPath(import.meta.url))), or with the resolve of
createResolver(import.meta.url); the file is read to see whether it uses <% %>.
A src that cannot be followed statically, and src files without template tags
(a plain plugin file), are not reported.`,
		Example: `export default defineFwModule({
  setup() {
    const { resolve } = createResolver(import.meta.url)
    addPluginTemplate({ src: resolve('./runtime/plugin.ejs'), options: { a: 1 } })
  },
})`,
	},
	Run:   runCodeRule,
	Flips: []string{"experimental.compileTemplate", "experimental.templateUtils"},
}

func init() {
	ruleTemplateCompile.detect = detectTemplateCompile
	Register(ruleTemplateCompile)
}

var templateCalls = []string{"addTemplate", "addPluginTemplate", "addTypeTemplate"}

// templateUtils are the template utilities version 4 removed.
var templateUtils = regexp.MustCompile(`\b(serialize|importName|importSources)\s*\(`)

func detectTemplateCompile(ci *codeIndex) []*site {
	if ci.index == nil || ci.index.project == nil {
		return nil
	}
	pr := ci.index.project
	var out []*site
	for _, f := range ci.files {
		if f.code == nil || !f.config && (f.src == nil || f.src.Role != project.RoleModule) || !bytes.Contains(f.text, []byte("Template")) {
			continue
		}
		for _, s := range f.code.Scripts {
			ast.WalkJS(s.Program, func(n *ast.JSNode, _ []*ast.JSNode) bool {
				if n.Kind == ast.JSCall && len(n.List) > 0 && importedAs(n.X, templateCalls...) {
					out = append(out, templateSites(pr, f, n)...)
				}
				return true
			})
		}
	}
	return out
}

// templateSites judges one addTemplate call: its src file, and the utils
// its getContents reads.
func templateSites(pr *project.Project, f *codeFile, call *ast.JSNode) []*site {
	name := ast.MemberPath(call.X)
	var out []*site
	arg := call.List[0]
	src := arg
	if arg.Kind == ast.JSObject {
		src = nil
		if p := objProp(arg, "src"); p != nil {
			src = p.Y
		}
		if p := objProp(arg, "getContents"); p != nil {
			out = append(out, contentsUtils(f, name, localFunction(p.Y))...)
		}
	}
	if src == nil {
		return out
	}
	file, ok := staticPath(f, src, 0)
	if !ok || strings.HasPrefix(file, "file://") {
		return out
	}
	tf, err := pr.ReadText(file)
	if err != nil || !bytes.Contains(tf.Src, []byte("<%")) {
		return out
	}
	text := tf.Src
	shown := file
	if rel, ok := pathx.Rel(pr.Root, file); ok {
		shown = filepath.ToSlash(rel)
	}
	out = append(out, &site{file: f, span: src.Loc, option: "experimental.compileTemplate",
		msg:   "`" + name + "` compiles `" + shown + "`, which uses `<% %>`: version 4 no longer compiles template files, so it is written out with its tags",
		notes: []string{"write the contents with `getContents`, a function that returns the text, instead of `src`; for the `<% %>` logic use a template function of your choice (a new dependency: your call), or build the string in code"}})
	if used := utilsIn(text); len(used) > 0 {
		out = append(out, &site{file: f, span: src.Loc, option: "experimental.templateUtils",
			msg:   "`" + shown + "` calls the template " + map[bool]string{true: "utility ", false: "utilities "}[len(used) == 1] + strings.Join(used, ", ") + ", which version 4 removed",
			notes: []string{utilsNote}})
	}
	return out
}

const utilsNote = "in getContents, use a code-generation helper package (genSafeVariableName, genImport, ...); serialize of plain data is JSON.stringify"

// utilsIn returns the template utilities a template's <% %> tags call,
// sorted, each once.
func utilsIn(text []byte) []string {
	seen := map[string]bool{}
	for rest := text; ; {
		i := bytes.Index(rest, []byte("<%"))
		if i < 0 {
			break
		}
		rest = rest[i+2:]
		j := bytes.Index(rest, []byte("%>"))
		if j < 0 {
			j = len(rest)
		}
		for _, m := range templateUtils.FindAllSubmatch(rest[:j], -1) {
			seen["`"+string(m[1])+"`"] = true
		}
		rest = rest[j:]
	}
	var out []string
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// contentsUtils finds the template utilities a getContents function reads
// from its data: ({ utils }) => utils.serialize(x), (data) =>
// data.utils.importName(x).
func contentsUtils(f *codeFile, name string, fn *ast.JSNode) []*site {
	if fn == nil || len(fn.List) == 0 || fn.Y == nil {
		return nil
	}
	data := fn.List[0]
	if data.Kind == ast.JSDefault {
		data = data.X
	}
	var utils, whole *ast.Binding
	switch data.Kind {
	case ast.JSIdent:
		whole = data.DeclBinding()
	case ast.JSObject:
		if p := objProp(data, "utils"); p != nil && p.Y != nil {
			id := p.Y
			if id.Kind == ast.JSDefault {
				id = id.X
			}
			utils = id.DeclBinding()
		}
	}
	if utils == nil && whole == nil {
		return nil
	}
	var out []*site
	ast.WalkJS(fn.Y, func(n *ast.JSNode, _ []*ast.JSNode) bool {
		if n.Kind != ast.JSMember || n.Has(ast.FlagComputed) || n.Name != "serialize" && n.Name != "importName" && n.Name != "importSources" {
			return true
		}
		x := n.X
		ok := x.Kind == ast.JSIdent && utils != nil && x.Resolve() == utils
		ok = ok || x.Kind == ast.JSMember && !x.Has(ast.FlagComputed) && x.Name == "utils" && x.X.Kind == ast.JSIdent && whole != nil && x.X.Resolve() == whole
		if ok {
			out = append(out, &site{file: f, span: n.Loc, option: "experimental.templateUtils",
				msg:   "the getContents of `" + name + "` calls the template utility `" + n.Name + "`, which version 4 removed: `utils` is undefined",
				notes: []string{utilsNote}})
		}
		return true
	})
	return out
}

// staticPath returns the absolute path an expression of f evaluates to
// when it can be followed statically: a string (relative to f's
// directory), __dirname, import.meta.dirname, resolve/join/dirname of the
// path module, fileURLToPath(import.meta.url or new URL(s,
// import.meta.url)), createResolver(base).resolve(...), and consts that
// hold one. import.meta.url is "file://" + f's path.
func staticPath(f *codeFile, n *ast.JSNode, depth int) (string, bool) {
	dir := filepath.Dir(f.path)
	if n == nil || depth > 6 {
		return "", false
	}
	if s, ok := stringValue(n); ok {
		if filepath.IsAbs(s) || strings.HasPrefix(s, "file://") {
			return s, true
		}
		return filepath.Join(dir, filepath.FromSlash(s)), true
	}
	switch n.Kind {
	case ast.JSIdent:
		b := n.Resolve()
		switch {
		case b == nil && n.Name == "__dirname":
			return dir, true
		case b == nil && n.Name == "__filename":
			return f.path, true
		case b != nil && b.Kind == ast.BindConst && b.Path == nil:
			return staticPath(f, b.Init, depth+1)
		}
	case ast.JSMember:
		if prop := importMetaProp(n); prop != "" {
			switch prop {
			case "url":
				return "file://" + f.path, true
			case "dirname":
				return dir, true
			case "filename":
				return f.path, true
			}
		}
	case ast.JSNew:
		// new URL('./x', import.meta.url)
		if ast.MemberPath(n.X) == "URL" && len(n.List) == 2 {
			rel, ok1 := stringValue(n.List[0])
			base, ok2 := staticPath(f, n.List[1], depth+1)
			if ok1 && ok2 && strings.HasPrefix(base, "file://") {
				return "file://" + filepath.Join(filepath.Dir(strings.TrimPrefix(base, "file://")), filepath.FromSlash(rel)), true
			}
		}
	case ast.JSCall:
		if resolverBase, ok := resolverCall(f, n, depth); ok {
			return joinArgs(f, resolverBase, n.List, depth)
		}
		switch fn := pathFunc(f, n.X); {
		case fn == "resolve":
			return joinArgs(f, f.rootDir(), n.List, depth)
		case fn == "join" && len(n.List) > 0:
			first, ok := staticPath(f, n.List[0], depth+1)
			if !ok || strings.HasPrefix(first, "file://") {
				return "", false
			}
			return joinArgs(f, first, n.List[1:], depth)
		case fn == "dirname" && len(n.List) == 1:
			p, ok := staticPath(f, n.List[0], depth+1)
			if ok && !strings.HasPrefix(p, "file://") {
				return filepath.Dir(p), true
			}
		case fn == "" && n.X.Kind == ast.JSIdent && len(n.List) == 1 && urlFunc(f, n.X) == "fileURLToPath":
			p, ok := staticPath(f, n.List[0], depth+1)
			if ok && strings.HasPrefix(p, "file://") {
				return strings.TrimPrefix(p, "file://"), true
			}
		}
	}
	return "", false
}

// importMetaProp returns x of `import.meta.x`, "" for any other node.
func importMetaProp(n *ast.JSNode) string {
	if n != nil && n.Kind == ast.JSMember && n.X != nil && n.X.Kind == ast.JSMeta && n.X.Name == "import.meta" && !n.Has(ast.FlagComputed) {
		return n.Name
	}
	return ""
}

// rootDir is the directory a relative path resolves against at build
// time: the project's root (the config's directory).
func (f *codeFile) rootDir() string {
	if f.src != nil && f.rel != "" {
		root := f.path
		for range strings.Split(f.rel, "/") {
			root = filepath.Dir(root)
		}
		return root
	}
	return filepath.Dir(f.path)
}

// joinArgs resolves path segments (string literals or paths it can follow)
// against base, as path.resolve does.
func joinArgs(f *codeFile, base string, args []*ast.JSNode, depth int) (string, bool) {
	out := base
	for _, a := range args {
		var seg string
		if s, ok := stringValue(a); ok {
			seg = filepath.FromSlash(s)
		} else {
			p, ok := staticPath(f, a, depth+1)
			if !ok || strings.HasPrefix(p, "file://") {
				return "", false
			}
			seg = p
		}
		if filepath.IsAbs(seg) {
			out = seg
		} else {
			out = filepath.Join(out, seg)
		}
	}
	return out, true
}

// resolverCall reports whether a call is the resolve of
// createResolver(base) (const { resolve } = createResolver(...), or
// resolver.resolve(...) with const resolver = createResolver(...)), and
// the directory it resolves against.
func resolverCall(f *codeFile, call *ast.JSNode, depth int) (string, bool) {
	var init *ast.JSNode
	switch x := call.X; {
	case x.Kind == ast.JSIdent:
		if b := x.Resolve(); b != nil && b.Kind == ast.BindConst && len(b.Path) == 1 && b.Path[0] == "resolve" {
			init = b.Init
		}
	case x.Kind == ast.JSMember && !x.Has(ast.FlagComputed) && x.Name == "resolve" && x.X.Kind == ast.JSIdent:
		if b := x.X.Resolve(); b != nil && b.Kind == ast.BindConst && b.Path == nil {
			init = b.Init
		}
	}
	if init == nil || init.Kind != ast.JSCall || !importedAs(init.X, "createResolver") || len(init.List) != 1 {
		return "", false
	}
	base, ok := staticPath(f, init.List[0], depth+1)
	if !ok {
		return "", false
	}
	if strings.HasPrefix(base, "file://") {
		// A file URL: resolve against its directory.
		return filepath.Dir(strings.TrimPrefix(base, "file://")), true
	}
	return base, true
}

// urlFunc returns the name of the url module's function a callee is.
func urlFunc(f *codeFile, callee *ast.JSNode) string {
	b := callee.Resolve()
	if b == nil || b.Kind != ast.BindImport {
		return ""
	}
	if src := importSource(f, b); src == "url" || src == "node:url" {
		return b.Decl.Name
	}
	return ""
}
