package rules

import (
	"regexp"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

var ruleTSDeclContext = &Rule{
	Code:     "FW802",
	Name:     "declaration-out-of-context",
	Category: Types,
	Severity: Warning,
	Doc: Doc{
		Summary: "a declaration file (`declare global`, `declare module`, a global .d.ts) falls in none of the TypeScript contexts the target generates",
		Why: `Framework major 3 type-checks the whole root as one program
(.fw/tsconfig.json includes **/*), so a types/augment.d.ts at the root, or an
@types/ folder beside the sources, reaches every file. Major 4 generates one
project per context, each with its own include (typescript-contexts.md §3.2):
in layout A the app context takes app/**, shared/**/*.d.ts and the root's
top-level *.d.ts, the server context server/** and shared/**/*.d.ts, the
shared context shared/**; a declaration anywhere else (root types/, @types/,
a folder of its own) is in no context, and the code that used what it
declares gets TS2339 (an augmented member: window.myGlobal), TS2304 (a global
name) or TS2307 (a declared module) - with either root tsconfig shape.
The finding names the files that use the declarations and the errors each
gets (found by name, so an estimate: a member of the same name on another
object counts too).`,
		Example: `types/augment.d.ts (layout A, framework major 4)
declare global {
  interface Window { myGlobal: string }
}
export {}`,
		Fix: `When only app code uses the declarations (or no use is found), adds the
files to typescript.tsConfig.include (as the build dir's files name them,
"../types/augment.d.ts"), which the framework writes into the app context
(and the legacy file): the declarations are visible where they were used.
One fix adds every such file of the project. Safe: the app context gets back
what major 3's one program had. When server or shared code uses them,
typescript.tsConfig.include does not reach those contexts: no fix, move the
file into shared/types/ (shared/**/*.d.ts is held by the app, server and
shared contexts).
When the project moves into app/, the fix assumes the move.`,
	},
	Run: runTSDeclContext,
}

func init() { Register(ruleTSDeclContext) }

// libGlobals are global interfaces of TypeScript's own libs that a
// declaration file augments: using them by name does not depend on it.
var libGlobals = map[string]bool{
	"Window": true, "Document": true, "Navigator": true, "HTMLElement": true, "Element": true, "ImportMeta": true,
	"ImportMetaEnv": true, "Array": true, "String": true, "Number": true, "Object": true, "Console": true,
	"globalThis": true, "NodeJS": true, "Process": true, "ProcessEnv": true, "Event": true, "Function": true,
	"Promise": true, "WindowEventMap": true, "DocumentEventMap": true, "HTMLElementTagNameMap": true,
}

// declUse is one file that uses what a declaration file declares.
type declUse struct {
	rel   string
	codes []string
	ctx   []*project.TSContextFile
}

func runTSDeclContext(pass *Pass) {
	v, ok := pass.tsTarget()
	if !ok || v.gen.Major < 4 || v.ctx.Unknown != "" {
		return
	}
	pr := pass.Project
	type finding struct {
		d     *project.DeclFile
		after string
		uses  []declUse
		app   bool // only app code uses it (or nothing found)
	}
	var found []finding
	for _, d := range pr.TSFiles().Declarations {
		if !d.Global && len(d.Modules) == 0 {
			continue // a module's declarations reach those that import it
		}
		after := v.after(d.Rel)
		if len(v.ctx.Holding(after, true)) > 0 {
			continue
		}
		f := finding{d: d, after: after, app: true}
		f.uses = declUses(pass, v, d)
		for _, u := range f.uses {
			for _, c := range u.ctx {
				if c.Context != compat.CtxApp {
					f.app = false
				}
			}
		}
		found = append(found, f)
	}
	if len(found) == 0 {
		return
	}
	// One fix for every file only app code uses.
	var entries []string
	for _, f := range found {
		if f.app {
			entries = append(entries, v.ctx.ToBuildDir(f.after))
		}
	}
	var fix *Fix
	fixNote := ""
	if len(entries) > 0 {
		fix, fixNote = includeFix(pass, entries, v)
	}
	fixed := false
	for _, f := range found {
		what := declWhat(f.d)
		at := ast.Span{}
		if i := strings.Index(string(f.d.Src), "declare"); i >= 0 {
			at = ast.Span{Start: i, End: i + len("declare")}
		}
		d := pass.reportIn(f.d.Display, f.d.Src, at, "`%s` %s, but falls in none of the TypeScript contexts framework major %d generates (%s): the code that uses it does not see it", f.d.Rel, what, v.gen.Major, contextList(v))
		d.Path = f.d.Rel
		if f.after != f.d.Rel {
			d.Notes = append(d.Notes, "after the move into app/ it stays at `"+f.d.Rel+"`")
		}
		var preds []prediction
		var users []string
		for _, u := range f.uses {
			users = append(users, "`"+u.rel+"` ("+contextNames(u.ctx)+")")
			for _, c := range u.codes {
				preds = append(preds, prediction{c, u.rel, 1})
			}
		}
		if len(users) > 0 {
			d.Notes = append(d.Notes, "used in "+andList(users)+" (found by name: an estimate)")
			d.Notes = append(d.Notes, predictNote(preds))
		} else {
			d.Notes = append(d.Notes, "no use of its names was found in the project's code")
		}
		switch {
		case !f.app:
			d.Notes = append(d.Notes, "no fix: server or shared code uses it, which typescript.tsConfig.include does not reach; move it into `shared/types/` (held by the app, server and shared contexts)")
		case fix == nil:
			d.Notes = append(d.Notes, "no fix: "+fixNote)
		case !fixed:
			d.Fix = fix
			fixed = true
		default:
			d.Notes = append(d.Notes, "fixed with `"+found[0].d.Rel+"`'s finding, which adds every such file")
		}
	}
}

func declWhat(d *project.DeclFile) string {
	var parts []string
	if d.Global {
		names := append(append([]string(nil), d.Names...), d.Members...)
		if len(names) > 4 {
			names = append(names[:4:4], "…")
		}
		if len(names) > 0 {
			parts = append(parts, "declares globals ("+strings.Join(names, ", ")+")")
		} else {
			parts = append(parts, "declares globals")
		}
	}
	if len(d.Modules) > 0 {
		parts = append(parts, "declares module `"+strings.Join(d.Modules, "`, `")+"`")
	}
	return strings.Join(parts, " and ")
}

func contextList(v tsView) string {
	var names []string
	for _, f := range v.gen.Contexts() {
		names = append(names, f.Context.String())
	}
	return andList(names)
}

// includeFix adds entries to typescript.tsConfig.include, or says why it
// cannot.
func includeFix(pass *Pass, entries []string, v tsView) (*Fix, string) {
	if pass.File == nil || pass.File.Config == nil {
		return nil, "the config's options cannot be edited (it is not an object literal)"
	}
	path := ast.ParsePath("typescript.tsConfig.include")
	val, st := pass.Config.Value(path.String())
	var list []any
	switch st {
	case compat.Dynamic:
		return nil, "`typescript.tsConfig.include` may be set at run time: add `" + strings.Join(entries, "`, `") + "` to it by hand"
	case compat.Static:
		have, ok := val.([]any)
		if !ok {
			return nil, "`typescript.tsConfig.include` is not a list"
		}
		list = append(list, have...)
	}
	for _, e := range entries {
		list = append(list, e)
	}
	return &Fix{
		Description:   "add `" + strings.Join(entries, "`, `") + "` to `typescript.tsConfig.include`, which the framework writes into the app context",
		Applicability: Safe,
		Ops:           []rewrite.Op{{Kind: rewrite.OpSet, Path: path, Value: list}},
		Layout:        v.layout.fixLayout(),
	}, ""
}

// declUses finds the files of the project's code that use what d
// declares, with the error each gets and the contexts that hold it.
func declUses(pass *Pass, v tsView, d *project.DeclFile) []declUse {
	var member, name, module []*regexp.Regexp
	for _, m := range d.Members {
		member = append(member, regexp.MustCompile(`\.`+regexp.QuoteMeta(m)+`\b`))
	}
	for _, n := range d.Names {
		if !libGlobals[n] {
			name = append(name, regexp.MustCompile(`(?:^|[^.\w$])`+regexp.QuoteMeta(n)+`\b`))
		}
	}
	for _, m := range d.Modules {
		q := regexp.QuoteMeta(m)
		q = strings.ReplaceAll(q, `\*`, `[^'"]*`)
		module = append(module, regexp.MustCompile(`(?:from\s*|import\s*\(?\s*)['"]`+q+`['"]`))
	}
	pr := pass.Project
	var out []declUse
	visit := func(rel string, text []byte) {
		after := v.after(rel)
		ctx := v.ctx.Holding(after, true)
		if len(ctx) == 0 {
			return
		}
		var codes []string
		for _, re := range member {
			if re.Match(text) {
				codes = append(codes, compat.TSNoProperty)
				break
			}
		}
		for _, re := range name {
			if re.Match(text) {
				codes = append(codes, compat.TSCannotFind)
				break
			}
		}
		for _, re := range module {
			if re.Match(text) {
				codes = append(codes, compat.TSNoModule)
				break
			}
		}
		if len(codes) > 0 {
			out = append(out, declUse{rel: after, codes: codes, ctx: ctx})
		}
	}
	for _, s := range pr.Sources() {
		if s.Layer != nil {
			continue
		}
		if text, err := s.Read(); err == nil {
			visit(s.Rel, text)
		}
	}
	if pr.ConfigPath != "" && pr.Src != nil {
		visit(rootRel(pr, pr.ConfigPath), pr.Src)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out
}
