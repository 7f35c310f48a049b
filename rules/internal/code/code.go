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
// return a data composable's result). The rest is never parsed. Each file
// read is walked once for every detector (Read's Pass, WalkFile), and its
// trees are let go once its findings are made.
//
// The package knows nothing of rules, diagnostics or fixes: the rules turn
// what it finds into sites and diagnostics.
package code

import (
	"bytes"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"

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
	calls []*DataCall
	// composables are the project's composables whose call is here.
	composables []*Composable
	// triggered: the text holds a trigger word (or, read for the
	// composables' names, one of them); early: parsed before the walk;
	// more: read for the composables' names alone.
	triggered, early, more bool
	// Released says the file's trees were let go once its findings were
	// made (Code is then ast.Code.Stub's): it cannot be walked again
	// (Walk panics), and CodeOf reads it anew.
	Released bool
}

// Page reports whether the file is a page of the app (under pages/).
func (f *File) Page() bool {
	return f.Src != nil && f.Src.Role == project.RoleApp && strings.Contains("/"+f.Rel, "/pages/")
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
	[]byte("dedupe"),
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

	// read are the sources read, in Sources' order, and names the
	// composables' names the files of more were read for: what Again
	// compares a later check's files with.
	read  []*File
	names [][]byte

	bySrc map[*project.Source]*File // CodeOf's index, made on its first call (in a detector's sites)
}

// A Pass is the work of the code rules on the files, which Read runs in
// its walk: it is called once the project-wide facts are known (the
// index's files, the composables), and returns the function that handles
// the i-th file of ci.Files (called on many workers at once, each file
// once, with the file's tree in memory). After it returns, the file's
// trees may be released (File.Released). Read may start over (a
// composable found where the reading ahead did not expect one): Pass is
// then called again, and its earlier work must be dropped.
type Pass func(ci *Index) func(i int, f *File)

// Read reads the code of p, whose config's static values are cfg: config
// is p's config read as code, nil when it holds no trigger word (it is
// then not kept). Each file is handed to pass once, and then its trees
// are released (a long-lived front end too keeps the walk's results, not
// the trees: project.Cache): a project's live heap holds the trees of the files that
// define composables, and of the files being walked, not all of them.
//
// The files are read in three steps. First every file's text, and the
// files that may define a composable (a function named use*: MayDefine,
// a look at the text) are parsed and their facts taken in, in file order,
// so that the composables, which other files' reads depend on, are known.
// Then the files that call the composables by name are read too (the
// same way). Then every file is walked (pass), those not parsed yet
// parsed first, each on one worker, and released. A file parsed in the
// third step that defines a composable after all (the look at the text
// missed it) makes Read start over with every file parsed in the first
// step and kept until the walk, as before: the same results, the old
// memory.
func Read(p *project.Project, cfg compat.Config, config *File, pass Pass) *Index {
	if ci, ok := read(p, cfg, config, pass, true); ok {
		return ci
	}
	return ReadAll(p, cfg, config, pass)
}

// ReadAll reads the code of p as Read does, without reading ahead: every
// file that may hold a data call is parsed and its facts taken in before
// the walk, and kept until its walk; it never starts over. It is what Read
// falls back on when its reading ahead missed a composable, and what Read
// must agree with (the same files, order, composables, calls and uses),
// at the memory cost of every such tree parsed at once.
func ReadAll(p *project.Project, cfg compat.Config, config *File, pass Pass) *Index {
	ci, _ := read(p, cfg, config, pass, false)
	return ci
}

func read(p *project.Project, cfg compat.Config, config *File, pass Pass, ahead bool) (*Index, bool) {
	ci := &Index{Project: p, Config: cfg}
	if p == nil {
		return ci, true
	}
	ci.Data = newDataIndex(ci)
	var order []*File // the data index's order: config, files read, more
	if config != nil {
		config.reset()
		order = append(order, config)
	}
	// The sources, read on every core: a large app is thousands of files.
	srcs := codeSources(p)
	read := make([]*File, len(srcs))
	par.For(len(srcs), func(i int) {
		s := srcs[i]
		f := &File{Src: s, Path: s.Path, Display: s.Display, Rel: s.Rel}
		f.Text, f.Err = s.Read()
		read[i] = f
		if f.Err == nil && p.Memo(f.Path, f.Text, "code.Triggers", func() bool { return Triggered(f.Text, Triggers) }) {
			f.triggered = true
			f.early = !ahead || p.Memo(f.Path, f.Text, "code.mayDefine", func() bool { return MayDefine(f.Text) })
		}
	})
	if config != nil {
		ci.Data.addFacts(config, collectFile(config))
	}
	// The files with code (every file parsed has some: the reader keeps
	// what it could read), in path order, the config first. Files that
	// cannot be read at all are reported (FW908); so are, after the walk,
	// those the reader could not read fully.
	if config != nil {
		ci.Files = append(ci.Files, config)
	}
	var rest []*File // read, not parsed: no trigger word
	var early []*File
	for _, f := range read {
		switch {
		case f.Err == nil && !f.triggered:
			rest = append(rest, f)
		case f.triggered:
			ci.Files = append(ci.Files, f)
			order = append(order, f)
			if f.early {
				early = append(early, f)
			}
		}
	}
	ci.Data.addEarly(p, early, !p.KeepsResults())
	// The project's composables that return a data composable's result are
	// data composables too: read the files that call them.
	var more []*File
	if names := ci.Data.composableNames(); len(names) > 0 {
		// The answer per file is kept under the list of names (a long-lived
		// front end asks again after every edit, with the same names).
		key := "code.composables:" + string(bytes.Join(names, []byte{0}))
		for _, f := range rest {
			if p.Memo(f.Path, f.Text, key, func() bool { return Triggered(f.Text, names) }) {
				more = append(more, f)
			}
		}
		ci.names = names
		var early []*File
		for _, f := range more {
			f.triggered, f.more = true, true
			order = append(order, f)
			if !ahead || p.Memo(f.Path, f.Text, "code.mayDefine", func() bool { return MayDefine(f.Text) }) {
				f.early = true
				early = append(early, f)
			}
		}
		ci.Data.addEarly(p, early, !p.KeepsResults())
	}
	for _, f := range rest {
		if !f.triggered && f.Err == nil {
			ci.Rest = append(ci.Rest, f)
		}
	}
	ci.Data.order = order
	ci.Files = append(ci.Files, more...)
	sort.SliceStable(ci.Files, func(i, j int) bool {
		if ci.Files[i].Config != ci.Files[j].Config {
			return ci.Files[i].Config
		}
		return ci.Files[i].Path < ci.Files[j].Path
	})

	// The walk: each file parsed if it was not, its facts taken (it
	// defines no composable, or the reading ahead missed one), handed to
	// the pass, and released.
	var file func(i int, f *File)
	if pass != nil {
		file = pass(ci)
	}
	var missed atomic.Bool
	par.For(len(ci.Files), func(i int) {
		f := ci.Files[i]
		if missed.Load() {
			return
		}
		if f.Code == nil && !f.Config {
			early := f.early
			f.Code, f.Err = p.ReadCode(f.Path, f.Text)
			facts := collectFile(f)
			if !early && facts != nil && len(facts.candidates) > 0 {
				missed.Store(true) // a composable defined here: start over
				return
			}
			if facts != nil {
				// Its calls made of this tree (a file read before gave
				// its composables already, which name calls by CallKey).
				f.calls = facts.calls
			}
		}
		if f.Code == nil {
			// Not read at all (the reader reads every file it is given
			// something of): as an empty script.
			f.Code, _ = ast.ReadCode(f.Path, nil)
		}
		if file != nil {
			file(i, f)
		}
		f.decls, f.uses = nil, nil
		if !f.Config {
			f.release()
		}
	})
	if missed.Load() {
		return nil, false
	}
	ci.Data.collectCalls()
	ci.read = read
	for _, f := range read { // the files of more among them
		if f.Err != nil {
			ci.Failed = append(ci.Failed, f)
		}
	}
	if config != nil && config.Err != nil {
		ci.Failed = append(ci.Failed, config)
	}
	sort.SliceStable(ci.Failed, func(i, j int) bool { return ci.Failed[i].Path < ci.Failed[j].Path })
	return ci, true
}

// codeSources are the sources of p whose code the rules read.
func codeSources(p *project.Project) []*project.Source {
	var srcs []*project.Source
	for _, s := range p.Sources() {
		if s.Role == project.RoleServer || s.Layer != nil && s.Layer.ConfigPath != "" {
			// Server code is not the app's; a layer with a config of its
			// own is checked as a project of its own.
			continue
		}
		srcs = append(srcs, s)
	}
	return srcs
}

// release lets go of f's trees once its findings are made: its code is
// the stub (positions and texts), and the data calls made of its nodes no
// longer hold them.
func (f *File) release() {
	f.Code = f.Code.Stub()
	f.Released = true
	for _, c := range f.calls {
		c.Call = nil
	}
	for _, c := range f.composables {
		c.Call.Call = nil
	}
}

// Revive parses f again when its trees were released, for one more walk
// (a detector that runs over every file in a check that reuses the other
// files' results: rules' kept detection), and reports whether it did:
// Release lets the trees go again. The data calls keep no nodes (CallsOf's
// Call stays nil).
func (f *File) Revive() bool {
	if !f.Released {
		return false
	}
	code, _ := ast.ReadCode(f.Path, f.Text)
	if code == nil {
		code, _ = ast.ReadCode(f.Path, nil)
	}
	f.Code, f.Released = code, false
	return true
}

// Release lets go of f's trees, as Read does once its findings are made
// (a config's are kept: it is one small file, which the rules read).
func (f *File) Release() {
	if !f.Config && !f.Released && f.Code != nil {
		f.release()
	}
}

// Forget lets go of what ci holds of the trees between two checks: the
// files of Rest that a detector parsed in place (More) are as Read left
// them, read and not parsed. A front end keeps ci between checks (Again)
// and calls it once a check is over.
func (ci *Index) Forget() {
	for _, f := range ci.Rest {
		f.Code, f.Err, f.Released = nil, nil, false
	}
}

// addEarly reads the files that may define composables, in order, and
// takes their facts in: each file is parsed on a worker, a few ahead of
// the one taken in, and (with drop) its tree let go once its facts are
// in, to be read again in the walk: only a few of these trees are in
// memory at once.
//
// A long-lived front end (p.KeepsResults) keeps these trees until the walk
// instead: a check of it after a change of the config parses every file
// again, and these once, not twice; the walk lets them go.
func (d *DataIndex) addEarly(p *project.Project, files []*File, drop bool) {
	facts := make([]*fileFacts, len(files))
	par.InOrder(len(files), 4*runtime.GOMAXPROCS(0), func(i int) {
		f := files[i]
		f.Code, f.Err = p.ReadCode(f.Path, f.Text)
		facts[i] = collectFile(f)
	}, func(i int) {
		d.addFacts(files[i], facts[i])
		facts[i] = nil
		if drop {
			files[i].drop()
		}
	})
}

// drop lets go of the tree of a file read before the walk (to know its
// composables), which the walk reads again.
func (f *File) drop() {
	f.Code, f.decls = nil, nil
	for _, c := range f.calls {
		c.Call = nil
	}
	for _, c := range f.composables {
		c.Call.Call = nil
	}
}

// reset makes the config's File as Read found it, for a Read that starts
// over.
func (f *File) reset() {
	f.decls, f.uses, f.calls, f.composables = nil, nil, nil, nil
}

// MayDefine reports whether a text may define a function named use*: a
// function declaration or expression of that name, or a declaration of
// the name that may be bound to a function. A text it says no for that
// does define one makes Read start over (a slower read, the same result).
//
// It is what the regular expression `function\s*\*?\s*use|\buse[\w$]*\s*[!:=]`
// matches, or an escape `\u` (a name may be spelled with one), found by hand:
// the expression took a third of a front end's CPU on every edit.
func MayDefine(text []byte) bool {
	if bytes.Contains(text, []byte(`\u`)) {
		return true
	}
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
	word := func(c byte) bool {
		return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	for off := 0; ; {
		i := bytes.Index(text[off:], []byte("use"))
		if i < 0 {
			return false
		}
		i += off
		off = i + 3
		// `use...` declared: at a word's start, then the name's rest,
		// spaces, and `!`, `:` or `=`.
		if i == 0 || !word(text[i-1]) {
			j := i + 3
			for j < len(text) && (word(text[j]) || text[j] == '$') {
				j++
			}
			for j < len(text) && space(text[j]) {
				j++
			}
			if j < len(text) && (text[j] == '!' || text[j] == ':' || text[j] == '=') {
				return true
			}
		}
		// `function use...`, `function* use...`.
		k := i
		for k > 0 && space(text[k-1]) {
			k--
		}
		if k > 0 && text[k-1] == '*' {
			k--
		}
		for k > 0 && space(text[k-1]) {
			k--
		}
		if bytes.HasSuffix(text[:k], []byte("function")) {
			return true
		}
	}
}

// Parse reads the file's code. A file that cannot be read fully keeps
// what could be read (rules may find sites in it, but no fix edits it).
func (f *File) Parse() {
	f.Code, f.Err = ast.ReadCode(f.Path, f.Text)
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
	if f.Released {
		panic("code: a walk of " + f.Rel + ", whose trees were released")
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
