package rules

import (
	"bytes"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/par"
	"github.com/fwmigrate/fwmigrate/project"
	"github.com/fwmigrate/fwmigrate/rewrite"
)

// Helpers shared by the code rules (FW6xx): the project's application and
// module code as the code reader reads it, and the results of the data
// composables followed through it.
//
// Reading is the expensive part, so it is done once per check (the Index
// keeps it) and only for the files that can hold a site: a file is read
// when its text holds one of the words some code rule looks for
// (codeTriggers, plus the names of the project's own composables that
// return a data composable's result). The rest is never parsed.

// codeFile is one file the code rules read: a source of the project (or of
// a local layer without a config of its own: a layer with one is checked
// as a project of its own), or the project's config, whose hooks and
// inline modules are module code.
type codeFile struct {
	src     *project.Source // nil for the config
	path    string          // absolute
	display string          // as shown to the user
	rel     string          // project-relative, slash-separated
	text    []byte
	code    *ast.Code // nil when the file could not be read at all
	err     error     // why it could not be read fully (then it is never edited)
	config  bool
}

// page reports whether the file is a page of the app (under pages/).
func (f *codeFile) page() bool {
	return f.src != nil && f.src.Role == project.RoleApp && strings.Contains("/"+f.rel, "/pages/")
}

// base is the file's name without its extension: `error` for error.vue.
func (f *codeFile) base() string {
	b := filepath.Base(f.path)
	return strings.TrimSuffix(b, filepath.Ext(b))
}

// quoteAt is the quote character for a string literal written at span:
// in a template attribute, the one that does not end the attribute's value;
// in a script, the more frequent of ' and " in the script (the block, in a
// .vue file).
func (f *codeFile) quoteAt(span ast.Span, tx *ast.TemplateExpr) string {
	if tx != nil && tx.Attr != nil {
		if at := tx.Attr.ValueLoc.Start - 1; at >= 0 && f.text[at] == '\'' {
			return `"`
		}
		return "'"
	}
	text := f.text
	if f.code != nil {
		for _, s := range f.code.Scripts {
			if l := s.Program.Loc; l.Start <= span.Start && span.End <= l.End {
				text = f.text[l.Start:l.End]
			}
		}
	}
	if bytes.Count(text, []byte{'"'}) > bytes.Count(text, []byte{'\''}) {
		return `"`
	}
	return "'"
}

// codeTriggers are the words a file must hold for some code rule to find a
// site in it: the data composables, and the names the other rules look for.
var codeTriggers = [][]byte{
	[]byte("useFetch"), []byte("useAsyncData"), []byte("useLazyFetch"), []byte("useLazyAsyncData"),
	[]byte("useRoute"), []byte("$route"), []byte("currentRoute"), []byte("pages:extend"), []byte("builder:watch"),
	[]byte("KeepAlive"), []byte("keep-alive"), []byte("keepalive"), []byte("findComponent"), []byte("$options"),
	[]byte("useError"), []byte("__FW__"), []byte("addTemplate"), []byte("addPluginTemplate"), []byte("addTypeTemplate"),
	[]byte("useHead"), []byte("useServerHead"), []byte("useSeoMeta"), []byte("clearFwState"), []byte("getCachedData"),
	[]byte("#__fw"), []byte("RouteMiddleware"), []byte("findAllComponents"), []byte("error.data"), []byte("error?.data"),
}

// triggered reports whether text holds one of words.
func triggered(text []byte, words [][]byte) bool {
	for _, w := range words {
		if bytes.Contains(text, w) {
			return true
		}
	}
	return false
}

// configCode returns the config read as code, for the code index and for
// the rules that follow paths through it (FW110): the code tree of the
// config's one parse (ast.File.Code).
func (x *Index) configCode() *codeFile {
	x.configCodeOnce.Do(func() {
		p := x.project
		f := &codeFile{path: p.ConfigPath, display: p.ConfigDisplay, rel: filepath.Base(p.ConfigPath), text: x.file.Src, config: true}
		f.code = x.file.Code()
		x.configCodeFile = f
	})
	return x.configCodeFile
}

// codeIndex is what the code rules read of the project, built once per
// check (Index.code).
type codeIndex struct {
	index   *Index // the check's index: the config, for detectors that depend on it (FW604)
	project *project.Project
	config  compat.Config // the config's static values (some sites depend on them)
	files   []*codeFile   // the files read, in path order (the config first)
	failed  []*codeFile   // files that could not be read fully, reported once (FW908)
	data    *dataIndex
	sites   map[string][]*site // a detector's sites, by rule code (see Index.sitesOf)
}

// code returns the project's code as the code rules read it.
func (x *Index) code() *codeIndex {
	x.codeOnce.Do(func() { x.codeIdx = x.readCode() })
	return x.codeIdx
}

func (x *Index) readCode() *codeIndex {
	ci := &codeIndex{index: x, project: x.project, config: x.config, sites: map[string][]*site{}}
	p := x.project
	if p == nil {
		return ci
	}
	// The config itself: hooks and inline modules are module code.
	if x.file != nil && triggered(x.file.Src, codeTriggers) {
		ci.keep(x.configCode())
	}
	// Read and parse on every core: a large app is thousands of files.
	var srcs []*project.Source
	for _, s := range p.Sources() {
		if s.Role == project.RoleServer || s.Layer != nil && s.Layer.ConfigPath != "" {
			// Server code is not the app's; a layer with a config of its
			// own is checked as a project of its own.
			continue
		}
		srcs = append(srcs, s)
	}
	read := make([]*codeFile, len(srcs))
	par.For(len(srcs), func(i int) {
		s := srcs[i]
		f := &codeFile{src: s, path: s.Path, display: s.Display, rel: s.Rel}
		f.text, f.err = s.Read()
		if f.err == nil && triggered(f.text, codeTriggers) {
			f.parse()
		}
		read[i] = f
	})
	var rest []*codeFile // read, not parsed: no trigger word
	for _, f := range read {
		switch {
		case f.code == nil && f.err == nil:
			rest = append(rest, f)
		default:
			ci.keep(f)
		}
	}
	ci.data = newDataIndex(ci)
	// The project's composables that return a data composable's result are
	// data composables too: read the files that call them.
	if names := ci.data.composableNames(); len(names) > 0 {
		var more []*codeFile
		for _, f := range rest {
			if triggered(f.text, names) {
				more = append(more, f)
			}
		}
		par.For(len(more), func(i int) { more[i].parse() })
		for _, f := range more {
			ci.keep(f)
			ci.data.addFile(f)
		}
	}
	ci.data.resolve()
	sort.SliceStable(ci.files, func(i, j int) bool {
		if ci.files[i].config != ci.files[j].config {
			return ci.files[i].config
		}
		return ci.files[i].path < ci.files[j].path
	})
	sort.SliceStable(ci.failed, func(i, j int) bool { return ci.failed[i].path < ci.failed[j].path })
	return ci
}

// parse reads the file's code. A file that cannot be read fully keeps
// what could be read (rules may find sites in it, but no fix edits it).
func (f *codeFile) parse() {
	f.code, f.err = ast.ReadCode(f.path, f.text)
}

// keep adds a read (or unreadable) file to the index: the files with code
// for the rules, those that failed for FW908.
func (ci *codeIndex) keep(f *codeFile) {
	if f.err != nil {
		ci.failed = append(ci.failed, f)
	}
	if f.code != nil {
		ci.files = append(ci.files, f)
	}
}

// site is one place of the code that a change of version 4 reaches.
type site struct {
	file *codeFile
	span ast.Span
	msg  string
	// option is the default change the site depends on, when it is not the
	// rule's first flip (FW601: data's or error's).
	option string
	// notes and fix are added to the diagnostic as they are.
	notes []string
	fix   *Fix
}

// sitesOf returns the sites of the code rule code, computed once per check
// by its detector: the rule reports them, and FW204 asks which default
// changes reach code.
func (x *Index) sitesOf(code string, detect func(ci *codeIndex) []*site) []*site {
	ci := x.code()
	x.siteMu.Lock()
	defer x.siteMu.Unlock()
	s, ok := ci.sites[code]
	if !ok {
		s = detect(ci)
		ci.sites[code] = s
	}
	return s
}

// runCodeRule is the Run of the code rules: it reports the sites its
// detector finds, each about the default change it depends on, unless the
// project keeps the version-3 behaviour of that change.
func runCodeRule(pass *Pass) {
	if pass.Target < 4 {
		return
	}
	for _, s := range pass.Index.sitesOf(pass.Rule.Code, pass.Rule.detect) {
		option := s.option
		if option == "" && len(pass.Rule.Flips) > 0 {
			option = pass.Rule.Flips[0]
		}
		if option != "" && !flipReaches(pass, option) {
			continue
		}
		d := pass.reportCode(s.file, s.span, option, "%s", s.msg)
		d.Notes = append(d.Notes, s.notes...)
		if note := pinNote(option); note != "" {
			d.Notes = append(d.Notes, note)
		}
		d.Fix = s.fix
	}
}

// runCompat5Rule is runCodeRule for the changes of compatibility version
// 5: only a project that runs under it (framework major 4 with
// future.compatibilityVersion: 5) is reported.
func runCompat5Rule(pass *Pass) {
	if targetCompat(pass) < 5 {
		return
	}
	runCodeRule(pass)
}

// reportCode reports at span of a code file, with its positions filled in
// here (Check knows only the config's and the .env files' lines).
func (p *Pass) reportCode(f *codeFile, span ast.Span, option, format string, args ...any) *Diagnostic {
	d := p.Report(span, option, format, args...)
	if f.config {
		return d // positions are the config's, filled by Check
	}
	d.File, d.Path = f.display, f.rel
	var lines ast.Lines
	if f.code != nil {
		start, end := f.code.Position(span.Start), f.code.Position(span.End)
		d.Line, d.Column, d.ColumnUTF16 = start.Line, start.Column, start.ColumnUTF16
		d.EndLine, d.EndColumn, d.EndColumnUTF16 = end.Line, end.Column, end.ColumnUTF16
		return d
	}
	lines = ast.NewLines(f.text)
	start, end := lines.Position(span.Start), lines.Position(span.End)
	d.Line, d.Column, d.ColumnUTF16 = start.Line, start.Column, start.ColumnUTF16
	d.EndLine, d.EndColumn, d.EndColumnUTF16 = end.Line, end.Column, end.ColumnUTF16
	return d
}

// codeFix returns a fix that edits f (nil when f must not be edited: it
// could not be read fully). Each edit replaces a span's bytes; an empty
// span inserts.
func codeFix(f *codeFile, desc string, app Applicability, edits ...rewrite.Op) *Fix {
	if f.err != nil || len(edits) == 0 {
		return nil
	}
	for i := range edits {
		edits[i].Kind = rewrite.OpReplace
	}
	fix := &Fix{Description: desc, Applicability: app, Ops: edits}
	if !f.config {
		fix.File = f.path
	}
	return fix
}

// edit is an OpReplace of span with text.
func edit(span ast.Span, text string) rewrite.Op {
	return rewrite.Op{Kind: rewrite.OpReplace, Span: span, Text: text}
}

// operatorSpan finds a binary expression's operator (one of ops) between
// its operands; ok is false when the text between them is not the
// operator alone with spaces, parentheses and comments around it.
func operatorSpan(text []byte, n *ast.JSNode, ops ...string) (ast.Span, string, bool) {
	if n.X == nil || n.Y == nil {
		return ast.Span{}, "", false
	}
	gap := text[n.X.Loc.End:n.Y.Loc.Start]
	for _, op := range ops {
		i := bytes.Index(gap, []byte(op))
		if i < 0 || bytes.Contains(gap[i+len(op):], []byte(op)) {
			continue
		}
		// A longer operator that starts with op (== in ===) is not op.
		if j := i + len(op); j < len(gap) && gap[j] == '=' {
			continue
		}
		start := n.X.Loc.End + i
		return ast.Span{Start: start, End: start + len(op)}, op, true
	}
	return ast.Span{}, "", false
}

// walkCode calls fn for every node of f's scripts and template
// expressions, with its ancestors (nearest last) and, in a template, the
// expression it belongs to.
func walkCode(f *codeFile, fn func(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool) {
	if f.code == nil {
		return
	}
	for _, s := range f.code.Scripts {
		ast.WalkJS(s.Program, func(n *ast.JSNode, up []*ast.JSNode) bool { return fn(n, up, nil) })
	}
	if t := f.code.Template; t != nil {
		for _, x := range t.Exprs {
			tx := x
			ast.WalkJS(x.Node, func(n *ast.JSNode, up []*ast.JSNode) bool { return fn(n, up, tx) })
		}
	}
}

// objProp returns the property of an object literal with a static key,
// nil when there is none.
func objProp(obj *ast.JSNode, key string) *ast.JSNode {
	if obj == nil || obj.Kind != ast.JSObject {
		return nil
	}
	for _, p := range obj.List {
		if p.Kind == ast.JSProperty && !p.Has(ast.FlagComputed) && p.Name == key {
			return p
		}
	}
	return nil
}

// boolValue returns the value of a JSBool node.
func boolValue(n *ast.JSNode) (v, ok bool) {
	if n == nil || n.Kind != ast.JSBool {
		return false, false
	}
	return n.Name == "true", true
}

// global reports whether an identifier refers to no binding of the file:
// an auto-imported name, or a global.
func global(n *ast.JSNode) bool {
	return n != nil && n.Kind == ast.JSIdent && n.Resolve() == nil
}

// importedAs reports whether an identifier is a global or an import of one
// of names (the framework's auto-imports may be imported explicitly).
func importedAs(n *ast.JSNode, names ...string) bool {
	if n == nil || n.Kind != ast.JSIdent {
		return false
	}
	b := n.Resolve()
	if b == nil {
		for _, name := range names {
			if n.Name == name {
				return true
			}
		}
		return false
	}
	if b.Kind != ast.BindImport || b.Decl == nil {
		return false
	}
	for _, name := range names {
		if b.Decl.Name == name {
			return true
		}
	}
	return false
}

// importName is the name an identifier is imported under (`computed` for
// `import { computed as c }`), else its own.
func importName(n *ast.JSNode) string {
	if b := n.Resolve(); b != nil && b.Kind == ast.BindImport && b.Decl != nil {
		return b.Decl.Name
	}
	return n.Name
}

// jsStringValue returns the value of a string literal or a template
// literal without substitutions.
func jsStringValue(n *ast.JSNode) (string, bool) {
	switch {
	case n == nil:
	case n.Kind == ast.JSString:
		return n.Name, true
	case n.Kind == ast.JSTemplate && n.X == nil && len(n.List) == 0:
		return n.Name, true
	}
	return "", false
}

// flipOf returns the default change of version 4 at path, or of
// compatibility version 5 (to is 4 or 5).
func flipOf(path string) (f compat.Flip, to int, ok bool) {
	for _, f := range flippedDefaults() {
		if f.Path == path {
			return f, 4, true
		}
	}
	for _, f := range flippedDefaults5() {
		if f.Path == path {
			return f, 5, true
		}
	}
	return compat.Flip{}, 0, false
}

// flipReaches reports whether the default change at path reaches the
// project: it does unless the config sets the value that restores the
// version-3 behaviour where that value holds (on framework major 4, or on
// v3 with compatibility version 4; an unknown major counts as 3).
func flipReaches(pass *Pass, path string) bool {
	f, _, ok := flipOf(path)
	if !ok || !f.Restore.Set {
		return true
	}
	v, st := pass.Config.Value(path)
	if st != compat.Static || !sameValue(v, f.Restore.Value) {
		return true
	}
	if pass.Project.Framework >= 4 {
		return !f.OnV4
	}
	return !f.OnCompat4
}

// pinNote tells the other way out of a site: keeping the version-3
// behaviour with `apply --pin`, where the framework can keep it.
func pinNote(path string) string {
	f, to, ok := flipOf(path)
	switch {
	case !ok:
		return ""
	case !f.Restore.Set || !f.OnV4:
		return "framework major 4 cannot keep the version-3 behaviour of `" + path + "`: change the code"
	case to == 5:
		return "or keep compatibility version 4's behaviour for now: set `" + path + ": " + jsLiteral(f.Restore.Value) + "`"
	}
	return "or keep the version-3 behaviour for now: `fwmigrate apply --pin=" + path + "` sets `" + path + ": " + jsLiteral(f.Restore.Value) + "`"
}

// configKeyPath returns the option path of the config property whose key
// is at span (a hooks key the code rules found in the config), nil when no
// property of the config's literal has that key.
func configKeyPath(ci *codeIndex, span ast.Span) ast.Path {
	if ci.index == nil || ci.index.file == nil || ci.index.file.Config == nil {
		return nil
	}
	var out ast.Path
	ci.index.file.Walk(func(path ast.Path, prop *ast.Property) bool {
		if out != nil {
			return false
		}
		if prop.KeySpan.Start <= span.Start && span.End <= prop.KeySpan.End && prop.KeySpan.Len() > 0 {
			out = append(ast.Path(nil), path...)
			return false
		}
		return prop.Loc.Start <= span.Start && span.End <= prop.Loc.End
	})
	return out
}

// otherFiles are the files besides the config and the .env files that the
// check read and may report in: the code files the code rules read (none
// when no code rule ran) and tsconfig.json.
func (x *Index) otherFiles() []*project.TextFile {
	var out []*project.TextFile
	if x.codeIdx != nil {
		for _, f := range x.codeIdx.files {
			if !f.config {
				out = append(out, &project.TextFile{Path: f.path, Display: f.display, Src: f.text})
			}
		}
	}
	if x.project.TSConfig != nil {
		out = append(out, x.project.TSConfig)
	}
	return out
}
