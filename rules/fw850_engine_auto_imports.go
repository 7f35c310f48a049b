package rules

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/par"
	"github.com/fwmigrate/fwmigrate/internal/pathx"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
	"github.com/fwmigrate/fwmigrate/rules/internal/code"
)

var ruleEngineAutoImports = &Rule{
	Code:     "FW850",
	Name:     "engine-auto-imports-off",
	Category: Types,
	Severity: Error,
	Doc: Doc{
		Summary: "server and shared code that uses a name the engine auto-imported, which compatibility version 5 no longer does",
		Why: `On framework major 4, future.compatibilityVersion: 5 turns
experimental.engineAutoImports off: the framework passes imports: false to the
engine. Server code then no longer sees any auto-import: not the h3 helpers
(defineEventHandler, getQuery, readBody, ...), not the engine's own
(useStorage, defineCachedEventHandler, ...), not the exports of server/utils/,
shared/utils/ and shared/types/. Code in shared/ loses shared/utils/ and
shared/types/ too (only useRuntimeConfig, useAppConfig, defineAppConfig,
createError and setResponseStatus stay declared there). The type checker reports
TS2304 "Cannot find name" at each use, and the engine's build no longer inserts
the imports, so the server code fails when it runs (typescript-contexts.md
§4.3; the app's own code keeps shared/utils). Found: each server or shared file
that uses one of those names without declaring or importing it, with the names
and where each comes from, and the errors the type checker reports: TS2304 at
each use (TS2552, "Did you mean", where a global of a close spelling exists,
as FormData for formatDate), and TS7006, TS7031 or TS7019 for the parameters of
a callback passed to a lost name (defineEventHandler((event) => ...)), which
lose their type with it. Reported for projects of framework major 4 on
compatibility version 5 that do not set experimental.engineAutoImports (nor
imports.autoImport: false, where nothing is auto-imported anyway). A config that
sets engine.imports itself is left alone: how the framework's imports: false
combines with it is not in fwmigrate's data (typescript-contexts.md is silent).`,
		Example: `// fw.config.ts: future: { compatibilityVersion: 5 }
// server/api/hello.ts
export default defineEventHandler((event) => getQuery(event))`,
		Fix: `Safe: inserts the imports the auto-imports stood for, in the file's own quotes
and semicolons, merged into an existing import of the same module: the h3
helpers from 'h3' (the module the engine's preset names), the exports of
server/utils/ and shared/ from their file by a relative path (a default export
by the name the scanner gave it). That is the code the engine's build
generated before. The engine's own helpers (useStorage, ...) get no import:
fwmigrate's data does not name the module the engine exports them from; import
them by hand (or keep experimental.engineAutoImports: true). A name two of the
project's files export, or one exported from an .mts, .mjs, .cts or .cjs file,
is reported without an import. Types (an interface or type alias exported by
shared/types/ or the utils) are found by their names in type positions of the
file's text, and imported with import type.`,
	},
	Run:   runCompat5Rule,
	Flips: []string{"experimental.engineAutoImports"},
}

func init() {
	ruleEngineAutoImports.scan = scanEngineAutoImports
	Register(ruleEngineAutoImports)
}

// autoProvider is where an auto-imported name came from: a preset's
// module (Module, "" for the engine's, whose module is not known), or a
// file of the project that exports it.
type autoProvider struct {
	source compat.AutoImportSource
	module string
	file   *code.File
	export code.Export
}

// autoSources are the scanned directories of one root (the project's or a
// local layer's): the server's utils/ (recursive) and shared/'s utils/ and
// types/ (their files and */index.*).
type autoSources struct {
	serverUtils, sharedUtils, sharedTypes string
}

// scanEngineAutoImports finds the files that use names they no longer
// see: the exports of the scanned directories are read first (every file
// of them, parsed once), then each server and shared file that holds one
// of the names is judged from its references, in the one walk of the files
// the code rules read (a visitor counts the callbacks' parameters that
// lose their types) or, for the files no code rule reads, in a walk of
// their own.
func scanEngineAutoImports(ci *codeIndex) *fileScan {
	p := ci.Project
	if p == nil || p.Detection == nil {
		return nil
	}
	if v, st := ci.Config.Value("imports.autoImport"); st == compat.Static && v == false {
		return nil
	}
	if _, st := ci.Config.Value("engine.imports"); st != compat.Absent {
		// The engine's own imports option: how compatibility version 5's
		// imports: false combines with it is not in fwmigrate's data.
		return nil
	}
	// What each context loses between compatibility 4 and 5 of major 4.
	lost := map[project.Role][]compat.AutoImportSource{}
	for role, ctx := range map[project.Role]compat.TSContext{project.RoleServer: compat.CtxServer, project.RoleShared: compat.CtxShared} {
		if l, ok := compat.LostAutoImports(4, 4, 4, 5, false, false, ctx); ok {
			lost[role] = l
		}
	}
	more := ci.index.more(ci.Index)
	roots := map[*project.Layer]autoSources{nil: autoDirs(p.Detection)}
	for _, ly := range p.Layers {
		if ly.ConfigPath == "" && ly.Detection != nil {
			roots[ly] = autoDirs(ly.Detection)
		}
	}
	sourceOf := func(f *code.File) (compat.AutoImportSource, bool) {
		dirs, ok := roots[f.Src.Layer]
		switch {
		case !ok:
		case f.Src.Role == project.RoleServer && dirs.serverUtils != "" && pathx.Within(f.Path, dirs.serverUtils) && f.Path != dirs.serverUtils:
			return compat.SourceServerUtils, true
		case f.Src.Role == project.RoleShared && scannedTop(f.Path, dirs.sharedUtils):
			return compat.SourceSharedUtils, true
		case f.Src.Role == project.RoleShared && scannedTop(f.Path, dirs.sharedTypes):
			return compat.SourceSharedTypes, true
		}
		return 0, false
	}
	// The exports of the scanned directories: every one of their files is
	// read (like the composables that return a data composable's result).
	providers := map[string][]autoProvider{}
	for _, f := range more.Files([]project.Role{project.RoleServer, project.RoleShared}, func(f *code.File) bool {
		_, ok := sourceOf(f)
		return ok
	}) {
		src, _ := sourceOf(f)
		exports, _ := code.Exports(f)
		for _, e := range exports {
			providers[e.Name] = append(providers[e.Name], autoProvider{source: src, file: f, export: e})
		}
	}
	for _, n := range compat.H3AutoImports() {
		providers[n] = append(providers[n], autoProvider{source: compat.SourceH3, module: compat.H3Module})
	}
	for _, n := range compat.EngineAutoImports() {
		providers[n] = append(providers[n], autoProvider{source: compat.SourceEngine, module: compat.EngineModule})
	}
	// The names each role loses (values found as references, types and
	// capitalised values by their uses in the text too: type annotations
	// are not in the code tree), and the words that find the files using
	// them.
	names, typeNames := map[project.Role]map[string]bool{}, map[project.Role]map[string]bool{}
	words := map[project.Role][][]byte{}
	for role, sources := range lost {
		names[role], typeNames[role] = map[string]bool{}, map[string]bool{}
		for name, ps := range providers {
			for _, pr := range ps {
				if !containsSource(sources, pr.source) {
					continue
				}
				if !names[role][name] && !typeNames[role][name] {
					words[role] = append(words[role], []byte(name))
				}
				if !pr.export.Type {
					names[role][name] = true
				}
				if pr.export.Type || pr.file != nil && name[0] >= 'A' && name[0] <= 'Z' {
					typeNames[role][name] = true
				}
			}
		}
	}
	x := ci.index
	pass := &Pass{Project: p, File: x.file, Config: x.config, Target: x.target, Index: x}
	view, viewOK := pass.tsTarget()
	roles := []project.Role{project.RoleServer, project.RoleShared}
	wanted := func(f *code.File) bool {
		if f.Config || f.Src == nil || f.Src.Role != project.RoleServer && f.Src.Role != project.RoleShared {
			return false
		}
		return code.Triggered(f.Text, words[f.Src.Role])
	}
	visit := func(f *code.File, out *[]*site) *code.Visitor {
		if f.Code == nil || !wanted(f) {
			return nil
		}
		role := f.Src.Role
		return code.ImplicitAnyVisitor(f, names[role], func(implicit map[string]int) {
			rel := rootRel(p, f.Path)
			// The contexts that lose the names report them: not the app's,
			// which keeps shared/utils and never had the server's.
			times := errorsPerSite(view, viewOK, rel, func(c compat.TSContext) bool { return c == compat.CtxServer || c == compat.CtxShared })
			if s := engineAutoImportSite(f, rel, times, implicit, names[role], typeNames[role], providers, lost[role]); s != nil {
				*out = append(*out, s)
			}
		})
	}
	return perFileSites(ci, visit, func() []*site {
		extra := more.Extra(roles, wanted)
		per := make([][]*site, len(extra))
		par.For(len(extra), func(i int) {
			if v := visit(extra[i], &per[i]); v != nil {
				code.WalkFile(extra[i], []*code.Visitor{v}, nil)
			}
		})
		var out []*site
		for _, s := range per {
			out = append(out, s...)
		}
		return out
	})
}

// autoDirs returns the scanned directories of a root as version 4 resolves
// it.
func autoDirs(d *compat.Detection) autoSources {
	var a autoSources
	if d.V4.ServerDir != "" {
		a.serverUtils = filepath.Join(d.V4.ServerDir, "utils")
	}
	if sh := d.V4.Dir["shared"]; sh != "" {
		a.sharedUtils, a.sharedTypes = filepath.Join(sh, "utils"), filepath.Join(sh, "types")
	}
	return a
}

// scannedTop reports whether file is one the directory scan of dir reads:
// a file directly in dir, or an index file one folder down.
func scannedTop(file, dir string) bool {
	if dir == "" {
		return false
	}
	rel, ok := pathx.Under(dir, file)
	if !ok {
		return false
	}
	parts := strings.Split(rel, "/")
	switch len(parts) {
	case 1:
		return true
	case 2:
		base := parts[1]
		return strings.TrimSuffix(base, filepath.Ext(base)) == "index"
	}
	return false
}

func containsSource(list []compat.AutoImportSource, s compat.AutoImportSource) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// engineAutoImportSite is the site of a file that uses names it no longer
// sees (nil when it uses none): the names, where each comes from, and the
// fix that imports the ones whose module is known.
//
// times is how many times the type check reports each use (errorsPerSite);
// implicit are the parameters that lose their types, by code.
func engineAutoImportSite(f *code.File, rel string, times int, implicit map[string]int, names, typeNames map[string]bool, providers map[string][]autoProvider, lost []compat.AutoImportSource) *site {
	uses := map[string][]ast.Span{}
	asType := map[string]bool{} // used in types only
	for n, refs := range code.Free(f, names) {
		for _, r := range refs {
			uses[n] = append(uses[n], r.Ident.Loc)
		}
	}
	for n, spans := range code.TypeRefs(f, typeNames) {
		if uses[n] == nil {
			uses[n], asType[n] = spans, true
		}
	}
	if len(uses) == 0 {
		return nil
	}
	used := make([]string, 0, len(uses))
	for n := range uses {
		used = append(used, n)
	}
	// In the order of their first use.
	sort.Slice(used, func(i, j int) bool { return uses[used[i]][0].Start < uses[used[j]][0].Start })
	first := uses[used[0]][0]
	groups := map[string]*code.ImportGroup{}
	var order []string
	var notes, imported []string
	for _, n := range used {
		pr, why := pickProvider(f, providers[n], lost, asType[n])
		count := ""
		if c := len(uses[n]); c > 1 {
			count = " (" + strconv.Itoa(c) + " uses)"
		}
		switch {
		case why != "":
			notes = append(notes, "`"+n+"`"+count+": "+why)
			continue
		case pr.file != nil:
			spec, ok := code.Specifier(f.Path, pr.file.Path)
			if !ok {
				notes = append(notes, "`"+n+"`"+count+": exported by "+pr.file.Rel+", which no relative import without its extension reaches the same way in the bundler and the type checker: import it by hand")
				continue
			}
			what := "exported by "
			if pr.export.Type {
				what = "a type exported by "
			}
			notes = append(notes, "`"+n+"`"+count+": "+what+pr.file.Rel+" ("+pr.source.String()+"), imported from '"+spec+"'")
			pr.module = spec
		default:
			notes = append(notes, "`"+n+"`"+count+": the h3 helper the engine's preset imported from '"+pr.module+"'")
		}
		g := groups[pr.module]
		if g == nil {
			g = &code.ImportGroup{Module: pr.module}
			groups[pr.module] = g
			order = append(order, pr.module)
		}
		g.Specs = append(g.Specs, code.ImportSpec{Name: n, Default: pr.export.Default, Type: pr.export.Type})
		imported = append(imported, n)
	}
	where := "server code"
	if f.Src.Role == project.RoleShared {
		where = "shared code"
	}
	var values []string
	for _, n := range used {
		if !asType[n] {
			values = append(values, n)
		}
	}
	var why []string
	if ts(f) {
		why = append(why, "the type checker reports TS2304 (Cannot find name)")
	}
	if len(values) > 0 {
		why = append(why, "the engine's build no longer imports "+pronoun(len(values), values[0])+": the code fails when it runs")
	}
	msg := autoNameList(used) + " no longer auto-imported in " + where + " on compatibility version 5"
	if len(why) > 0 {
		msg += ": " + strings.Join(why, ", and ")
	}
	if ts(f) && times > 0 {
		total := 0
		for _, n := range used {
			total += len(uses[n])
		}
		ps := []prediction{{code: "TS2304", file: rel, n: total * times}}
		for c, n := range implicit {
			ps = append(ps, prediction{code: c, file: rel, n: n * times})
		}
		notes = append(notes, predictNote(ps))
	}
	s := &site{file: f, span: first, msg: msg, notes: notes}
	if len(order) == 0 {
		return s
	}
	// Packages first, then the project's files, each in name order.
	sort.SliceStable(order, func(i, j int) bool {
		pi, pj := !strings.HasPrefix(order[i], "."), !strings.HasPrefix(order[j], ".")
		if pi != pj {
			return pi
		}
		return order[i] < order[j]
	})
	list := make([]code.ImportGroup, len(order))
	var desc []string
	for i, m := range order {
		list[i] = *groups[m]
		var ns []string
		for _, sp := range groups[m].Specs {
			if sp.Type {
				ns = append(ns, "type `"+sp.Name+"`")
			} else {
				ns = append(ns, "`"+sp.Name+"`")
			}
		}
		desc = append(desc, strings.Join(ns, ", ")+" from '"+m+"'")
	}
	inserts, ok := code.InsertImports(f, first.Start, list)
	if !ok {
		return s
	}
	var edits []rewrite.Op
	for _, in := range inserts {
		edits = append(edits, edit(ast.Span{Start: in.At, End: in.At}, in.Text))
	}
	s.fix = codeFix(f, "import "+strings.Join(desc, "; "), Safe, edits...)
	return s
}

// pickProvider chooses where a name a file uses comes from among the
// sources the file lost: the project's own file over a preset (a
// directory's export overrides a preset's name), why is set when there is
// no one place to import it from.
func pickProvider(f *code.File, ps []autoProvider, lost []compat.AutoImportSource, asType bool) (pr autoProvider, why string) {
	var files, presets []autoProvider
	for _, p := range ps {
		switch {
		case !containsSource(lost, p.source), p.export.Type && !asType:
		case p.file != nil:
			if p.file.Path != f.Path {
				files = append(files, p)
			}
		default:
			presets = append(presets, p)
		}
	}
	switch {
	case len(files) > 1:
		var rels []string
		for _, p := range files {
			rels = append(rels, p.file.Rel)
		}
		return pr, "exported by " + strings.Join(rels, " and ") + ": import it by hand from the one the code means"
	case len(files) == 1:
		return files[0], ""
	case len(presets) > 0 && presets[0].module == "":
		return pr, "one of the engine's helpers; fwmigrate's data does not name the module the engine exports it from: import it by hand from the engine's runtime, or set `experimental.engineAutoImports: true`"
	case len(presets) > 0:
		return presets[0], ""
	}
	return pr, "no longer auto-imported here: import it by hand"
}

// ts reports whether a file has a TypeScript script (a JavaScript file is
// not type-checked: it fails only when it runs).
func ts(f *code.File) bool {
	for _, s := range f.Code.Scripts {
		if s.TS {
			return true
		}
	}
	return false
}

// autoNameList writes names as `a`, `b` and `c` is/are.
func autoNameList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	switch len(q) {
	case 1:
		return q[0] + " is"
	case 2:
		return q[0] + " and " + q[1] + " are"
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1] + " are"
}

// pronoun refers to n values, the first of which is named.
func pronoun(n int, first string) string {
	if n == 1 {
		return "`" + first + "`"
	}
	return "those values"
}
