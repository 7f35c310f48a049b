package rules

import (
	"bytes"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/internal/lazyregexp"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
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
	ruleTemplateCompile.scan = scanTemplateCompile
	Register(ruleTemplateCompile)
}

var templateCalls = []string{"addTemplate", "addPluginTemplate", "addTypeTemplate"}

// templateUtils are the template utilities version 4 removed.
var templateUtils = lazyregexp.New(`\b(serialize|importName|importSources)\s*\(`)

func scanTemplateCompile(ci *codeIndex) *fileScan {
	if ci.index == nil || ci.index.project == nil {
		return nil
	}
	pr := ci.index.project
	return perFileSites(ci, func(f *code.File, out *[]*site) *code.Visitor {
		if f.Code == nil || !f.Config && (f.Src == nil || f.Src.Role != project.RoleModule) || !bytes.Contains(f.Text, []byte("Template")) {
			return nil
		}
		return &code.Visitor{ScriptsOnly: true, Visit: func(n *ast.JSNode, _ []*ast.JSNode, _ *ast.TemplateExpr) bool {
			if n.Kind == ast.JSCall && len(n.List) > 0 && code.ImportedAs(n.X, templateCalls...) {
				*out = append(*out, templateSites(pr, f, n)...)
			}
			return true
		}}
	}, nil)
}

// templateSites judges one addTemplate call: its src file, and the utils
// its getContents reads.
func templateSites(pr *project.Project, f *code.File, call *ast.JSNode) []*site {
	name := ast.MemberPath(call.X)
	var out []*site
	arg := call.List[0]
	src := arg
	if arg.Kind == ast.JSObject {
		src = nil
		if p := code.ObjProp(arg, "src"); p != nil {
			src = p.Y
		}
		if p := code.ObjProp(arg, "getContents"); p != nil {
			out = append(out, contentsUtils(f, name, code.LocalFunction(p.Y))...)
		}
	}
	if src == nil {
		return out
	}
	file, ok := code.StaticPath(f, src, 0)
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
		for _, m := range templateUtils().FindAllSubmatch(rest[:j], -1) {
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
func contentsUtils(f *code.File, name string, fn *ast.JSNode) []*site {
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
		if p := code.ObjProp(data, "utils"); p != nil && p.Y != nil {
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
