package code

import (
	"bytes"
	"slices"
	"strings"

	"github.com/fwmigrate/fwmigrate/ast"
)

// The results of the data composables, followed through the code: what
// several code rules (FW601, FW602, FW603, FW604, FW609, FW610) judge.
//
// A data composable (useAsyncData, useFetch, useLazyAsyncData,
// useLazyFetch) returns an object of refs and functions. Code reads it by
// destructuring (`const { data: d, refresh } = await useFetch()`), as a
// whole (`const r = useFetch(); r.data.value`), or through a composable of
// the project that returns it (`export function usePosts() { return
// useFetch(...) }`, one level deep, also across files: the framework
// auto-imports composables by name).

// dataComposables are the framework's data composables.
var dataComposables = []string{"useAsyncData", "useFetch", "useLazyAsyncData", "useLazyFetch"}

// dataFields are the members of a data composable's result that the rules
// follow.
var dataFields = map[string]bool{"data": true, "error": true, "refresh": true, "execute": true, "pending": true, "status": true, "clear": true}

// DataCall is one call of a data composable.
type DataCall struct {
	File *File
	// Call is the JSCall while its file's tree is in memory: during the
	// walk of its file (and of the files that use it, for the calls of
	// the project's composables, whose files are walked before the others
	// are read) and, when the tree is kept (a front end's cache), after.
	// Once the tree is released it is nil: what the detectors of other
	// files need of the call is read when it is made (Deep, NotImmediate).
	Call *ast.JSNode
	Span ast.Span // the call's
	Name string   // useFetch, useAsyncData, ...

	notImmediate bool
	deep         deepOption
}

// deepOption is what a call says of its deep option: set (or maybe set:
// options that are not a literal, a spread), and the edit that adds
// `deep: true`.
type deepOption struct {
	set    bool
	span   ast.Span
	text   string
	editOK bool
}

// CallKey identifies a data call across the DataCall values made of it.
type CallKey struct {
	File  *File
	Start int
	End   int
}

// Key is the call's CallKey.
func (c *DataCall) Key() CallKey { return CallKey{c.File, c.Span.Start, c.Span.End} }

// DeepSet reports whether the call's options set deep, or may (they are
// not an object literal, or hold a spread): Option("deep") found or not
// known, read when the call was made.
func (c *DataCall) DeepSet() bool { return c.deep.set }

// AddDeep is AddOption("deep", "true"), read when the call was made.
func (c *DataCall) AddDeep() (span ast.Span, text string, ok bool) {
	return c.deep.span, c.deep.text, c.deep.editOK
}

// newDataCall returns the DataCall of the call n (named name) of f, with
// what other files' detectors need of it read now.
func newDataCall(f *File, n *ast.JSNode, name string) *DataCall {
	c := &DataCall{File: f, Call: n, Span: n.Loc, Name: name}
	prop, known := c.Option("deep")
	c.deep.set = prop != nil || !known
	c.deep.span, c.deep.text, c.deep.editOK = c.AddOption("deep", "true")
	if prop, _ := c.Option("immediate"); prop != nil {
		v, ok := BoolValue(prop.Y)
		c.notImmediate = ok && !v
	}
	return c
}

// options returns the call's options argument and its index: the argument
// after the URL (useFetch) or after the handler (useAsyncData, whose key is
// optional). It is nil when the call has none; index is where it would go,
// or -1 when the arguments do not tell (a spread, a handler that is not a
// function).
func (c *DataCall) options() (opts *ast.JSNode, index int) {
	args := c.Call.List
	for _, a := range args {
		if a.Kind == ast.JSSpread {
			return nil, -1
		}
	}
	i := 1 // useFetch(url, options)
	if c.Name == "useAsyncData" || c.Name == "useLazyAsyncData" {
		// useAsyncData([key,] handler, [options]): the framework takes a
		// first argument that is a string as the key.
		switch {
		case len(args) == 0:
			return nil, -1
		case args[0].Kind == ast.JSString || args[0].Kind == ast.JSTemplate:
			i = 2
		case args[0].Kind == ast.JSArrow || args[0].Kind == ast.JSFunction:
			i = 1
		case len(args) >= 2 && (args[1].Kind == ast.JSArrow || args[1].Kind == ast.JSFunction):
			i = 2 // a key held in a variable
		default:
			return nil, -1
		}
	}
	if i < len(args) {
		return args[i], i
	}
	return nil, i
}

// Option returns the property key of the call's options object literal,
// nil when it has none. known is false when the options are not an object
// literal (a variable, a spread inside), so that the property may be set.
func (c *DataCall) Option(key string) (prop *ast.JSNode, known bool) {
	opts, i := c.options()
	if i < 0 {
		return nil, false
	}
	if opts == nil {
		return nil, true
	}
	if opts.Kind != ast.JSObject {
		return nil, false
	}
	for _, p := range opts.List {
		if p.Kind == ast.JSSpread || p.Has(ast.FlagComputed) {
			return ObjProp(opts, key), false
		}
	}
	return ObjProp(opts, key), true
}

// AddOption returns the edit that sets key: value in the call's options
// (adding the argument when the call has none), and whether it can be made.
func (c *DataCall) AddOption(key, value string) (span ast.Span, text string, ok bool) {
	opts, i := c.options()
	switch {
	case i < 0:
		return ast.Span{}, "", false
	case opts == nil:
		// A new last argument, after the argument before it.
		if i != len(c.Call.List) || i == 0 {
			return ast.Span{}, "", false
		}
		at := c.Call.List[i-1].Loc.End
		return ast.Span{Start: at, End: at}, ", { " + key + ": " + value + " }", true
	case opts.Kind != ast.JSObject:
		return ast.Span{}, "", false
	}
	return InsertProp(c.File, opts, key+": "+value)
}

// InsertProp returns the edit that adds the property prop (`key: value`)
// to the object literal obj of f, after its last property.
func InsertProp(f *File, obj *ast.JSNode, prop string) (span ast.Span, text string, ok bool) {
	src := f.Text
	if len(obj.List) == 0 {
		// `{}` (maybe with spaces): fill it.
		return ast.Span{Start: obj.Loc.Start + 1, End: obj.Loc.End - 1}, " " + prop + " ", true
	}
	last := obj.List[len(obj.List)-1]
	at := last.Loc.End
	// After the last property's trailing comma, if it has one.
	j := at
	for j < obj.Loc.End-1 && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
		j++
	}
	if src[j] == ',' {
		return ast.Span{Start: j + 1, End: j + 1}, " " + prop + ",", true
	}
	return ast.Span{Start: at, End: at}, ", " + prop, true
}

// Composable is a function of the project that returns a data
// composable's result: calling it is calling that composable.
type Composable struct {
	name string
	Call *DataCall
	// Fields maps the returned object's keys to the result's fields
	// (`return { posts: data, refresh }` -> posts: data, refresh:
	// refresh); nil when the whole result is returned.
	Fields map[string]string
}

// DataUse is one read of a field of a data composable's result.
type DataUse struct {
	File  *File
	Call  *DataCall
	Field string // data, error, refresh, execute, pending, status, clear
	// Ref is the expression whose value is the field (the ref `d` or
	// `r.data`, the function `refresh`); val is the expression that reads
	// the ref's value (`d.value`; in a template, where refs are unwrapped,
	// `d` itself), nil when the ref is used as a ref (watch(d)) or the field
	// is a function.
	Ref, Val *ast.JSNode
	// Up are the ancestors of val (of ref when val is nil), nearest last,
	// within the script or template expression.
	Up []*ast.JSNode
	Tx *ast.TemplateExpr // the template expression it is in, nil in a script
}

// Parent returns the nearest ancestor of the use's expression, nil at the
// top of a template expression.
func (u *DataUse) Parent() *ast.JSNode {
	if len(u.Up) == 0 {
		return nil
	}
	return u.Up[len(u.Up)-1]
}

// DataIndex is every data composable call of the code and the reads of
// their results.
type DataIndex struct {
	ci *Index
	// Calls are every data call of the code, by file in ReadOrder; they
	// are complete once every file is walked (Read's walk reads the
	// files that define no composable).
	Calls       []*DataCall
	Composables map[string]*Composable
	// Inside maps the name of a function of the project named use* to the
	// data calls its body makes (returned or not): FW604 follows a page
	// into the composables it calls.
	Inside map[string][]*DataCall
	// order are the files in the order the data index takes them (the
	// config, the files read, then those read for the composables'
	// names): Calls are in this order, and ReadOrder gives it.
	order []*File
}

// ReadOrder returns the files with code in the order the data index takes
// them: the order of Calls, and of the uses the walks find (the order
// some detectors report in, where a fix's place depends on it).
func (d *DataIndex) ReadOrder() []*File { return d.order }

// fileFacts are what one walk of a file finds for the data index
// (collectFile), before the index takes it in (addFacts): the walks of
// many files run at once, and the index takes their facts one file at a
// time, in file order.
type fileFacts struct {
	calls  []*DataCall
	inside []string // per call: the use* function it is in, "" for none
	// candidates are the functions named use* (a composable when it
	// returns a data composable's result, which depends on the composables
	// known before it: addFacts decides, in order).
	candidates []candidate
}

type candidate struct {
	name string
	fn   *ast.JSNode
}

// boundResult is what a binding holds: a field of call's result, or the
// whole result (field "").
type boundResult struct {
	call  *DataCall
	field string
}

func newDataIndex(ci *Index) *DataIndex {
	return &DataIndex{ci: ci, Composables: map[string]*Composable{}, Inside: map[string][]*DataCall{}}
}

// composableNames are the names of the project's composables (those that
// return a data composable's result, and those that make a data call), as
// trigger words.
func (d *DataIndex) composableNames() [][]byte {
	var out [][]byte
	for name := range d.Composables {
		out = append(out, []byte(name))
	}
	for name := range d.Inside {
		if d.Composables[name] == nil {
			out = append(out, []byte(name))
		}
	}
	// In one order: the list is a cache key too (Read).
	slices.SortFunc(out, bytes.Compare)
	return out
}

// callOf returns the data call an expression (unawaited) is, nil when it is
// not one. A call of a project composable is its inner call, with the
// composable.
func (d *DataIndex) callOf(f *File, n *ast.JSNode) (*DataCall, *Composable) {
	n = ast.Unawait(n)
	if n == nil || n.Kind != ast.JSCall || n.X == nil || n.X.Kind != ast.JSIdent {
		return nil, nil
	}
	if c := dataCall(f, n); c != nil {
		return c, nil
	}
	if c := d.Composables[n.X.Name]; c != nil && (n.X.Resolve() == nil || n.X.Resolve().Kind == ast.BindImport) {
		return c.Call, c
	}
	return nil, nil
}

// collectFile walks f for the data index: its data calls, the
// declarations initialized by a call of a use* function (f.decls), and
// its functions named use*. It reads nothing but f, so that files are
// walked at once; addFacts then takes the facts in.
func collectFile(f *File) *fileFacts {
	if f.Code == nil {
		return nil
	}
	facts := &fileFacts{}
	Walk(f, func(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool {
		switch n.Kind {
		case ast.JSCall:
			// A call of a data composable; a call of a composable of the
			// project is not one (callOf's second answer).
			if c := dataCall(f, n); c != nil {
				facts.calls = append(facts.calls, c)
				facts.inside = append(facts.inside, enclosingUse(up))
			}
		case ast.JSDeclarator:
			if c := ast.Unawait(n.Y); c != nil && c.Kind == ast.JSCall && c.X != nil && c.X.Kind == ast.JSIdent && strings.HasPrefix(c.X.Name, "use") {
				f.decls = append(f.decls, n)
			}
		case ast.JSFunction, ast.JSArrow:
			if name := FunctionName(n, up); name != "" && len(name) > 3 && name[:3] == "use" {
				facts.candidates = append(facts.candidates, candidate{name, n})
			}
		}
		return true
	})
	return facts
}

// addFacts takes in what collectFile found in f: its data calls, and the
// composables it defines, each judged with the composables known before
// it (files added earlier, functions earlier in f), as one walk of the
// files in order judged them.
func (d *DataIndex) addFacts(f *File, facts *fileFacts) {
	if facts == nil {
		return
	}
	f.calls = facts.calls
	for i, c := range facts.calls {
		if name := facts.inside[i]; name != "" {
			d.Inside[name] = append(d.Inside[name], c)
		}
	}
	for _, cand := range facts.candidates {
		if c := d.returned(f, cand.fn); c != nil {
			c.name = cand.name
			d.Composables[cand.name] = c
			if c.Call.File == f {
				f.composables = append(f.composables, c)
			}
		}
	}
}

// dataCall returns the call n when it calls a data composable (the
// framework's, or an import of one), nil otherwise.
func dataCall(f *File, n *ast.JSNode) *DataCall {
	if n.X == nil || n.X.Kind != ast.JSIdent || !ImportedAs(n.X, dataComposables...) {
		return nil
	}
	name := n.X.Name
	if b := n.X.Resolve(); b != nil {
		name = b.Decl.Name
	}
	return newDataCall(f, n, name)
}

// enclosingUse returns the name of the nearest function around a node
// (up are its ancestors) when it is named use*, "" otherwise.
func enclosingUse(up []*ast.JSNode) string {
	for i := len(up) - 1; i >= 0; i-- {
		if k := up[i].Kind; k == ast.JSFunction || k == ast.JSArrow {
			if name := FunctionName(up[i], up[:i]); len(name) > 3 && name[:3] == "use" {
				return name
			}
			return ""
		}
	}
	return ""
}

// FunctionName returns the name a function is declared or bound under:
// `function useX() {}`, `const useX = () => ...`, `export const useX =
// function () {}`; "" for others.
func FunctionName(fn *ast.JSNode, up []*ast.JSNode) string {
	if fn.Kind == ast.JSFunction && fn.Name != "" {
		return fn.Name
	}
	if len(up) > 0 {
		if p := up[len(up)-1]; p.Kind == ast.JSDeclarator && p.Y == fn && p.X != nil && p.X.Kind == ast.JSIdent {
			return p.X.Name
		}
	}
	return ""
}

// returned returns what a function returns when it is a data composable's
// result (the whole result, or an object of its fields), nil otherwise.
func (d *DataIndex) returned(f *File, fn *ast.JSNode) *Composable {
	for _, r := range ast.Returns(fn) {
		if c, _ := d.callOf(f, r); c != nil {
			return &Composable{Call: c}
		}
		r = ast.Unawait(r)
		switch r.Kind {
		case ast.JSIdent:
			if b := r.Resolve(); b != nil && b.Path == nil {
				if c, _ := d.callOf(f, b.Init); c != nil {
					return &Composable{Call: c}
				}
			}
		case ast.JSObject:
			out := &Composable{Fields: map[string]string{}}
			for _, p := range r.List {
				switch {
				case p.Kind == ast.JSSpread:
					if b := p.X.Resolve(); b != nil && b.Path == nil {
						if c, _ := d.callOf(f, b.Init); c != nil {
							out.Call = c
							for k := range dataFields {
								out.Fields[k] = k
							}
						}
					}
				case p.Kind == ast.JSProperty && p.Y != nil && p.Y.Kind == ast.JSIdent && !p.Has(ast.FlagComputed):
					b := p.Y.Resolve()
					if b == nil || len(b.Path) != 1 || !dataFields[b.Path[0]] {
						continue
					}
					if c, _ := d.callOf(f, b.Init); c != nil && (out.Call == nil || out.Call == c || out.Call.Key() == c.Key()) {
						out.Call = c
						out.Fields[p.Name] = b.Path[0]
					}
				}
			}
			if out.Call != nil {
				return out
			}
		}
	}
	return nil
}

// FileUses returns the visitor that finds the reads of the data results
// f binds (nil when it binds none), for the walk that feeds the
// detectors: it binds the results of the data calls (and composable
// calls) that initialize f's declarations, then records the reads of those
// bindings (f.Uses, in the visitor's Done). It reads the index and writes
// f's own uses only, so that files are walked at once once the
// composables are known.
func (d *DataIndex) FileUses(f *File) *Visitor {
	f.uses = nil
	var bound map[*ast.Binding]boundResult
	for _, decl := range f.decls {
		if c, comp := d.callOf(f, decl.Y); c != nil {
			if bound == nil {
				bound = map[*ast.Binding]boundResult{}
			}
			bind(bound, decl.X, c, comp)
		}
	}
	if len(bound) == 0 {
		return nil
	}
	var uses []*DataUse
	return &Visitor{
		Visit: func(n *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) bool {
			if n.Kind != ast.JSIdent || n.DeclBinding() != nil {
				return true
			}
			b := n.Resolve()
			if b == nil {
				return true
			}
			r, ok := bound[b]
			if !ok {
				return true
			}
			uses = use(uses, f, r, n, up, tx)
			return true
		},
		Done: func() { f.uses = uses },
	}
}

// Uses returns the reads of data results in f that FileUses's visitor
// found: complete once that visitor's Done has run, which the walk runs
// before the Done of the visitors after it; dropped (nil) once the file is
// done with.
func (f *File) Uses() []*DataUse { return f.uses }

// MayBindData reports whether f declares names from a call of a use*
// function (before its walk): false means the walk finds no read of a data
// result in f.
func (f *File) MayBindData() bool { return len(f.decls) > 0 }

// CallsOf returns the data calls of f, in source order.
func (f *File) CallsOf() []*DataCall { return f.calls }

// collectCalls gathers the files' calls into Calls, in ReadOrder.
func (d *DataIndex) collectCalls() {
	d.Calls = nil
	for _, f := range d.order {
		d.Calls = append(d.Calls, f.calls...)
	}
}

// bind records the bindings a declaration's target pattern gets from a
// data call's result (through a composable's field map).
func bind(bound map[*ast.Binding]boundResult, target *ast.JSNode, c *DataCall, comp *Composable) {
	ast.WalkJS(target, func(n *ast.JSNode, _ []*ast.JSNode) bool {
		b := n.DeclBinding()
		if b == nil {
			return true
		}
		switch {
		case len(b.Path) == 0:
			if comp != nil && comp.Fields != nil {
				return true // an object of some fields: not followed as a whole
			}
			bound[b] = boundResult{call: c}
		case len(b.Path) == 1:
			field := b.Path[0]
			if comp != nil && comp.Fields != nil {
				field = comp.Fields[field]
			}
			if dataFields[field] {
				bound[b] = boundResult{call: c, field: field}
			}
		}
		return true
	})
}

// use appends one read of a bound result to uses.
func use(uses []*DataUse, f *File, r boundResult, ident *ast.JSNode, up []*ast.JSNode, tx *ast.TemplateExpr) []*DataUse {
	ref, field := ident, r.field
	up = append([]*ast.JSNode(nil), up...)
	if field == "" {
		// The whole result: its member names the field.
		if len(up) == 0 {
			return uses
		}
		m := up[len(up)-1]
		if m.Kind != ast.JSMember || m.X != ident || m.Has(ast.FlagComputed) || !dataFields[m.Name] {
			return uses
		}
		ref, field, up = m, m.Name, up[:len(up)-1]
	}
	u := &DataUse{File: f, Call: r.call, Field: field, Ref: ref, Up: up, Tx: tx}
	switch field {
	case "refresh", "execute", "clear":
		// Functions, not refs.
	default:
		if len(up) > 0 {
			if m := up[len(up)-1]; m.Kind == ast.JSMember && m.X == ref && !m.Has(ast.FlagComputed) && m.Name == "value" {
				u.Val, u.Up = m, up[:len(up)-1]
				break
			}
		}
		if tx != nil && ref == ident {
			u.Val = ref // the template unwraps top-level refs
		}
	}
	return append(uses, u)
}

// MutatingMethods are the methods that change an array, a Map or a Set in
// place.
var MutatingMethods = map[string]bool{
	"push": true, "pop": true, "shift": true, "unshift": true, "splice": true, "sort": true, "reverse": true,
	"fill": true, "copyWithin": true, "set": true, "add": true, "delete": true, "clear": true,
}

// NotImmediate reports whether a data call sets immediate: false in its
// options object literal (read when the call was made).
func NotImmediate(c *DataCall) bool { return c.notImmediate }
