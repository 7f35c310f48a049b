// Package code reads a project's application and module code for the code
// rules (FW6xx) and answers their questions about it: the files read
// (File, Index), walking their scripts and template expressions, bindings
// and imports, callee names, the results of the data composables followed
// through the code, route objects, hook listeners, component names and
// static paths.
//
// Reading is the expensive part, so it is done once per check (Read; the
// rules' Index keeps the result) and only for the files that can hold a
// site: a file is read when its text holds one of the words some code rule
// looks for (Triggers, plus the names of the project's own composables that
// return a data composable's result). The rest is never parsed.
//
// The package knows nothing of rules, diagnostics or fixes: the rules turn
// what it finds into sites and diagnostics.
package code

import (
	"bytes"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
	"github.com/fwmigrate/fwmigrate/compat"
	"github.com/fwmigrate/fwmigrate/internal/par"
	"github.com/fwmigrate/fwmigrate/project"
)

// File is one file the code rules read: a source of the project (or of
// a local layer without a config of its own: a layer with one is checked
// as a project of its own), or the project's config, whose hooks and
// inline modules are module code.
type File struct {
	Src     *project.Source // nil for the config
	Path    string          // absolute
	Display string          // as shown to the user
	Rel     string          // project-relative, slash-separated
	Text    []byte
	Code    *ast.Code // nil when the file could not be read at all
	Err     error     // why it could not be read fully (then it is never edited)
	Config  bool

	// For the data index: the declarations initialized by a call of a
	// use* function (collectFile), and the reads of data results found
	// in the file (FileUses).
	decls []*ast.JSNode
	uses  []*DataUse
}

// Page reports whether the file is a page of the app (under pages/).
func (f *File) Page() bool {
	return f.Src != nil && f.Src.Role == project.RoleApp && strings.Contains("/"+f.Rel, "/pages/")
}

// base is the file's name without its extension: `error` for error.vue.
func (f *File) base() string {
	b := filepath.Base(f.Path)
	return strings.TrimSuffix(b, filepath.Ext(b))
}

// QuoteAt is the quote character for a string literal written at span:
// in a template attribute, the one that does not end the attribute's value;
// in a script, the more frequent of ' and " in the script (the block, in a
// .vue file).
func (f *File) QuoteAt(span ast.Span, tx *ast.TemplateExpr) string {
	if tx != nil && tx.Attr != nil {
		if at := tx.Attr.ValueLoc.Start - 1; at >= 0 && f.Text[at] == '\'' {
			return `"`
		}
		return "'"
	}
	text := f.Text
	if f.Code != nil {
		for _, s := range f.Code.Scripts {
			if l := s.Program.Loc; l.Start <= span.Start && span.End <= l.End {
				text = f.Text[l.Start:l.End]
			}
		}
	}
	if bytes.Count(text, []byte{'"'}) > bytes.Count(text, []byte{'\''}) {
		return `"`
	}
	return "'"
}

// Triggers are the words a file must hold for some code rule to find a
// site in it: the data composables, and the names the other rules look for.
var Triggers = [][]byte{
	[]byte("useFetch"), []byte("useAsyncData"), []byte("useLazyFetch"), []byte("useLazyAsyncData"),
	[]byte("useRoute"), []byte("$route"), []byte("currentRoute"), []byte("pages:extend"), []byte("builder:watch"),
	[]byte("KeepAlive"), []byte("keep-alive"), []byte("keepalive"), []byte("findComponent"), []byte("$options"),
	[]byte("useError"), []byte("__FW__"), []byte("addTemplate"), []byte("addPluginTemplate"), []byte("addTypeTemplate"),
	[]byte("useHead"), []byte("useServerHead"), []byte("useSeoMeta"), []byte("clearFwState"), []byte("getCachedData"),
	[]byte("#__fw"), []byte("RouteMiddleware"), []byte("findAllComponents"), []byte("error.data"), []byte("error?.data"),
}

// Triggered reports whether text holds one of words.
func Triggered(text []byte, words [][]byte) bool {
	for _, w := range words {
		if bytes.Contains(text, w) {
			return true
		}
	}
	return false
}

// Index is what the code rules read of a project (Read), built once per
// check: the rules' Index keeps it.
type Index struct {
	Project *project.Project
	Config  compat.Config // the config's static values (some sites depend on them)
	Files   []*File       // the files read, in path order (the config first)
	Failed  []*File       // files that could not be read fully, reported once (FW908)
	// Rest are the files read but not parsed (no code rule's word in
	// them), in path order: the type rules (FW85x) parse those their own
	// detectors need (More) instead of reading them again.
	Rest []*File
	Data *DataIndex
}

// Read reads the code of p, whose config's static values are cfg: config
// is p's config read as code, nil when it holds no trigger word (it is
// then not kept).
func Read(p *project.Project, cfg compat.Config, config *File) *Index {
	ci := &Index{Project: p, Config: cfg}
	if p == nil {
		return ci
	}
	if config != nil {
		ci.keep(config)
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
	// Each file is read, parsed and walked for the data index by one
	// worker; the index then takes the facts in, in file order.
	read := make([]*File, len(srcs))
	facts := make([]*fileFacts, len(srcs))
	par.For(len(srcs), func(i int) {
		s := srcs[i]
		f := &File{Src: s, Path: s.Path, Display: s.Display, Rel: s.Rel}
		f.Text, f.Err = s.Read()
		if f.Err == nil && p.Memo(f.Path, f.Text, "code.Triggers", func() bool { return Triggered(f.Text, Triggers) }) {
			f.Code, f.Err = p.ReadCode(f.Path, f.Text)
			facts[i] = collectFile(f)
		}
		read[i] = f
	})
	ci.Data = newDataIndex(ci)
	if config != nil {
		ci.Data.addFacts(config, collectFile(config))
	}
	var rest []*File // read, not parsed: no trigger word
	for i, f := range read {
		switch {
		case f.Code == nil && f.Err == nil:
			rest = append(rest, f)
		default:
			ci.keep(f)
			if f.Code != nil {
				ci.Data.addFacts(f, facts[i])
			}
		}
	}
	// The project's composables that return a data composable's result are
	// data composables too: read the files that call them.
	if names := ci.Data.composableNames(); len(names) > 0 {
		// The answer per file is kept under the list of names (a long-lived
		// front end asks again after every edit, with the same names).
		key := "code.composables:" + string(bytes.Join(names, []byte{0}))
		var more []*File
		for _, f := range rest {
			if p.Memo(f.Path, f.Text, key, func() bool { return Triggered(f.Text, names) }) {
				more = append(more, f)
			}
		}
		facts := make([]*fileFacts, len(more))
		par.For(len(more), func(i int) {
			more[i].Code, more[i].Err = p.ReadCode(more[i].Path, more[i].Text)
			facts[i] = collectFile(more[i])
		})
		for i, f := range more {
			ci.keep(f)
			if f.Code != nil {
				ci.Data.addFacts(f, facts[i])
			}
		}
	}
	for _, f := range rest {
		if f.Code == nil && f.Err == nil {
			ci.Rest = append(ci.Rest, f)
		}
	}
	sort.SliceStable(ci.Files, func(i, j int) bool {
		if ci.Files[i].Config != ci.Files[j].Config {
			return ci.Files[i].Config
		}
		return ci.Files[i].Path < ci.Files[j].Path
	})
	sort.SliceStable(ci.Failed, func(i, j int) bool { return ci.Failed[i].Path < ci.Failed[j].Path })
	return ci
}

// Parse reads the file's code. A file that cannot be read fully keeps
// what could be read (rules may find sites in it, but no fix edits it).
func (f *File) Parse() {
	f.Code, f.Err = ast.ReadCode(f.Path, f.Text)
}

// keep adds a read (or unreadable) file to the index: the files with code
// for the rules, those that failed for FW908.
func (ci *Index) keep(f *File) {
	if f.Err != nil {
		ci.Failed = append(ci.Failed, f)
	}
	if f.Code != nil {
		ci.Files = append(ci.Files, f)
	}
}

// OperatorSpan finds a binary expression's operator (one of ops) between
// its operands; ok is false when the text between them is not the
// operator alone with spaces, parentheses and comments around it.
func OperatorSpan(text []byte, n *ast.JSNode, ops ...string) (ast.Span, string, bool) {
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

// Walk calls fn for every node of f's scripts and template
// expressions, with its ancestors (nearest last) and, in a template, the
// expression it belongs to.
func Walk(f *File, fn func(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool) {
	if f.Code == nil {
		return
	}
	for _, s := range f.Code.Scripts {
		ast.WalkJS(s.Program, func(n *ast.JSNode, up []*ast.JSNode) bool { return fn(n, up, nil) })
	}
	if t := f.Code.Template; t != nil {
		for _, x := range t.Exprs {
			tx := x
			ast.WalkJS(x.Node, func(n *ast.JSNode, up []*ast.JSNode) bool { return fn(n, up, tx) })
		}
	}
}

// ObjProp returns the property of an object literal with a static key,
// nil when there is none.
func ObjProp(obj *ast.JSNode, key string) *ast.JSNode {
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

// BoolValue returns the value of a JSBool node.
func BoolValue(n *ast.JSNode) (v, ok bool) {
	if n == nil || n.Kind != ast.JSBool {
		return false, false
	}
	return n.Name == "true", true
}

// Global reports whether an identifier refers to no binding of the file:
// an auto-imported name, or a global.
func Global(n *ast.JSNode) bool {
	return n != nil && n.Kind == ast.JSIdent && n.Resolve() == nil
}

// ImportedAs reports whether an identifier is a global or an import of one
// of names (the framework's auto-imports may be imported explicitly).
func ImportedAs(n *ast.JSNode, names ...string) bool {
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

// ImportName is the name an identifier is imported under (`computed` for
// `import { computed as c }`), else its own.
func ImportName(n *ast.JSNode) string {
	if b := n.Resolve(); b != nil && b.Kind == ast.BindImport && b.Decl != nil {
		return b.Decl.Name
	}
	return n.Name
}

// OtherOperand returns the operand of a binary expression that is not x,
// nil when x is neither.
func OtherOperand(b, x *ast.JSNode) *ast.JSNode {
	switch x {
	case b.X:
		return b.Y
	case b.Y:
		return b.X
	}
	return nil
}
